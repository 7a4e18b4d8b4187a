// Where commands talk to: resolves base URL and token (flags > env > profile > embedded sandbox),
// starts the embedded sandbox when nothing is configured, and builds the HTTP client.
import { mkdirSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from './context.js';
import { createClient, type ApiClient, type Workload } from '../client/index.js';
import { readConfig } from './config/store.js';
import { resolveTarget, type Target } from './config/resolve.js';
import { dataDir } from './paths.js';
import { VERSION } from './version.js';
import { loadServer } from './server-loader.js';

export interface Session extends Omit<Target, 'baseUrl' | 'tokenSource'> {
  baseUrl: string;
  /** Set when the embedded sandbox serves this command. */
  sandbox: { dataDir: string } | undefined;
  tokenSource: Target['tokenSource'] | 'sandbox';
}

const SESSION = Symbol.for('reldist.session');
const CLIENTS = Symbol.for('reldist.clients');

type Cache = Record<PropertyKey, unknown>;

/** Resolves (once per command) where requests go and with which token. */
export function session(ctx: Context): Promise<Session> {
  const cache = ctx.services as Cache;
  if (ctx.services.session) return Promise.resolve(ctx.services.session as Session);
  cache[SESSION] ??= openSession(ctx);
  return cache[SESSION] as Promise<Session>;
}

/** The configured target without starting anything (for `auth status`). */
export function target(ctx: Context): Target {
  const { data, path, fixedMode } = readConfig(ctx.env);
  if (fixedMode && !ctx.globals.quiet) {
    ctx.io.stderr.write(`warning: ${path} was readable by others (mode ${fixedMode}); narrowed it to 0600\n`);
  }
  return resolveTarget({ flags: { profile: ctx.globals.profile, baseUrl: ctx.globals.baseUrl }, env: ctx.env, config: data });
}

async function openSession(ctx: Context): Promise<Session> {
  const t = target(ctx);
  if (t.baseUrl !== undefined) return { ...t, baseUrl: t.baseUrl, sandbox: undefined };
  return startSandbox(ctx, t);
}

/**
 * Nothing configured: run the reference service in this process on a loopback port, over the
 * user's data folder, signed in as the seeded label account. Two commands at the same moment each
 * start their own; the service's database is safe for that.
 */
async function startSandbox(ctx: Context, t: Target): Promise<Session> {
  const dir = dataDir(ctx.env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { startServer } = await loadServer();
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, sandbox: true });
  ctx.defer(() => server.close());
  noticeOnce(ctx, dir);
  const token = t.token ?? server.tokens.label;
  return { ...t, baseUrl: server.url, baseUrlSource: 'sandbox', token, tokenSource: t.token ? t.tokenSource : 'sandbox', sandbox: { dataDir: dir } };
}

const NOTICE_MARKER = '.sandbox-notice-shown';

function noticeOnce(ctx: Context, dir: string): void {
  try {
    // 'wx' fails when the marker exists: the notice is said once per data directory.
    closeSync(openSync(join(dir, NOTICE_MARKER), 'wx'));
  } catch {
    return;
  }
  if (ctx.globals.quiet) return;
  ctx.io.stderr.write(
    `note: no service configured, so reldist uses the local sandbox (data in ${dir}).\n` +
      'note: to use a real service, run `reldist auth login --base-url <url>` or set RELDIST_BASE_URL and RELDIST_TOKEN.\n',
  );
}

export interface ApiClientOptions {
  /** 'long' for uploads, batches and --all listings: undici's pool. Default 'oneshot'. */
  workload?: Workload;
}

/** The HTTP client for this command, created on first use and closed when the command ends. */
export async function apiClient(ctx: Context, options: ApiClientOptions = {}): Promise<ApiClient> {
  if (ctx.services.apiClient) return ctx.services.apiClient as ApiClient;
  const workload = options.workload ?? 'oneshot';
  const cache = ctx.services as Cache;
  const clients = (cache[CLIENTS] ??= new Map<Workload, Promise<ApiClient>>()) as Map<Workload, Promise<ApiClient>>;
  let client = clients.get(workload);
  if (!client) {
    client = session(ctx).then((s) => {
      const c = createClient({
        baseUrl: s.baseUrl,
        token: s.token,
        // The embedded sandbox is on loopback: never send its traffic to a proxy.
        env: s.sandbox ? withoutProxy(ctx.env) : ctx.env,
        workload,
        signal: ctx.signal,
        userAgent: `reldist/${VERSION}`,
        timeouts: { connectMs: 10_000, idleMs: timeoutSetting(ctx) * 1000 },
        trace: ctx.globals.debug ? (line) => ctx.io.stderr.write(`${line}\n`) : undefined,
        onRetry: ctx.globals.quiet
          ? undefined
          : ({ delayMs, reason, attempt }) => {
              if (ctx.io.stderrIsTTY) ctx.io.stderr.write(`retrying after ${reason} in ${(delayMs / 1000).toFixed(1)}s (attempt ${attempt + 1})\n`);
            },
      });
      ctx.defer(() => c.close());
      return c;
    });
    clients.set(workload, client);
  }
  return client;
}

function timeoutSetting(ctx: Context): number {
  const v = Number(readConfig(ctx.env).data.settings?.timeout);
  return Number.isInteger(v) && v > 0 ? v : 30;
}

function withoutProxy(env: Context['env']): Context['env'] {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^(https?|no)_proxy$/i.test(k)));
}
