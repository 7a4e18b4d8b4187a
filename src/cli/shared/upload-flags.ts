// The flags of every command that uploads audio (declarations only, for the commands' specs: loaded
// at every parse, so nothing else is imported here). They win over RELDIST_UPLOAD_PART_SIZE and
// RELDIST_UPLOAD_CONNECTIONS (shared/upload-settings.ts reads both).
import { option } from '../command.js';

export const UPLOAD_FLAGS = [
  option('--part-size <size>', 'files above this go up in parts of this size, 1MiB to 64MiB (default 8MiB)'),
  option('--connections <n>', 'parts sent at once, 1 to 8 (default 6)'),
] as const;

/** What those flags give a command's options. */
export interface UploadFlags {
  partSize?: string | undefined;
  connections?: string | undefined;
}
