// The one place the CLI reaches the reference service (for the embedded sandbox and `reldist
// serve`), always lazily: the server, hono and better-sqlite3 load only for those.
import { loadWithCodeCache, type CodeCache } from './sandbox-code-cache.js';

export function loadServer(): Promise<typeof import('../server/index.js')> {
  return import('../server/index.js');
}

/**
 * The service for the embedded sandbox over `dataDir`, compiled from the V8 code cache kept there
 * (sandbox-code-cache.ts); the caller saves the cache once the service has run a while.
 */
export async function loadSandboxServer(dataDir: string): Promise<{ server: typeof import('../server/index.js'); codeCache: CodeCache }> {
  const { loaded, cache } = await loadWithCodeCache(dataDir, loadServer);
  return { server: loaded, codeCache: cache };
}

export function loadServe(): Promise<typeof import('../server/serve.js')> {
  return import('../server/serve.js');
}
