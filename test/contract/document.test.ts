// openapi.json read as a third party reads it, with a JSON Schema validator (ajv): every example
// validates against its own schema; answers are open for additive change while requests are
// closed; and the request rules the document states are the ones the service applies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractChecker } from '../helpers/contract-check.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

const checker = new ContractChecker();
const doc = checker.doc;
type Obj = Record<string, any>;

const escapePointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** Every (pointer to a schema, example) pair in the document. */
function examples(): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [name, schema] of Object.entries(doc.components.schemas as Obj)) {
    for (const [i, e] of ((schema.examples ?? []) as unknown[]).entries()) out.push([`#/components/schemas/${name} examples[${i}]`, e]);
  }
  const media = (at: string, m: Obj) => {
    if ('example' in m) out.push([`${at}/schema`, m.example]);
    for (const [k, e] of Object.entries((m.examples ?? {}) as Obj)) out.push([`${at}/schema examples.${k}`, e.value]);
  };
  for (const [path, item] of Object.entries(doc.paths as Obj)) {
    for (const [method, op] of Object.entries(item as Obj)) {
      const at = `#/paths/${escapePointer(path)}/${method}`;
      for (const [i, p] of ((op.parameters ?? []) as Obj[]).entries()) if ('example' in p) out.push([`${at}/parameters/${i}/schema`, p.example]);
      for (const [type, m] of Object.entries((op.requestBody?.content ?? {}) as Obj)) media(`${at}/requestBody/content/${escapePointer(type)}`, m);
      for (const [status, r] of Object.entries(op.responses as Obj)) {
        for (const [type, m] of Object.entries((r.content ?? {}) as Obj)) media(`${at}/responses/${status}/content/${escapePointer(type)}`, m);
      }
    }
  }
  for (const [name, r] of Object.entries(doc.components.responses as Obj))
    media(`#/components/responses/${name}/content/application~1json`, r.content['application/json']);
  for (const [name, p] of Object.entries(doc.components.parameters as Obj)) out.push([`#/components/parameters/${name}/schema`, p.example]);
  for (const [name, h] of Object.entries(doc.components.headers as Obj)) out.push([`#/components/headers/${name}/schema`, h.example]);
  return out;
}

describe('openapi.json, read with a JSON Schema validator', () => {
  it('every example validates against its own schema', () => {
    const all = examples();
    expect(all.length).toBeGreaterThan(100);
    const wrong = all.flatMap(([where, value]) => {
      const pointer = where.split(' ')[0]!;
      return checker.validate(pointer, value).map((e) => `${where}: ${e}`);
    });
    expect(wrong).toEqual([]);
  });

  it('answers are open for additive change; requests are closed', () => {
    const closed: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      if (node === null || typeof node !== 'object') return;
      if ((node as Obj).additionalProperties === false) closed.push(at);
      for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`);
    };
    const responseSchemas = new Set<string>();
    JSON.stringify(doc.paths, (k, v) => {
      if (k === '$ref' && typeof v === 'string') responseSchemas.add(v);
      return v;
    });
    for (const [path, item] of Object.entries(doc.paths as Obj)) {
      for (const op of Object.values(item as Obj)) for (const r of Object.values(op.responses as Obj)) walk(r, path);
    }
    // Named schemas reachable from an answer: a request's own schemas are the *Request/*Input ones.
    const fromAnswers = [
      'ReleaseResource',
      'TrackResource',
      'UserResource',
      'ErrorBody',
      'ListReleasesResponse',
      'ArtistCredit',
      'Territories',
      'PlatformChoice',
    ];
    for (const name of fromAnswers) if (doc.components.schemas[name]) walk(doc.components.schemas[name], name);
    expect(closed).toEqual([]);
    expect(doc.components.schemas.CreateReleaseRequest.additionalProperties).toBe(false);
    expect(doc.components.schemas.ArtistCreditInput?.additionalProperties ?? doc.components.schemas.ArtistCredit.additionalProperties).toBe(false);
  });
});

describe('request rules: the document and the service agree', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const release = { type: 'single', title: 'Northern Sky', artists: [{ name: 'Nina Vale', role: 'primary' }], label: 'Northern Lights Records' };
  const bodyPointer = (path: string, method: string) => `#/paths/${escapePointer(path)}/${method}/requestBody/content/application~1json/schema`;

  it.each([
    ['a title of spaces alone', { ...release, title: '   ' }],
    ['an artist name of spaces alone', { ...release, artists: [{ name: ' ', role: 'primary' }] }],
  ])('POST /releases refuses %s', async (_what, body) => {
    expect(checker.validate(bodyPointer('/releases', 'post'), body)).not.toEqual([]);
    expect((await api(server, server.tokens.label, 'POST', '/releases', body)).status).toBe(422);
  });

  it.each([
    ['worldwide with countries', { territories: { mode: 'worldwide', countries: ['DE'] } }],
    ['include without countries', { territories: { mode: 'include', countries: [] } }],
    ['exclude with countries left out', { territories: { mode: 'exclude' } }],
    ['a platform given twice', { platforms: ['streaming_a', 'streaming_a'] }],
  ])('PATCH delivery refuses %s', async (_what, body) => {
    const created = await api(server, server.tokens.label, 'POST', '/releases', release);
    expect(checker.validate(bodyPointer('/releases/{releaseId}/delivery', 'patch'), body)).not.toEqual([]);
    const res = await api(server, server.tokens.label, 'PATCH', `/releases/${created.body.id}/delivery`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.error.fields)[0]).toMatch(/^(territories|platforms)/);
  });

  it('PATCH delivery takes what the document takes', async () => {
    const created = await api(server, server.tokens.label, 'POST', '/releases', release);
    const platforms = (await api(server, server.tokens.label, 'GET', '/lookup/platforms')).body.stores.slice(0, 2).map((p: Obj) => p.id);
    for (const body of [{ territories: { mode: 'worldwide' } }, { territories: { mode: 'exclude', countries: ['KP'] } }, { platforms }]) {
      expect(checker.validate(bodyPointer('/releases/{releaseId}/delivery', 'patch'), body)).toEqual([]);
      const res = await api(server, server.tokens.label, 'PATCH', `/releases/${created.body.id}/delivery`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  it.each([
    ['mode existing without profile_id', { platforms: [{ platform: 'store_c', mode: 'existing' }] }],
    ['mode new with a profile_id', { platforms: [{ platform: 'store_c', mode: 'new', profile_id: '123' }] }],
  ])('POST /preferences/artist/submit refuses %s', async (_what, body) => {
    expect(checker.validate(bodyPointer('/preferences/artist/submit', 'post'), body)).not.toEqual([]);
    expect((await api(server, server.tokens.artist, 'POST', '/preferences/artist/submit', body)).status).toBe(422);
  });
});
