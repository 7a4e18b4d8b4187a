// `release export --all` writes files as the pages arrive, and still ends as if every name had been
// decided first: a catalog number two releases share (a data folder from before the service
// refused that, copied in as such) is found after its first holder's file was written, and both
// are reported and neither file is left; a name that holder had taken goes to the release the
// whole catalog gives it; a file in the way found late, or a stop, leaves nothing of the run behind.
import Database from 'better-sqlite3';
import { access, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_FILE } from '../../src/server/db/open.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { useCli } from './cli-harness.js';

const cli = useCli();
let work: string;
/** Copies made in the database, so the catalog spans pages of 100 (the order is newest first). */
const COPIES = 150;
const ids: Record<string, number> = {};

const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

async function create(catalogNumber: string): Promise<number> {
  const r = await cli.run([
    'release',
    'create',
    '--type',
    'single',
    '--title',
    `Title ${catalogNumber}`,
    '--artist',
    'Nina Vale',
    '--label',
    'NLR',
    '--catalog-number',
    catalogNumber,
    '--json',
  ]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).id as number;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-export-stream-'));
  // Listed last (oldest): the second holder of "NLR/1" and the file found in the way.
  ids.first = await create('NLR/1');
  ids.solo = await create('SOLO-1');
  ids.underscore = await create('NLR_1');
  const db = new Database(join(cli.server.dataDir, DB_FILE), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    const row = db.prepare('SELECT * FROM releases WHERE id = ?').get(ids.first) as Record<string, unknown>;
    const columns = Object.keys(row).filter((c) => c !== 'id');
    const insert = db.prepare(`INSERT INTO releases (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
    const copy = (catalogNumber: string) => {
      const data = { ...JSON.parse(String(row.data)), catalog_number: catalogNumber };
      return Number(insert.run({ ...row, data: JSON.stringify(data), catalog_key: catalogNumber.toLowerCase() }).lastInsertRowid);
    };
    db.transaction(() => {
      for (let i = 0; i < COPIES; i++) copy(`FILL-${String(i).padStart(3, '0')}`);
      // Newest, so first on the first page: written before its twin (the oldest) is read.
      ids.twin = copy('nlr/1');
    })();
  } finally {
    db.close();
  }
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('release export as the pages arrive', () => {
  it('reports both holders of a shared catalog number, leaves neither file, and gives "NLR_1" its own name', async () => {
    const dir = join(work, 'shared');
    const r = await cli.run(['release', 'export', '--all', '--dir', dir, '--json']);
    expect(r.code).toBe(1);
    const lines = jsonLines(r.stdout);
    expect(lines).toHaveLength(COPIES + 4);
    const skipped = lines.filter((l) => l.outcome === 'skipped');
    expect(skipped).toEqual([
      { release_id: ids.twin, catalog_number: 'nlr/1', file: null, outcome: 'skipped', reason: expect.stringContaining(`is also on release ${ids.first}`) },
      { release_id: ids.first, catalog_number: 'NLR/1', file: null, outcome: 'skipped', reason: expect.stringContaining(`is also on release ${ids.twin}`) },
    ]);
    expect(r.stderr).toContain(`2 of ${COPIES + 4} releases not exported: nlr/1, NLR/1`);
    const files = (await readdir(dir)).sort();
    expect(files).toHaveLength(COPIES + 2);
    expect(files.filter((f) => !f.startsWith('FILL-'))).toEqual(['NLR_1.yaml', 'SOLO-1.yaml']);
    expect(lines.find((l) => l.release_id === ids.underscore)).toMatchObject({ outcome: 'written', file: 'NLR_1.yaml' });
    expect(parse(await readFile(join(dir, 'NLR_1.yaml'), 'utf8')).catalog_number).toBe('NLR_1');
  });

  it('a file in the way, found after others were written, leaves the folder as it was; --force replaces it', async () => {
    const dir = join(work, 'in-the-way');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'SOLO-1.yaml'), 'mine\n');
    const r = await cli.run(['release', 'export', '--all', '--dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`1 release file already in ${dir}: SOLO-1.yaml; nothing was written`);
    expect(await readdir(dir)).toEqual(['SOLO-1.yaml']);
    expect(await readFile(join(dir, 'SOLO-1.yaml'), 'utf8')).toBe('mine\n');

    const forced = await cli.run(['release', 'export', '--all', '--dir', dir, '--force']);
    expect(forced.code).toBe(1);
    expect(await readdir(dir)).toHaveLength(COPIES + 2);
    expect(parse(await readFile(join(dir, 'SOLO-1.yaml'), 'utf8')).catalog_number).toBe('SOLO-1');
  });

  it('stopped by --timeout after the first page was written, it removes those files and the folder it made', async () => {
    const dir = join(work, 'stopped', 'catalog');
    let seen = 0;
    let writtenBeforeStop = 0;
    const held: (() => void)[] = [];
    let lists = 0;
    const proxy = await startFaultProxy({
      target: cli.server.url,
      seed: 1,
      faults: {},
      // Every page after the first is held until the end: the stop comes while the first page's files are there.
      onRequest: async (e) => {
        if (e.method !== 'GET' || e.path !== '/releases' || ++lists === 1) return undefined;
        for (let i = 0; i < 100 && writtenBeforeStop < 100; i++) {
          writtenBeforeStop = await readdir(dir).then(
            (n) => n.length,
            () => 0,
          );
          await new Promise((r) => setTimeout(r, 20));
        }
        seen++;
        return new Promise<'drop'>((resolve) => held.push(() => resolve('drop')));
      },
    });
    try {
      const r = await cli.run(['release', 'export', '--all', '--dir', dir, '--timeout', '3s'], { url: proxy.url });
      expect(r.code, r.stderr).toBe(7);
      expect(seen).toBeGreaterThan(0);
      expect(writtenBeforeStop).toBe(100);
      await expect(access(join(work, 'stopped'))).rejects.toThrow();
    } finally {
      for (const release of held) release();
      await proxy.close();
    }
  });
});
