// The one place the CLI reaches the reference service (for the embedded sandbox and `reldist
// serve`), always lazily: the server, hono and better-sqlite3 load only for those.
export function loadServer(): Promise<typeof import('../server/index.js')> {
  return import('../server/index.js');
}

export function loadServe(): Promise<typeof import('../server/serve.js')> {
  return import('../server/serve.js');
}
