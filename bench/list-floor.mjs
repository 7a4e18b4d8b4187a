#!/usr/bin/env node
// The floor a node client can reach for `release list --all --json` in bench/batches.mjs: node:http
// with a keep-alive agent, pages of 100 asked for two ahead (as the CLI does), each answer parsed
// and printed as the CLI prints it (JSON.stringify(items, null, 2), pages joined into one array).
// One process timed as a whole, like the CLI: what is left is node's start, the HTTP exchanges,
// JSON.parse and JSON.stringify, and the writes to stdout.
//   RELDIST_BASE_URL=… RELDIST_TOKEN=… node bench/list-floor.mjs > out.json
import { Agent, request } from 'node:http';

const base = process.env.RELDIST_BASE_URL;
const token = process.env.RELDIST_TOKEN;
if (!base || !token) {
  console.error('usage: RELDIST_BASE_URL=… RELDIST_TOKEN=… node bench/list-floor.mjs');
  process.exit(2);
}
const AHEAD = 2;
const agent = new Agent({ keepAlive: true, maxSockets: AHEAD + 1 });
const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };

function getPage(page) {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/releases?page=${page}&perPage=100`, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : reject(new Error(`GET page ${page}: ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const write = (text) => (process.stdout.write(text) ? undefined : new Promise((r) => process.stdout.once('drain', r)));
const asked = new Map();
let res = await getPage(1);
let count = 0;
for (let page = 1; ; ) {
  const total = res.meta.total_pages;
  for (let next = page + 1; next <= Math.min(total, page + AHEAD); next++) if (!asked.has(next)) asked.set(next, getPage(next));
  if (res.data.length > 0) await write(`${count === 0 ? '[\n' : ',\n'}${JSON.stringify(res.data, null, 2).slice(2, -2)}`);
  count += res.data.length;
  if (page >= total || res.data.length === 0) break;
  page++;
  res = await asked.get(page);
  asked.delete(page);
}
await write(count === 0 ? '[]\n' : '\n]\n');
agent.destroy();
