// `reldist serve` end to end: the built binary (npm test builds it first). Two processes opening
// one new data directory at the same moment, one JSON line on stdout, a clean stop on signals.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { binPath as BIN } from './sandbox-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'reldist-serve-'));
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Served {
  child: ChildProcessWithoutNullStreams;
  first: { base_url: string; tokens: { label: string; artist: string } };
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function serve(args: string[]): Promise<Served> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl !== -1) resolve({ child, first: JSON.parse(out.slice(0, nl)), stdout: () => out, stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before printing: ${err}`)));
  });
}

test('two services on one new data directory share accounts; signals stop them cleanly', async () => {
  const data = join(dir, 'shared');
  const [a, b] = await Promise.all([serve(['--data-dir', data]), serve(['--data-dir', data, '--host', '127.0.0.1'])]);
  expect(a.first.tokens).toEqual(b.first.tokens);
  expect(a.first.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(a.first.base_url).not.toBe(b.first.base_url);
  const auth = { authorization: `Bearer ${a.first.tokens.label}`, 'content-type': 'application/json' };
  const created = await fetch(`${a.first.base_url}/releases`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ type: 'single', title: 'Shared', artists: [{ name: 'Nina Vale', role: 'primary' }], label: 'L' }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: number };
  expect((await fetch(`${b.first.base_url}/releases/${id}`, { headers: auth })).status).toBe(200);

  a.child.kill('SIGTERM');
  b.child.kill('SIGINT');
  expect(await a.exited).toBe(0);
  expect(await b.exited).toBe(0);
  // stdout: exactly the one JSON line; the rest went to stderr, without tokens.
  expect(a.stdout().trim().split('\n')).toHaveLength(1);
  expect(a.stderr()).toContain('stopped');
  expect(a.stderr()).not.toContain(a.first.tokens.label);
}, 60_000);

test('a bad --port is a usage error', async () => {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', 'eighty', '--data-dir', join(dir, 'x')], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(2);
  expect(err.trim().split('\n')[0]).toContain('--port');
}, 30_000);
