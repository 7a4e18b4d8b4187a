// What the whole-file upload (upload.ts) and the upload in parts (upload-parts.ts) share: the size
// of their reads and how they read the sha256 the service answers. Its own module so that neither
// imports the other (upload.ts loads upload-parts.ts only for a file in parts).

/** Reads of this size: few calls into the hash and the socket per megabyte. */
export const READ_BUFFER = 1024 * 1024;

/** The sha256 an upload's answer names, or undefined when it names none. */
export function answeredSha256(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !('sha256' in data)) return undefined;
  return typeof data.sha256 === 'string' ? data.sha256 : undefined;
}
