// `reldist release …` against the real reference service: goldens for both output modes, the
// all-or-nothing create, confirmations, and the exit codes of submit.
import { mkdtemp, rm, writeFile, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeConfigDir, runCli, transcript, writeWav, type RunResult } from './cli-harness.js';

let server: TestServer;
let config: { dir: string; cleanup(): Promise<void> };
let work: string;

const golden = (name: string) => `../fixtures/golden/release/${name}.txt`;
const run = (argv: string[], o: { tty?: boolean; stdin?: string; token?: string } = {}): Promise<RunResult> =>
  runCli(argv, { url: server.url, token: o.token ?? server.tokens.label, configDir: config.dir, ...o });
const json = async <T = any>(argv: string[]): Promise<T> => {
  const r = await run([...argv, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};

const flags = ['--type', 'single', '--title', 'Northern Sky', '--artist', 'Nina Vale', '--label', 'Northern Lights Records', '--genre', 'Pop', '--language', 'en'];

beforeAll(async () => {
  server = await startTestServer();
  config = await makeConfigDir();
  work = await mkdtemp(join(tmpdir(), 'reldist-release-'));
});

afterAll(async () => {
  await server?.close();
  await config?.cleanup();
  await rm(work, { recursive: true, force: true });
});

describe('release create', () => {
  it('creates a draft from flags (piped, terminal, --json)', async () => {
    await expect(transcript(await run(['release', 'create', ...flags]))).toMatchFileSnapshot(golden('create-flags.piped'));
    await expect(transcript(await run(['release', 'create', ...flags, '--release-version', 'Acoustic'], { tty: true }))).toMatchFileSnapshot(golden('create-flags.tty'));
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
    const tty = await run(['release', 'create', '--file', 'examples/first-release/release.yaml'], { tty: true });
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

  it('deletes the draft again when the service refuses a track, and says so', async () => {
    await cp('examples/first-release/audio/first-light.flac', join(work, 'good.flac'));
    await writeWav(join(work, 'mono.wav'), { seconds: 31, channels: 1 });
    await writeFile(
      join(work, 'release.yaml'),
      'type: single\ntitle: Half Written\nartists: [{ name: Nina Vale, role: primary }]\nlabel: Northern Lights Records\n' +
        'tracks:\n  - file: good.flac\n  - file: mono.wav\n    title: Mono Take\ndelivery: { release_date: "2030-01-11" }\n',
    );
    const before = await json<any[]>(['release', 'list']);
    const r = await run(['release', 'create', '--file', join(work, 'release.yaml')]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    const lines = r.stderr.replace(/req_[\w-]+/g, 'req_<id>').split('\n');
    expect(lines[0]).toBe('error: mono.wav: the audio has 1 channel; it must be stereo (2 channels) (request req_<id>)');
    expect(lines[1]).toBe(
      `error: could not create the release from ${join(work, 'release.yaml')}: 1 of 2 audio files were refused (mono.wav); the draft release ${before.length + 1} was deleted, nothing was kept`,
    );
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
});

describe('release list and get', () => {
  it('lists in both modes and as one JSON array', async () => {
    await expect(transcript(await run(['release', 'list', '--status', 'draft']))).toMatchFileSnapshot(golden('list-draft.piped'));
    await expect(transcript(await run(['release', 'list'], { tty: true }))).toMatchFileSnapshot(golden('list.tty'));
    const all = await json<any[]>(['release', 'list']);
    expect(all.map((r) => r.id)).toEqual([5, 4, 3, 2, 1]);
  });

  it('walks every page with --all into one array', async () => {
    const all = await json<any[]>(['release', 'list', '--all', '--per-page', '2']);
    expect(all.map((r) => r.id)).toEqual([5, 4, 3, 2, 1]);
    const page = await json<any[]>(['release', 'list', '--page', '2', '--per-page', '2']);
    expect(page.map((r) => r.id)).toEqual([3, 2]);
    const bad = await run(['release', 'list', '--per-page', '500']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --per-page: expected a whole number from 1 to 100, got "500"\n/);
    const status = await run(['release', 'list', '--status', 'published']);
    expect(status.stderr).toMatch(/^error: --status: expected one of draft, in_review, approved, rejected, delivered, live, taken_down, got "published"\n/);
  });

  it('shows one release (piped, terminal with its tracks)', async () => {
    await expect(transcript(await run(['release', 'get', '5']))).toMatchFileSnapshot(golden('get.piped'));
    await expect(transcript(await run(['release', 'get', '5'], { tty: true }))).toMatchFileSnapshot(golden('get.tty'));
    const missing = await run(['release', 'get', '999']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/^error: release 999 not found \(request req_[\w-]+\)\n$/);
    const bad = await run(['release', 'get', '../me']);
    expect(bad.code).toBe(2);
  });
});

describe('release edit', () => {
  it('changes metadata, delivery and video from flags', async () => {
    const r = await run(['release', 'edit', '1', '--title', 'Northern Sky', '--p-line', '2026 Northern Lights Records', '--release-date', '2030-02-01', '--territories', 'exclude:kp', '--video-enabled', 'yes', '--content-id', 'track']);
    await expect(transcript(r)).toMatchFileSnapshot(golden('edit-flags.piped'));
    const after = await json(['release', 'get', '1']);
    expect(after.delivery).toMatchObject({ release_date: '2030-02-01', territories: { mode: 'exclude', countries: ['KP'] } });
    expect(after.video).toMatchObject({ enabled: true, content_id: { enabled: true, policy: 'track' } });
  });

  it('reads parts from files (and stdin), flags winning', async () => {
    await writeFile(join(work, 'meta.yaml'), 'genre: Folk\nversion: Live\ncatalog_number: 007\n');
    const r = await run(['release', 'edit', '1', '--metadata', join(work, 'meta.yaml'), '--genre', 'Jazz', '--delivery', '-', '--json'], { stdin: '{"price_tier": "mid"}' });
    expect(r.code, r.stderr).toBe(0);
    const after = JSON.parse(r.stdout);
    expect(after).toMatchObject({ genre: 'Jazz', version: 'Live', catalog_number: '007', delivery: { price_tier: 'mid' } });
  });

  it('names the file, line and field of a bad settings file', async () => {
    await writeFile(join(work, 'video.yaml'), 'enabled: true\ncontent_id:\n  policy: sell\n');
    const r = await run(['release', 'edit', '1', '--video', join(work, 'video.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ${join(work, 'video.yaml')}:3: content_id.policy: expected one of monetize, track, block, got "sell"\nhint: fix the fields named above and run again\n`);
  });

  it('puts the metadata back when the delivery part is refused', async () => {
    const before = await json(['release', 'get', '1']);
    const r = await run(['release', 'edit', '1', '--title', 'Changed Title', '--platforms', 'no_such_store']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^error: release 1: delivery refused: .+; the metadata change was undone, nothing changed\n/);
    const after = await json(['release', 'get', '1']);
    expect(after.title).toBe(before.title);
    expect(after.delivery.platforms).toEqual(before.delivery.platforms);
  });

  it('adds a featured artist without dropping the primary ones', async () => {
    const r = await run(['release', 'edit', '1', '--featuring', 'Kai Moreno', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).artists).toEqual([{ name: 'Nina Vale', role: 'primary' }, { name: 'Kai Moreno', role: 'featuring' }]);
  });

  it('says there is nothing to change', async () => {
    const r = await run(['release', 'edit', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: nothing to change\n/);
  });
});

describe('release submit', () => {
  it('shows every blocking problem grouped by field and exits 3 (piped, terminal)', async () => {
    const piped = await run(['release', 'submit', '2']);
    expect(piped.code).toBe(3);
    await expect(transcript(piped)).toMatchFileSnapshot(golden('submit-blocked.piped'));
    const tty = await run(['release', 'submit', '2'], { tty: true });
    expect(tty.code).toBe(3);
    await expect(transcript(tty)).toMatchFileSnapshot(golden('submit-blocked.tty'));
    expect((await json(['release', 'get', '2'])).status).toBe('draft');
  });

  it('checks with --dry-run without submitting', async () => {
    const dry = await run(['release', 'submit', '5', '--dry-run'], { tty: true });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^release 5: ready to submit \(dry run: /);
    expect((await json(['release', 'get', '5'])).status).toBe('draft');
  });

  it('reports each of several releases; the exit status is the worst', async () => {
    const r = await run(['release', 'submit', '5', '2', '999']);
    expect(r.code).toBe(5);
    await expect(transcript(r)).toMatchFileSnapshot(golden('submit-several.piped'));
    expect((await json(['release', 'get', '5'])).status).toBe('in_review');
    const two = await run(['release', 'submit', '2', '3', '--json']);
    expect(two.code).toBe(3);
    const outcomes = JSON.parse(two.stdout);
    expect(outcomes.map((o: any) => [o.release_id, o.outcome])).toEqual([['2', 'blocked'], ['3', 'blocked']]);
    // --json: the error too is one JSON object, on stderr.
    expect(JSON.parse(two.stderr).error.message).toBe('2 of 2 releases were not submitted');
  });

  it('reports a release that cannot be submitted in its state', async () => {
    const r = await run(['release', 'submit', '5']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: .*in_review.*\n/);
  });
});

describe('release delete', () => {
  it('needs --yes without a terminal, with a hint', async () => {
    const r = await run(['release', 'delete', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: release 3: not deleted: confirmation needed\nhint: pass --yes to delete without a prompt\n');
    expect((await json(['release', 'get', '3'])).id).toBe(3);
  });

  it('deletes with --yes', async () => {
    const r = await run(['release', 'delete', '3', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const missing = await run(['release', 'get', '3']);
    expect(missing.code).toBe(5);
    const again = await run(['release', 'delete', '3', '--yes', '--json']);
    expect(again.code).toBe(5);
    expect(JSON.parse((await run(['release', 'delete', '2', '--yes', '--json'])).stdout)).toEqual({ message: expect.any(String) });
  });

  it('cannot see another account\'s releases', async () => {
    const r = await run(['release', 'get', '1'], { token: server.tokens.artist });
    expect(r.code).toBe(5);
  });
});
