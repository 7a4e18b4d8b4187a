// Whether a track's `file` in a release file is an address (`https://…`) rather than a path or a
// sha256 reference: one test for the release file's loader, the spreadsheet import and its summary.

/** A scheme and `//` first: an address, whatever the scheme (the loader then says which it takes). */
export function isAudioAddress(written: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(written);
}
