#!/usr/bin/env node
// The floor that bench/apply.mjs holds `reldist release apply --submit` against: the least a
// correct client does to put a folder of release files (JSON, one track each) on the service and
// submit them, with node:http and nothing else. Per release: list by catalog number; when it is
// there and no longer a draft, nothing more; else create, set the delivery, ask for an upload
// address, PUT the audio, PUT the track list, submit. Releases run `--parallel` at a time.
//   RELDIST_BASE_URL=… RELDIST_TOKEN=… node bench/apply-minimal.mjs DIR [--parallel 4]
// Prints one line: {"releases": N, "created": n, "unchanged": n}. Exits 1 at the first failure.
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { dirname, join, resolve } from 'node:path';

const argv = process.argv.slice(2);
const dir = argv.find((a) => !a.startsWith('--'));
const i = argv.indexOf('--parallel');
const parallel = i >= 0 ? Number(argv[i + 1]) : 4;
const base = process.env.RELDIST_BASE_URL;
const token = process.env.RELDIST_TOKEN;
if (!dir || !base || !token || !(parallel >= 1)) {
  console.error('usage: RELDIST_BASE_URL=… RELDIST_TOKEN=… node bench/apply-minimal.mjs DIR [--parallel 4]');
  process.exit(2);
}

const agent = new Agent({ keepAlive: true, maxSockets: parallel });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One request; resolves to the parsed JSON body; rejects on a non-2xx. A 429 waits its Retry-After (5 times at most). */
async function call(method, url, body, headers = {}) {
  for (let attempt = 1; ; attempt++) {
    const res = await send(method, url, body, headers);
    if (res.status === 429 && attempt <= 5) {
      await sleep(Number(res.retryAfter ?? 1) * 1000);
      continue;
    }
    if (res.status >= 200 && res.status < 300) return res.text ? JSON.parse(res.text) : undefined;
    throw new Error(`${method} ${new URL(url).pathname}: ${res.status} ${res.text.slice(0, 300)}`);
  }
}

function send(method, url, body, headers) {
  return new Promise((resolveCall, reject) => {
    const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    const h = { accept: 'application/json' };
    for (const [k, v] of Object.entries(headers)) h[k.toLowerCase()] = v;
    // The signed upload address is its own credential: no token there.
    if (url.startsWith(base) && !url.startsWith(`${base}/uploads/`)) h.authorization = `Bearer ${token}`;
    if (payload) {
      h['content-length'] = String(payload.length);
      h['content-type'] ??= 'application/json';
    }
    const req = request(url, { method, agent, headers: h }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolveCall({ status: res.statusCode, text, retryAfter: res.headers['retry-after'] }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const mutation = () => ({ 'idempotency-key': randomUUID() });

async function applyOne(file) {
  const release = JSON.parse(readFileSync(file, 'utf8'));
  const { tracks, delivery, video: _video, ...fields } = release;
  const found = await call('GET', `${base}/releases?catalog_number=${encodeURIComponent(fields.catalog_number)}`);
  const existing = found.data[0];
  if (existing && existing.status !== 'draft') return 'unchanged';
  // A draft left by an earlier run is finished, not made again (the catalog number is taken).
  const id = existing ? existing.id : (await call('POST', `${base}/releases`, fields, mutation())).id;
  if (delivery) await call('PATCH', `${base}/releases/${id}/delivery`, delivery);
  const list = [];
  for (const t of tracks) {
    const { file: audioPath, ...trackFields } = t;
    const bytes = readFileSync(resolve(dirname(file), audioPath));
    const slot = await call(
      'POST',
      `${base}/releases/${id}/tracks/upload-url`,
      {
        filename: audioPath.split('/').at(-1),
        content_type: 'audio/flac',
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      },
      mutation(),
    );
    await call('PUT', slot.upload_url, bytes, slot.headers);
    list.push({ file_key: slot.key, ...trackFields });
  }
  await call('PUT', `${base}/releases/${id}/tracks`, { tracks: list });
  await call('POST', `${base}/releases/${id}/submit`, {}, mutation());
  return 'created';
}

const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => join(dir, f));
const counts = { created: 0, unchanged: 0 };
let next = 0;
async function worker() {
  while (next < files.length) {
    const file = files[next++];
    counts[await applyOne(file)]++;
  }
}
try {
  await Promise.all(Array.from({ length: Math.min(parallel, files.length) }, worker));
} catch (err) {
  console.error(`apply-minimal: ${err.message}`);
  process.exit(1);
}
agent.destroy();
console.log(JSON.stringify({ releases: files.length, ...counts }));
