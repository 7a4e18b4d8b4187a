// One set of rules at every door: a value that can never pass (a malformed UPC or ISRC, an
// impossible date, an ISRC already on another track) is refused where it enters, exit 2, with
// nothing sent; what the submit would block is a warning with the submit's own code and words.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';
import { draftFlags } from './release-fixtures.js';

const cli = useCli();
const audio = resolve('examples/first-release/audio');
let dir: string;
let id: number;

const releases = async () => (await cli.json<any[]>(['release', 'list', '--all'])).map((r) => `${r.id} ${r.updated_at}`);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reldist-doors-'));
  id = (await cli.json(['release', 'create', ...draftFlags, '--catalog-number', 'DOOR-1'])).id;
  const r = await cli.run(['track', 'upload', String(id), `${audio}/first-light.flac`, `${audio}/evening-tide.flac`]);
  expect(r.code, r.stderr).toBe(0);
  const isrc = await cli.run(['track', 'edit', String(id), '1', '--isrc', 'GBNLR2600011']);
  expect(isrc.code, isrc.stderr).toBe(0);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('refused at once, nothing sent', () => {
  it('release create and release edit flags: a malformed UPC, an impossible date', async () => {
    const before = await releases();
    const upc = await cli.run(['release', 'create', ...draftFlags, '--upc', '3.6E+11']);
    expect(upc.code).toBe(2);
    expect(upc.stderr).toMatch(/^error: --upc: upc_invalid: the UPC 3\.6E\+11 is invalid: .*; nothing was created\n/);
    const date = await cli.run(['release', 'create', ...draftFlags, '--release-date', '2027-02-30']);
    expect(date.code).toBe(2);
    expect(date.stderr).toMatch(/^error: --release-date: /);
    const edit = await cli.run(['release', 'edit', 'DOOR-1', '--upc', '3.6E+11', '--title', 'Northern Sky']);
    expect(edit.code).toBe(2);
    expect(edit.stderr).toMatch(/^error: --upc: upc_invalid: .*; nothing was changed\n/);
    expect(await releases()).toEqual(before);
  });

  it('release edit --metadata: named by file:line', async () => {
    const before = await releases();
    const file = join(dir, 'meta.yaml');
    await writeFile(file, 'title: Northern Sky\nupc: "036000291453"\n');
    const r = await cli.run(['release', 'edit', String(id), '--metadata', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${file}:2: upc: upc_invalid: the UPC 036000291453 is invalid`);
    expect(await releases()).toEqual(before);
  });

  it('release files: create --file and apply --plan refuse a bad ISRC and a shared one, by file:line', async () => {
    const before = await releases();
    const file = join(dir, 'release.yaml');
    await writeFile(
      file,
      [
        'type: ep',
        'title: Harbour Lights',
        'artists: [{ name: Nina Vale, role: primary }]',
        'label: Northern Lights Records',
        'catalog_number: DOOR-2',
        'tracks:',
        `  - file: ${audio}/first-light.flac`,
        '    isrc: GBNLR2600021',
        `  - file: ${audio}/evening-tide.flac`,
        '    isrc: GB-NLR-26-00021',
        '',
      ].join('\n'),
    );
    for (const argv of [
      ['release', 'create', '--file', file],
      ['release', 'apply', file, '--plan'],
      ['release', 'apply', file],
    ]) {
      const r = await cli.run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toContain(`${file}:10: tracks.1.isrc: isrc_duplicate: track 2 has the same ISRC GBNLR2600021 as track 1`);
    }
    await writeFile(file, (await import('node:fs')).readFileSync(file, 'utf8').replace('GBNLR2600021', 'GBNLR26000X1'));
    const bad = await cli.run(['release', 'create', '--file', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(new RegExp(`^error: ${file.replace(/[.]/g, '\\.')}:8: tracks\\.0\\.isrc: isrc_invalid: the ISRC GBNLR26000X1 is invalid`));
    expect(await releases()).toEqual(before);
  });

  it('track edit and track set: an ISRC already on another track of the release', async () => {
    const tracks = await cli.json<any[]>(['track', 'list', String(id)]);
    const edit = await cli.run(['track', 'edit', String(id), '2', '--isrc', 'gb-nlr-26-00011']);
    expect(edit.code).toBe(2);
    expect(edit.stderr).toMatch(/^error: --isrc: isrc_duplicate: track 2 has the same ISRC GBNLR2600011 as track 1; nothing was changed\n/);
    const list = `[{"id": ${tracks[0].id}, "title": "First Light"},\n {"id": ${tracks[1].id}, "title": "Evening Tide", "isrc": "GBNLR2600011"}]`;
    const set = await cli.run(['track', 'set', String(id), '--file', '-'], { stdin: list });
    expect(set.code).toBe(2);
    expect(set.stderr).toMatch(/^error: stdin:2: tracks\.1\.isrc: isrc_duplicate: track 2 has the same ISRC GBNLR2600011 as track 1; nothing was changed\n/);
    // The edited track first: the rule reports on the later one, the refusal is still this edit's.
    const first = await cli.run(['track', 'edit', String(id), '2', '--isrc', 'GBNLR2600012']);
    expect(first.code, first.stderr).toBe(0);
    const back = await cli.run(['track', 'edit', String(id), '1', '--isrc', 'GBNLR2600012']);
    expect(back.code).toBe(2);
    expect(back.stderr).toMatch(/^error: --isrc: isrc_duplicate: /);
    const after = await cli.json<any[]>(['track', 'list', String(id)]);
    expect(after.map((t) => t.isrc)).toEqual(['GBNLR2600011', 'GBNLR2600012']);
  });
});

describe('what the submit would block is warned at once, in its words', () => {
  it("flags, edits and files warn with the submit check's code; the value is saved", async () => {
    const created = await cli.run(['release', 'create', ...draftFlags.map((v) => (v === 'Northern Sky' ? 'Northern Sky feat. Kai' : v)), '--json']);
    expect(created.code, created.stderr).toBe(0);
    const warning = created.stderr.split('\n').find((l) => l.startsWith('{"warning"'));
    expect(JSON.parse(warning!).warning).toMatchObject({ where: '--title', code: 'title_has_featuring', blocks_submit: true });
    const newId = JSON.parse(created.stdout).id;
    const dry = await cli.run(['release', 'submit', String(newId), '--dry-run', '--json']);
    expect(dry.code).toBe(3);
    const submit = JSON.parse(dry.stdout);
    const atSubmit = submit.problems.find((p: any) => p.code === 'title_has_featuring');
    expect(JSON.parse(warning!).warning.message).toBe(atSubmit.message);

    const edit = await cli.run(['track', 'edit', String(id), '1', '--title', 'First Light (Official Video)']);
    expect(edit.code, edit.stderr).toBe(0);
    expect(edit.stderr).toBe(
      'warning: --title: title_has_marketing_words: "First Light (Official Video)" contains "Official"; the submit will refuse it (hint: Stores refuse marketing words in titles; remove them.)\n',
    );
    expect((await cli.json<any[]>(['track', 'list', String(id)]))[0].title).toBe('First Light (Official Video)');
    const release = await cli.run(['release', 'edit', String(id), '--title', 'Exclusive Northern Sky']);
    expect(release.code, release.stderr).toBe(0);
    expect(release.stderr).toMatch(/^warning: --title: title_has_marketing_words: "Exclusive Northern Sky" contains "Exclusive"; the submit will refuse it/);
    const quiet = await cli.run(['release', 'edit', String(id), '--title', 'Exclusive Northern Sky', '--quiet']);
    expect(quiet.stderr).toBe('');
  });
});
