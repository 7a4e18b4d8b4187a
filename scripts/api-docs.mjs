// Regenerates the parts of docs/api.md that come from the contract: the error codes, the paging
// bounds and the reference of every endpoint (with request and response examples taken from the
// schemas' metadata). Each lives between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`;
// everything else in the file is hand-written and kept. test/unit/api-docs.test.ts fails when the
// checked-in file differs from what this writes.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadContract, packageVersion, root } from './openapi.mjs';

const IDEMPOTENCY_KEY_EXAMPLE = '5f0c1e9a-3b7d-4c2e-9a41-0d6b8e2f7c13';
const reasons = {
  200: 'OK',
  201: 'Created',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  507: 'Insufficient Storage',
};
const tagTitles = {
  me: 'Current user',
  releases: 'Releases',
  tracks: 'Tracks',
  uploads: 'Uploads',
  events: 'Events',
  webhooks: 'Webhooks',
  preferences: 'Preferences',
  'artist-platforms': 'Artist profiles on external platforms',
  lookups: 'Lookups',
};

const shellQuote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;
/** JSON on one line, with a space after each colon and comma. */
function oneLine(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${oneLine(v)}`)
    .join(', ')}}`;
}

/** JSON for reading: a value that fits on one line stays on one line, anything longer is split. */
function formatJson(value, indent = '') {
  const compact = oneLine(value);
  if (value === null || typeof value !== 'object' || indent.length + compact.length <= 96) return compact;
  const inner = `${indent}  `;
  const items = Array.isArray(value)
    ? value.map((v) => `${inner}${formatJson(v, inner)}`)
    : Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${items.join(',\n')}\n${indent}${close}`;
}

const jsonBlock = (value) => ['```json', formatJson(value), '```'].join('\n');

/** A short human form of a parameter's JSON Schema: type, bounds, allowed values. */
function describeSchema(schema, components) {
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop();
    const target = components.schemas[name];
    return target?.enum ? `one of ${target.enum.map((v) => `\`${v}\``).join(', ')}` : `\`${name}\``;
  }
  const parts = [schema.type ?? 'any'];
  if (schema.minimum !== undefined || schema.maximum !== undefined) parts.push(`${schema.minimum ?? ''}..${schema.maximum ?? ''}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined) parts.push(`${schema.minLength ?? 0}..${schema.maxLength ?? ''} chars`);
  return parts.join(' ');
}

/** The example request line: path and query filled with the parameters' own examples. */
function curlFor(endpoint, op, contract, body) {
  const params = (op.parameters ?? []).filter((p) => !p.$ref);
  const pathValues = Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, String(p.example)]));
  const query = params
    // The legacy alias and an alternative to another parameter are in the table, not the example.
    .filter((p) => p.in === 'query' && !/legacy|not with/i.test(p.description ?? ''))
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.example))}`);
  const url = `$RELDIST_URL${contract.buildPath(endpoint.path, pathValues)}${query.length ? `?${query.join('&')}` : ''}`;
  const lines = [`curl -sS -X ${endpoint.method} "${url}"`, `-H "Authorization: Bearer $RELDIST_TOKEN"`];
  if (endpoint.idempotencyKey) lines.push(`-H 'Idempotency-Key: ${IDEMPOTENCY_KEY_EXAMPLE}'`);
  if (body !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`);
    const compact = oneLine(body);
    lines.push(`-d ${shellQuote(compact.length <= 80 ? compact : formatJson(body))}`);
  }
  return ['```sh', lines.join(' \\\n  '), '```'].join('\n');
}

function endpointSection(endpoint, contract, doc) {
  const op = doc.paths[endpoint.path][endpoint.method.toLowerCase()];
  const out = [`#### \`${endpoint.method} ${endpoint.path}\``, '', `${endpoint.summary}. Operation \`${endpoint.id}\`.`, ''];
  const facts = [`Success: \`${endpoint.status} ${reasons[endpoint.status]}\``];
  if (endpoint.paginated) facts.push('paginated (`page`, `perPage`; `meta` block)');
  if (contract.acceptsIdempotencyKey(endpoint)) facts.push('accepts `Idempotency-Key`');
  if (endpoint.etag) facts.push('`ETag`, `If-None-Match` → `304`');
  facts.push(`errors: ${contract.errorStatusesOf(endpoint).join(', ')}`);
  out.push(`${facts.join(' · ')}.`, '');

  const params = (op.parameters ?? []).filter((p) => !p.$ref);
  if (params.length) {
    out.push('| parameter | in | type | required | notes |', '|---|---|---|---|---|');
    for (const p of params) {
      out.push(`| \`${p.name}\` | ${p.in} | ${describeSchema(p.schema, doc.components)} | ${p.required ? 'yes' : 'no'} | ${p.description ?? ''} |`);
    }
    out.push('');
  }
  if (endpoint.body) {
    const bodyRef = op.requestBody.content['application/json'].schema.$ref;
    out.push(`Body: ${bodyRef ? `\`${bodyRef.split('/').pop()}\`` : 'inline'} (JSON).`, '');
  }

  const bodies = endpoint.body ? contract.examplesOf(endpoint.body) : [undefined];
  out.push(bodies.length > 1 ? `Request (${bodies.length} accepted forms):` : 'Request:', '');
  for (const body of bodies) out.push(curlFor(endpoint, op, contract, body), '');
  out.push(`Response \`${endpoint.status} ${reasons[endpoint.status]}\`:`, '', jsonBlock(contract.exampleOf(endpoint.response)), '');
  return out.join('\n');
}

function endpointsReference(contract, doc) {
  const out = [];
  for (const tag of Object.keys(tagTitles)) {
    const inTag = contract.endpoints.filter((e) => e.tag === tag);
    if (!inTag.length) continue;
    out.push(`### ${tagTitles[tag]}`, '');
    for (const endpoint of inTag) out.push(endpointSection(endpoint, contract, doc));
  }
  return out.join('\n').trimEnd();
}

function errorsTable(contract) {
  const rows = Object.entries(contract.errorCodes).sort(([a, sa], [b, sb]) => sa - sb || a.localeCompare(b));
  return ['| status | code |', '|---|---|', ...rows.map(([code, status]) => `| ${status} ${reasons[status] ?? ''} | \`${code}\` |`)].join('\n');
}

function pagingFacts(contract) {
  const p = contract.paging;
  return [
    `- \`page\`: from 1, default ${p.defaultPage}.`,
    `- \`perPage\`: 1 to ${p.maxPerPage}, default ${p.defaultPerPage}.`,
    `- \`limit\` (label preferences only): the legacy name of \`perPage\`, same bounds; \`perPage\` wins when both are given.`,
    `- \`limit\` on the search endpoints: 1 to ${p.searchMaxLimit}, default ${p.searchDefaultLimit}.`,
  ].join('\n');
}

/** Replaces the body of each generated block; a missing marker is an error, never a silent skip. */
export function fillBlocks(text, blocks) {
  let out = text;
  for (const [name, body] of Object.entries(blocks)) {
    const open = `<!-- generated:${name} (npm run docs:api) -->`;
    const close = `<!-- /generated:${name} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start) throw new Error(`docs/api.md: markers for the generated block "${name}" are missing`);
    out = `${out.slice(0, start + open.length)}\n${body}\n${out.slice(end)}`;
  }
  return out;
}

/** The whole text of docs/api.md, given the contract module and the file's current text. */
export function renderApiDocs(contract, currentText, version) {
  const doc = contract.buildOpenApi({ version });
  return fillBlocks(currentText, {
    errors: errorsTable(contract),
    paging: pagingFacts(contract),
    endpoints: endpointsReference(contract, doc),
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const target = join(root, 'docs/api.md');
  const contract = await loadContract();
  const next = renderApiDocs(contract, await readFile(target, 'utf8'), await packageVersion());
  await writeFile(target, next);
  process.stderr.write(`wrote ${target}\n`);
}
