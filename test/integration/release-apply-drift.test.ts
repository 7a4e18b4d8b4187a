// `release apply --only` (catalog numbers and globs) and drift: the state the last apply kept
// (.reldist-state.json in the folder), --plan telling a change of the file from a change on the
// service since, and --expect-no-changes failing on either, against the real reference service.
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWav } from '../helpers/audio.js';
import { releaseYaml } from '../helpers/release-yaml.js';
import { useCli } from './cli-harness.js';
import { jsonLines } from '../helpers/json-lines.js';

const cli = useCli();
let work: string;

async function folder(name: string, numbers: readonly string[]): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir, { recursive: true });
  for (const cn of numbers) await writeFile(join(dir, `${cn}.yaml`), releaseYaml(cn, { audio: join(work, 'a.wav') }));
  return dir;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-drift-'));
  await writeFile(join(work, 'a.wav'), makeWav({ seconds: 30 }));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('release apply --only', () => {
  it('applies only the releases named or matched, in any case; an entry that matches nothing is refused', async () => {
    const dir = await folder('only', ['ONL-0001', 'ONL-0002', 'ONX-0003']);
    const r = await cli.run(['release', 'apply', dir, '--only', 'onl-000*', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(
      jsonLines(r.stdout)
        .map((l) => [l.catalog_number, l.outcome])
        .sort(),
    ).toEqual([
      ['ONL-0001', 'created'],
      ['ONL-0002', 'created'],
    ]);
    const plan = await cli.run(['release', 'apply', dir, '--only', ' ONX-0003 ,ONL-000?', '--plan']);
    expect(plan.code).toBe(8);
    expect(plan.stdout).toMatch(/^= ONL-0001 /m);
    expect(plan.stdout).toMatch(/^\+ ONX-0003 /m);
    const typo = await cli.run(['release', 'apply', dir, '--only', 'ONX-0003,NOPE-1,ZZ*']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--only: no release file has a catalog number matching any of NOPE-1, ZZ*');
    const list = await cli.json(['release', 'list', '--catalog-number', 'ONX-0003']);
    expect(list).toEqual([]);
  });
});

describe('drift', () => {
  it('tells a change of the file from one on the service since the last apply; --expect-no-changes fails on either', async () => {
    const dir = await folder('drift', ['DRF-0001', 'DRF-0002', 'DRF-0003', 'DRF-0004']);
    const first = await cli.run(['release', 'apply', dir]);
    expect(first.code, first.stderr).toBe(0);
    const state = JSON.parse(await readFile(join(dir, '.reldist-state.json'), 'utf8'));
    expect(Object.keys(state.releases).sort()).toEqual(['drf-0001', 'drf-0002', 'drf-0003', 'drf-0004']);

    const calm = await cli.run(['release', 'apply', dir, '--expect-no-changes', '--json']);
    expect(calm.code, calm.stdout + calm.stderr).toBe(0);
    expect(jsonLines(calm.stdout).map((l) => l.drift)).toEqual(['none', 'none', 'none', 'none']);

    // 0002: edited on the service; 0003: its file edited; 0004: both, to the same title (no change to make).
    expect((await cli.run(['release', 'edit', 'DRF-0002', '--genre', 'Pop'])).code).toBe(0);
    const f3 = join(dir, 'DRF-0003.yaml');
    await writeFile(f3, (await readFile(f3, 'utf8')).replace('title: Song DRF-0003', 'title: Renamed Three'));
    const f4 = join(dir, 'DRF-0004.yaml');
    await writeFile(f4, (await readFile(f4, 'utf8')).replace('title: Song DRF-0004', 'title: Renamed Four'));
    expect((await cli.run(['release', 'edit', 'DRF-0004', '--title', 'Renamed Four'])).code).toBe(0);

    const plan = await cli.run(['release', 'apply', dir, '--plan']);
    expect(plan.code).toBe(8);
    expect(plan.stdout).toMatch(/^= DRF-0001  \S+DRF-0001\.yaml$/m);
    expect(plan.stdout).toMatch(/^~ DRF-0002  .*genre: "Pop" → "Electronic"  \[changed on the service since the last apply\]$/m);
    expect(plan.stdout).toMatch(/^~ DRF-0003  .*title: "Song DRF-0003" → "Renamed Three"  \[file changed since the last apply\]$/m);
    expect(plan.stdout).toMatch(/^= DRF-0004  .*\[file and service changed since the last apply\]$/m);
    expect(plan.stdout).toContain('since the last apply: 2 changed on the service, 2 files changed');

    // Only the one both sides agree on: no change to make, yet drift.
    const check = await cli.run(['release', 'apply', dir, '--only', 'DRF-0004', '--expect-no-changes', '--json']);
    expect(check.code).toBe(8);
    expect(jsonLines(check.stdout)[0]).toMatchObject({ action: 'unchanged', drift: 'both', changes: [] });
    const plain = await cli.run(['release', 'apply', dir, '--only', 'DRF-0004', '--plan']);
    expect(plain.code, plain.stderr).toBe(0);

    // Applied again: the state moves on, nothing drifts.
    const again = await cli.run(['release', 'apply', dir]);
    expect(again.code, again.stderr).toBe(0);
    const after = await cli.run(['release', 'apply', dir, '--expect-no-changes']);
    expect(after.code, after.stdout + after.stderr).toBe(0);
    expect(after.stdout).toContain('since the last apply: 0 changed on the service, 0 files changed');
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('says when there is no state to tell drift by', async () => {
    const dir = await folder('nostate', ['NST-0001']);
    const r = await cli.run(['release', 'apply', join(dir, 'NST-0001.yaml'), '--expect-no-changes']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('no apply state (give --state FILE, or apply one folder)');
    const applied = await cli.run(['release', 'apply', join(dir, 'NST-0001.yaml'), '--state', join(work, 'nst.json')]);
    expect(applied.code, applied.stderr).toBe(0);
    const ok = await cli.run(['release', 'apply', join(dir, 'NST-0001.yaml'), '--state', join(work, 'nst.json'), '--expect-no-changes', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(jsonLines(ok.stdout)[0].drift).toBe('none');
  });
});
