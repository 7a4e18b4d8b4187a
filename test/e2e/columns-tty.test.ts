// An 80-column terminal (tmux): `release list` keeps every line within the width and says which
// columns it hid; the note that a command uses the local sandbox wraps at word boundaries. The
// screen is read with wrapped lines joined (capture-pane -J): a line the terminal had to wrap
// would read longer than 80. Every wait is bounded.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { reldist, serveForTests, Tty, type Target } from './cli-e2e-helpers.js';
import { cleanEnv } from './sandbox-helpers.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
let dir: string;
let t: Target;
const sessions: Tty[] = [];
serveForTests((target) => {
  t = target;
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reldist-columns-'));
  for (const [title, artist] of [
    ['A Very Long Title For A Single That Goes On And On Past Any Sensible Width', 'Second Artist With A Long Name'],
    ['Northern Sky', 'Nina Vale'],
  ]) {
    const r = await reldist(t, ['release', 'create', '--type', 'single', '--title', title!, '--artist', artist!, '--label', 'L']);
    expect(r.code, r.stderr).toBe(0);
  }
});
afterAll(async () => {
  for (const s of sessions) s.kill();
  await rm(dir, { recursive: true, force: true });
});

/** The screen's lines up to the shell's end, with trailing blanks dropped. */
function lines(screen: string): string[] {
  return screen
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '');
}

test.skipIf(!hasTmux)(
  'release list at 80 columns: every line fits, the hidden columns are named, ids whole',
  async () => {
    const tty = Tty.start(`reldist-columns-list-${process.pid}`, t, ['release', 'list'], dir, { width: 80 });
    sessions.push(tty);
    expect(await tty.exitCode()).toBe(0);
    const screen = lines(await tty.waitFor('hidden: widen the terminal or use --json'));
    for (const line of screen) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(screen[0]).toMatch(/^ID {2}STATUS {2}TYPE {4}TITLE {21}ARTISTS/);
    expect(screen).toContain('UPC, UPDATED hidden: widen the terminal or use --json');
    expect(screen.some((l) => /^2 {3}draft {3}single {2}Northern Sky/.test(l))).toBe(true);
    expect(screen.some((l) => l.includes('A Very Long Title For A…'))).toBe(true);
  },
  60_000,
);

test.skipIf(!hasTmux)(
  'the sandbox note at 80 columns wraps at word boundaries, every word kept',
  async () => {
    const home = join(dir, 'sandbox-home');
    // No service configured: the embedded sandbox, in the command's own process (no background one).
    const env = cleanEnv({ HOME: home, RELDIST_CONFIG_DIR: join(home, 'config'), RELDIST_DATA_DIR: join(home, 'data'), RELDIST_SANDBOX_IDLE: '0' });
    const tty = Tty.start(`reldist-columns-sandbox-${process.pid}`, t, ['release', 'list'], dir, { width: 80, env });
    sessions.push(tty);
    expect(await tty.exitCode(), tty.screen()).toBe(0);
    const screen = lines(await tty.waitFor('no releases found'));
    for (const line of screen) expect([...line].length, line).toBeLessThanOrEqual(80);
    const start = screen.findIndex((l) => l.startsWith('note: no service configured'));
    const end = screen.indexOf('no releases found') - 1;
    expect(start).toBeGreaterThanOrEqual(0);
    // Several lines, the ones after the first indented: one message.
    expect(end).toBeGreaterThan(start);
    for (const line of screen.slice(start + 1, end + 1)) expect(line.startsWith('  ')).toBe(true);
    const note = screen
      .slice(start, end + 1)
      .map((l) => l.trim())
      .join(' ');
    expect(note).toBe(
      `note: no service configured, so this uses the local sandbox (data in ${join(home, 'data')}); for a real service run \`reldist auth login --base-url <url>\` or set RELDIST_BASE_URL and RELDIST_TOKEN`,
    );
  },
  60_000,
);
