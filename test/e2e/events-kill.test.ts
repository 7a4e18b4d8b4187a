// The event log under SIGKILL: a spawned `reldist serve` takes a stream of changes (releases
// created, titles edited, from several clients at once) and is killed 10 times mid-stream, then
// started again over the same data directory. Afterwards every committed change has exactly one
// event: per release, one release.created, and a chain of release.updated whose old and new
// titles follow each other to the title the release has now (a change committed without its
// event, or an event without its change, breaks the chain); every acknowledged edit is in it
// once. Events read between kills keep their ids and contents: none comes back under a new id.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, expect, test } from 'vitest';
import { mulberry32 } from '../helpers/fault-proxy.js';
import { api } from '../helpers/server.js';
import { binPath } from './sandbox-helpers.js';

const KILLS = 10;
const WORKERS = 3;

let dir: string | undefined;
let child: ChildProcess | undefined;
afterAll(async () => {
  child?.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Served {
  url: string;
  token: string;
  child: ChildProcess;
}

async function serve(dataDir: string): Promise<Served> {
  const c = spawn(process.execPath, [binPath, 'serve', '--sandbox', '--data-dir', dataDir, '--port', '0', '--rate-limit', 'off'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = c;
  let err = '';
  c.stderr!.on('data', (d) => (err += d));
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in 20 s: ${err}`)), 20_000);
    createInterface({ input: c.stdout! }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    c.once('exit', (code) => reject(new Error(`serve exited (${code}): ${err}`)));
  });
  const info = JSON.parse(line) as { base_url: string; tokens: { label: string } };
  return { url: info.base_url, token: info.tokens.label, child: c };
}

type Event = { id: number; type: string; release_id: number; data: Record<string, unknown> };

async function allEvents(s: Served): Promise<Event[]> {
  const out: Event[] = [];
  let after = 0;
  for (let i = 0; i < 1000; i++) {
    const page = await api(s, s.token, 'GET', `/events?after=${after}&limit=500`);
    if (page.status !== 200) throw new Error(`GET /events: ${page.status}`);
    out.push(...page.body.data);
    after = page.body.cursor;
    if (!page.body.has_more) return out;
  }
  throw new Error('more than 1000 pages of events');
}

test('0 events lost and 0 under a new id across 10 SIGKILLs of the service during a stream of changes', async () => {
  dir = await mkdtemp(join(tmpdir(), 'reldist-events-kill-'));
  const random = mulberry32(22);
  /** Acknowledged writes: the service answered 2xx, so the change committed. */
  const ackedTitles = new Map<number, Set<string>>();
  const seenBefore = new Map<number, string>();
  let edits = 0;
  for (let epoch = 0; epoch <= KILLS; epoch++) {
    const s = await serve(dir);
    // What the log held when this process started: it must be the same, id for id, at the end.
    for (const e of await allEvents(s)) {
      const text = JSON.stringify(e);
      if (seenBefore.has(e.id)) expect(seenBefore.get(e.id), `event ${e.id} changed after a restart`).toBe(text);
      seenBefore.set(e.id, text);
    }
    if (epoch === KILLS) {
      s.child.kill('SIGTERM');
      await new Promise((r) => s.child.once('exit', r));
      break;
    }
    let stop = false;
    const work = Array.from({ length: WORKERS }, async (_, w) => {
      for (let n = 0; !stop && n < 10_000; n++) {
        try {
          const created = await api(s, s.token, 'POST', '/releases', {
            type: 'single',
            title: `e${epoch}w${w}n${n}`,
            artists: [{ name: 'Nina Vale', role: 'primary' }],
            label: 'L',
          });
          if (created.status !== 201) throw new Error(`create: ${created.status}`);
          const id = created.body.id as number;
          ackedTitles.set(id, new Set());
          for (let k = 0; k < 3 && !stop; k++) {
            const title = `e${epoch}w${w}n${n}k${k}`;
            const r = await api(s, s.token, 'PATCH', `/releases/${id}/metadata`, { title });
            if (r.status !== 200) throw new Error(`edit: ${r.status}`);
            ackedTitles.get(id)!.add(title);
            edits++;
          }
        } catch (e) {
          // The service died under the request: what was in flight may or may not have committed.
          if (stop) return;
          throw e;
        }
      }
    });
    // Killed at a seeded moment, mid-stream.
    await new Promise((r) => setTimeout(r, 150 + Math.floor(random() * 350)));
    stop = true;
    s.child.kill('SIGKILL');
    await new Promise((r) => s.child.once('exit', r));
    await Promise.all(work);
  }

  // The last process stopped cleanly; read everything from a fresh one.
  const s = await serve(dir);
  try {
    const events = await allEvents(s);
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    for (const e of events) if (seenBefore.has(e.id)) expect(JSON.stringify(e)).toBe(seenBefore.get(e.id));

    const releases = new Map<number, string>();
    for (let page = 1; page <= 1000; page++) {
      const r = await api(s, s.token, 'GET', `/releases?perPage=100&page=${page}`);
      for (const rel of r.body.data) releases.set(rel.id, rel.title);
      if (page >= r.body.meta.total_pages) break;
    }
    const byRelease = new Map<number, Event[]>();
    for (const e of events) byRelease.set(e.release_id, [...(byRelease.get(e.release_id) ?? []), e]);
    // Every release has its release.created first and only once; no event names a release that does not exist.
    expect([...byRelease.keys()].filter((id) => !releases.has(id))).toEqual([]);
    let chained = 0;
    for (const [id, title] of releases) {
      const own = byRelease.get(id) ?? [];
      expect(
        own.filter((e) => e.type === 'release.created'),
        `release ${id}`,
      ).toHaveLength(1);
      expect(own[0]!.type).toBe('release.created');
      let current = own[0]!.data.title;
      for (const e of own.slice(1)) {
        expect(e.type).toBe('release.updated');
        const change = (e.data.changes as { field: string; old: unknown; new: unknown }[]).find((c) => c.field === 'title');
        expect(change?.old, `release ${id}: event ${e.id} starts from another title than the last event left`).toBe(current);
        current = change!.new;
        chained++;
      }
      expect(current, `release ${id}: its title now is not the last event's`).toBe(title);
      const titles = new Set(own.slice(1).map((e) => (e.data.changes as { field: string; new: unknown }[]).find((c) => c.field === 'title')!.new));
      for (const acked of ackedTitles.get(id) ?? []) expect(titles.has(acked), `release ${id}: acknowledged edit "${acked}" has no event`).toBe(true);
    }
    // Every acknowledged create and edit is there (and possibly some whose answer the kill cut off).
    expect(releases.size).toBeGreaterThanOrEqual(ackedTitles.size);
    expect(chained).toBeGreaterThanOrEqual(edits);
    expect(edits).toBeGreaterThan(KILLS); // the stream really ran between the kills
    console.log(
      `events-kill: ${KILLS} kills, ${releases.size} releases, ${chained} edits committed (${edits} acknowledged), ${events.length} events, ids unique and stable`,
    );
  } finally {
    s.child.kill('SIGTERM');
    await new Promise((r) => s.child.once('exit', r));
  }
}, 180_000);
