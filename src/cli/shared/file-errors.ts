// Why a named audio file cannot be used, in words, from the file system's error code: one wording
// for the checks before an upload and for a read that fails during one.
const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a folder, expected an audio file',
  EACCES: 'permission denied',
};

/** The words for a file system error code (ENOENT, EISDIR, EACCES), or undefined. */
export function fileReason(code: string | undefined): string | undefined {
  return code === undefined ? undefined : REASONS[code];
}

/** The words for a file system error, or undefined when `err` is not one we word. */
export function fileErrorReason(err: unknown): string | undefined {
  return fileReason(typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined);
}
