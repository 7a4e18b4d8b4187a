import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import type { PruneOpts } from './spec.js';
import { CliError, UsageError } from '../../errors.js';
import { printJson, writeStderr } from '../../output/index.js';
import { plural } from '../../output/format.js';
import { dataDir } from '../../paths.js';
import { loadServer } from '../../server-loader.js';
import { parseDuration } from '../../shared/duration.js';

/** The service's database file in a data directory (src/server/db/open.ts): without it there is nothing to prune. */
const DB_FILE = 'reldist.sqlite';

interface Freed {
  count: number;
  bytes: number;
}

const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

export async function run(ctx: Context, opts: PruneOpts): Promise<void> {
  const olderThanMs = opts.olderThan === undefined ? undefined : parseDuration(opts.olderThan, '--older-than');
  const dir = opts.dataDir ?? dataDir(ctx.env);
  if (!existsSync(join(dir, DB_FILE))) {
    // A folder named on purpose that holds no service is a mistake; the default one not there yet is a sandbox never used.
    if (opts.dataDir !== undefined) throw new UsageError(`--data-dir: ${dir} is not a reldist data directory (no ${DB_FILE} in it)`);
    const empty = { count: 0, bytes: 0 };
    return report(ctx, dir, { unattached: empty, orphans: empty, partials: empty });
  }
  const { pruneDataDir } = await loadServer();
  let freed: { unattached: Freed; orphans: Freed; partials: Freed };
  try {
    freed = pruneDataDir(dir, olderThanMs === undefined ? {} : { olderThanMs });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EROFS' || code === 'EPERM') {
      throw new CliError(`cannot change the data directory ${dir} (${code})`, { hint: 'run it as the user the service runs as', cause: e });
    }
    throw e;
  }
  report(ctx, dir, freed);
}

function report(ctx: Context, dir: string, f: { unattached: Freed; orphans: Freed; partials: Freed }): void {
  const bytes = f.unattached.bytes + f.orphans.bytes + f.partials.bytes;
  if (ctx.globals.json) printJson(ctx, { data_dir: dir, freed_bytes: bytes, unattached: f.unattached, orphans: f.orphans, partials: f.partials });
  const parts = [
    [f.unattached, 'unattached upload'],
    [f.orphans, 'orphan file'],
    [f.partials, 'partial upload'],
  ] as const;
  const what = parts.filter(([p]) => p.count > 0).map(([p, noun]) => `${plural(p.count, noun)} (${mib(p.bytes)})`);
  if (!ctx.globals.quiet) writeStderr(ctx, what.length === 0 ? `nothing to free in ${dir}\n` : `freed ${mib(bytes)} in ${dir}: ${what.join(', ')}\n`);
}
