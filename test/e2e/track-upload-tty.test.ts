// `track upload` on a real pseudo-terminal (`script`): a progress bar on stderr while the file
// streams; and piped, the same upload prints no bar at all.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeConfigDir } from '../integration/cli-harness.js';
import { BIN, ROOT, cliEnv, reldist, type Target } from './cli-e2e-helpers.js';

const hasScript = spawnSync('script', ['--version']).status === 0;
let server: TestServer;
let config: { dir: string; cleanup(): Promise<void> };
let dir: string;
let t: Target;

beforeAll(async () => {
  server = await startTestServer();
  config = await makeConfigDir();
  dir = await mkdtemp(join(tmpdir(), 'reldist-upload-'));
  t = { url: server.url, token: server.tokens.label, configDir: config.dir };
  const r = await reldist(t, ['release', 'create', '--type', 'single', '--title', 'Progress', '--artist', 'Nina Vale', '--label', 'L']);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await server?.close();
  await config?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the binary under `script`, which gives it a pseudo-terminal; returns the raw terminal output. */
function underScript(args: string[]): Promise<{ code: number | null; output: string }> {
  const log = join(dir, 'typescript.log');
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-q', '-e', '-c', command, log], { env: cliEnv(t), cwd: ROOT, stdio: ['pipe', 'ignore', 'ignore'], timeout: 60_000 });
    child.stdin.end();
    child.on('close', async (code) => resolve({ code, output: await readFile(log, 'utf8') }));
  });
}

test.skipIf(!hasScript)('a terminal sees a progress bar, redrawn in place, then one line per uploaded file', async () => {
  const { code, output } = await underScript(['track', 'upload', '1', 'examples/first-release/audio/first-light.flac']);
  expect(code, output).toBe(0);
  expect(output).toMatch(/\r\x1b\[2KUploading examples\/first-release\/audio\/first-light\.flac: \d+%, [\d.]+ (B|KiB) of 218\.2 KiB/);
  expect(output).toContain('Uploaded examples/first-release/audio/first-light.flac (218.2 KiB)');
  expect(output).toContain('Added 1 track to release 1');
});

test('piped, the same upload shows no progress and no escapes', async () => {
  const r = await reldist(t, ['track', 'upload', '1', 'examples/first-release/audio/evening-tide.flac']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  expect(r.stdout.split('\n')[1]).toMatch(/^2\t\d+\tEvening Tide\t\t0:32\tevening-tide\.flac\tready$/);
});
