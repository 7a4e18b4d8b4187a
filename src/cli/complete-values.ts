// `reldist __complete <list>`: the values of a flag that only the service knows (the genres), one
// a line, for the completion scripts to offer at a Tab press. Hidden: main.ts routes it before
// commander, so it costs a node start and little more. A shell waits for it, so it is bounded
// and silent: the answer comes from a small cache in the config folder, asked of the service
// again (at most ASK_MS) only once a day; a service that does not answer in time leaves the
// cache as it was. Nothing on stderr, never a prompt, exit 0 whatever happens (no values is an
// answer: the shell offers nothing).
//
// The service is the one the next command would use (environment, then the default profile),
// never started for this: the embedded sandbox is asked only while it runs in the background.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '../client/index.js';
import { resolveTarget } from './config/resolve.js';
import { readConfig } from './config/store.js';
import type { ServiceValues } from './command.js';
import type { Env, IO } from './io.js';
import { configDir, dataDir } from './paths.js';
import { isAlive, readState } from './sandbox-state.js';

/** The lists, by the name the scripts ask for (a flag declares it: command.ts fromService), and the endpoint that answers each. */
const LISTS: Record<ServiceValues, 'getGenres'> = { genre: 'getGenres' };
type ServiceList = ServiceValues;

/** How long a list is used without asking the service. */
const FRESH_MS = 24 * 3_600_000;
/** The longest the service is waited for (a node start comes on top: about a second in all). */
const ASK_MS = 700;
const CACHE_FILE = 'completion-cache.json';

interface Kept {
  values: string[];
  fetched_at: string;
}

interface Cache {
  format: 1;
  /** By service (its base URL, or the sandbox's data folder), then by list; read back through keptOf. */
  services: Record<string, Record<string, unknown>>;
}

export async function completeValues(args: readonly string[], io: Pick<IO, 'stdout'>, env: Env, now = new Date()): Promise<number> {
  const list = args[0];
  if (!isList(list)) return 0;
  try {
    const values = await valuesOf(list, env, now);
    if (values.length > 0) io.stdout.write(`${values.join('\n')}\n`);
  } catch {
    // Nothing to offer: a completion never says why on the user's terminal.
  }
  return 0;
}

function isList(name: string | undefined): name is ServiceList {
  return name !== undefined && Object.hasOwn(LISTS, name);
}

async function valuesOf(list: ServiceList, env: Env, now: Date): Promise<string[]> {
  const service = serviceOf(env);
  if (service === undefined) return [];
  const path = join(configDir(env), CACHE_FILE);
  const cache = readCache(path);
  const kept = keptOf(cache.services[service.key]?.[list]);
  if (kept && now.getTime() - Date.parse(kept.fetched_at) < FRESH_MS) return kept.values;
  if (service.ask === undefined) return kept?.values ?? [];
  let values: string[];
  try {
    values = await askService(service.ask, list, env);
  } catch {
    return kept?.values ?? [];
  }
  const fresh: Kept = { values, fetched_at: now.toISOString() };
  cache.services[service.key] = { ...cache.services[service.key], [list]: fresh };
  writeCache(path, cache);
  return values;
}

/**
 * The service the next command would use, as a cache key and, when it can be asked now, its
 * address and token. Undefined when nothing would work (a profile missing, a token without a
 * service): the command itself would fail.
 */
function serviceOf(env: Env): { key: string; ask?: { baseUrl: string; token: string } } | undefined {
  const target = resolveTarget({ flags: {}, env, config: readConfig(env).data });
  if (target.baseUrl !== undefined) return { key: target.baseUrl, ...(target.token ? { ask: { baseUrl: target.baseUrl, token: target.token } } : {}) };
  if (target.token) return undefined;
  const dir = dataDir(env);
  const running = readState(dir);
  const key = `sandbox:${dir}`;
  return running && isAlive(running.pid) ? { key, ask: { baseUrl: running.url, token: running.token } } : { key };
}

async function askService(service: { baseUrl: string; token: string }, list: ServiceList, env: Env): Promise<string[]> {
  const signal = AbortSignal.timeout(ASK_MS);
  const client = createClient({
    baseUrl: service.baseUrl,
    token: service.token,
    env,
    signal,
    // One try: a retry's backoff would outlast the wait.
    retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 },
    timeouts: { connectMs: ASK_MS, idleMs: ASK_MS },
  });
  try {
    const values = await client.call(LISTS[list], { signal });
    return values.filter((v) => v.trim() !== '' && !v.includes('\n'));
  } finally {
    await client.close();
  }
}

function readCache(path: string): Cache {
  const cache: Cache = { format: 1, services: {} };
  try {
    const v: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!isRecord(v) || v.format !== 1 || !isRecord(v.services)) return cache;
    for (const [key, lists] of Object.entries(v.services)) if (isRecord(lists)) cache.services[key] = lists;
  } catch {
    // none yet, or not ours: started afresh
  }
  return cache;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A list as the cache keeps it, or undefined when it holds none (or something else). */
function keptOf(v: unknown): Kept | undefined {
  if (!isRecord(v) || typeof v.fetched_at !== 'string' || !Array.isArray(v.values)) return undefined;
  const values = v.values.filter((x): x is string => typeof x === 'string');
  return { values, fetched_at: v.fetched_at };
}

/** Whole or not at all (a Tab press at the same time reads the old one), readable by the owner only. */
function writeCache(path: string, cache: Cache): void {
  try {
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(cache)}\n`, { mode: 0o600 });
    renameSync(tmp, path);
  } catch {
    // A cache not written costs the next Tab press a request, nothing more.
  }
}
