// `reldist validate` on a real pseudo-terminal (`script`) with a large input: the table starts
// printing before the input has all been read (fed through a FIFO in two halves, the second only
// once output has appeared), then only the codes with a problem stream, then the summary. The
// time against piped output is a ratio in bench/codes.mjs, not asserted here.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { upcCheckDigit } from '../../src/codes/index.js';
import { BIN, ROOT } from './cli-e2e-helpers.js';
import { cleanEnv } from './sandbox-helpers.js';

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

    expect(before).toMatch(/│ Line │ Input/);
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
