// `reldist validate upc|isrc` in-process against the real reference service: both output modes
// pinned, and --remote's batches (chunks of the contract's maximum, bounded concurrency, answers
// in input order, streamed).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createClient, type ApiClient } from '../../src/client/index.js';
import { REMOTE_IN_FLIGHT } from '../../src/cli/commands/validate/remote.js';
import { validateBatchMax } from '../../src/contract/index.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { transcript, useCli, type RunOptions, type RunResult } from './cli-harness.js';

const cli = useCli();
const golden = (name: string) => `../fixtures/golden/validate/${name}.txt`;
const run = (argv: string[], o: Partial<RunOptions> = {}): Promise<RunResult> => cli.run(argv, o);

/** A real client to the test service that counts the requests it has in flight and the codes each carries. */
function countingClient(): { client: ApiClient; max(): number; calls(): number; sizes(): number[]; close(): Promise<void> } {
  const real = createClient({ baseUrl: cli.server.url, token: cli.server.tokens.label, workload: 'long' });
  let inFlight = 0;
  let max = 0;
  let calls = 0;
  const sizes: number[] = [];
  const client = Object.create(real) as ApiClient;
  client.call = (async (...args: Parameters<ApiClient['call']>) => {
    calls++;
    const body: unknown = (args[1] as { body?: unknown } | undefined)?.body;
    if (body && typeof body === 'object' && 'codes' in body && Array.isArray(body.codes)) sizes.push(body.codes.length);
    max = Math.max(max, ++inFlight);
    try {
      return await real.call(...args);
    } finally {
      inFlight--;
    }
  }) as ApiClient['call'];
  return { client, max: () => max, calls: () => calls, sizes: () => sizes, close: () => real.close() };
}

describe('validate: output modes', () => {
  it('upc: piped rows and a terminal table with the summary on stderr; one JSON value per code', async () => {
    const codes = ['036000241457', '0 36000 24145 8', '12345678901'];
    const piped = await run(['validate', 'upc', ...codes]);
    expect(piped.code).toBe(3);
    await expect(transcript(piped)).toMatchFileSnapshot(golden('upc.piped'));
    const tty = await run(['validate', 'upc', ...codes], { tty: true });
    expect(tty.code).toBe(3);
    expect(tty.stderr).toMatch(/^checked 3, valid 1, invalid 2, warnings 0\n/);
    await expect(transcript(tty)).toMatchFileSnapshot(golden('upc.tty'));
    const quiet = await run(['validate', 'upc', ...codes, '--quiet'], { tty: true });
    expect(quiet.stderr).toBe('error: 2 of 3 codes are invalid\n');
  });

  it('isrc: piped rows and a terminal table', async () => {
    const codes = ['us-rc1-76-07839', 'ISRC XXABC2000001', 'USRC1760783'];
    await expect(transcript(await run(['validate', 'isrc', ...codes]))).toMatchFileSnapshot(golden('isrc.piped'));
    await expect(transcript(await run(['validate', 'isrc', ...codes], { tty: true }))).toMatchFileSnapshot(golden('isrc.tty'));
  });

  it('--remote: both verdicts, piped and on a terminal', async () => {
    const codes = ['036000241457', '036000241456'];
    await expect(transcript(await run(['validate', 'upc', '--remote', ...codes]))).toMatchFileSnapshot(golden('upc-remote.piped'));
    await expect(transcript(await run(['validate', 'upc', '--remote', ...codes], { tty: true }))).toMatchFileSnapshot(golden('upc-remote.tty'));
  });
});

describe('validate --remote: batches', () => {
  // Valid and invalid codes mixed, so that answers differ from line to line.
  const codes = Array.from({ length: 2500 }, (_, i) => (i % 7 === 3 ? `03600024145${i % 10}` : i % 2 ? '4006381333931' : '036000241457'));

  it(`sends ${codes.length} codes in chunks of ${validateBatchMax}, at most ${REMOTE_IN_FLIGHT} in flight, and answers in input order`, async () => {
    const counting = countingClient();
    try {
      const r = await run(['validate', 'upc', '--remote', '--json', '-'], {
        stdin: `${codes.join('\n')}\n`,
        services: { client: async () => counting.client },
      });
      expect(r.code).toBe(3);
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { input: string; valid: boolean; remote: { input: string; valid: boolean } });
      expect(lines.map((l) => l.input)).toEqual(codes);
      // Each line carries the service's answer for its own code, not a neighbour's.
      for (const l of lines) {
        expect(l.remote.input).toBe(l.input);
        expect(l.remote.valid).toBe(l.valid);
      }
      expect(counting.sizes()).toEqual([1000, 1000, 500]);
      expect(counting.max()).toBeLessThanOrEqual(REMOTE_IN_FLIGHT);
    } finally {
      await counting.close();
    }
  });

  it('a batch whose answer was lost is asked again under its Idempotency-Key; every code is answered once, in order', async () => {
    // The first batch's answer is lost after the service did the work; the retry goes through.
    const proxy = await startFaultProxy({ target: cli.server.url, seed: 3, faults: { dropAfter: 1 }, maxConsecutiveFaults: 1, match: (m) => m === 'POST' });
    try {
      const some = codes.slice(0, 1500);
      const r = await run(['validate', 'upc', '--remote', '--json', '--debug', '-'], { url: proxy.url, stdin: `${some.join('\n')}\n` });
      expect(r.code).toBe(3);
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { input: string; remote: { input: string } });
      expect(lines.map((l) => l.remote.input)).toEqual(some);
      const route = proxy.stats.byRoute['POST /releases/validate']!;
      expect(route.byDecision.dropAfter).toBeGreaterThanOrEqual(1);
      expect(route.answered).toBeGreaterThan(2);
      // The service answered the retry from its record of the first attempt (--debug shows the headers).
      expect(r.stderr).toMatch(/^< idempotent-replayed: true$/m);
    } finally {
      await proxy.close();
    }
  });

  it('names the release already holding a UPC (upc_in_use) in every output, and in the summary', async () => {
    const holder = await cli.json<{ id: number }>([
      'release',
      'create',
      '--type',
      'single',
      '--title',
      'Held Song',
      '--artist',
      'Nina Vale',
      '--label',
      'L',
      '--upc',
      '5901234123457',
      '--catalog-number',
      'HLD-7',
    ]);
    const named = `release ${holder.id} "Held Song" (HLD-7, draft)`;
    const json = await run(['validate', 'upc', '--remote', '--json', '5901234123457', '036000241457']);
    expect(json.code).toBe(3);
    const [taken, free] = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(taken).toMatchObject({ valid: true, remote: { valid: false, problems: [{ code: 'upc_in_use', message: `already used by your ${named}` }] } });
    expect(free).toMatchObject({ valid: true, remote: { valid: true, problems: [] } });
    expect(JSON.parse(json.stderr.split('\n')[0]!).summary).toMatchObject({ checked: 2, valid: 1, invalid: 1, problems: { upc_in_use: 1 } });

    const csv = await run(['validate', 'upc', '--remote', '--format', 'csv', '5901234123457']);
    expect(csv.stdout).toBe(
      'line,input,verdict,problems,repaired,normalized,service_verdict,service_problems\r\n,5901234123457,valid,,,5901234123457,invalid,upc_in_use\r\n',
    );
    const rows = await run(['validate', 'upc', '--remote', '5901234123457']);
    expect(rows.stdout).toBe(`5901234123457\tvalid\t5901234123457\t\tinvalid\talready used by your ${named}\n`);
    const table = await run(['validate', 'upc', '--remote', '5901234123457'], { tty: true });
    expect(table.stdout).toMatch(/ invalid  already used by your/);
    // For the release itself, its own code is no conflict.
    const own = await run(['validate', 'upc', '--remote', '--release', String(holder.id), '5901234123457']);
    expect(own.code).toBe(0);
    expect(own.stdout).toBe('5901234123457\tvalid\t5901234123457\t\tvalid\t\n');
  });

  it('streams: answers for the first lines are written before the input ends', async () => {
    const stdin = new PassThrough();
    let seen = 0;
    let firstWritten!: () => void;
    const written = new Promise<void>((resolve) => (firstWritten = resolve));
    const result = run(['validate', 'isrc', '--remote', '-'], {
      stdinStream: stdin,
      onStdout: (text) => {
        seen = text.split('\n').length - 1;
        if (seen >= 3) firstWritten();
      },
    });
    stdin.write('USRC17607839\nus-rc1-76-07839\nUSRC1760783X\n');
    await written;
    expect(seen).toBe(3);
    // No final newline: the last code must still be checked (it used to be dropped with --remote).
    stdin.end('GBAYE6700149');
    const r = await result;
    expect(r.code).toBe(3);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(['USRC17607839', 'us-rc1-76-07839', 'USRC1760783X', 'GBAYE6700149']);
  });

  it('checks the last line of a file without a final newline, after the arguments, in order', async () => {
    const { writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const path = join(cli.configDir, 'isrcs.txt');
    await writeFile(path, 'GBAYE6700149\r\nUSRC1760783X');
    const r = await run(['validate', 'isrc', '--remote', 'USRC17607839', '--file', path]);
    expect(r.code).toBe(3);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t').slice(0, 2).concat(l.split('\t')[4]!)),
    ).toEqual([
      ['USRC17607839', 'valid', 'valid'],
      ['GBAYE6700149', 'valid', 'valid'],
      ['USRC1760783X', 'invalid', 'invalid'],
    ]);
  });

  it("piped rows from a file end with the line (blank lines counted); an argument's row has that field empty", async () => {
    const { writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const path = join(cli.configDir, 'upcs.txt');
    // Bare, blank, damaged, repeated, loosely written: the bulk path and the general path alike.
    await writeFile(path, '036000241457\n\n3.6E+11\r\n036000241457\n0 36000 24145 7\n12345678901\n');
    const r = await run(['validate', 'upc', '036000241457', '--file', path]);
    expect(r.code).toBe(3);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((x) => [x[0], x[1], x[4]])).toEqual([
      ['036000241457', 'valid', ''],
      ['036000241457', 'valid', '1'],
      ['3.6E+11', 'invalid', '3'],
      ['036000241457', 'valid', '4'],
      ['0 36000 24145 7', 'valid', '5'],
      ['12345678901', 'invalid', '6'],
    ]);
    expect(rows.every((x) => x.length === 5)).toBe(true);
    expect(rows[3]![3]).toBe('warning: the same code as code 1');
    const argsOnly = await run(['validate', 'upc', '036000241457']);
    expect(argsOnly.stdout).toBe('036000241457\tvalid\t036000241457\t\n');
  });

  it('a code longer than the service takes stops the run with a usage error naming it', async () => {
    const long = `0360002414${'7'.repeat(70)}`;
    const r = await run(['validate', 'upc', '--remote', '036000241457', long]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error: --remote: a code of 80 characters \("03600024147777777777…"\); the service checks codes of at most 64\nhint: remove that line, or check the codes without --remote\n$/,
    );
  });

  it('a refused token stops the run with exit 4; the answers so far are printed', async () => {
    const r = await run(['validate', 'upc', '--remote', '036000241457'], { token: 'rd_not_a_token' });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*\nhint: run `reldist auth login` or set RELDIST_TOKEN\n$/);
  });
});
