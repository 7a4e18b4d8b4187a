// A V8 code cache for the bundle chunks the embedded sandbox loads (the service, hono, zod's
// catalog): compiling them is a large part of what starting the service in a command costs (see
// docs/performance.md, "First run, second round"). Node 20 has no module.enableCompileCache, so from
// the moment the service loads until the cache is saved, the CommonJS loader's compile step is
// replaced for the bundle's chunks by a vm.Script given the cached data (so the chunks the service
// loads on a route's first request, its schemas, come from the cache too); whatever was compiled
// without a usable cache is written back then (after the service ran, so the functions it
// compiled lazily are in it too).
//
// Safety rests on the key, not on V8: V8 checks only the source's length, its own version and
// flags. The key is the chunk's name (esbuild puts a hash of its content in it), its size and
// mtime, node's and V8's versions. Files are 0600 in a 0700 folder of the user's data folder,
// written whole through a rename; anything unreadable, unwritable or rejected is ignored.
import { mkdirSync, readFileSync, readdirSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

type Compile = (this: NodeModule, content: string, filename: string, ...rest: unknown[]) => unknown;
interface ModuleInternals {
  prototype: { _compile: Compile };
  wrap(content: string): string;
}

/** Scripts compiled without a usable cache, waiting to have theirs written. */
export interface CodeCache {
  /**
   * Stops serving compilations from the cache and writes the cache of every chunk compiled
   * without one; cheap when there is none.
   */
  save(): void;
}

const CACHE_FOLDER = 'code-cache';
/** Another build's cache files (an upgrade names every chunk anew) go once they are this old. */
const STALE_MS = 7 * 24 * 3600 * 1000;

/**
 * Runs `load` (which requires the service's chunks) with their compilation served from the
 * cache in `<dataDir>/code-cache`, and so every chunk required after it until `save()`. Outside
 * the bundle (tests run the sources) nothing is compiled through this loader and the cache stays
 * empty.
 */
export async function loadWithCodeCache<T>(dataDir: string, load: () => Promise<T>): Promise<{ loaded: T; cache: CodeCache }> {
  const folder = join(dataDir, CACHE_FOLDER);
  const chunksDir = bundleChunksDir();
  // The loader's compile step is not in node's typings (it is how every CommonJS file runs).
  const internals = Module as unknown as ModuleInternals;
  const original = internals.prototype._compile;
  const pending: { script: Script; path: string }[] = [];
  /** The cache files of this build's chunks, used or to be written. */
  const ours = new Set<string>();
  internals.prototype._compile = function compile(this: NodeModule, content, filename, ...rest) {
    if (dirname(filename) !== chunksDir || !filename.endsWith('.js')) return original.call(this, content, filename, ...rest);
    const path = cachePath(folder, filename);
    if (path) ours.add(basename(path));
    const cachedData = path ? readOrUndefined(path) : undefined;
    const script = new Script(internals.wrap(content), { filename, ...(cachedData ? { cachedData } : {}) });
    if (path && (!cachedData || script.cachedDataRejected)) pending.push({ script, path });
    const run = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return run.call(this.exports, this.exports, Module.createRequire(filename), this, filename, dirname(filename));
  };
  const uninstall = () => {
    if (internals.prototype._compile === installed) internals.prototype._compile = original;
  };
  const installed = internals.prototype._compile;
  let loaded: T;
  try {
    loaded = await load();
  } catch (err) {
    uninstall();
    throw err;
  }
  return {
    loaded,
    cache: {
      save() {
        uninstall();
        if (pending.length === 0) return;
        try {
          // Not recursive: a data folder removed meanwhile (tests) is not made again.
          mkdirSync(folder, { mode: 0o700 });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return;
        }
        for (const { script, path } of pending.splice(0)) {
          try {
            const tmp = `${path}.${process.pid}.tmp`;
            writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
            renameSync(tmp, path);
          } catch {
            // A read-only or full disk: the next start compiles as before.
          }
        }
        pruneOthers(folder, ours);
      },
    },
  };
}

/**
 * Removes other builds' cache files once they are old: written only when this build writes its
 * own (after an upgrade), so the folder does not grow with every version ever run, while two
 * builds sharing a data folder in the same week do not evict each other.
 */
function pruneOthers(folder: string, ours: ReadonlySet<string>): void {
  try {
    for (const name of readdirSync(folder)) {
      if (ours.has(name) || !(name.endsWith('.cache') || name.endsWith('.tmp'))) continue;
      const path = join(folder, name);
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) unlinkSync(path);
    }
  } catch {
    // Another process pruning at the same time, or an unreadable folder: next time.
  }
}

/** dist/chunks of the running CLI (bin/reldist.js is argv[1]); '' when not run from the bundle. */
function bundleChunksDir(): string {
  try {
    return join(dirname(realpathSync(process.argv[1] ?? '')), '..', 'dist', 'chunks');
  } catch {
    return '';
  }
}

/** The cache file of a chunk: its name, size and mtime, node's and V8's versions. */
function cachePath(folder: string, filename: string): string | undefined {
  try {
    const st = statSync(filename);
    const key = `${basename(filename, '.js')}-${st.size}-${Math.trunc(st.mtimeMs)}-${process.version}-${process.versions.v8}`;
    return join(folder, `${key.replace(/[^\w.-]/g, '_')}.cache`);
  } catch {
    return undefined;
  }
}

function readOrUndefined(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
