// Four `reldist release apply --submit` processes over one catalog at once (CI jobs that overlap),
// spawned from the built binary against one service: every process exits 0, no line says failed,
// one release per catalog number, each in review, each track's audio received once per release.
import Database from 'better-sqlite3';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DB_FILE } from '../../src/server/db/open.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';
import { makeConfigDir } from '../integration/cli-harness.js';
import { ROOT, reldist, type Target } from './cli-e2e-helpers.js';
import { releaseYaml } from '../helpers/release-yaml.js';

const RUNS = 4;
const RELEASES = 10;
// Small valid audio (FLAC tones of ~220 KB, over 30 s): the processes' time goes to the exchanges.
const AUDIO = [join(ROOT, 'examples/first-release/audio/first-light.flac'), join(ROOT, 'examples/first-release/audio/evening-tide.flac')];

let server: TestServer;
let config: { dir: string; cleanup(): Promise<void> };
let t: Target;
let work: string;

function releaseFile(catalogNumber: string): string {
  return releaseYaml(catalogNumber, { tracks: AUDIO.map((file, i) => ({ file, title: ['First Light', 'Evening Tide'][i]! })) });
}

beforeAll(async () => {
  server = await startTestServer();
  config = await makeConfigDir();
  t = { url: server.url, token: server.tokens.label, configDir: config.dir };
  work = await mkdtemp(join(tmpdir(), 'reldist-e2e-overlap-'));
  await mkdir(join(work, 'catalog'));
  for (let i = 0; i < RELEASES; i++) await writeFile(join(work, 'catalog', `r${i}.yaml`), releaseFile(`E2O-${i}`));
});
afterAll(async () => {
  await server?.close();
  await config?.cleanup();
  await rm(work, { recursive: true, force: true });
});

it(`${RUNS} processes apply one catalog at once: all exit 0, none failed, each audio received once`, { timeout: 120_000 }, async () => {
  const runs = await Promise.all(Array.from({ length: RUNS }, () => reldist(t, ['release', 'apply', join(work, 'catalog'), '--submit'])));
  // Piped: one tab-separated line per release (file, catalog number, id, action, outcome, status, error).
  const lines = runs.flatMap((r) =>
    r.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')),
  );
  const outcomes: Record<string, number> = {};
  for (const l of lines) outcomes[l[4]!] = (outcomes[l[4]!] ?? 0) + 1;

  const releases = (await api(t, t.token, 'GET', '/releases?perPage=100')).body.data.filter((r: { catalog_number: string | null }) =>
    r.catalog_number?.startsWith('E2O-'),
  );
  const db = new Database(join(server.dataDir, DB_FILE), { readonly: true, fileMustExist: true });
  const received = db.prepare(`SELECT release_id, COUNT(*) AS n FROM uploads WHERE state = 'ready' GROUP BY release_id`).all() as {
    release_id: number;
    n: number;
  }[];
  db.close();
  const mine = received.filter((r) => releases.some((x: { id: string }) => Number(x.id) === r.release_id));
  // For the report (never asserted on).
  console.log(
    `e2e apply overlap x${RUNS}: exits ${runs.map((r) => r.code).join(',')}; outcomes ${JSON.stringify(outcomes)}; ` +
      `uploads received ${mine.reduce((n, r) => n + r.n, 0)} for ${RELEASES * AUDIO.length} tracks`,
  );

  expect(lines.filter((l) => l[4] === 'failed')).toEqual([]);
  expect(
    runs.map((r) => r.code),
    runs.map((r) => r.stderr).join('\n'),
  ).toEqual(runs.map(() => 0));
  expect(lines).toHaveLength(RUNS * RELEASES);
  expect(lines.filter((l) => l[5] !== 'in_review')).toEqual([]);
  expect(releases).toHaveLength(RELEASES);
  expect(releases.filter((r: { status: string }) => r.status !== 'in_review')).toEqual([]);
  expect(mine.map((r) => r.n)).toEqual(releases.map(() => AUDIO.length));
});
