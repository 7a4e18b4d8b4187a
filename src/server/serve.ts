// `reldist serve`: a standing service (a sandbox with --sandbox). One JSON line on stdout (where it listens and
// the sandbox tokens, for a script or CI job to read), human lines on stderr, and a clean stop
// when the signal aborts: no new connections, in-flight requests finish, the database closes.
import type { Writable } from 'node:stream';
import type { Logger, SandboxAutoReview, WebhookSettings } from './handler.js';
import type { RateLimitOptions } from './http/rate-limit.js';
import type { UploadLimits } from './uploads/limits.js';
import type { ClientLimits } from './http/client-limits.js';
import { startServer } from './index.js';
import { sweepBuffersAtOnce } from './uploads/collector.js';

export interface ServeOptions {
  host: string;
  port: number;
  dataDir: string;
  stdout: Writable;
  stderr: Writable;
  /** Aborted on SIGINT/SIGTERM by the caller (the CLI owns the signal wiring). */
  signal: AbortSignal;
  /** Log every request failure with its details to stderr. */
  verbose?: boolean;
  /** The /_sandbox controls and the demo accounts (printed tokens); off for a service shared with a team. */
  sandbox: boolean;
  /** Review submitted releases by itself (see StartServerOptions.sandboxAutoReview); needs sandbox. */
  sandboxAutoReview?: SandboxAutoReview;
  /** Per-token budget, or false for none (default DEFAULT_RATE_LIMIT). */
  rateLimit?: RateLimitOptions | false;
  publicUrl?: string;
  trustProxy?: boolean;
  /** Upload bytes in flight (per account, in total) and the stall timeout; defaults in uploads/limits.ts. */
  uploadLimits?: Partial<UploadLimits>;
  maxConnections?: number;
  /** Connections from one client address; default in StartServerOptions. */
  maxConnectionsPerAddress?: number;
  /** Bounds on slow clients; defaults in http/client-limits.ts. */
  clientLimits?: Partial<ClientLimits>;
  /** Webhook retry horizon, attempt timeout, allowed addresses (defaults: webhooks/settings.ts). */
  webhooks?: Partial<WebhookSettings>;
}

function stderrLogger(stderr: Writable, verbose: boolean): Logger {
  const line = (level: string, message: string, fields?: Record<string, unknown>) => {
    // Fields never hold tokens: the service logs request ids, paths and errors only.
    const extra = fields && verbose ? ` ${JSON.stringify(fields)}` : '';
    stderr.write(`reldist serve: ${level === 'info' ? '' : `${level}: `}${message}${extra}\n`);
  };
  return {
    info: (m, f) => (verbose ? line('info', m, f) : undefined),
    // What the service removed from the disk (uploads/retention.ts): the figures are in the message.
    notice: (m, f) => line('info', m, f),
    warn: (m, f) => line('warn', m, f),
    error: (m, f) => line('error', m, f),
  };
}

/** Runs until `signal` aborts; resolves once the service has fully stopped. */
export async function serve(options: ServeOptions): Promise<void> {
  if (options.signal.aborted) return;
  // This process is the service's own: tune its collector for the upload bodies it will receive.
  sweepBuffersAtOnce();
  const server = await startServer({
    host: options.host,
    port: options.port,
    dataDir: options.dataDir,
    sandbox: options.sandbox,
    demoAccounts: options.sandbox,
    logger: stderrLogger(options.stderr, options.verbose ?? false),
    ...(options.sandbox && options.sandboxAutoReview ? { sandboxAutoReview: options.sandboxAutoReview } : {}),
    ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.trustProxy ? { trustProxy: true } : {}),
    ...(options.uploadLimits ? { uploadLimits: options.uploadLimits } : {}),
    ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
    ...(options.maxConnectionsPerAddress !== undefined ? { maxConnectionsPerAddress: options.maxConnectionsPerAddress } : {}),
    ...(options.clientLimits ? { clientLimits: options.clientLimits } : {}),
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
  });
  if (server.tokens) {
    options.stdout.write(`${JSON.stringify({ base_url: server.url, tokens: server.tokens })}\n`);
    options.stderr.write(`reldist serve: listening on ${server.url} (data in ${options.dataDir}); tokens are in ${options.dataDir}/sandbox-tokens.json\n`);
  } else {
    options.stdout.write(`${JSON.stringify({ base_url: server.url })}\n`);
    options.stderr.write(`reldist serve: listening on ${server.url} (data in ${options.dataDir}); create accounts with \`reldist serve token create\`\n`);
  }
  options.stderr.write('reldist serve: press Ctrl-C to stop\n');
  await new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    else options.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  options.stderr.write('reldist serve: stopping (finishing requests in flight)\n');
  await server.close();
  options.stderr.write('reldist serve: stopped\n');
}
