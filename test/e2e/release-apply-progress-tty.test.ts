// `release apply` at an 80-column terminal (tmux): its one upload progress line fits the width,
// is cleared before every report line (each stays whole on its own line) and is gone at the end.
// Everything the program writes to the terminal is recorded too (tmux pipe-pane), so that the
// line is seen each time it was drawn, however fast the uploads went.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeWav } from '../helpers/audio.js';
import { releaseYaml } from '../helpers/release-yaml.js';
import { serveForTests, Tty, type Target } from './cli-e2e-helpers.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
let t: Target;
serveForTests((target) => {
  t = target;
});
let dir: string;
const sessions: Tty[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reldist-apply-tty-'));
  await writeFile(join(dir, 'big.wav'), makeWav({ seconds: 36 }));
  await mkdir(join(dir, 'catalog'));
  for (const n of [1, 2, 3])
    await writeFile(join(dir, 'catalog', `r${n}.yaml`), releaseYaml(`TTY-${n}`, { audio: join(dir, 'big.wav'), title: `Progress ${n}` }));
});
afterAll(async () => {
  for (const s of sessions) s.kill();
  await rm(dir, { recursive: true, force: true });
});

test.skipIf(!hasTmux)(
  'at 80 columns the progress line fits, is cleared around the report lines and is gone at the end',
  async () => {
    const tty = Tty.start(`reldist-apply-progress-${process.pid}`, t, ['release', 'apply', join(dir, 'catalog')], dir, { width: 80 });
    sessions.push(tty);
    const raw = join(dir, 'terminal.raw');
    // Before the program is past checking 18 MiB of audio, long before its first byte goes up.
    spawnSync('tmux', ['pipe-pane', '-o', '-t', tty.name, `cat >> '${raw}'`]);
    expect(await tty.exitCode()).toBe(0);
    const screen = tty.screen();
    for (const n of [1, 2, 3]) expect(screen).toMatch(new RegExp(`^\\[[1-3]/3\\] TTY-${n} created *$`, 'm'));
    expect(screen).toMatch(/^TTY-1 +\d+ +created +draft/m);
    // Gone at the end: nothing of it on the screen.
    expect(screen).not.toContain('Upload');
    for (const line of screen.split('\n')) expect(line.trimEnd().length).toBeLessThanOrEqual(80);

    const output = await readFile(raw, 'utf8');
    const drawn = output.split('\r\x1b[2K').map((s) => s.split(/[\r\n]/)[0]!);
    const progress = drawn.filter((s) => s.startsWith('Upload'));
    expect(progress.length, output).toBeGreaterThan(0);
    for (const p of progress) {
      expect(p).toMatch(/^Upload(ing [1-3]|ed 3) of 3 files: \d+%, [\d.]+ (B|KiB|MiB) of 18\.\d MiB/);
      expect(p.length).toBeLessThanOrEqual(79);
    }
    // No report line was written after the line's text without clearing it first.
    expect(output).not.toMatch(/ (B|KiB|MiB)(\/s)?(, \S+ left)?\[[1-3]\/3\]/);
  },
  60_000,
);
