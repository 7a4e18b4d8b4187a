// Audio a release file names by address (apply/download.ts), against a server on this machine:
// downloaded once into a folder keyed by the address, redirects held to the same rule, bounded in
// size, and an address's query (a signature) never in a message.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmod, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadFailed, downloadAudio } from '../../src/cli/apply/download.js';
import { audioUrlProblem } from '../../src/cli/release-file/load.js';

let server: Server;
let base: string;
let dir: string;
let requests = 0;
const body = Buffer.alloc(4096, 7);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reldist-download-'));
  server = createServer((req, res) => {
    requests++;
    const url = req.url ?? '';
    if (url.startsWith('/ok.wav')) res.writeHead(200, { 'content-length': body.length }).end(body);
    else if (url.startsWith('/hop')) res.writeHead(302, { location: '/ok.wav' }).end();
    else if (url.startsWith('/away')) res.writeHead(302, { location: 'http://example.org/x.wav' }).end();
    else if (url.startsWith('/big')) res.writeHead(200).end(Buffer.alloc(10_000));
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

const failure = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DownloadFailed);
  return (err as Error).message;
};

describe('downloadAudio', () => {
  it('downloads once (a second run finds the file), follows a redirect on this machine, keeps the file to its owner', async () => {
    const before = requests;
    const path = await downloadAudio(`${base}/ok.wav?sig=s3cr3t`, { dir });
    expect(await readFile(path)).toEqual(body);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(await downloadAudio(`${base}/ok.wav?sig=s3cr3t`, { dir })).toBe(path);
    expect(requests - before).toBe(1);
    await downloadAudio(`${base}/hop.wav`, { dir });
    expect(requests - before).toBe(3);
    expect((await readdir(dir)).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('refuses what it must, naming the address without its query', async () => {
    const away = await failure(downloadAudio(`${base}/away.wav?sig=s3cr3t`, { dir }));
    expect(away).toContain('redirected elsewhere: http://example.org/x.wav: only https addresses are downloaded');
    const missing = await failure(downloadAudio(`${base}/none.wav?sig=s3cr3t`, { dir }));
    expect(missing).toBe(`${base}/none.wav?…: the server answered 404 Not Found`);
    const big = await failure(downloadAudio(`${base}/big.wav`, { dir, maxBytes: 5000 }));
    expect(big).toContain('more than the 5000 bytes an upload may have');
    for (const m of [away, missing]) expect(m).not.toContain('s3cr3t');
    expect((await readdir(dir)).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('refuses a folder others may write in (a file planted there would be uploaded), and downloads nothing', async () => {
    const open = await mkdtemp(join(tmpdir(), 'reldist-download-open-'));
    await chmod(open, 0o777);
    const before = requests;
    const m = await failure(downloadAudio(`${base}/ok.wav`, { dir: open }));
    expect(m).toContain("is not a folder of this user's that only this user may write in");
    expect(requests).toBe(before);
    await rm(open, { recursive: true, force: true });
  });

  it('takes https anywhere and http only on this machine, never with credentials', () => {
    expect(audioUrlProblem('https://cdn.example/a.wav')).toBeUndefined();
    expect(audioUrlProblem('http://localhost:8080/a.wav')).toBeUndefined();
    expect(audioUrlProblem('http://[::1]/a.wav')).toBeUndefined();
    expect(audioUrlProblem('http://cdn.example/a.wav')).toContain('only https addresses are downloaded');
    expect(audioUrlProblem('ftp://cdn.example/a.wav')).toContain('only https');
    expect(audioUrlProblem('https://u:p@cdn.example/a.wav')).toContain('user name or password');
  });
});
