#!/usr/bin/env node
// The floor a node client can reach for bench/upload.mjs: the fewest steps that keep integrity end
// to end, in one process timed as a whole like the CLI. It asks the service for an upload address
// (POST …/tracks/upload-url), streams the file there with node:http in 1 MiB reads, hashing each
// as it leaves, and compares its digest with the one the service answers. No audio checks, no
// track-list write, no zod, no bundle: what is left is node's start, the hash and the copies.
//   RELDIST_BASE_URL=… RELDIST_TOKEN=… node bench/upload-floor.mjs RELEASE_ID FILE
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { basename } from 'node:path';

const [releaseId, file] = process.argv.slice(2);
const base = process.env.RELDIST_BASE_URL;
const token = process.env.RELDIST_TOKEN;
if (!releaseId || !file || !base || !token) {
  console.error('usage: RELDIST_BASE_URL=… RELDIST_TOKEN=… node bench/upload-floor.mjs RELEASE_ID FILE');
  process.exit(2);
}

/** One request; resolves to the parsed JSON answer, or rejects on a non-2xx. */
function send(method, url, headers, writeBody) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => (res.statusCode < 300 ? resolve(JSON.parse(text)) : reject(new Error(`${method} ${res.statusCode}: ${text}`))));
    });
    req.on('error', reject);
    writeBody(req);
  });
}

const { size } = await stat(file);
const body = JSON.stringify({ filename: basename(file), content_type: 'audio/wav', size });
const ticket = await send(
  'POST',
  `${base}/releases/${releaseId}/tracks/upload-url`,
  { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  (req) => req.end(body),
);

const hash = createHash('sha256');
const answer = await send('PUT', ticket.upload_url, { 'content-type': 'audio/wav', 'content-length': String(size) }, async (req) => {
  const fh = await open(file, 'r');
  const buf = [Buffer.allocUnsafe(1 << 20), Buffer.allocUnsafe(1 << 20)];
  // The next read runs while this piece is hashed and written; a buffer is read into again only
  // once its write has reached the kernel (the write's callback).
  let reading = fh.read(buf[0], 0, 1 << 20, null);
  for (let i = 0; ; i ^= 1) {
    const { bytesRead } = await reading;
    if (bytesRead === 0) break;
    const chunk = buf[i].subarray(0, bytesRead);
    reading = fh.read(buf[i ^ 1], 0, 1 << 20, null);
    hash.update(chunk);
    await new Promise((resolve, reject) => req.write(chunk, (e) => (e ? reject(e) : resolve())));
  }
  await fh.close();
  req.end();
});
const sent = hash.digest('hex');
if (answer.sha256 !== sent) {
  console.error(`digest mismatch: sent ${sent}, the service answered ${answer.sha256}`);
  process.exit(1);
}
console.log(JSON.stringify({ key: answer.key, sha256: sent, size }));
