// Starts the reference service: opens (and migrates) the data directory, seeds the sandbox
// accounts, and serves HTTP until close(). Used by `reldist serve`, the CLI's embedded sandbox
// and every integration test.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Database from 'better-sqlite3';
import { lazySeededDirectory, seededDirectory, type ArtistDirectory } from './artists/index.js';
import { coreMigrations, migrate } from './db/migrations.js';
import { CommitWatch } from './db/commit-watch.js';
import { openDatabase } from './db/open.js';
import { statementKillHook } from './db/kill-hook.js';
import type { Logger, SandboxAutoReview, ServerDeps, ServerModule, WebhookSettings } from './handler.js';
import { answerParserErrors } from './http/client-error.js';
import { checkingIntervalMs, DEFAULT_CLIENT_LIMITS, defaultPerAddress, secondsInWords, type ClientLimits } from './http/client-limits.js';
import { capConnections } from './http/connection-caps.js';
import { CutLog } from './http/cut-log.js';
import { errorAnswer } from './http/errors.js';
import { IdleConnections } from './http/idle-connections.js';
import { hasBody, SlowBodies } from './http/slow-bodies.js';
import { publicBaseUrl } from './http/public-url.js';
import { newRequestId } from './http/request-id.js';
import { fastLane, type FastLane } from './http/fast-lane.js';
import { RequestGate } from './http/gate.js';
import { DEFAULT_RATE_LIMIT, type RateLimitOptions } from './http/rate-limit.js';
import { endWaits } from './events/bus.js';
import { eventsModule } from './store/events.js';
import { webhooksModule } from './store/webhooks.js';
import { startDispatcher, type Dispatcher } from './webhooks/dispatcher.js';
import { webhookSettings } from './webhooks/settings.js';
import { forgetIdempotencyKeysBefore } from './store/idempotency.js';
import { preferencesModule, seedPreferences } from './store/preferences.js';
import { uploadRetentionModule } from './store/uploads.js';
import { artworkModule } from './store/artwork.js';
import { uploadPartsModule } from './store/upload-parts.js';
import { createAccount, seedSandboxUsers, type SandboxTokens } from './store/users.js';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from './uploads/limits.js';
import { removeDeadPartials, removeOrphanFiles, removeUnattached, startUploadSweeps, STALE_PART_MS, type SweepReport } from './uploads/retention.js';
import { uploadRoute } from './uploads/route.js';
import { uploadSecret } from './uploads/sign.js';

export type { SandboxAutoReview };

export interface StartServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  dataDir: string;
  /** Enables the /_sandbox controls. */
  sandbox: boolean;
  /** Per-token budget; false turns limiting off. Default: DEFAULT_RATE_LIMIT (3000 per minute). */
  rateLimit?: RateLimitOptions | false;
  logger?: Logger;
  /** The clock (tests of time-dependent rules); defaults to the real one. */
  now?: () => Date;
  /** Where artist profiles come from (a real platform adapter, a test's own); defaults to the seeded directory. */
  artists?: ArtistDirectory;
  /** Sandbox only: review submitted releases by themselves, `delayMs` after submit (see handlers/sandbox.ts). */
  sandboxAutoReview?: SandboxAutoReview;
  /**
   * Seeds the demo label and artist accounts and accepts their tokens (default true). Off for a
   * service shared with a team (`reldist serve` without --sandbox): accounts come from
   * `reldist serve token create`, and demo tokens left in the data directory are refused.
   */
  demoAccounts?: boolean;
  /** The address put in upload URLs (e.g. https://reldist.example.com); default: the request's Host. */
  publicUrl?: string;
  /** Believe X-Forwarded-Host and X-Forwarded-Proto (only behind a proxy that sets them). */
  trustProxy?: boolean;
  /** Bytes of uploads arriving at once (per account, in total) and the stall timeout; see uploads/limits.ts. */
  uploadLimits?: Partial<UploadLimits>;
  /** Connections open at once; more are closed as they arrive (default: no limit). */
  maxConnections?: number;
  /**
   * Connections open at once from one client address; more are closed as they arrive. Default:
   * a quarter of maxConnections (http/client-limits.ts), or with trustProxy (every socket is the
   * proxy's) maxConnections itself; no limit without maxConnections.
   */
  maxConnectionsPerAddress?: number;
  /** Bounds on slow clients: headers, bodies' minimum rate, idle keep-alive (http/client-limits.ts). */
  clientLimits?: Partial<ClientLimits>;
  /** Answer the hot reads before the Hono app (http/fast-lane.ts); default true. Off: tests comparing both lanes. */
  fastLane?: boolean;
  /**
   * Load the Hono app on the first request the fast lane and the upload route leave to it, not
   * before listening: a service started for one command (the embedded sandbox's first run) whose
   * requests the fast lane answers then loads neither the app nor node's undici, which
   * @hono/node-server loads as it reads the web Request/Response globals (~16 ms). Default false.
   */
  appOnFirstRequest?: boolean;
  /** Webhook retry horizon, attempt timeout and allowed addresses (defaults: webhooks/settings.ts). */
  webhooks?: Partial<WebhookSettings>;
  /** Send webhook deliveries from this process (default true; off: another process sharing the data directory sends them). */
  webhookDispatch?: boolean;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:40123, without a trailing slash. */
  url: string;
  /** The demo accounts' tokens; undefined with demoAccounts: false. */
  tokens: SandboxTokens | undefined;
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

type AppListener = (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export const serverModules: readonly ServerModule[] = [
  { component: 'core', migrations: coreMigrations },
  preferencesModule,
  uploadRetentionModule,
  eventsModule,
  webhooksModule,
  artworkModule,
  uploadPartsModule,
];

/** Opens the data directory: migrations, secrets and (unless told otherwise) the demo accounts. Safe to run from two processes at once. */
export function openDataDir(dataDir: string, now: () => Date, options: { demoAccounts?: boolean; verbose?: ((sql?: unknown) => void) | undefined } = {}) {
  const db = openDatabase(dataDir, { verbose: options.verbose });
  try {
    migrate(db, serverModules);
    housekeeping(db, dataDir, now());
    let tokens: SandboxTokens | undefined;
    if (options.demoAccounts ?? true) {
      const seed = seedSandboxUsers(db, dataDir, now());
      db.transaction(() => seedPreferences(db, { label: seed.userIds.label }, now(), seededDirectory)).immediate();
      tokens = seed.tokens;
    }
    return { db, tokens, secret: uploadSecret(db) };
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * `reldist serve token create`: a new account in the data directory and its token (shown once).
 * Works beside a running service: the database takes writers one at a time.
 */
export function createAccountInDataDir(dataDir: string, kind: 'label' | 'artist', name: string, now = new Date()): string {
  const { db } = openDataDir(dataDir, () => now, { demoAccounts: false });
  try {
    return createAccount(db, kind, name, now).token;
  } finally {
    db.close();
  }
}

const DAY_MS = 86_400_000;

export { STALE_PART_MS };

/** Forgets idempotency keys after a day, and removes partial uploads no live process is writing (a crash's: uploads/retention.ts). */
function housekeeping(db: Database.Database, dataDir: string, now: Date): void {
  forgetIdempotencyKeysBefore(db, new Date(now.getTime() - DAY_MS).toISOString());
  removeDeadPartials(dataDir);
}

/**
 * `reldist sandbox prune`: removes from the data directory the complete uploads no track names
 * (all, or those received more than `olderThanMs` ago), files with no row and partial uploads no
 * live process is writing. Safe beside running services (uploads/retention.ts says why).
 */
export function pruneDataDir(dataDir: string, options: { olderThanMs?: number; now?: Date } = {}): SweepReport {
  const now = options.now ?? new Date();
  const db = openDatabase(dataDir);
  try {
    migrate(db, serverModules);
    const before = options.olderThanMs === undefined ? undefined : new Date(now.getTime() - options.olderThanMs);
    const unattached = removeUnattached(db, dataDir, before);
    return { unattached, orphans: removeOrphanFiles(db, dataDir), partials: removeDeadPartials(dataDir) };
  } finally {
    db.close();
  }
}

/** How long a client whose body was cut has to read the 408 before its connection is closed anyway. */
const CUT_ANSWER_GRACE_MS = 1000;

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const now = options.now ?? (() => new Date());
  const log = options.logger ?? silentLogger;
  const demoAccounts = options.demoAccounts ?? true;
  const killHook = statementKillHook();
  const { db, tokens, secret } = openDataDir(options.dataDir, now, { demoAccounts, verbose: killHook.verbose });
  const artists = options.artists ?? lazySeededDirectory();
  const commits = new CommitWatch(db);
  const deps: ServerDeps = {
    db,
    dataDir: options.dataDir,
    sandbox: options.sandbox,
    demoAccounts,
    now,
    log,
    uploadSecret: secret,
    artists,
    commits,
    ...(options.sandbox && options.sandboxAutoReview ? { sandboxAutoReview: options.sandboxAutoReview } : {}),
  };
  deps.webhooks = { ...webhookSettings(deps), ...options.webhooks };
  let url = '';
  let dispatcher: Dispatcher | undefined;
  let lane: FastLane | undefined;
  let loadApp: () => Promise<AppListener>;
  const closeDb = () => {
    dispatcher?.stop();
    commits.close();
    db.close();
  };
  try {
    const rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
    // One token cache and one set of budgets for both lanes.
    const gate = new RequestGate(db, { demoTokens: demoAccounts, rateLimit, commits });
    lane = options.fastLane === false ? undefined : fastLane(deps, gate);
    const baseUrl = publicBaseUrl({
      ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
      trustProxy: options.trustProxy ?? false,
      fallback: () => url,
    });
    let loading: Promise<AppListener> | undefined;
    loadApp = () =>
      (loading ??= Promise.all([import('./app.js'), import('@hono/node-server')]).then(([{ buildApp }, { getRequestListener }]) =>
        getRequestListener(buildApp({ deps, rateLimit, gate, baseUrl }).fetch),
      ));
  } catch (e) {
    closeDb();
    throw e;
  }
  let appListener: AppListener | undefined;
  if (!options.appOnFirstRequest) {
    appListener = await loadApp().catch((e: unknown) => {
      closeDb();
      throw e;
    });
  }
  const toApp = (req: IncomingMessage, res: ServerResponse) => {
    if (appListener) return void appListener(req, res);
    loadApp().then(
      (listener) => {
        appListener = listener;
        void listener(req, res);
      },
      (e: unknown) => {
        // Cannot happen with the handler maps the build checks (test/unit/server-app.test.ts); answered as any failure is.
        // The path only, as the access log keeps it.
        const a = errorAnswer(e, { id: newRequestId(), method: req.method ?? '', path: (req.url ?? '').split('?')[0]!, log });
        if (!res.headersSent) res.writeHead(a.status, a.headers).end(a.body);
      },
    );
  };

  const limits = { ...DEFAULT_UPLOAD_LIMITS, ...options.uploadLimits };
  deps.uploadExpiryMs = limits.unattachedExpiryMs;
  const clientLimits = { ...DEFAULT_CLIENT_LIMITS, ...options.clientLimits };
  const cuts = new CutLog(log);
  const slowBodies = new SlowBodies(clientLimits);
  const uploads = uploadRoute(deps, limits);
  /** A body cut for its slowness: whoever reads it answered 408; the connection closes, answered or not. */
  const bodyCut = (req: IncomingMessage, res: ServerResponse, path: string) => (reason: string) => {
    const socket = req.socket;
    cuts.cut('bodies too slow', `closed a connection from ${socket.remoteAddress ?? '?'} (${req.method ?? ''} ${path}): ${reason}`);
    if (res.writableEnded) socket.destroy();
    else setTimeout(() => socket.destroy(), CUT_ANSWER_GRACE_MS).unref();
  };
  const stopSweeps = startUploadSweeps(deps, limits);
  // Responses in flight when close() is called end their connection, so close() does not wait
  // for keep-alive sockets to time out.
  const active = new Set<ServerResponse>();
  let stopping = false;
  const dispatch = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean) => {
    if (stopping && !res.headersSent) res.setHeader('connection', 'close');
    // Only a request with a body is watched: the hot reads pass two header look-ups.
    if (hasBody(req)) {
      // The path only: an upload's query carries its signature.
      const path = (req.url ?? '').split('?')[0]!;
      slowBodies.watch(req, uploads.carriesFile(req) ? undefined : clientLimits.bodyTimeoutMs, bodyCut(req, res, path));
    }
    // The lane answers at once or not at all: nothing of it is in flight for close() to see.
    if (!expectsContinue && lane?.(req, res)) return idle.idle(req.socket);
    idle.busy(req.socket);
    active.add(res);
    res.once('close', () => {
      active.delete(res);
      idle.idle(req.socket);
    });
    if (uploads.matches(req)) return uploads.handle(req, res, expectsContinue);
    if (expectsContinue) res.writeContinue();
    toApp(req, res);
  };
  // No wall clock on a whole request (Node's requestTimeout cuts any body slower than 5 minutes):
  // the headers have their own bound, a body a minimum rate (http/slow-bodies.ts), and a socket
  // silent for the stall timeout is closed, so a slow but moving upload lives. requestTimeout 0
  // would turn headersTimeout off too (Node takes the smaller of the two by default): it is given
  // here, and checked often enough for the bound to hold within checkingIntervalMs.
  const server = createServer(
    {
      requestTimeout: 0,
      headersTimeout: clientLimits.headersTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(clientLimits.headersTimeoutMs),
      keepAliveTimeout: clientLimits.keepAliveTimeoutMs,
    },
    (req, res) => dispatch(req, res, false),
  );
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => dispatch(req, res, true));
  const headersWithin = secondsInWords(clientLimits.headersTimeoutMs);
  answerParserErrors(server, log, {
    within: headersWithin,
    cut: (address) => cuts.cut('headers too slow', `closed a connection from ${address ?? '?'}: no complete request headers within ${headersWithin}`),
  });
  server.setTimeout(limits.stallMs);
  const idle = new IdleConnections(
    server,
    clientLimits.keepAliveTimeoutMs + 1000 + clientLimits.headersTimeoutMs,
    checkingIntervalMs(clientLimits.keepAliveTimeoutMs + clientLimits.headersTimeoutMs),
    cuts,
  );
  capConnections(
    server,
    {
      total: options.maxConnections,
      perAddress:
        options.maxConnectionsPerAddress ??
        (options.maxConnections === undefined ? undefined : options.trustProxy ? options.maxConnections : defaultPerAddress(options.maxConnections)),
    },
    cuts,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((e: unknown) => {
    stopSweeps();
    closeDb();
    throw e;
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  url = `http://${host}:${addr.port}`;
  log.info('reldist service listening', { url, data_dir: options.dataDir, sandbox: options.sandbox });
  killHook.arm();
  if (options.webhookDispatch ?? true) dispatcher = startDispatcher(deps, deps.webhooks);

  let closing: Promise<void> | undefined;
  return {
    url,
    tokens,
    close() {
      stopping = true;
      stopSweeps();
      // No new attempt starts; those in flight are given back for another process or the next start.
      dispatcher?.stop();
      // Long polls answer now rather than hold the close for up to their wait.
      endWaits(db);
      for (const res of active) if (!res.headersSent) res.setHeader('connection', 'close');
      closing ??= new Promise<void>((resolve, reject) => {
        // close() stops accepting and waits for open requests; idle keep-alive sockets are closed
        // now, busy ones as soon as their response is sent.
        server.close((err) => {
          void uploads.close();
          slowBodies.close();
          idle.close();
          cuts.flush();
          closeDb();
          log.info('reldist service stopped');
          if (err) reject(err);
          else resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
