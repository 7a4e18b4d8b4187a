// `reldist validate … --remote` against the real reference service on loopback: both verdicts
// side by side, in input order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { cleanEnv, runBin, type CliRun } from './sandbox-helpers.js';

const home = mkdtempSync(join(tmpdir(), 'reldist-validate-remote-'));
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

function run(args: string[], input = ''): Promise<CliRun> {
  const env = cleanEnv({
    HOME: home,
    RELDIST_CONFIG_DIR: join(home, 'config'),
    RELDIST_DATA_DIR: join(home, 'data'),
    RELDIST_BASE_URL: server.url,
    RELDIST_TOKEN: server.tokens.label,
  });
  return runBin(args, env, input);
}

describe('validate --remote', () => {
  it('shows the service verdict next to the local one, as JSON Lines', async () => {
    const r = await run(['validate', 'upc', '036000241457', '036000241456', '--remote', '--json']);
    expect(r.code).toBe(3);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.input, l.valid, l.remote.valid])).toEqual([
      ['036000241457', true, true],
      ['036000241456', false, false],
    ]);
    expect(lines[1].remote.problems[0].code).toBe('bad_check_digit');
    expect(JSON.parse(r.stderr.split('\n')[0]!)).toEqual({
      summary: { checked: 2, valid: 1, invalid: 1, warnings: 0, empty: 0, problems: { bad_check_digit: 1 } },
    });
  });

  it('adds the service verdict and reason as two more columns, in input order from stdin, the line last', async () => {
    const r = await run(['validate', 'isrc', '-', '--remote'], 'USRC17607839\r\n\r\nus-rc1-76-0783X\n');
    expect(r.code).toBe(3);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((x) => [x[0], x[1], x[4]])).toEqual([
      ['USRC17607839', 'valid', 'valid'],
      ['us-rc1-76-0783X', 'invalid', 'invalid'],
    ]);
    // Then the line, last (blank lines counted).
    expect(rows.map((x) => x.length)).toEqual([7, 7]);
    expect(rows[1]![5]).toMatch(/designation/);
    expect(rows.map((x) => x[6])).toEqual(['1', '3']);
  });

  it('checks 2,500 codes in batches, answers in input order, and Node prints no warning', async () => {
    const codes = Array.from({ length: 2500 }, (_, i) => (i % 5 === 0 ? '036000241456' : i % 2 ? '4006381333931' : '036000241457'));
    const r = await run(['validate', 'upc', '-', '--remote', '--json'], `${codes.join('\n')}\n`);
    expect(r.code).toBe(3);
    expect(r.stderr).not.toMatch(/Warning/);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.remote.input)).toEqual(codes);
    expect(lines.every((l) => l.remote.valid === l.valid)).toBe(true);
  });

  it('--release names a release the service must know', async () => {
    const r = await run(['validate', 'upc', '036000241457', '--remote', '--release', '999999']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: release 999999 not found/m);
  });

  it('--release takes an id: anything else is a usage error, before anything is sent', async () => {
    const r = await run(['validate', 'upc', '036000241457', '--remote', '--release', 'rel_doesnotexist']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: --release: expected an id like 42, got "rel_doesnotexist"$/m);
  });
});
