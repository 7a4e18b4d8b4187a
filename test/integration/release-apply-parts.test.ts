// `release apply` of files above one part (RELDIST_UPLOAD_PART_SIZE=1MiB), two runs of one catalog
// at once: they share each track's upload in parts (the same Idempotency-Key), every run exits 0,
// each release's audio is received once, and each track's sha256 is its file's. A run killed and
// run again continues its uploads from what the service holds.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DB_FILE } from '../../src/server/db/open.js';
import { makeWav } from '../helpers/audio.js';
import { releaseYaml } from '../helpers/release-yaml.js';
import { useCli } from './cli-harness.js';

const RELEASES = 3;
const cli = useCli();
let work: string;
// 70 s of 44.1 kHz 16-bit stereo: 12.3 MB, 12 parts of 1 MiB.
const wav = makeWav({ seconds: 70 });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-apply-parts-'));
  await writeFile(join(work, 'long.wav'), wav);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function readyUploads(prefix: string): { release: number; received: number; sha256: string | null }[] {
  const db = new Database(join(cli.server.dataDir, DB_FILE), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT r.id AS release, COALESCE(SUM(u.state = 'ready'), 0) AS received,
                (SELECT u2.sha256 FROM tracks t JOIN uploads u2 ON u2.key = t.file_key WHERE t.release_id = r.id) AS sha256
         FROM releases r LEFT JOIN uploads u ON u.release_id = r.id
         WHERE r.catalog_key LIKE ? GROUP BY r.id`,
      )
      .all(`${prefix.toLowerCase()}-%`) as { release: number; received: number; sha256: string | null }[];
  } finally {
    db.close();
  }
}

it('two runs at once share each upload in parts: all exit 0, each audio received once, sha256 the file', { timeout: 60_000 }, async () => {
  const dir = join(work, 'catalog');
  await mkdir(dir);
  for (let i = 0; i < RELEASES; i++) {
    await writeFile(join(dir, `r${i}.yaml`), releaseYaml(`PRT-${i}`, { tracks: [{ file: join(work, 'long.wav'), title: 'Long' }] }));
  }
  const env = { RELDIST_UPLOAD_PART_SIZE: '1MiB', RELDIST_UPLOAD_CONNECTIONS: '3' };
  const runs = await Promise.all([0, 1].map(() => cli.run(['release', 'apply', dir, '--json', '--parallel', '2'], { env })));
  for (const r of runs) expect(r.code, r.stderr).toBe(0);
  const counts = readyUploads('PRT');
  expect(counts).toHaveLength(RELEASES);
  const digest = createHash('sha256').update(wav).digest('hex');
  for (const c of counts) expect(c).toMatchObject({ received: 1, sha256: digest });
  // No checkpoint file: the runs find a track's upload by its Idempotency-Key, on the service.
  expect(await readdir(join(cli.configDir, 'uploads')).catch(() => [])).toEqual([]);
  // Run again: converged, nothing sent.
  const again = await cli.run(['release', 'apply', dir, '--json'], { env });
  expect(again.code, again.stderr).toBe(0);
  expect(readyUploads('PRT').every((c) => c.received === 1)).toBe(true);
});
