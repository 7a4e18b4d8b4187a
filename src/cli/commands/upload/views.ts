// How the upload commands show an upload. Pure.
import type { UploadSummary } from '../../../contract/resources.js';
import { formatBytes, type Column } from '../../output/index.js';

/** `3.0 MiB of 12.3 MiB` while arriving; the size alone once complete. */
export const receivedOf = (u: UploadSummary): string =>
  u.state === 'complete' ? formatBytes(u.size) : `${formatBytes(u.received_bytes)} of ${formatBytes(u.size)}`;

export const uploadColumns: Column<UploadSummary>[] = [
  { header: 'KEY', value: 'key' },
  { header: 'RELEASE', value: 'release_id', kind: 'id' },
  { header: 'FILE', value: 'filename', drop: 2 },
  { header: 'STATE', value: 'state' },
  { header: 'RECEIVED', value: receivedOf },
  { header: 'EXPIRES', value: 'expires_at', kind: 'date', drop: 1 },
];
