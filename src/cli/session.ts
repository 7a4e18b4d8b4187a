// Where commands talk to: resolves base URL and token (flags > env > profile > embedded sandbox),
// starts the embedded sandbox when nothing is configured, and builds the HTTP client.
import { mkdirSync } from 'node:fs';
import type { Context } from './context.js';
import { createClient, type ApiClient, type ExchangeInfo, type Workload } from '../client/index.js';
import { routes } from '../contract/routes.js';
import { readConfig } from './config/store.js';
import { autoReviewSetting } from './config/auto-review.js';
import { resolveTarget, type Session, type Target } from './config/resolve.js';
import { CliError, ExitCode, UsageError } from './errors.js';

export type { Session };
import { dataDir } from './paths.js';
import { VERSION } from './version.js';
import { writeStderr } from './output/width.js';
import { loadSandboxServer } from './server-loader.js';
import { parseDuration } from './shared/duration.js';
import { requestWords, retryLine } from './request-words.js';

/** The configured target without starting anything (for `auth status`). */
export function target(ctx: Context): Target {
  const { data, path, fixedMode } = readConfig(ctx.env);
  if (fixedMode && !ctx.globals.quiet) {
    writeStderr(ctx, `warning: ${path} was readable by others (mode ${fixedMode}); narrowed it to 0600\n`);
  }
  return resolveTarget({ flags: { profile: ctx.globals.profile, baseUrl: ctx.globals.baseUrl, sandbox: ctx.globals.sandbox }, env: ctx.env, config: data });
}

/** Resolves where requests go (services.ts calls it once per command). */
export async function openSession(ctx: Context): Promise<Session> {
  const t = target(ctx);
  if (t.baseUrl !== undefined) return { ...t, baseUrl: t.baseUrl, sandbox: undefined };
  // The sandbox stands in only when nothing at all is configured (and never under CI: resolve.ts):
  // a token meant for a service must not be quietly spent on the local sandbox (a release
  // "submitted" to nowhere).
  if (t.token) {
    throw new UsageError(
      'RELDIST_TOKEN is set but no service is: the token has no base URL to go to',
      'set RELDIST_BASE_URL (or pass --base-url), or unset RELDIST_TOKEN to use the local sandbox',
    );
  }
  return startSandbox(ctx, t);
}

/** A service without a token would refuse every request: say which piece is missing first. */
function requireToken(s: Session): string {
  if (s.token) return s.token;
  const where = s.baseUrlSource === 'flag' ? '--base-url' : s.baseUrlSource === 'environment' ? 'RELDIST_BASE_URL' : `profile "${s.profile}"`;
  throw new CliError(`no token for ${s.baseUrl} (from ${where})`, {
    exitCode: ExitCode.auth,
    code: 'unauthorized',
    hint: `run \`reldist auth login --base-url ${s.baseUrl}\` or set RELDIST_TOKEN`,
  });
}

/**
 * Nothing configured: the reference service over the user's data folder, on a loopback port,
 * signed in as the seeded label account. It runs as a background process that later commands
 * reuse (sandbox-background.ts) and that leaves when idle. In this process, for this command: the
 * first command, which spawns that process once its own work is done (not waiting for it), and
 * whenever it cannot be (tests, another build's process still running, RELDIST_SANDBOX_IDLE=0).
 * Either way many commands at once are safe: they share one database, which migrates and seeds
 * under its write lock and takes writers one at a time.
 */
async function startSandbox(ctx: Context, t: Target): Promise<Session> {
  const dir = dataDir(ctx.env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const autoReview = autoReviewSetting(ctx.env, readConfig(ctx.env).data.settings);
  const idleMs = sandboxIdleMs(ctx.env);
  let startBackground: (() => void) | undefined;
  if (ctx.sandboxLauncher && idleMs > 0) {
    const { findOrStartSandbox, touch } = await import('./sandbox-background.js');
    const running = await findOrStartSandbox({
      dataDir: dir,
      key: { version: VERSION, build: ctx.sandboxLauncher.build, autoReview: autoReview ? `${autoReview.outcome}:${autoReview.delayMs}` : '' },
      idleMs,
      sandboxAutoReview: autoReview ?? null,
      launcher: ctx.sandboxLauncher,
      env: ctx.env,
      startLater: (start) => {
        startBackground = start;
      },
    });
    if (running) {
      // A long command (watch, uploads) keeps marking it used, so it does not leave under it.
      const heartbeat = setInterval(() => touch(dir), Math.min(idleMs / 3, 30_000));
      heartbeat.unref();
      ctx.defer(() => clearInterval(heartbeat));
      sayItIsTheSandbox(ctx, t, dir);
      return { ...t, baseUrl: running.url, baseUrlSource: 'sandbox', token: running.token, tokenSource: 'sandbox', sandbox: { dataDir: dir } };
    }
  }
  if (startBackground) startWhenDone(ctx, startBackground);
  const { server: service, codeCache } = await loadSandboxServer(dir);
  // For one command: the app only if the fast lane leaves it a request.
  const server = await service.startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: dir,
    sandbox: true,
    appOnFirstRequest: true,
    ...(autoReview ? { sandboxAutoReview: autoReview } : {}),
  });
  ctx.defer(async () => {
    await server.close();
    // After serving, so that it holds what the command's requests compiled too.
    codeCache.save();
  });
  sayItIsTheSandbox(ctx, t, dir);
  // startServer seeds the demo accounts unless told not to, so their tokens are there.
  const token = t.token ?? server.tokens?.label ?? '';
  return { ...t, baseUrl: server.url, baseUrlSource: 'sandbox', token, tokenSource: t.token ? t.tokenSource : 'sandbox', sandbox: { dataDir: dir } };
}

/**
 * Starts the background process at the end of this command (after its service has closed and its
 * code cache is written: deferred first, so it runs last), or after a second if the command is
 * still running then (watch, uploads), so that commands waiting for the process are not held up
 * for long. Not earlier: a node starting beside the command takes a core from it while its
 * output is awaited (docs/performance.md, "First run").
 */
function startWhenDone(ctx: Context, start: () => void): void {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    clearTimeout(timer);
    start();
  };
  const timer = setTimeout(once, START_BACKGROUND_AFTER_MS);
  timer.unref();
  ctx.defer(once);
}

const START_BACKGROUND_AFTER_MS = 1000;

/** How long the background sandbox stays without commands; RELDIST_SANDBOX_IDLE (0: no background process). */
function sandboxIdleMs(env: Context['env']): number {
  const v = env.RELDIST_SANDBOX_IDLE;
  return v === undefined || v === '' ? DEFAULT_SANDBOX_IDLE_MS : parseDuration(v, 'RELDIST_SANDBOX_IDLE', { maxMs: 24 * 3_600_000 });
}

const DEFAULT_SANDBOX_IDLE_MS = 5 * 60_000;

/**
 * Every command served by the sandbox says so on stderr (--quiet aside; --json output has its own
 * field): a job log must never read as if the work reached a real service.
 */
function sayItIsTheSandbox(ctx: Context, t: Target, dir: string): void {
  if (ctx.globals.quiet) return;
  const asked = t.sandboxAsked === 'flag' ? '--sandbox' : t.sandboxAsked === 'environment' ? 'RELDIST_SANDBOX=1' : undefined;
  writeStderr(
    ctx,
    asked
      ? `note: using the local sandbox, as ${asked} asks (data in ${dir})\n`
      : `note: no service configured, so this uses the local sandbox (data in ${dir}); for a real service run \`reldist auth login --base-url <url>\` or set RELDIST_BASE_URL and RELDIST_TOKEN\n`,
  );
}

/** The HTTP client of a command (services.ts makes one per workload); closed when the command ends. */
export function createSessionClient(ctx: Context, s: Session, workload: Workload): ApiClient {
  const c = createClient({
    baseUrl: s.baseUrl,
    token: requireToken(s),
    // The embedded sandbox is on loopback: never send its traffic to a proxy.
    env: s.sandbox ? withoutProxy(ctx.env) : ctx.env,
    workload,
    signal: ctx.signal,
    userAgent: `reldist/${VERSION}`,
    timeouts: { connectMs: 10_000, idleMs: timeoutSetting(ctx) * 1000 },
    trace: ctx.globals.debug ? (line) => ctx.io.stderr.write(`${line}\n`) : undefined,
    onSlow:
      ctx.io.stderrIsTTY && !ctx.globals.quiet
        ? { afterMs: SLOW_ANSWER_MS, notify: once(() => ctx.io.stderr.write(`waiting for ${s.baseUrl}…\n`)) }
        : undefined,
    onExchange: (info) => ctx.exchanges.start(requestWords(info), changesSomething(info)),
    // Terminal or not: a job log must show why a command is taking its time.
    onRetry: ctx.globals.quiet ? undefined : (info) => writeStderr(ctx, `${retryLine(info)}\n`),
  });
  ctx.defer(() => c.close());
  return c;
}

/** Checks (a UPC, an ISRC) are POSTs that change nothing. */
function changesSomething(info: ExchangeInfo): boolean {
  if (info.method === 'GET' || info.method === 'HEAD') return false;
  return !(info.endpointId && routes[info.endpointId].path.startsWith('/releases/validate/'));
}

/** After this long without an answer, a person at a terminal is told what the command waits for. */
const SLOW_ANSWER_MS = 3000;

function once(f: () => void): () => void {
  let done = false;
  return () => {
    if (!done) f();
    done = true;
  };
}

/** A client without the command's abort signal, for clean-up after Ctrl-C; the caller closes it. */
export function createCleanupClient(ctx: Context, s: Session): ApiClient {
  return createClient({
    baseUrl: s.baseUrl,
    token: requireToken(s),
    env: ctx.env,
    onExchange: (info) => ctx.exchanges.start(requestWords(info), changesSomething(info)),
  });
}

function timeoutSetting(ctx: Context): number {
  const v = Number(readConfig(ctx.env).data.settings?.timeout);
  return Number.isInteger(v) && v > 0 ? v : 30;
}

function withoutProxy(env: Context['env']): Context['env'] {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^(https?|no)_proxy$/i.test(k)));
}
