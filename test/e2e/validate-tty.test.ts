// `reldist validate` on a real pseudo-terminal (`script`) with a large input: the table starts
// printing before the input has all been read (fed through a FIFO in two halves, the second only
// once output has appeared), then only the codes with a problem stream, then the summary. The
// time against piped output is a ratio in bench/codes.mjs, not asserted here. Then, in
// tmux terminals of 80 and 200 columns: one table style from the first row to the last, no line
// wider than the terminal; and on a terminal, no code and nothing piped: what to give.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { upcCheckDigit } from '../../src/codes/index.js';
import { BIN, ROOT } from './cli-e2e-helpers.js';
import { cleanEnv } from './sandbox-helpers.js';
import { CI_VARIABLES } from '../../src/cli/config/ci.js';

const hasTools = spawnSync('script', ['--version']).status === 0 && spawnSync('mkfifo', ['--version']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'reldist-validate-tty-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** n distinct UPC-As from the from-th, every 1000th (500, 1500, …) with a wrong check digit. */
function codes(n: number, from: number): string {
  let out = '';
  for (let i = from; i < from + n; i++) {
    const data = `0${String(i * 7919).padStart(10, '0')}`;
    const check = upcCheckDigit(data);
    out += `${data}${i % 1000 === 500 ? (check + 1) % 10 : check}\n`;
  }
  return out;
}

test.skipIf(!hasTools)(
  '200,000 codes: output starts before the input is all read; past the first table only problems, then the summary',
  async () => {
    const fifo = join(dir, 'codes.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
    const command = `${[process.execPath, BIN, 'validate', 'upc', '-'].map(quote).join(' ')} < ${quote(fifo)}`;
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
      cwd: ROOT,
      env: cleanEnv({ COLUMNS: '160', LINES: '50', NO_COLOR: '1' }),
      stdio: ['pipe', 'pipe', 'ignore'],
      timeout: 120_000,
    });
    child.stdin.end();
    let output = '';
    let seen: () => void = () => {};
    const firstRows = new Promise<void>((resolve) => (seen = resolve));
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString('utf8');
      if (output.includes('Input')) seen();
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));

    const writer = await open(fifo, 'w');
    await writer.write(codes(100_000, 1));
    // Bounded: the run's own timeout ends the child, and with it this wait.
    const early = await Promise.race([firstRows.then(() => true), exited.then(() => false)]);
    expect(early, output.slice(-500)).toBe(true);
    const before = output;
    await writer.write(codes(100_000, 100_001));
    await writer.close();
    expect(await exited).toBe(3);

    expect(before).toMatch(/Line +Input +Verdict/);
    const text = output.replace(/\r/g, '');
    expect(text).toContain('More than 200 codes: from here on only those with a problem');
    // The first table has the first 200 codes, all valid; then the 200 invalid ones (line 500, 1500, …) stream.
    const streamed = text.split('\n').filter((l) => /^\d+ +\d{12} +invalid +check digit is/.test(l));
    expect(streamed).toHaveLength(200);
    expect(streamed[0]).toMatch(/^500 +/);
    expect(text).toMatch(/checked 200000, valid 199800, invalid 200, warnings 0\n/);
  },
  120_000,
);

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;

/** Runs reldist in a detached tmux terminal of `width` columns; the screen (wrapped lines joined) and the exit code once it ends. */
async function inTmux(name: string, width: number, args: string[]): Promise<{ screen: string; code: number }> {
  const exitFile = join(dir, `${name}.exit`);
  const script = join(dir, `${name}.sh`);
  writeFileSync(
    script,
    `unset ${CI_VARIABLES.join(' ')} FORCE_COLOR\nexport NO_COLOR=1\ncd ${quote(ROOT)}\n${[process.execPath, BIN, ...args].map(quote).join(' ')}\necho $? > ${quote(exitFile)}\nsleep 60\n`,
  );
  const session = `reldist-validate-${name}-${process.pid}`;
  const started = spawnSync('tmux', ['-f', '/dev/null', 'new-session', '-d', '-s', session, '-x', String(width), '-y', '50', `sh ${quote(script)}`], {
    env: cleanEnv({}),
  });
  expect(started.status, started.stderr.toString()).toBe(0);
  try {
    for (let i = 0; i < 300; i++) {
      let code = '';
      try {
        code = readFileSync(exitFile, 'utf8').trim();
      } catch {
        // not yet
      }
      if (code !== '') {
        const screen = spawnSync('tmux', ['capture-pane', '-p', '-J', '-S', '-3000', '-t', session]).stdout.toString();
        return { screen, code: Number(code) };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`validate did not finish in tmux: ${spawnSync('tmux', ['capture-pane', '-p', '-t', session]).stdout.toString()}`);
  } finally {
    spawnSync('tmux', ['kill-session', '-t', session]);
  }
}

/** 260 codes, every 10th damaged in its own way, so that rows with problems come before and after the first 200. */
function damagedList(): string {
  const damage = ['="036000241457"', '36000241457.0', '3.6E+11', '036000241458', '"=""036000241457"""', '0360002414x7', '036000\u00a0241457', '03600024145'];
  let out = '';
  for (let i = 0; i < 260; i++) {
    const data = `0${String((i + 1) * 7919).padStart(10, '0')}`;
    out += `${i % 10 === 3 ? damage[((i / 10) % damage.length) | 0] : data + upcCheckDigit(data)}\n`;
  }
  return out;
}

describe.skipIf(!hasTmux)('validate on a tmux terminal', () => {
  for (const width of [80, 200]) {
    test(`${width} columns: one table style from the first row to the last, no line wider than the terminal, with --fix too`, async () => {
      const file = join(dir, 'damaged.txt');
      writeFileSync(file, damagedList());
      for (const fix of [[], ['--fix']]) {
        const { screen, code } = await inTmux(`w${width}${fix.length}`, width, ['validate', 'upc', '--file', file, ...fix]);
        expect(code).toBe(3);
        const lines = screen.split('\n').map((l) => l.trimEnd());
        // The table's lines (the summary on stderr is one line whatever the width).
        const wide = lines.filter((l) => [...l].length > width && !l.startsWith('by problem:'));
        expect(wide, screen).toEqual([]);
        expect(screen).not.toMatch(/[│┌└─]/);
        // One header, at the top; the note between the first rows and the streamed ones, no new header.
        const headers = lines.filter((l) => /^Line +Input +Verdict/.test(l));
        expect(headers, screen).toHaveLength(1);
        if (width === 200) expect(headers[0]).toMatch(/Normalized +Kind/);
        if (fix.length > 0) expect(headers[0]).toMatch(/ Fixed +Reason$/);
        const note = lines.findIndex((l) => l.startsWith('More than 200 codes'));
        expect(note).toBeGreaterThan(lines.indexOf(headers[0]!));
        // A damaged row before the note and one after it start their columns at the same places.
        const row = (n: number) => lines.find((l) => l.startsWith(`${n} `))!;
        expect(row(4).indexOf('invalid')).toBe(row(204).indexOf('invalid'));
        expect(lines.findIndex((l) => l.startsWith('204 '))).toBeGreaterThan(note);
        // The streamed rows keep their whole reason, wrapped in its column.
        expect(screen.replace(/\s+/g, ' ')).toContain('Excel\'s text formula ="…" around the code (the code inside is what is checked)');
        if (fix.length > 0) expect(row(4)).toMatch(/036000241457 valid/);
        expect(screen).toMatch(/checked 260, valid 234, invalid 26, warnings 0/);
      }
    }, 60_000);
  }

  test('no code, nothing piped, on a terminal: says what to give instead of waiting', async () => {
    const { screen, code } = await inTmux('none', 100, ['validate', 'upc']);
    expect(code).toBe(2);
    expect(screen).toContain('error: no UPC to check');
    expect(screen).toMatch(/hint: give codes as arguments, pipe them in/);
  }, 60_000);
});
