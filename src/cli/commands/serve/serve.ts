import type { Context } from '../../context.js';
import type { ServeOpts } from './spec.js';
import { CliError, UsageError } from '../../errors.js';
import { dataDir } from '../../paths.js';
import { loadServe } from '../../server-loader.js';
import { parseOutcome, parseReviewDelay, type AutoReviewOutcome } from '../../config/auto-review.js';

function autoReviewOption(opts: ServeOpts): { outcome: AutoReviewOutcome; delayMs: number } | undefined {
  if (opts.sandboxAutoReview === undefined) {
    if (opts.sandboxReviewDelay !== undefined) throw new UsageError('--sandbox-review-delay: only with --sandbox-auto-review');
    return undefined;
  }
  const outcome = parseOutcome(opts.sandboxAutoReview, '--sandbox-auto-review');
  return { outcome, delayMs: opts.sandboxReviewDelay === undefined ? 0 : parseReviewDelay(opts.sandboxReviewDelay, '--sandbox-review-delay') };
}

export async function run(ctx: Context, opts: ServeOpts): Promise<void> {
  if (!/^\d{1,5}$/.test(opts.port) || Number(opts.port) > 65535) throw new UsageError(`--port: "${opts.port}" is not a port number (0-65535)`);
  if (opts.host.trim() === '') throw new UsageError('--host: must not be empty');
  const autoReview = autoReviewOption(opts);
  const { serve } = await loadServe();
  const dir = opts.dataDir ?? dataDir(ctx.env);
  try {
    await serve({
      host: opts.host,
      port: Number(opts.port),
      dataDir: dir,
      stdout: ctx.io.stdout,
      stderr: ctx.io.stderr,
      signal: ctx.signal,
      verbose: ctx.globals.debug,
      ...(autoReview ? { sandboxAutoReview: autoReview } : {}),
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--port: ${opts.port} is already in use on ${opts.host}`, 'pick another port, or --port 0 for a free one');
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`--host: cannot listen on "${opts.host}"`);
    if (code === 'EACCES' || code === 'EROFS' || code === 'ENOTDIR') {
      throw new CliError(`cannot use the data directory ${dir} (${code})`, { hint: 'pass --data-dir with a writable folder', cause: e });
    }
    throw e;
  }
}
