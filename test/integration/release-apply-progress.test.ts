// `release apply`'s one progress line for all its uploads: piped (a CI log), a plain line every
// 10% of the run's bytes, sizes in binary units; nothing at all for a run that uploads nothing;
// on a terminal, the line is cleared before each report line, which stays whole.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWav } from '../helpers/audio.js';
import { releaseYaml } from '../helpers/release-yaml.js';
import { fitRunLine, runProgress, runProgressLine } from '../../src/cli/output/run-progress.js';
import { makeContext } from '../../src/cli/build-program.js';
import { bufferIO } from '../helpers/buffer-io.js';
import { useCli } from './cli-harness.js';

const cli = useCli();
let work: string;

/** Three releases of one 36-second WAV each (6.1 MiB): 18.2 MiB in all, above the 16 MiB a log is told of. */
async function writeCatalog(dir: string, prefix: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const n of [1, 2, 3]) await writeFile(join(dir, `r${n}.yaml`), releaseYaml(`${prefix}-${n}`, { audio: join(work, 'big.wav') }));
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-apply-progress-'));
  await writeFile(join(work, 'big.wav'), makeWav({ seconds: 36 }));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const progressLines = (stderr: string) => stderr.split('\n').filter((l) => /^Upload(ing|ed) \d+ of \d+ files?:/.test(l));

describe('release apply: upload progress', () => {
  it('piped: a line every 10% of the run, bytes in binary units; a re-run that uploads nothing says nothing', async () => {
    const dir = join(work, 'piped');
    await writeCatalog(dir, 'PRG');
    const r = await cli.run(['release', 'apply', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    const lines = progressLines(r.stderr);
    // 10%, 20%… of 18.2 MiB sent in 1 MiB reads: a line for most tenths, never more than one each.
    expect(lines.length, r.stderr).toBeGreaterThanOrEqual(5);
    expect(lines.length, r.stderr).toBeLessThanOrEqual(11);
    for (const l of lines)
      expect(l).toMatch(/^Upload(ing [1-3]|ed 3) of 3 files: \d+%, [\d.]+ (B|KiB|MiB) of 18\.\d MiB(, [\d.]+ (B|KiB|MiB|GiB)\/s)?(, \S+ left)?$/);
    expect(lines.at(-1)).toMatch(/^Uploaded 3 of 3 files: 100%, 18\.\d MiB of 18\.\d MiB/);
    const percents = lines.map((l) => Number(/: (\d+)%/.exec(l)![1]));
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
    // Never a terminal's redraw in a log.
    expect(r.stderr).not.toMatch(/\r|\x1b/);
    expect(r.stderr).not.toMatch(/\bMB\b/);

    const again = await cli.run(['release', 'apply', dir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/\tunchanged\t/);
    expect(again.stderr).toBe('');
  });

  it('--quiet: no progress', async () => {
    const dir = join(work, 'quiet');
    await writeCatalog(dir, 'PRQ');
    const r = await cli.run(['release', 'apply', dir, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('on a terminal: the line is cleared before each report line, and drawn again after it', async () => {
    const dir = join(work, 'tty');
    await writeCatalog(dir, 'PRT');
    const r = await cli.run(['release', 'apply', dir], { tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\r\x1b\[2KUploading [1-3] of 3 files: \d+%/);
    // Each report line begins on a cleared line, never after a progress line's text.
    for (const n of [1, 2, 3]) expect(r.stderr).toMatch(new RegExp(`(^|\\n|\\r\\x1b\\[2K)\\[${n}/3\\] PRT-\\d created\\n`));
    expect(r.stderr).not.toMatch(/files: [^\n\r]*\[\d\/3\]/);
    // Every drawn line fits 79 columns.
    for (const drawn of r.stderr.split('\r\x1b[2K')) expect(drawn.split('\n')[0]!.length).toBeLessThanOrEqual(79);
    // The line is gone before anything after the run (the summary table's note).
    expect(r.stderr).toMatch(/Uploaded 3 of 3 files: 100%, 18\.\d MiB of 18\.\d MiB[^\r\n]*\r\x1b\[2K[^\r]*$/);
  });
});

describe('the line', () => {
  const t = { total: 4 * 1024 ** 3, done: 1.2 * 1024 ** 3, sent: 1.2 * 1024 ** 3, count: 12, begun: 3, finished: 2, elapsedMs: 27_000 };
  it('says files begun of all, the share, bytes, rate and time left', () => {
    expect(runProgressLine(t)).toBe('Uploading 3 of 12 files: 30%, 1.2 GiB of 4.0 GiB, 45.5 MiB/s, 1m03s left');
  });
  it('says neither rate nor time left in its first half second', () => {
    expect(runProgressLine({ ...t, elapsedMs: 100 })).toBe('Uploading 3 of 12 files: 30%, 1.2 GiB of 4.0 GiB');
  });
  it('when every file is there: uploaded, without a time left', () => {
    expect(runProgressLine({ ...t, done: t.total, sent: t.total, begun: 12, finished: 12 })).toBe(
      'Uploaded 12 of 12 files: 100%, 4.0 GiB of 4.0 GiB, 151.7 MiB/s',
    );
  });
  it('at a narrow width gives up the time left, then the rate, never a number cut', () => {
    const line = runProgressLine(t);
    expect(fitRunLine(line, 79)).toBe(line);
    expect(fitRunLine(line, 60)).toBe('Uploading 3 of 12 files: 30%, 1.2 GiB of 4.0 GiB, 45.5 MiB/s');
    expect(fitRunLine(line, 50)).toBe('Uploading 3 of 12 files: 30%, 1.2 GiB of 4.0 GiB');
  });
});

describe('the run, piped, with a clock of its own', () => {
  it('a run under 16 MiB on a slow link: a line every 10 s, then how it ended; a quick one: nothing', () => {
    const globals = { json: false, debug: false, quiet: false, input: true, yes: false, color: undefined, profile: undefined, baseUrl: undefined };
    const MiB = 1024 * 1024;
    const run = (stepMs: number) => {
      let t = 0;
      const b = bufferIO(false);
      const ctx = makeContext({ io: b.io, env: {}, now: () => new Date(t) }, globals);
      const p = runProgress(ctx, [[{ path: 'a.wav', size: 4 * MiB }]]);
      const part = p.part(0);
      part.planned(['a.wav']);
      // 5% at a time, 20 steps.
      for (let i = 1; i <= 20; i++) {
        t += stepMs;
        part.sent('a.wav', i * 0.2 * MiB);
      }
      part.uploaded('a.wav');
      p.settle(0);
      p.done();
      return progressLines(b.err());
    };
    expect(run(50)).toEqual([]);
    const slow = run(3000);
    expect(slow.length).toBeGreaterThanOrEqual(5);
    expect(slow.at(-1)).toMatch(/^Uploaded 1 of 1 file: 100%, 4\.0 MiB of 4\.0 MiB/);
  });
});
