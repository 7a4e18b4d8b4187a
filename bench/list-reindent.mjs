#!/usr/bin/env node
// What `release list --all --json` could save by not decoding its pages (docs/performance.md,
// "list --all by CPU"): a prototype that re-indents a page's compact JSON bytes straight into an
// output buffer, against what the CLI does now (JSON.parse of the text, JSON.stringify(items,
// null, 2), the result as bytes). Checks that both give the same bytes for the page, then times
// them interleaved and prints CPU per page. The prototype trusts its input to be in the form
// JSON.stringify writes (no whitespace, no \u escapes, canonical numbers, unique keys): a real
// version must check that and fall back to parsing.
//   node bench/list-reindent.mjs [--pages 500] [--rounds 5]
import { numberFlag } from './lib.mjs';

const argv = process.argv.slice(2);
const PAGES = numberFlag(argv, '--pages', 500);
const ROUNDS = numberFlag(argv, '--rounds', 5);
if (!(PAGES > 0) || !(ROUNDS > 0)) {
  console.error('usage: node bench/list-reindent.mjs [--pages 500] [--rounds 5]');
  process.exit(2);
}

/** A page of 100 releases shaped as the service answers GET /releases (about 75 KB). */
function pageBytes(titled) {
  const release = (id) => ({
    id,
    status: 'draft',
    type: 'single',
    title: titled(id),
    version: null,
    artists: [{ name: 'Nina Vale', role: 'primary' }],
    label: 'Sandbox Records',
    catalog_number: null,
    upc: null,
    genre: null,
    subgenre: null,
    language: null,
    p_line: null,
    c_line: null,
    original_release_date: null,
    explicit: 'not_explicit',
    artwork: null,
    delivery: { platforms: 'all', territories: { mode: 'worldwide', countries: [] }, release_date: null, preorder_date: null, price_tier: null },
    video: { enabled: false, art_tracks: false, content_id: { enabled: false, policy: 'monetize' } },
    track_count: 0,
    review: null,
    submission_notes: 'line one\nline "two"',
    created_at: '2026-11-25T10:02:05.263Z',
    updated_at: '2026-11-25T10:02:05.263Z',
    submitted_at: null,
  });
  const data = Array.from({ length: 100 }, (_, i) => release(50_000 + i));
  return Buffer.from(JSON.stringify({ data, meta: { page: 500, per_page: 100, total: 100_000, total_pages: 1000 } }));
}

/** Now: decode, encode indented, to bytes. */
function viaParse(bytes) {
  return Buffer.from(JSON.stringify(JSON.parse(bytes.toString('utf8')).data, null, 2));
}

let out = Buffer.allocUnsafe(1 << 20);
/** The prototype: bytes of one compact JSON value in, the same value indented by 2 out. */
function reindent(b, start, end) {
  if (out.length < (end - start) * 4) out = Buffer.allocUnsafe((end - start) * 4);
  let o = 0;
  let depth = 0;
  const newline = () => {
    out[o++] = 10;
    for (let k = 0; k < depth; k++) {
      out[o++] = 32;
      out[o++] = 32;
    }
  };
  for (let i = start; i < end; i++) {
    const c = b[i];
    if (c === 34) {
      out[o++] = c;
      for (i++; b[i] !== 34; i++) {
        if (b[i] === 92) out[o++] = b[i++];
        out[o++] = b[i];
      }
      out[o++] = 34;
    } else if (c === 123 || c === 91) {
      out[o++] = c;
      if (b[i + 1] === 125 || b[i + 1] === 93) out[o++] = b[++i];
      else {
        depth++;
        newline();
      }
    } else if (c === 125 || c === 93) {
      depth--;
      newline();
      out[o++] = c;
    } else if (c === 44) {
      out[o++] = c;
      newline();
    } else if (c === 58) {
      out[o++] = c;
      out[o++] = 32;
    } else out[o++] = c;
  }
  return out.subarray(0, o);
}

// ASCII titles, as the bench's seeded catalog has; and accented ones, which make V8's strings
// two-byte and its JSON slower.
const pages = { ascii: pageBytes((id) => `Seed ${id}`), accented: pageBytes((id) => `Seed ${id} – Ünïcode`) };
console.log(
  `list-reindent: pages of 100 releases, ${PAGES} pages x ${ROUNDS} interleaved rounds, node ${process.version}, NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'not set'} (no process started: it does not matter here)`,
);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [kind, page] of Object.entries(pages)) {
  const dataStart = page.indexOf('[');
  const dataEnd = page.lastIndexOf('],"meta"') + 1;
  if (!viaParse(page).equals(reindent(page, dataStart, dataEnd))) {
    console.error(`bench/list-reindent.mjs: the prototype does not print the same bytes (${kind} page)`);
    process.exit(1);
  }
  const ways = { parse: () => viaParse(page), reindent: () => reindent(page, dataStart, dataEnd) };
  const perPage = { parse: [], reindent: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, f] of Object.entries(ways)) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < PAGES; i++) f();
      const c = process.cpuUsage(c0);
      perPage[name].push((c.user + c.system) / 1000 / PAGES);
    }
  }
  console.log(
    `  ${kind} titles (${page.length} bytes): parse + stringify ${median(perPage.parse).toFixed(3)} ms of CPU per page; re-indenting the bytes ${median(perPage.reindent).toFixed(3)} ms (x${(median(perPage.reindent) / median(perPage.parse)).toFixed(2)})`,
  );
}
