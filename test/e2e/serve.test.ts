// `reldist serve` end to end: the built binary (npm test builds it first). Two processes opening
// one new data directory at the same moment, one JSON line on stdout, a clean stop on signals.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
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
  const [a, b] = await Promise.all([serve(['--sandbox', '--data-dir', data]), serve(['--sandbox', '--data-dir', data, '--host', '127.0.0.1'])]);
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

function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const releaseBody = JSON.stringify({ type: 'single', title: 'Team', artists: [{ name: 'Nina Vale', role: 'primary' }], label: 'L' });

test('without --sandbox: no demo accounts, no /_sandbox; accounts come from `serve token create`', async () => {
  const data = join(dir, 'team');
  // A former sandbox over the same data: its demo tokens must not open the shared service.
  const sandbox = await serve(['--sandbox', '--data-dir', data]);
  const demoToken = sandbox.first.tokens.label;
  sandbox.child.kill('SIGTERM');
  expect(await sandbox.exited).toBe(0);

  const created = run(['serve', 'token', 'create', '--account', 'label', '--name', 'Northern Records', '--data-dir', data]);
  expect(created.code).toBe(0);
  const token = created.stdout.trim();
  expect(token).toMatch(/^rd_\S+$/);
  expect(created.stdout.split('\n')).toHaveLength(2);
  expect(created.stderr).toContain('Northern Records');
  expect(created.stderr).not.toContain(token);

  const team = await serve(['--data-dir', data, '--public-url', 'https://reldist.example.com/', '--rate-limit', '2']);
  expect(Object.keys(team.first)).toEqual(['base_url']);
  const base = team.first.base_url;
  const me = await fetch(`${base}/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(me.status).toBe(200);
  expect(((await me.json()) as { name: string }).name).toBe('Northern Records');
  expect((await fetch(`${base}/me`, { headers: { authorization: `Bearer ${demoToken}` } })).status).toBe(401);

  // One budget per token however the header spells it: the third request finds the 2 spent.
  expect((await fetch(`${base}/me`, { headers: { authorization: `BEARER ${token}` } })).status).toBe(200);
  const third = await fetch(`${base}/me`, { headers: { authorization: `bearer  ${token}` } });
  expect(third.status).toBe(429);
  team.child.kill('SIGTERM');
  expect(await team.exited).toBe(0);

  const again = await serve(['--data-dir', data, '--public-url', 'https://reldist.example.com/', '--rate-limit', 'off']);
  const b = again.first.base_url;
  const auth = { authorization: `BEARER ${token}`, 'content-type': 'application/json' };
  // The sandbox controls answer like any unknown path.
  const sandboxPath = await fetch(`${b}/_sandbox/releases/1/approve`, { method: 'POST', headers: auth });
  expect(sandboxPath.status).toBe(404);
  expect(((await sandboxPath.json()) as { error: { code: string } }).error.code).toBe('not_found');
  const release = (await (await fetch(`${b}/releases`, { method: 'POST', headers: auth, body: releaseBody })).json()) as { id: number };
  const wav = Buffer.alloc(64);
  const ticket = await fetch(`${b}/releases/${release.id}/tracks/upload-url`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ filename: 'a.wav', content_type: 'audio/wav', size: wav.length, sha256: createHash('sha256').update(wav).digest('hex') }),
  });
  expect(ticket.status).toBe(201);
  expect(((await ticket.json()) as { upload_url: string }).upload_url).toMatch(/^https:\/\/reldist\.example\.com\/uploads\/upl_/);
  again.child.kill('SIGINT');
  expect(await again.exited).toBe(0);
}, 60_000);

test('serve flags: sandbox-only ones need --sandbox; bad values are usage errors', () => {
  const data = join(dir, 'flags');
  for (const [args, flag] of [
    [['--sandbox-auto-review', 'approve'], '--sandbox-auto-review: only with --sandbox'],
    [['--rate-limit', 'lots'], '--rate-limit'],
    [['--public-url', 'reldist.example.com'], '--public-url'],
  ] as const) {
    const r = run(['serve', '--data-dir', data, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toContain(flag);
  }
  const bad = run(['serve', 'token', 'create', '--account', 'admin', '--name', 'X', '--data-dir', data]);
  expect(bad.code).toBe(2);
  expect(bad.stderr.split('\n')[0]).toContain('--account');
}, 60_000);

test('slow clients: the flags reach the service, and what it cut goes to stderr with the reason', async () => {
  const s = await serve([
    '--sandbox',
    '--data-dir',
    join(dir, 'slow'),
    '--headers-timeout',
    '1s',
    '--max-connections',
    '8',
    '--max-connections-per-address',
    '2',
  ]);
  const { port } = new URL(s.first.base_url);
  const { connect } = await import('node:net');
  const open = () => {
    const socket = connect(Number(port), '127.0.0.1');
    let got = '';
    socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
    socket.on('error', () => {});
    const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(got)));
    socket.write('GET /lookup/countries HTTP/1.1\r\nHost: x\r\n');
    return closed;
  };
  const [first, second, third] = [open(), open(), open()];
  // The third from the same address is over its cap of 2: closed as it arrives, without an answer.
  expect(await third).toBe('');
  // The other two never finish their headers: 408 after the 1 s bound.
  for (const got of [await first, await second]) expect(got).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*"code":"request_timeout"/);
  s.child.kill('SIGTERM');
  expect(await s.exited).toBe(0);
  expect(s.stderr()).toContain('reldist serve: warn: refused a connection from 127.0.0.1: it has 2 open (--max-connections-per-address)\n');
  expect(s.stderr()).toContain('reldist serve: warn: closed a connection from 127.0.0.1: no complete request headers within 1s\n');
}, 60_000);

test('slow clients: bad bounds are refused naming the flag', () => {
  const bad = [
    ['--headers-timeout', '0s', /--headers-timeout: must be at least 1s, got "0s"/],
    ['--keep-alive-timeout', 'never', /--keep-alive-timeout: expected a duration/],
    ['--body-timeout', '2h', /--body-timeout: must be at most 1h, got "2h"/],
    ['--min-body-rate', 'fast', /--min-body-rate: expected a size like 500MB or 4GiB, got "fast"/],
    ['--body-rate-window', '-1s', /--body-rate-window: expected a duration/],
    ['--max-connections-per-address', '0', /--max-connections-per-address: expected a whole number from 1 to 1000000, got "0"/],
  ] as const;
  for (const [flag, value, message] of bad) {
    const r = spawnSync(process.execPath, [BIN, 'serve', '--data-dir', join(dir, 'bad'), flag, value], { encoding: 'utf8' });
    expect(r.status, flag).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1); // one line, no stack
  }
});
