// A release named by its catalog number works at every command that names a release, as its id
// does; `id:` and `cat:` settle a catalog number that looks like an id; an unknown one is exit 5
// naming what was looked for.
import { beforeAll, describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';
import { draftFlags } from './release-fixtures.js';

const cli = useCli();
const audio = 'examples/first-release/audio';
let id: number;
let trackId: number;
/** A release whose catalog number is digits: another release's id. */
let digitsId: number;

beforeAll(async () => {
  const first = await cli.json(['release', 'create', ...draftFlags, '--catalog-number', 'SBX-03']);
  id = first.id;
  const tracks = await cli.json(['track', 'upload', String(id), `${audio}/first-light.flac`]);
  trackId = tracks[0].id;
  digitsId = (await cli.json(['release', 'create', ...draftFlags, '--catalog-number', String(id)])).id;
});

/** Each command naming a release, with SBX-03 in its place, and what shows it reached release `id`. */
const table: { argv: () => string[]; stdin?: string; code?: number; reached(out: any): unknown }[] = [
  { argv: () => ['release', 'get', 'SBX-03'], reached: (o) => o.id },
  { argv: () => ['release', 'edit', 'sbx-03', '--genre', 'Folk'], reached: (o) => o.id },
  { argv: () => ['release', 'submit', 'SBX-03', '--dry-run'], code: 3, reached: (o) => o.release_id },
  { argv: () => ['track', 'list', 'SBX-03'], reached: (o) => o[0].release_id },
  { argv: () => ['track', 'get', 'SBX-03', String(trackId)], reached: (o) => o.release_id },
  { argv: () => ['track', 'edit', 'SBX-03', '1', '--title', 'First Light'], reached: (o) => o.release_id },
  { argv: () => ['track', 'set', 'SBX-03', '--file', '-'], stdin: '[{"id": TRACK, "title": "First Light"}]', reached: (o) => o[0].release_id },
  { argv: () => ['track', 'replace', 'SBX-03', String(trackId), `${audio}/first-light.flac`], reached: (o) => o.release_id },
];

describe('a release named by its catalog number', () => {
  it.each(table.map((row) => [row.argv().slice(0, 2).join(' '), row] as const))('%s', async (_name, row) => {
    const r = await cli.run([...row.argv(), '--json'], row.stdin ? { stdin: row.stdin.replace('TRACK', String(trackId)) } : {});
    expect(r.code, r.stderr).toBe(row.code ?? 0);
    expect(row.reached(JSON.parse(r.stdout))).toBe(id);
  });

  it('track upload and release delete take one too', async () => {
    const scratch = await cli.json(['release', 'create', ...draftFlags, '--catalog-number', 'SBX-GONE']);
    const added = await cli.json(['track', 'upload', 'SBX-GONE', `${audio}/evening-tide.flac`]);
    expect(added).toHaveLength(1);
    expect((await cli.json(['track', 'list', String(scratch.id)]))[0].id).toBe(added[0].id);
    const del = await cli.run(['release', 'delete', 'SBX-GONE', '--yes']);
    expect(del.code, del.stderr).toBe(0);
    expect((await cli.run(['release', 'get', String(scratch.id)])).code).toBe(5);
  });

  it('digits are an id; cat: names the catalog number, id: the id', async () => {
    expect((await cli.json(['release', 'get', String(id)])).id).toBe(id);
    expect((await cli.json(['release', 'get', `cat:${id}`])).id).toBe(digitsId);
    expect((await cli.json(['release', 'get', `id:${digitsId}`])).id).toBe(digitsId);
    expect((await cli.json(['release', 'get', 'CAT:sbx-03'])).id).toBe(id);
  });

  it('an unknown catalog number is not found, naming it; nothing is changed', async () => {
    const r = await cli.run(['release', 'edit', 'SBX-99', '--genre', 'Rock']);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe('error: no release with catalog number "SBX-99"\nhint: see your releases and their catalog numbers with `reldist release list`\n');
    const digits = await cli.run(['track', 'list', 'cat:4242']);
    expect(digits.code).toBe(5);
    expect(digits.stderr).toContain('hint: to name the release with id 4242, write id:4242');
    const bad = await cli.run(['release', 'get', 'a-catalog-number-far-too-long']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: release: expected a release id \(digits\) or a catalog number \(1 to 20 characters\)/);
  });

  it('--help says how a release is named', async () => {
    for (const argv of [
      ['release', 'get'],
      ['release', 'edit'],
      ['release', 'delete'],
      ['release', 'submit'],
      ['track', 'list'],
      ['track', 'edit'],
      ['track', 'set'],
    ]) {
      const r = await cli.run([...argv, '--help']);
      expect(r.stdout.replace(/\s+/g, ' '), argv.join(' ')).toMatch(/catalog number.*cat:42/);
    }
  });
});
