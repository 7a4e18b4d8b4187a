// `reldist release apply` against the real reference service: plan, create and submit, converge
// (no writes the second time, counted by a pass-through fault proxy), updates, skips, file
// problems, shards, reports and exit codes.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { makeWav } from '../helpers/audio.js';
import { releaseYaml } from '../helpers/release-yaml.js';
import { useCli, type RunResult } from './cli-harness.js';
import { api } from '../helpers/server.js';
import { jsonLines } from '../helpers/json-lines.js';

const cli = useCli();
let work: string;
let proxy: FaultProxy;

/** Through the proxy (no faults), so that every request the service receives is counted. */
const run = (argv: string[], o: { tty?: boolean } = {}): Promise<RunResult> => cli.run(['release', 'apply', ...argv], { url: proxy.url, ...o });

async function writeRelease(dir: string, name: string, cn: string, o: Partial<Parameters<typeof releaseYaml>[1]> = {}): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  await writeFile(path, releaseYaml(cn, { audio: join(work, 'a.wav'), ...o }));
  return path;
}

function mutations(p: FaultProxy): number {
  return Object.entries(p.stats.byRoute)
    .filter(([k]) => !k.startsWith('GET '))
    .reduce((n, [, s]) => n + s.requests, 0);
}

/** What a terminal shows of stderr: a line cleared in place (`\\r` ESC[2K, the progress line's redraw) keeps only what follows. */
const onScreen = (text: string) =>
  text
    .split('\n')
    .map((line) => line.split('\r\x1b[2K').at(-1))
    .join('\n');

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-apply-'));
  await writeFile(join(work, 'a.wav'), makeWav({ seconds: 30 }));
  await writeFile(join(work, 'b.wav'), makeWav({ seconds: 31 }));
  proxy = await startFaultProxy({ target: cli.server.url, seed: 1, faults: {} });
});
afterAll(async () => {
  await proxy?.close();
  await rm(work, { recursive: true, force: true });
});

describe('release apply', () => {
  it('plans (+, exit 8), creates and submits, then converges with no writes (=, exit 0)', async () => {
    const dir = join(work, 'one');
    await writeRelease(dir, 'r1.yaml', 'APL-0001');
    await writeRelease(join(dir, 'nested'), 'r2.yml', 'APL-0002');

    const plan = await run([dir, '--plan', '--submit']);
    expect(plan.code, plan.stderr).toBe(8);
    expect(plan.stdout).toMatch(/^\+ APL-0001  .*r1\.yaml  new release, 1 track; delivery; submit$/m);
    expect(plan.stdout).toMatch(/^\+ APL-0002  .*r2\.yml/m);
    expect(plan.stdout).toMatch(/^2 to create, 0 to update, 2 to submit, 0 unchanged, 0 skipped$/m);
    // Exit 8 is the plan's answer, not an error: nothing on stderr.
    expect(plan.stderr).toBe('');

    const applied = await run([dir, '--submit', '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    const lines = jsonLines(applied.stdout);
    expect(lines.map((l) => [l.catalog_number, l.action, l.outcome, l.status]).sort()).toEqual([
      ['APL-0001', 'create', 'submitted', 'in_review'],
      ['APL-0002', 'create', 'submitted', 'in_review'],
    ]);

    proxy.resetStats();
    const again = await run([dir, '--submit', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(jsonLines(again.stdout).map((l) => l.outcome)).toEqual(['skipped', 'skipped']);
    expect(mutations(proxy)).toBe(0);
    const plan2 = await run([dir, '--plan', '--submit']);
    expect(plan2.code).toBe(0);
    expect(plan2.stdout).toMatch(/^! APL-0001 .*in review/m);
  });

  it('updates only what changed: a title, and one audio file (one upload)', async () => {
    const dir = join(work, 'update');
    const file = await writeRelease(dir, 'r.yaml', 'APL-0100');
    const first = await run([file]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/\tAPL-0100\t\d+\tcreate\tcreated\tdraft\t$/m);

    proxy.resetStats();
    const same = await run([file, '--json']);
    expect(jsonLines(same.stdout)[0]).toMatchObject({ action: 'unchanged', outcome: 'unchanged' });
    expect(mutations(proxy)).toBe(0);

    await writeRelease(dir, 'r.yaml', 'APL-0100', { title: 'New Title', audio: join(work, 'b.wav') });
    const plan = await run([file, '--plan']);
    expect(plan.code).toBe(8);
    expect(plan.stdout).toMatch(/~ APL-0100 .*title: "Song APL-0100" → "New Title"; track 1 audio/);
    proxy.resetStats();
    const upd = await run([file, '--json']);
    expect(jsonLines(upd.stdout)[0]).toMatchObject({ action: 'update', outcome: 'updated', status: 'draft', error: null });
    expect(proxy.stats.byRoute['PUT /uploads/{key}']?.requests).toBe(1);
    expect(proxy.stats.byRoute['PATCH /releases/{releaseId}/metadata']?.requests).toBe(1);
    expect(proxy.stats.byRoute['PATCH /releases/{releaseId}/delivery']).toBeUndefined();
    expect((await run([file, '--plan'])).code).toBe(0);
  });

  it('plans a release again, once, when someone changes its tracks between the plan and the write', async () => {
    const dir = join(work, 'moved');
    const file = await writeRelease(dir, 'r.yaml', 'APL-0300');
    const first = await run([file, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const releaseId = String(jsonLines(first.stdout)[0].release_id);
    await writeRelease(dir, 'r.yaml', 'APL-0300', { audio: join(work, 'b.wav') });
    // Just before apply's PUT of the tracks reaches the service, someone else renames the track.
    let interfered = 0;
    const statuses: number[] = [];
    const meddler = await startFaultProxy({
      target: cli.server.url,
      seed: 1,
      faults: {},
      onRequest: async (e) => {
        if (e.method !== 'PUT' || e.route !== '/releases/{releaseId}/tracks' || interfered++ > 0) return;
        const edit = await cli.run(['track', 'edit', releaseId, '1', '--title', 'Renamed Elsewhere']);
        expect(edit.code, edit.stderr).toBe(0);
      },
      onAnswered: (e) => {
        if (e.method === 'PUT' && e.route === '/releases/{releaseId}/tracks') statuses.push(e.status);
      },
    });
    try {
      const r = await cli.run(['release', 'apply', file, '--json'], { url: meddler.url });
      expect(r.code, r.stderr).toBe(0);
      expect(jsonLines(r.stdout)[0]).toMatchObject({ action: 'update', outcome: 'updated', error: null });
      expect(statuses).toEqual([412, 200]);
    } finally {
      await meddler.close();
    }
    const tracks = JSON.parse((await cli.run(['track', 'list', releaseId, '--json'])).stdout);
    expect(tracks).toHaveLength(1);
    expect(tracks[0].file.filename).toBe('b.wav');
    expect((await run([file, '--plan'])).code).toBe(0);
  });

  it('writes the release only over the state it read (If-Match): a change by someone else in between plans it again', async () => {
    const dir = join(work, 'moved-release');
    const file = await writeRelease(dir, 'r.yaml', 'APL-0310');
    const first = await run([file, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const releaseId = String(jsonLines(first.stdout)[0].release_id);
    await writeFile(file, (await readFile(file, 'utf8')).replace('release_date: "2030-01-11"', 'release_date: "2030-02-15"'));
    // Just before apply's PATCH of the delivery reaches the service, someone else retitles the release.
    let interfered = 0;
    const statuses: string[] = [];
    const meddler = await startFaultProxy({
      target: cli.server.url,
      seed: 1,
      faults: {},
      onRequest: async (e) => {
        if (e.method !== 'PATCH' || e.route !== '/releases/{releaseId}/delivery' || interfered++ > 0) return;
        expect((await api(cli.server, cli.server.tokens.label, 'PATCH', `/releases/${releaseId}/metadata`, { title: 'Renamed Elsewhere' })).status).toBe(200);
      },
      onAnswered: (e) => {
        if (e.method === 'PATCH') statuses.push(`${e.route.split('/').pop()} ${e.status}`);
      },
    });
    try {
      const r = await cli.run(['release', 'apply', file, '--json'], { url: meddler.url });
      expect(r.code, r.stderr).toBe(0);
      expect(jsonLines(r.stdout)[0]).toMatchObject({ action: 'update', outcome: 'updated', error: null });
      // Refused as based on a stale read; planned again: the title back to the file's, then the delivery.
      expect(statuses).toEqual(['delivery 412', 'metadata 200', 'delivery 200']);
    } finally {
      await meddler.close();
    }
    const now = (await api(cli.server, cli.server.tokens.label, 'GET', `/releases/${releaseId}`)).body;
    expect(now).toMatchObject({ title: 'Song APL-0310', delivery: { release_date: '2030-02-15' } });
    expect((await run([file, '--plan'])).code).toBe(0);
  });

  it('refuses files without a catalog number, or sharing one, before sending anything (exit 2)', async () => {
    const dir = join(work, 'bad');
    await writeRelease(dir, 'a.yaml', 'APL-0200');
    await writeRelease(dir, 'b.yaml', 'apl-0200 ');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'c.yaml'), releaseYaml('X', { audio: join(work, 'a.wav') }).replace(/^catalog_number: .*\n/m, ''));
    proxy.resetStats();
    const r = await run([dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/c\.yaml: catalog_number: missing/);
    expect(r.stderr).toMatch(/b\.yaml: catalog_number: "apl-0200" is also the catalog number of .*a\.yaml/);
    expect(proxy.stats.requests).toBe(0);
  });

  it('refuses, before anything is sent, an audio file the service would refuse, with its reason (exit 2: a bad input file)', async () => {
    const dir = join(work, 'bad-audio');
    await writeFile(join(work, 'mono.wav'), makeWav({ seconds: 31, channels: 1 }));
    await writeRelease(dir, 'good.yaml', 'APL-0300');
    await writeRelease(dir, 'mono.yaml', 'APL-0301', { audio: join(work, 'mono.wav') });
    proxy.resetStats();
    for (const argv of [[dir], [dir, '--plan']]) {
      const r = await run(argv);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        `error: ${join(dir, 'mono.yaml')}: ${join(work, 'mono.wav')}: the audio has 1 channel; it must be stereo (2 channels)\n` +
          'error: 1 of 2 files would be refused by the service; nothing was sent\n' +
          "hint: the reasons are listed above; 'reldist track check FILE' shows each file's format and every problem\n",
      );
    }
    // A file that is not audio, under --json: its JSON line on stderr (and the release file naming it), then the error.
    await writeFile(join(work, 'notes.wav'), 'liner notes, not audio');
    await writeRelease(dir, 'notes.yaml', 'APL-0302', { audio: join(work, 'notes.wav') });
    const j = await run([dir, '--json']);
    expect([j.code, j.stdout]).toEqual([2, '']);
    expect(
      j.stderr
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      {
        file: join(work, 'mono.wav'),
        code: 'audio_not_stereo',
        message: 'the audio has 1 channel; it must be stereo (2 channels)',
        named_in: join(dir, 'mono.yaml'),
      },
      {
        file: join(work, 'notes.wav'),
        code: 'audio_unrecognized',
        message: 'the file is not audio in any format we can read; upload WAV, FLAC or AIFF',
        named_in: join(dir, 'notes.yaml'),
      },
      { error: expect.objectContaining({ code: 'bad_input_files', message: '2 of 3 files would be refused by the service; nothing was sent' }) },
    ]);
    // Not a release made, not a byte uploaded, not even a look-up.
    expect(proxy.stats.requests).toBe(0);
  });

  it('splits the files over 3 shards, each exactly once', async () => {
    const dir = join(work, 'shards');
    for (let i = 0; i < 9; i++) await writeRelease(dir, `s${i}.yaml`, `SHD-${i}`);
    const seen: string[] = [];
    for (const s of ['1/3', '2/3', '3/3']) {
      const r = await run([dir, '--plan', '--shard', s, '--json']);
      expect([0, 8]).toContain(r.code);
      seen.push(...jsonLines(r.stdout).map((l) => l.catalog_number));
    }
    expect(seen.sort()).toEqual(Array.from({ length: 9 }, (_, i) => `SHD-${i}`));
    expect((await run([dir, '--shard', '4/3'])).code).toBe(2);
  });

  it('writes a report as it goes, and --only-failed retries what failed or was blocked (exit 3 when blocked)', async () => {
    const dir = join(work, 'report');
    // An original release date after the release date blocks the submit; the other goes through.
    await writeRelease(dir, 'ok.yaml', 'REP-1');
    await writeRelease(dir, 'late.yaml', 'REP-2', { original: '2031-01-01' });
    const report = join(work, 'report.jsonl');
    const r = await run([dir, '--submit', '--report', report]);
    const lines = jsonLines(await readFile(report, 'utf8'));
    const byCn = Object.fromEntries(lines.map((l) => [l.catalog_number, l]));
    expect(byCn['REP-1']).toMatchObject({ outcome: 'submitted', status: 'in_review' });
    expect(byCn['REP-2']).toMatchObject({ outcome: 'blocked', status: 'draft' });
    expect(byCn['REP-2'].problems.length).toBeGreaterThan(0);
    expect(r.code).toBe(3);
    // Piped: the row on stdout, and right after it on stderr, why (as `release submit` shows it).
    const problem = byCn['REP-2'].problems.find((p: { severity: string }) => p.severity === 'error');
    expect(r.stdout).toMatch(/\tREP-2\t\d+\tcreate\tblocked\tdraft\t$/m);
    expect(r.stderr).toContain(`REP-2 (${join(dir, 'late.yaml')}): blocked, nothing was submitted: 1 error\n  ${problem.path}\n    error    ${problem.code}: `);
    expect(r.stderr.indexOf('blocked, nothing was submitted')).toBeLessThan(r.stderr.indexOf('error: submit blocked'));

    await writeRelease(dir, 'late.yaml', 'REP-2', { original: '2020-01-01' });
    proxy.resetStats();
    const retry = await run([dir, '--submit', '--only-failed', report, '--json']);
    expect(retry.code, retry.stderr).toBe(0);
    expect(jsonLines(retry.stdout)).toEqual([expect.objectContaining({ catalog_number: 'REP-2', outcome: 'submitted' })]);
  });

  it('on a terminal, a blocked release is followed by its problems', async () => {
    const file = await writeRelease(join(work, 'tty-blocked'), 'r.yaml', 'TTYB-1', { original: '2031-01-01' });
    const r = await run([file, '--submit'], { tty: true });
    expect(r.code).toBe(3);
    expect(onScreen(r.stderr)).toMatch(/^\[1\/1\] TTYB-1 blocked, nothing was submitted: 1 error\n  original_release_date\n    error    \w+: .*\n/m);
  });

  it('--plan --submit runs the submit checks of `release create --check`: a release they would block is marked ! with its problems (exit 3, over 8)', async () => {
    const dir = join(work, 'plan-blocked');
    const feat = await writeRelease(dir, 'feat.yaml', 'PLB-1', { title: 'My Song feat. Bob' });
    await writeRelease(dir, 'fine.yaml', 'PLB-2');
    const check = await cli.run(['release', 'create', '--file', feat, '--check', '--json'], {});
    expect(check.code).toBe(3);
    const checkCodes = (JSON.parse(check.stdout).problems as { code: string }[]).map((p) => p.code);
    expect(checkCodes).toContain('title_has_featuring');

    const plan = await run([dir, '--plan', '--submit']);
    expect(plan.code, plan.stderr).toBe(3);
    expect(plan.stdout).toMatch(
      /^! PLB-1  .*feat\.yaml  new release, 1 track; delivery; submit would be blocked \(1 error\)\n    title\n      error    title_has_featuring: "My Song feat\. Bob" credits an artist in the title/m,
    );
    expect(plan.stdout).toMatch(/^\+ PLB-2  .*fine\.yaml  new release, 1 track; delivery; submit$/m);
    expect(plan.stdout).toMatch(/^2 to create, 0 to update, 1 to submit, 1 blocked at submit, 0 unchanged, 0 skipped$/m);
    expect(plan.stderr).toMatch(/^error: 1 of 2 releases would be blocked at submit: PLB-1$/m);
    const json = await run([dir, '--plan', '--submit', '--json']);
    expect(json.code).toBe(3);
    const byCn = Object.fromEntries(jsonLines(json.stdout).map((l) => [l.catalog_number, l]));
    expect(byCn['PLB-1']).toMatchObject({ submit: true, submit_blocked: true });
    expect(byCn['PLB-1'].problems.map((p: { code: string }) => p.code)).toEqual(checkCodes);
    expect(byCn['PLB-2']).toMatchObject({ submit: true, submit_blocked: false, problems: [] });
    // Without --submit there is nothing to check: pending changes, exit 8.
    expect((await run([dir, '--plan'])).code).toBe(8);

    // Over an existing draft: the file's title is checked against what the service keeps.
    const made = await run([join(dir, 'fine.yaml')]);
    expect(made.code, made.stderr).toBe(0);
    await writeRelease(dir, 'fine.yaml', 'PLB-2', { title: 'Other Song (Official Video)' });
    const update = await run([join(dir, 'fine.yaml'), '--plan', '--submit']);
    expect(update.code).toBe(3);
    expect(update.stdout).toMatch(/^! PLB-2  .*title: "Song PLB-2" → "Other Song \(Official Video\)"; submit would be blocked \(1 error\)$/m);
    expect(update.stdout).toMatch(/title_has_marketing_words/);
  });

  it('says which step failed, what exists and what to run next (exit 1), and never deletes', async () => {
    const dir = join(work, 'fail');
    const file = await writeRelease(dir, 'r.yaml', 'FAIL-1');
    // The audio passes the local checks; its upload never gets through (every attempt's connection is cut).
    proxy.setHooks({ onRequest: (e) => (e.route === '/uploads/{key}' ? 'drop' : undefined) });
    const r = await run([file, '--json']).finally(() => proxy.setHooks({}));
    expect(r.code).toBe(1);
    const [line] = jsonLines(r.stdout);
    expect(line).toMatchObject({ outcome: 'failed', status: 'draft' });
    expect(line.error.message).toMatch(/^uploading .*a\.wav failed: .*; release \d+ is draft; run `reldist release apply` again to resume$/);
    const list = await cli.run(['release', 'list', '--catalog-number', 'fail-1', '--json'], {});
    expect(JSON.parse(list.stdout)).toHaveLength(1);
  });

  it('release create refuses a catalog number that exists, naming the release and apply', async () => {
    const file = await writeRelease(join(work, 'dup'), 'r.yaml', 'APL-0100');
    const r = await cli.run(['release', 'create', '--file', file], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: catalog number APL-0100 is already release \d+ \(draft\)$/m);
    expect(r.stderr).toContain(`hint: run \`reldist release apply ${file}\` to update it, or change catalog_number`);
  });

  it('on a terminal: a progress line per release and a summary table', async () => {
    const file = await writeRelease(join(work, 'tty'), 'r.yaml', 'TTY-1');
    const r = await run([file], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(onScreen(r.stderr)).toMatch(/^\[1\/1\] TTY-1 created$/m);
    // The upload's progress line was drawn, and cleared before the release's line.
    expect(r.stderr).toMatch(/\r\x1b\[2KUploaded 1 of 1 file: 100%, 5\.\d MiB of 5\.\d MiB\r\x1b\[2K\[1\/1\] TTY-1 created\n/);
    expect(r.stdout).toMatch(/TTY-1/);
    expect(r.stdout).toMatch(/created/);
  });
});

describe('release apply, stopped by --timeout', () => {
  it('writes a line for every release it did not finish, then --only-failed retries them and what has no line', async () => {
    const dir = join(work, 'timeout');
    for (let i = 1; i <= 4; i++) await writeRelease(dir, `r${i}.yaml`, `TMO-${i}`);
    const report = join(work, 'timeout.jsonl');
    // One release at a time; the second one's upload never gets an answer (held at the proxy).
    let uploads = 0;
    let letGo: (v: 'drop') => void = () => {};
    proxy.setHooks({ onRequest: (e) => (e.route === '/uploads/{key}' && ++uploads === 2 ? new Promise<'drop'>((resolve) => (letGo = resolve)) : undefined) });
    const r = await run([dir, '--submit', '--parallel', '1', '--json', '--report', report, '--timeout', '2s']).finally(() => {
      letGo('drop');
      proxy.setHooks({});
    });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(
      /^\{"error":\{"code":"timed_out","message":"timed out after 2s: 1 of 4 releases finished, 3 not \(each has its line, outcome interrupted\)","hint":"run the same command again: it resumes where it stopped; or retry only what is left with --only-failed .*timeout\.jsonl"\}\}$/m,
    );
    const lines = jsonLines(await readFile(report, 'utf8'));
    expect(jsonLines(r.stdout)).toEqual(lines);
    expect(lines.map((l) => [l.catalog_number, l.outcome, l.status])).toEqual([
      ['TMO-1', 'submitted', 'in_review'],
      ['TMO-2', 'interrupted', 'draft'],
      ['TMO-3', 'interrupted', null],
      ['TMO-4', 'interrupted', null],
    ]);
    expect(lines[1].release_id).toEqual(expect.any(Number));
    expect(lines[1].error).toEqual({
      code: 'timed_out',
      message: `the run stopped (timed out after 2s) while this release was being applied; release ${lines[1].release_id} is draft (the step in flight may or may not be done); run \`reldist release apply\` again to resume`,
    });
    expect(lines[2]).toMatchObject({
      release_id: null,
      action: null,
      error: { message: expect.stringMatching(/before this release was started: nothing was done for it/) },
    });

    // A report that lost its last lines (a killed run): the releases without a line are chosen too.
    const partial = join(work, 'timeout-partial.jsonl');
    await writeFile(partial, `${JSON.stringify(lines[0])}\n${JSON.stringify(lines[1])}\n`);
    const plan = await run([dir, '--submit', '--plan', '--only-failed', partial]);
    expect(plan.stderr).toMatch(/^retrying 3 of 4: 1 interrupted, 2 never reported$/m);
    expect(
      plan.stdout
        .split('\n')
        .filter((l) => /^[+~=!] /.test(l))
        .map((l) => l.split(/\s+/)[1]),
    ).toEqual(['TMO-2', 'TMO-3', 'TMO-4']);

    const retry = await run([dir, '--submit', '--only-failed', report, '--report', report]);
    expect(retry.code, retry.stderr).toBe(0);
    expect(retry.stderr).toMatch(/^retrying 3 of 4: 3 interrupted$/m);
    expect(
      retry.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t'))
        .map((c) => [c[1], c[4]])
        .sort(),
    ).toEqual([
      ['TMO-2', 'submitted'],
      ['TMO-3', 'submitted'],
      ['TMO-4', 'submitted'],
    ]);
    const again = await run([dir, '--submit', '--only-failed', report]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('nothing to retry: all 4 releases are done in ' + report + '\n');
    const list = JSON.parse((await cli.run(['release', 'list', '--json'], {})).stdout) as { catalog_number: string; status: string }[];
    expect(
      list
        .filter((x) => x.catalog_number.startsWith('TMO-'))
        .map((x) => [x.catalog_number, x.status])
        .sort(),
    ).toEqual([
      ['TMO-1', 'in_review'],
      ['TMO-2', 'in_review'],
      ['TMO-3', 'in_review'],
      ['TMO-4', 'in_review'],
    ]);
  });

  it('--only-failed with a report that does not exist applies every release, and says so', async () => {
    const dir = join(work, 'no-report');
    await writeRelease(dir, 'r.yaml', 'NOREP-1');
    const r = await run([dir, '--plan', '--only-failed', join(work, 'missing.jsonl')]);
    expect(r.stderr).toMatch(/missing\.jsonl: no such file \(no release was reported\); retrying 1 of 1: 1 never reported$/m);
    expect(r.stdout).toMatch(/^\+ NOREP-1 /m);
  });
});
