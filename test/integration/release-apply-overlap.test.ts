// Two and four `release apply --submit` runs over the same catalog at once, against one service
// (as CI jobs that overlap): every run exits 0, no line fails (a release another run finished is
// `converged`), one release per catalog number, each in review, and each track's audio received
// once per release across the runs (the service's upload records, read from its database).
import Database from 'better-sqlite3';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { DB_FILE } from '../../src/server/db/open.js';
import { makeWav } from '../helpers/audio.js';
import { useCli } from './cli-harness.js';
import { releaseYaml } from '../helpers/release-yaml.js';

const RELEASES = 20;
const cli = useCli();
let work: string;

/** A submittable release file with two tracks (different audio). */
function twoTrackYaml(catalogNumber: string): string {
  return releaseYaml(catalogNumber, {
    tracks: [
      { file: join(work, 'a.wav'), title: 'First' },
      { file: join(work, 'b.wav'), title: 'Second' },
    ],
  });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-apply-overlap-'));
  await writeFile(join(work, 'a.wav'), makeWav({ seconds: 30 }));
  await writeFile(join(work, 'b.wav'), makeWav({ seconds: 31 }));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Per release of the catalog: upload addresses handed out, uploads received in full, and the tracks. */
function uploadCounts(prefix: string): { release: number; addresses: number; received: number; tracks: number }[] {
  const db = new Database(join(cli.server.dataDir, DB_FILE), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT r.id AS release, COUNT(u.key) AS addresses, COALESCE(SUM(u.state = 'ready'), 0) AS received,
                (SELECT COUNT(*) FROM tracks t WHERE t.release_id = r.id) AS tracks
         FROM releases r LEFT JOIN uploads u ON u.release_id = r.id
         WHERE r.catalog_key LIKE ? GROUP BY r.id`,
      )
      .all(`${prefix.toLowerCase()}-%`) as { release: number; addresses: number; received: number; tracks: number }[];
  } finally {
    db.close();
  }
}

for (const runs of [2, 4]) {
  it(`${runs} runs at once over ${RELEASES} releases: all exit 0, none failed, each audio received once`, { timeout: 120_000 }, async () => {
    const prefix = `OVL${runs}`;
    const dir = join(work, prefix);
    await mkdir(dir);
    for (let i = 0; i < RELEASES; i++) await writeFile(join(dir, `r${String(i).padStart(2, '0')}.yaml`), twoTrackYaml(`${prefix}-${i}`));

    const results = await Promise.all(Array.from({ length: runs }, () => cli.run(['release', 'apply', dir, '--submit', '--json', '--parallel', '4'])));
    const lines = results.flatMap((r) =>
      r.stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { outcome: string; status: string | null; error: { message: string } | null }),
    );
    const outcomes: Record<string, number> = {};
    for (const l of lines) outcomes[l.outcome] = (outcomes[l.outcome] ?? 0) + 1;
    const counts = uploadCounts(prefix);
    const received = counts.reduce((n, c) => n + c.received, 0);
    const addresses = counts.reduce((n, c) => n + c.addresses, 0);
    // For the report (never asserted on): what the runs said and what the service received.
    console.log(
      `apply overlap x${runs}: exits ${results.map((r) => r.code).join(',')}; outcomes ${JSON.stringify(outcomes)}; ` +
        `uploads received ${received} (addresses ${addresses}) for ${RELEASES * 2} tracks; most per release ${Math.max(...counts.map((c) => c.received))}`,
    );
    const failed = lines.filter((l) => l.outcome === 'failed').map((l) => l.error?.message);

    expect(failed).toEqual([]);
    expect(results.map((r) => r.code)).toEqual(results.map(() => 0));
    expect(lines).toHaveLength(runs * RELEASES);
    expect(Object.keys(outcomes).filter((o) => !['submitted', 'converged', 'skipped'].includes(o))).toEqual([]);
    // A line's status is the release's real one: every release ends in review.
    expect(lines.filter((l) => l.status !== 'in_review')).toEqual([]);

    const client = createClient({ baseUrl: cli.server.url, token: cli.server.tokens.label, transport: 'undici' });
    const all = (await client.all('listReleases', { query: { perPage: 100 } })).filter((r) => String(r.catalog_number).startsWith(`${prefix}-`));
    await client.close();
    expect(all).toHaveLength(RELEASES);
    expect(new Set(all.map((r) => r.catalog_number)).size).toBe(RELEASES);
    expect(all.filter((r) => r.status !== 'in_review')).toEqual([]);
    expect(counts.map((c) => [c.tracks, c.received])).toEqual(counts.map(() => [2, 2]));
  });
}
