// The one place the CLI reaches the reference service (for the embedded sandbox and `reldist
// serve`), always lazily: the server, hono and better-sqlite3 load only for those.
export function loadServer(): Promise<typeof import('../server/index.js')> {
  return import('../server/index.js');
}
