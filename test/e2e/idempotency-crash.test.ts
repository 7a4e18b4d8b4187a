// An Idempotency-Key's answer and its write are one: the service is SIGKILLed at many points of a
// run of keyed writes (RELDIST_TEST_KILL_AT_STATEMENT, src/server/db/kill-hook.ts: just before its
// Nth SQL statement), started again over the same data directory, and every key is sent again.
// Each key must have made exactly one effect (one release per create key, one upload address,
// one added artist, a delete answered 200 not 404), every retry answers what the first request
// would have (no 5xx, no hang), and a key left "in progress" by the dead process is taken over
// at once (its owner is provably gone), not after 30 s. Needs `npm run build` (spawns bin/reldist.js).
import Database from 'better-sqlite3';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { DB_FILE } from '../../src/server/db/open.js';
import { binPath } from './sandbox-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'reldist-idem-crash-'));
const data = join(dir, 'data');
const children = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Service {
  url: string;
  token: string;
  child: ChildProcessWithoutNullStreams;
  exited: Promise<NodeJS.Signals | null>;
}

/** `reldist serve` over the shared data directory; `killAt`: SIGKILL itself before that statement. */
function serve(killAt?: number): Promise<Service> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.RELDIST_TEST_KILL_AT_STATEMENT;
  if (killAt !== undefined) env.RELDIST_TEST_KILL_AT_STATEMENT = String(killAt);
  const child = spawn(process.execPath, [binPath, 'serve', '--sandbox', '--data-dir', data, '--rate-limit', 'off'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('close', (_code, signal) => resolve(signal)));
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl === -1) return;
      const first = JSON.parse(out.slice(0, nl)) as { base_url: string; tokens: { label: string } };
      resolve({ url: first.base_url, token: first.tokens.label, child, exited });
    });
    void exited.then((signal) => reject(new Error(`serve ended (${signal}) before printing: ${err}`)));
  });
}

interface Answer {
  status: number;
  body: any;
}

interface Step {
  name: string;
  method: string;
  path(ids: Ids): string;
  body?(ids: Ids): unknown;
  /** What the first request answers; a retry must answer the same. */
  status: number;
}
type Ids = { a?: number; b?: number };

const steps = (i: number): Step[] => [
  { name: 'create A', method: 'POST', path: () => '/releases', body: () => release(`Crash ${i} A`), status: 201 },
  { name: 'create B', method: 'POST', path: () => '/releases', body: () => release(`Crash ${i} B`), status: 201 },
  { name: 'edit A', method: 'PATCH', path: (ids) => `/releases/${ids.a}/metadata`, body: () => ({ version: `take ${i}` }), status: 200 },
  {
    name: 'tracks of A',
    method: 'PUT',
    path: (ids) => `/releases/${ids.a}/tracks`,
    body: () => ({ tracks: [{ title: 'One' }, { title: 'Two' }] }),
    status: 200,
  },
  {
    name: 'upload address for A',
    method: 'POST',
    path: (ids) => `/releases/${ids.a}/tracks/upload-url`,
    body: () => ({ filename: 'one.wav', content_type: 'audio/wav', size: 44_144 }),
    status: 201,
  },
  // The one handler with work before its write (profile look-ups): its write and answer through commit().
  { name: 'label artist', method: 'POST', path: () => '/preferences/label/submit', body: () => ({ artists: [{ name: `Crash Artist ${i}` }] }), status: 200 },
  { name: 'delete B', method: 'DELETE', path: (ids) => `/releases/${ids.b}`, status: 200 },
  // An error answer is kept like any other: the retry is refused the same way.
  { name: 'submit A', method: 'POST', path: (ids) => `/releases/${ids.a}/submit`, body: () => ({}), status: 422 },
];

const release = (title: string) => ({ type: 'single', title, artists: [{ name: 'Nina Vale', role: 'primary' }], label: 'Northern Lights Records' });

/** One keyed request; a connection that fails (the service died) is `undefined`. */
async function send(s: Service, step: Step, ids: Ids, key: string): Promise<Answer | undefined> {
  const body = step.body?.(ids);
  try {
    const res = await fetch(`${s.url}${step.path(ids)}`, {
      method: step.method,
      headers: {
        authorization: `Bearer ${s.token}`,
        'idempotency-key': key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      // Bounded: a hung retry fails the test instead of stalling it.
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  } catch (e) {
    if (e instanceof Error && e.name === 'TimeoutError') throw new Error(`${step.method} ${step.path(ids)} hung`);
    return undefined;
  }
}

/** The steps in order, each under its own key; stops at the first request that got no answer. */
async function runSteps(s: Service, i: number): Promise<{ answers: Map<string, Answer>; complete: boolean }> {
  const ids: Ids = {};
  const answers = new Map<string, Answer>();
  for (const step of steps(i)) {
    const a = await send(s, step, ids, `crash-${i}-${step.name.replaceAll(' ', '-')}`);
    if (!a) return { answers, complete: false };
    answers.set(step.name, a);
    if (step.name === 'create A') ids.a = a.body.id;
    if (step.name === 'create B') ids.b = a.body.id;
  }
  return { answers, complete: true };
}

/**
 * Kill points: 40 of statements 1 to LAST, drawn with a fixed seed (the same points every run).
 * A run of the eight steps is 120 statements (counted with the hook printing them); a point past
 * the end lets the run finish, which the test allows for a few.
 */
const LAST = 124;
const POINTS = 40;
function drawKillPoints(seed: number): number[] {
  let state = seed >>> 0;
  // mulberry32: small and deterministic.
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const picked = new Set<number>();
  while (picked.size < POINTS) picked.add(1 + Math.floor(random() * LAST));
  return [...picked].sort((a, b) => a - b);
}
const killPoints = drawKillPoints(20_240_611);

test(`SIGKILLed at ${killPoints.length} points of keyed writes, every retried key has made exactly one effect`, async () => {
  let killed = 0;
  const problems: string[] = [];
  for (const [i, at] of killPoints.entries()) {
    const doomed = await serve(at);
    const first = await runSteps(doomed, i);
    if (!first.complete) {
      expect(await doomed.exited).toBe('SIGKILL');
      killed++;
    } else {
      doomed.child.kill('SIGTERM');
      await doomed.exited;
    }
    children.delete(doomed.child);

    const again = await serve();
    const retried = await runSteps(again, i);
    again.child.kill('SIGTERM');
    await again.exited;
    children.delete(again.child);

    // Every key answered, as its first request would have: no 5xx, no 409 (the dead owner's key
    // is taken over at once). Problems are gathered over all kill points, to see them all at once.
    const problem = (what: string) => problems.push(`kill point ${at}: ${what}`);
    if (!retried.complete) problem('a retry got no answer');
    for (const step of steps(i)) {
      const a = retried.answers.get(step.name);
      if (!a) continue;
      if (a.status !== step.status) problem(`${step.name} answered ${a.status} ${JSON.stringify(a.body?.error?.code ?? '')}, not ${step.status}`);
      // An answer the first request made (before the crash) is the one the retry gets.
      const before = first.answers.get(step.name);
      if (before && JSON.stringify(a.body) !== JSON.stringify(before.body) && step.status < 300)
        problem(`${step.name} answered otherwise than before the crash`);
    }
    const artistMessage = retried.answers.get('label artist')?.body?.message;
    if (artistMessage !== 'Label preferences saved: 1 artist added.') problem(`label artist: ${artistMessage}`);

    const db = new Database(join(data, DB_FILE), { readonly: true });
    try {
      const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;
      const a = count('SELECT MIN(id) AS n FROM releases WHERE title = ?', `Crash ${i} A`);
      const effects = {
        releasesA: count('SELECT COUNT(*) AS n FROM releases WHERE title = ?', `Crash ${i} A`),
        releasesB: count('SELECT COUNT(*) AS n FROM releases WHERE title = ?', `Crash ${i} B`),
        tracksA: count('SELECT COUNT(*) AS n FROM tracks WHERE release_id = ?', a),
        uploadsA: count('SELECT COUNT(*) AS n FROM uploads WHERE release_id = ?', a),
        artists: count('SELECT COUNT(*) AS n FROM label_artists WHERE name = ?', `Crash Artist ${i}`),
        keysInProgress: count('SELECT COUNT(*) AS n FROM idempotency WHERE key LIKE ? AND status IS NULL', `crash-${i}-%`),
      };
      const wanted = { releasesA: 1, releasesB: 0, tracksA: 2, uploadsA: 1, artists: 1, keysInProgress: 0 };
      for (const [k, n] of Object.entries(effects)) if (n !== wanted[k as keyof typeof wanted]) problem(`${k} = ${n}, not ${wanted[k as keyof typeof wanted]}`);
    } finally {
      db.close();
    }
  }
  expect(problems).toEqual([]);
  // The kill points fall inside the runs, not after them: most runs were cut short.
  expect(killed).toBeGreaterThan(killPoints.length * 0.8);
}, 180_000);
