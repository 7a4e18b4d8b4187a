// A service killed mid-upload leaves a partial file; the next start over the same data directory
// removes it at once (its writer is gone), with no wait for the file to grow old. And `serve`
// tells on stderr what its sweep removed. The built binary (npm test builds it first).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { sha256 } from '../helpers/audio.js';
import { until } from '../helpers/processes.js';
import { validRelease, validWav } from '../helpers/releases.js';
import { binPath as BIN } from './sandbox-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'reldist-crash-'));
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Served {
  child: ChildProcessWithoutNullStreams;
  url: string;
  token: string;
  stderr: () => string;
  exited: Promise<unknown>;
}

function serve(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--sandbox', ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  const exited = new Promise((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl === -1) return;
      const first = JSON.parse(out.slice(0, nl)) as { base_url: string; tokens: { label: string } };
      resolve({ child, url: first.base_url, token: first.tokens.label, stderr: () => err, exited });
    });
    void exited.then(() => reject(new Error(`serve exited before printing: ${err}`)));
  });
}

async function call(s: Served, method: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(s.url + path, {
    method,
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.json();
}

test('SIGKILL mid-upload, restart over the same data directory: no partial file from before the restart', async () => {
  const data = join(dir, 'killed');
  const tmp = join(data, 'uploads', 'tmp');
  const wav = validWav();
  const first = await serve(['--data-dir', data]);
  const rel = await call(first, 'POST', '/releases', validRelease);
  const u = await call(first, 'POST', `/releases/${rel.id}/tracks/upload-url`, {
    filename: 'a.wav',
    content_type: 'audio/wav',
    size: wav.length,
    sha256: sha256(wav),
  });
  const url = new URL(u.upload_url);
  const req = request({
    host: url.hostname,
    port: url.port,
    method: 'PUT',
    path: url.pathname + url.search,
    headers: { 'content-length': String(wav.length) },
  });
  req.on('error', () => {}); // the service dies under it
  req.write(wav.subarray(0, 1 << 20));
  const parts = () => (existsSync(tmp) ? readdirSync(tmp) : []);
  await until('the partial file written', () => parts().length === 1);
  const before = parts();

  first.child.kill('SIGKILL');
  await first.exited;
  req.destroy();
  // The debris is there: nothing cleaned up after a killed process.
  expect(parts()).toEqual(before);

  const second = await serve(['--data-dir', data]);
  // Listening means the start's housekeeping ran: the file is gone, not 10 minutes from now.
  expect(parts()).toEqual([]);
  // The address (on the new port) still takes the same bytes.
  const put = await fetch(second.url + url.pathname + url.search, { method: 'PUT', body: wav });
  expect(put.status).toBe(200);
  second.child.kill('SIGTERM');
  await second.exited;
});

test('serve --upload-expiry: the running service removes what outlived it and says so on stderr', async () => {
  const data = join(dir, 'expiry');
  const s = await serve(['--data-dir', data, '--upload-expiry', '1m']);
  const rel = await call(s, 'POST', '/releases', validRelease);
  const wav = validWav();
  const u = await call(s, 'POST', `/releases/${rel.id}/tracks/upload-url`, {
    filename: 'a.wav',
    content_type: 'audio/wav',
    size: wav.length,
    sha256: sha256(wav),
  });
  expect((await fetch(u.upload_url, { method: 'PUT', body: wav })).status).toBe(200);
  // A file with no record: removed by the first sweep (every 15 s with a 1 minute expiry), long before the upload expires.
  const orphan = join(data, 'uploads', 'files', `upl_${'0'.repeat(32)}`);
  writeFileSync(orphan, Buffer.alloc(2 * 1024 * 1024));
  await until('the sweep', () => !existsSync(orphan), 30_000);
  await until('the notice on stderr', () => s.stderr().includes('removed 1 orphan file (2.0 MiB): 2.0 MiB freed'), 5000);
  expect(existsSync(join(data, 'uploads', 'files', u.key))).toBe(true);
  s.child.kill('SIGTERM');
  await s.exited;
}, 45_000);
