// The CLI against a mock built from openapi.json alone (test/helpers/contract-mock.ts): what a
// team gets when it stands up a mock from the document instead of the service. The read commands
// and the upload path must work, and every request the CLI sends must be one the document allows.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApi } from '../helpers/contract-check.js';
import { startContractMock, type ContractMock } from '../helpers/contract-mock.js';
import { makeConfigDir, runCli, writeWav } from '../integration/cli-harness.js';

let mock: ContractMock;
let config: { dir: string; cleanup(): Promise<void> };
let work: string;

beforeAll(async () => {
  mock = await startContractMock();
  config = await makeConfigDir();
  work = await mkdtemp(join(tmpdir(), 'reldist-mock-'));
});
afterAll(async () => {
  await mock?.close();
  await config?.cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

const mockDoc = () => loadOpenApi() as { components: { schemas: Record<string, { examples: unknown[] }> } };
const run = (argv: string[]) => runCli(argv, { url: mock.url, token: 'rd_mock_token', configDir: config.dir });

describe('the CLI against a mock built from openapi.json alone', () => {
  it.each([
    ['me'],
    ['release', 'list'],
    ['release', 'list', '--json'],
    ['release', 'get', '42'],
    ['track', 'list', '42'],
    ['track', 'get', '42', '7'],
    ['lookup', 'countries'],
    ['lookup', 'platforms'],
    ['lookup', 'genres'],
    ['lookup', 'languages'],
    ['label', 'artists', 'list'],
    ['label', 'artists', 'get', '3'],
    ['prefs', 'label'],
    ['artist', 'search', 'Nina Vale'],
  ])('reldist %s', async (...argv) => {
    const r = await run(argv);
    expect(r.code, r.stderr).toBe(0);
    expect(mock.problems).toEqual([]);
  });

  it('reports the documented verdict of a remote code check of one code, as the example answers one', async () => {
    const r = await run(['validate', 'upc', '036000291452', '--remote']);
    expect(r.stderr).not.toMatch(/answered \d+ verdicts/);
    expect(r.code, r.stderr).toBe(3); // the example's UPC is in use
    expect(mock.problems).toEqual([]);
  });

  it.each([
    ['upc', '036000241457'],
    ['isrc', 'US-SKG-19-12345'],
  ])('checks one %s remotely against the documented answer, whatever the code', async (kind, code) => {
    const r = await run(['validate', kind, code, '--remote', '--json']);
    expect(r.stderr).not.toMatch(/answered \d+ verdicts|bad_response/);
    expect([0, 3]).toContain(r.code);
    expect(mock.problems).toEqual([]);
  });

  it('uploads a file to the address the document hands out', async () => {
    // The documented upload-url answer instructs Content-Type audio/wav and the Content-Length of
    // its file, and the documented upload answer has that file's sha256: the examples describe one
    // real file (a 440 Hz tone, 16-bit stereo 44.1 kHz, as writeWav makes it), which is sent.
    const answer = mockDoc().components.schemas.TrackUploadUrlData!.examples[0] as { headers: Record<string, string> };
    const seconds = (Number(answer.headers['Content-Length']) - 44) / (44_100 * 4);
    await writeWav(join(work, 'northern-sky.wav'), { seconds });
    // The documented track list holds this very file (same sha256): a second copy needs --allow-duplicate.
    const r = await run(['track', 'upload', '42', join(work, 'northern-sky.wav'), '--json', '--allow-duplicate']);
    expect(mock.problems).toEqual([]);
    expect(mock.answered).toEqual(expect.arrayContaining(['createTrackUploadUrl', 'uploadFile']));
    expect(r.code, r.stderr).toBe(0);
  });
});
