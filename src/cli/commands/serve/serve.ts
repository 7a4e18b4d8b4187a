import type { Context } from '../../context.js';
import type { ServeOpts } from './spec.js';
import { CliError, UsageError } from '../../errors.js';
import { dataDir } from '../../paths.js';
import { loadServe } from '../../server-loader.js';
import { parseOutcome, parseReviewDelay, type AutoReviewOutcome } from '../../config/auto-review.js';
import { parseDuration } from '../../shared/duration.js';
import { intOption } from '../../shared/args.js';

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4 };

/** `500MB`, `4GiB`, `1073741824` (bytes). */
function sizeOption(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  const unit = SIZE_UNITS[m?.[2]?.toLowerCase() ?? 'x'];
  const bytes = m && unit ? Math.floor(Number(m[1]) * unit) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new UsageError(`${flag}: expected a size like 500MB or 4GiB, got "${value}"`);
  return bytes;
}

function uploadLimitsOption(opts: ServeOpts) {
  const accountBytes = sizeOption(opts.uploadAccountLimit, '--upload-account-limit');
  const totalBytes = sizeOption(opts.uploadTotalLimit, '--upload-total-limit');
  const stallMs =
    opts.uploadStallTimeout === undefined ? undefined : parseDuration(opts.uploadStallTimeout, '--upload-stall-timeout', { minMs: 1000, maxMs: 3_600_000 });
  const unattachedExpiryMs =
    opts.uploadExpiry === undefined ? undefined : parseDuration(opts.uploadExpiry, '--upload-expiry', { minMs: 60_000, maxMs: 365 * 24 * 3_600_000 });
  return {
    ...(unattachedExpiryMs !== undefined ? { unattachedExpiryMs } : {}),
    ...(accountBytes !== undefined ? { accountBytes } : {}),
    ...(totalBytes !== undefined ? { totalBytes } : {}),
    ...(stallMs !== undefined ? { stallMs } : {}),
  };
}

/** The bounds on slow clients (the service's ClientLimits); only those given. */
function clientLimitsOption(opts: ServeOpts) {
  const duration = (value: string | undefined, flag: string, maxMs: number) =>
    value === undefined ? undefined : parseDuration(value, flag, { minMs: 1000, maxMs });
  const headersTimeoutMs = duration(opts.headersTimeout, '--headers-timeout', 600_000);
  const keepAliveTimeoutMs = duration(opts.keepAliveTimeout, '--keep-alive-timeout', 600_000);
  const bodyTimeoutMs = duration(opts.bodyTimeout, '--body-timeout', 3_600_000);
  // `4KiB` or `4KiB/s`: bytes per second either way.
  const minBodyRate = sizeOption(opts.minBodyRate?.replace(/\/s$/i, ''), '--min-body-rate');
  const bodyRateWindowMs = duration(opts.bodyRateWindow, '--body-rate-window', 600_000);
  return {
    ...(headersTimeoutMs !== undefined ? { headersTimeoutMs } : {}),
    ...(keepAliveTimeoutMs !== undefined ? { keepAliveTimeoutMs } : {}),
    ...(bodyTimeoutMs !== undefined ? { bodyTimeoutMs } : {}),
    ...(minBodyRate !== undefined ? { minBodyRate } : {}),
    ...(bodyRateWindowMs !== undefined ? { bodyRateWindowMs } : {}),
  };
}

function autoReviewOption(opts: ServeOpts): { outcome: AutoReviewOutcome; delayMs: number } | undefined {
  if (opts.sandboxAutoReview !== undefined && !opts.sandbox) throw new UsageError('--sandbox-auto-review: only with --sandbox');
  if (opts.sandboxAutoReview === undefined) {
    if (opts.sandboxReviewDelay !== undefined) throw new UsageError('--sandbox-review-delay: only with --sandbox-auto-review');
    return undefined;
  }
  const outcome = parseOutcome(opts.sandboxAutoReview, '--sandbox-auto-review');
  return { outcome, delayMs: opts.sandboxReviewDelay === undefined ? 0 : parseReviewDelay(opts.sandboxReviewDelay, '--sandbox-review-delay') };
}

/** `--rate-limit 600` (requests per minute per token) or `off`. */
function rateLimitOption(value: string | undefined): { requests: number; windowMs: number } | false | undefined {
  if (value === undefined) return undefined;
  if (value.trim().toLowerCase() === 'off') return false;
  if (!/^\d{1,9}$/.test(value.trim()) || Number(value) < 1)
    throw new UsageError(`--rate-limit: expected requests per minute (1 or more) or off, got "${value}"`);
  return { requests: Number(value), windowMs: 60_000 };
}

function publicUrlOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--public-url: "${value}" is not a URL (e.g. https://reldist.example.com)`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw new UsageError(`--public-url: expected an http(s) address without query or credentials, got "${value}"`);
  }
  return url.href.replace(/\/+$/, '');
}

function webhooksOption(opts: ServeOpts) {
  const retryHorizonMs =
    opts.webhookRetryHorizon === undefined
      ? undefined
      : parseDuration(opts.webhookRetryHorizon, '--webhook-retry-horizon', { minMs: 1000, maxMs: 30 * 86_400_000 });
  const timeoutMs = opts.webhookTimeout === undefined ? undefined : parseDuration(opts.webhookTimeout, '--webhook-timeout', { minMs: 100, maxMs: 60_000 });
  return {
    ...(retryHorizonMs !== undefined ? { retryHorizonMs } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(opts.allowPrivateWebhooks ? { addresses: 'any' as const } : {}),
  };
}

export async function run(ctx: Context, opts: ServeOpts): Promise<void> {
  if (!/^\d{1,5}$/.test(opts.port) || Number(opts.port) > 65535) throw new UsageError(`--port: "${opts.port}" is not a port number (0-65535)`);
  if (opts.host.trim() === '') throw new UsageError('--host: must not be empty');
  const autoReview = autoReviewOption(opts);
  const rateLimit = rateLimitOption(opts.rateLimit);
  const publicUrl = publicUrlOption(opts.publicUrl);
  const uploadLimits = uploadLimitsOption(opts);
  const maxConnections = intOption(opts.maxConnections, '--max-connections', 1, 1_000_000);
  const maxConnectionsPerAddress = intOption(opts.maxConnectionsPerAddress, '--max-connections-per-address', 1, 1_000_000);
  const clientLimits = clientLimitsOption(opts);
  const webhooks = webhooksOption(opts);
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
      sandbox: opts.sandbox === true,
      ...(autoReview ? { sandboxAutoReview: autoReview } : {}),
      ...(rateLimit !== undefined ? { rateLimit } : {}),
      ...(publicUrl ? { publicUrl } : {}),
      ...(opts.trustProxy ? { trustProxy: true } : {}),
      uploadLimits,
      webhooks,
      ...(maxConnections !== undefined ? { maxConnections } : {}),
      ...(maxConnectionsPerAddress !== undefined ? { maxConnectionsPerAddress } : {}),
      clientLimits,
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
