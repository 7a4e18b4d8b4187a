// `reldist release create` against the real reference service: goldens for both output modes,
// flags, release files (checked, all-or-nothing) and the wizard's refusal without a terminal.
import { mkdtemp, rm, writeFile, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcript, useCli, writeWav } from './cli-harness.js';
import { draftFlags as flags } from './release-fixtures.js';

const cli = useCli();
const golden = (name: string) => `../fixtures/golden/release/${name}.txt`;
const { run, json } = cli;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-release-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('release create', () => {
  it('creates a draft from flags (piped, terminal, --json)', async () => {
    await expect(transcript(await run(['release', 'create', ...flags]))).toMatchFileSnapshot(golden('create-flags.piped'));
    await expect(transcript(await run(['release', 'create', ...flags, '--release-version', 'Acoustic'], { tty: true }))).toMatchFileSnapshot(
      golden('create-flags.tty'),
    );
    const r = await json(['release', 'create', ...flags, '--p-line', '2026 Northern Lights Records', '--explicit', 'clean']);
    expect(r).toMatchObject({ id: 3, status: 'draft', title: 'Northern Sky', explicit: 'clean', p_line: { year: 2026, owner: 'Northern Lights Records' } });
  });

  it('names every missing required flag, and never prompts without a terminal', async () => {
    const r = await run(['release', 'create', '--title', 'Northern Sky']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: missing --type, --artist, --label: a release needs a type, a title, a primary artist and a label\n' +
        'hint: pass them as flags, give a release file with --file, or run on a terminal without --no-input for the wizard\n',
    );
  });

  it('names the flag of a bad value', async () => {
    const bad = await run(['release', 'create', ...flags, '--explicit', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --explicit: expected one of explicit, not_explicit, clean, got "maybe"\n/);
    const line = await run(['release', 'create', ...flags, '--p-line', 'Northern Lights']);
    expect(line.stderr).toMatch(/^error: --p-line: expected "<year> <owner>", e\.g\. "2026 Northern Lights Records", got "Northern Lights"\n/);
    expect((await json(['release', 'list'])).length).toBe(3);
  });

  it('creates, uploads, attaches, applies settings and submits from the example release file', async () => {
    const piped = await run(['release', 'create', '--file', 'examples/first-release/release.yaml', '--submit']);
    await expect(transcript(piped)).toMatchFileSnapshot(golden('create-file-submit.piped'));
    expect(piped.code).toBe(0);
    // The same file again: its catalog number is taken, and apply is the way to update it.
    const again = await run(['release', 'create', '--file', 'examples/first-release/release.yaml']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      'error: catalog number NLR-0001 is already release 4 (in review)\n' +
        'hint: run `reldist release apply examples/first-release/release.yaml` to update it, or change catalog_number\n',
    );
    const tty = await run(['release', 'create', '--file', 'examples/first-release/release.yaml', '--catalog-number', 'NLR-0002'], { tty: true });
    await expect(transcript(tty)).toMatchFileSnapshot(golden('create-file.tty'));
    const release = await json(['release', 'get', '5']);
    expect(release.tracks.map((t: any) => [t.title, t.file.state, t.contributors[0].role])).toEqual([
      ['First Light', 'ready', 'composer'],
      ['Evening Tide', 'ready', 'composer'],
    ]);
    expect(release.delivery).toMatchObject({ release_date: '2030-01-11', price_tier: 'front' });
    expect(release.video).toMatchObject({ enabled: true, art_tracks: true });
    // The example passes every blocking check (the Quick start depends on it).
    const dry = await json(['release', 'submit', '5', '--dry-run']);
    expect(dry.problems.filter((p: any) => p.severity === 'error')).toEqual([]);
  });

  it('reports every problem of a release file with its line, and sends nothing', async () => {
    const before = (await json(['release', 'list'])).length;
    const r = await run(['release', 'create', '--file', 'test/fixtures/release-files/bad.yaml']);
    await expect(transcript(r)).toMatchFileSnapshot(golden('create-file-bad.piped'));
    expect(r.code).toBe(2);
    expect((await json(['release', 'list'])).length).toBe(before);
  });

  it('with --json, puts every problem of a bad file in the one JSON error object', async () => {
    const r = await run(['release', 'create', '--file', 'test/fixtures/release-files/bad.yaml', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const { error } = JSON.parse(lines[0]!);
    expect(error.code).toBe('usage');
    expect(error.details.length).toBeGreaterThan(1);
    for (const d of error.details) expect(d).toMatch(/^test\/fixtures\/release-files\/bad\.yaml(:\d+)?: /);
  });

  it('refuses locally a track the service would refuse: no draft is created, nothing is uploaded', async () => {
    await cp('examples/first-release/audio/first-light.flac', join(work, 'good.flac'));
    await writeWav(join(work, 'mono.wav'), { seconds: 31, channels: 1 });
    await writeFile(
      join(work, 'release.yaml'),
      'type: single\ntitle: Half Written\nartists: [{ name: Nina Vale, role: primary }]\nlabel: Northern Lights Records\n' +
        'tracks:\n  - file: good.flac\n  - file: mono.wav\n    title: Mono Take\ndelivery: { release_date: "2030-01-11" }\n',
    );
    const before = await json<any[]>(['release', 'list']);
    const r = await run(['release', 'create', '--file', join(work, 'release.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe('error: mono.wav: the audio has 1 channel; it must be stereo (2 channels)');
    expect(lines[1]).toBe('error: 1 of 2 files would be refused by the service; nothing was created');
    // --check runs the same audio rules.
    expect((await run(['release', 'create', '--file', join(work, 'release.yaml'), '--check'])).code).toBe(2);
    // --json: the bad file as a JSON line, then the error; nothing plain.
    const j = await run(['release', 'create', '--file', join(work, 'release.yaml'), '--json']);
    expect([j.code, j.stdout]).toEqual([2, '']);
    expect(
      j.stderr
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { file: 'mono.wav', code: 'audio_not_stereo', message: 'the audio has 1 channel; it must be stereo (2 channels)' },
      { error: expect.objectContaining({ code: 'bad_input_files', message: '1 of 2 files would be refused by the service; nothing was created' }) },
    ]);
    const after = await json<any[]>(['release', 'list']);
    expect(after.map((x) => x.id)).toEqual(before.map((x) => x.id));
  });

  it('checks a file with --check and creates nothing', async () => {
    const before = (await json(['release', 'list'])).length;
    const r = await run(['release', 'create', '--file', 'examples/first-release/release.yaml', '--check', '--title', 'First Light (Check)']);
    expect(r.code).toBe(0);
    const plan = await json(['release', 'create', '--file', 'examples/first-release/release.yaml', '--check']);
    expect(plan.tracks.map((t: any) => t.file)).toEqual(['examples/first-release/audio/first-light.flac', 'examples/first-release/audio/evening-tide.flac']);
    expect(r.stdout).toContain('  Title:     First Light (Check)\n');
    expect((await json(['release', 'list'])).length).toBe(before);
  });

  it('--check runs every submit check: a plan the submit would block exits 3 with all its problems, nothing created', async () => {
    await cp('examples/first-release/audio/first-light.flac', join(work, 'check.flac'));
    await writeFile(
      join(work, 'blocked.yaml'),
      'type: single\ntitle: Night Drive (Official)\nartists: [{ name: Nina Vale, role: primary }]\nlabel: Northern Lights Records\n' +
        'upc: "036000291453"\ntracks:\n  - file: check.flac\n    title: Night Drive feat. Jo\n',
    );
    const before = (await json(['release', 'list'])).length;
    const r = await run(['release', 'create', '--file', join(work, 'blocked.yaml'), '--check']);
    expect(r.code, r.stderr).toBe(3);
    for (const code of ['required', 'title_has_marketing_words', 'upc_invalid', 'title_has_featuring', 'composer_missing']) expect(r.stdout).toContain(code);
    expect(r.stderr).toMatch(/would be blocked: \d+ blocking problems/);
    const j = await run(['release', 'create', '--file', join(work, 'blocked.yaml'), '--check', '--json']);
    expect(j.code).toBe(3);
    const out = JSON.parse(j.stdout);
    expect(out.outcome).toBe('blocked');
    expect(out.problems.map((p: { path: string }) => p.path)).toContain('delivery.release_date');
    expect((await json(['release', 'list'])).length).toBe(before);
  });
});
