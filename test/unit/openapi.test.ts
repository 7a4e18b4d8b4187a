import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { acceptsIdempotencyKey, catalog, endpoints, ErrorBody, errorCodes, paging, routes, TrackFile } from '../../src/contract/index.js';
import { buildOpenApi, errorStatusesOf, type OpenAPIObject } from '../../src/contract/openapi.js';

const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
const doc = buildOpenApi({ version: pkg.version });

type Obj = Record<string, unknown>;
const operation = (method: string, path: string) => doc.paths[path]?.[method.toLowerCase()] as Obj;

/** The zod schema behind a component: `XInput` is the input form of `X`. */
function zodFor(name: string): z.ZodType {
  const idmap = (z.globalRegistry as unknown as { _idmap: Map<string, z.ZodType> })._idmap;
  const schema = idmap.get(name) ?? idmap.get(name.replace(/Input$/, ''));
  if (!schema) throw new Error(`no zod schema with id ${name}`);
  return schema;
}

function resolve<T>(node: T): T {
  const refd = node as Obj;
  if (typeof refd.$ref !== 'string') return node;
  const [, kind, name] = /^#\/components\/(\w+)\/(\w+)$/.exec(refd.$ref)!;
  return (doc.components as unknown as Record<string, Record<string, T>>)[kind!]![name!]!;
}

describe('the OpenAPI document', () => {
  it('is the checked-in openapi.json', () => {
    const checkedIn = readFileSync(new URL('openapi.json', root), 'utf8');
    const fresh = `${JSON.stringify(doc, null, 2)}\n`;
    expect(fresh === checkedIn, 'openapi.json is out of date with src/contract: run `npm run openapi` and commit it').toBe(true);
  });

  it('passes swagger-parser validation', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('has one operation per catalog entry, named by its id, with its success status', () => {
    for (const endpoint of endpoints) {
      const op = operation(endpoint.method, endpoint.path);
      expect(op?.operationId, endpoint.id).toBe(endpoint.id);
      expect(op.summary).toBe(endpoint.summary);
      expect(Object.keys(op.responses as Obj)).toContain(String(endpoint.status));
    }
    const ids = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(ids.sort()).toEqual([...Object.keys(routes), 'uploadFile', 'getUploadStatus', 'uploadPart', 'completeUpload'].sort());
  });

  it('emits the input types and bounds of coerced query parameters', () => {
    const params = operation('GET', '/preferences/label').parameters as Obj[];
    const byName = Object.fromEntries(params.map((p) => [p.name, p]));
    expect(byName.page).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1 } });
    expect(byName.perPage).toMatchObject({ schema: { type: 'integer', minimum: 1, maximum: paging.maxPerPage } });
    expect(byName.limit).toMatchObject({ description: expect.stringMatching(/legacy/i), schema: { maximum: paging.maxPerPage } });
    const search = operation('GET', '/preferences/search-streaming-a').parameters as Obj[];
    expect(search.find((p) => p.name === 'q')).toMatchObject({ required: true, schema: { type: 'string' } });
    expect(search.find((p) => p.name === 'limit')).toMatchObject({ required: false, schema: { maximum: paging.searchMaxLimit } });
  });

  it('declares the path parameters of every path', () => {
    const op = operation('GET', '/releases/{releaseId}/tracks/{trackId}');
    expect((op.parameters as Obj[]).filter((p) => p.in === 'path').map((p) => p.name)).toEqual(['releaseId', 'trackId']);
  });

  it('offers Idempotency-Key on every mutation and no GET, and documents the replay header', () => {
    for (const endpoint of endpoints) {
      const op = operation(endpoint.method, endpoint.path);
      const hasKey = ((op.parameters ?? []) as Obj[]).some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
      expect(hasKey, endpoint.id).toBe(endpoint.method !== 'GET');
      expect(acceptsIdempotencyKey(endpoint), endpoint.id).toBe(endpoint.method !== 'GET');
      const success = (op.responses as Obj)[String(endpoint.status)] as Obj;
      expect('Idempotent-Replayed' in (success.headers as Obj), endpoint.id).toBe(endpoint.method !== 'GET');
    }
  });

  it('declares ETag, If-None-Match and 304 on the reads a watcher polls or a writer builds on, and nowhere else', () => {
    const polled = endpoints
      .filter((e) => e.etag)
      .map((e) => e.id)
      .sort();
    expect(polled).toEqual(['getRelease', 'listReleases', 'listTracks']);
    for (const endpoint of endpoints) {
      const op = operation(endpoint.method, endpoint.path);
      const hasHeader = ((op.parameters ?? []) as Obj[]).some((p) => p.$ref === '#/components/parameters/IfNoneMatch');
      expect(hasHeader, endpoint.id).toBe(endpoint.etag === true);
      expect('304' in (op.responses as Obj), endpoint.id).toBe(endpoint.etag === true);
      const success = (op.responses as Obj)[String(endpoint.status)] as Obj;
      expect('ETag' in (success.headers as Obj), endpoint.id).toBe(endpoint.etag === true);
    }
  });

  it('declares If-Match and 412 precondition_failed on the writes that honour it, and nowhere else', () => {
    const conditional = endpoints.filter((e) => e.ifMatch).map((e) => [e.id, e.ifMatch]);
    expect(conditional).toEqual([
      ['updateReleaseMetadata', 'getRelease'],
      ['updateReleaseDelivery', 'getRelease'],
      ['updateReleaseVideo', 'getRelease'],
      ['submitRelease', 'getRelease'],
      ['replaceReleaseTracks', 'listTracks'],
    ]);
    for (const endpoint of endpoints) {
      const op = operation(endpoint.method, endpoint.path);
      const ifMatch = ((op.parameters ?? []) as Obj[]).find((p) => p.name === 'If-Match');
      expect(ifMatch !== undefined, endpoint.id).toBe(endpoint.ifMatch !== undefined);
      expect('412' in (op.responses as Obj), endpoint.id).toBe(endpoint.ifMatch !== undefined);
      // The read whose ETag it takes must answer with one.
      if (endpoint.ifMatch) expect(catalog[endpoint.ifMatch].etag).toBe(true);
    }
  });

  it('keeps the sandbox controls out of the document', () => {
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/_sandbox'))).toBe(false);
    expect(doc.tags.map((t) => t.name)).not.toContain('sandbox');
  });

  it('takes the union forms for PUT tracks and the label-artist remove', () => {
    for (const id of ['replaceReleaseTracks', 'removeLabelArtist'] as const) {
      const media = ((operation(catalog[id].method, catalog[id].path).requestBody as Obj).content as Obj)['application/json'] as Obj;
      const schema = resolve(media.schema as Obj);
      expect(schema.anyOf, id).toHaveLength(2);
      const examples = Object.values(media.examples as Record<string, { value: unknown }>);
      expect(examples).toHaveLength(2);
      for (const e of examples) expect(catalog[id].body!.safeParse(e.value).success, id).toBe(true);
    }
  });

  it('attaches the error responses that can happen: 409 where state matters, 413/415/422 where there is a body', () => {
    expect(errorStatusesOf(catalog.getMe)).toEqual([401, 405, 429, 500]);
    expect(errorStatusesOf(catalog.getRelease)).toContain(404);
    expect(errorStatusesOf(catalog.getArtistViaLink)).toContain(404); // a link to nothing
    expect(errorStatusesOf(catalog.searchStreamingA)).not.toContain(404); // a search finds an empty list
    expect(errorStatusesOf(catalog.getLabelPreferences)).toContain(403); // an artist account's token
    expect(errorStatusesOf(catalog.listPreferenceArtists)).not.toContain(403);
    expect(errorStatusesOf(catalog.updateReleaseMetadata)).toEqual([400, 401, 404, 405, 409, 412, 413, 415, 422, 429, 500]);
    // Ids inside a body that are unknown are a 422 naming the field; 404 is for what is acted on.
    expect(errorStatusesOf(catalog.createRelease)).not.toContain(404);
    expect(errorStatusesOf(catalog.submitLabelPreference)).not.toContain(404);
    expect(errorStatusesOf(catalog.removeLabelArtist)).toContain(404);
    for (const endpoint of endpoints) {
      const statuses = Object.keys(operation(endpoint.method, endpoint.path).responses as Obj).map(Number);
      expect(statuses.includes(413), endpoint.id).toBe(endpoint.body !== undefined);
      expect(statuses.includes(415), endpoint.id).toBe(endpoint.body !== undefined);
      if (endpoint.method === 'GET' && !endpoint.idempotencyKey) expect(statuses, endpoint.id).not.toContain(409);
      expect(statuses).toContain(401);
    }
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  it('gives every error response the one error body, with an example whose code has that status', () => {
    const responses = Object.values(doc.components.responses) as Obj[];
    expect(responses.length).toBeGreaterThanOrEqual(10);
    for (const response of responses) {
      const media = (response.content as Obj)['application/json'] as Obj;
      expect(media.schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      const example = ErrorBody.parse(media.example);
      expect(errorCodes[example.error.code as keyof typeof errorCodes], example.error.code).toBe(example.error.status);
    }
    const tooMany = doc.components.responses.TooManyRequests as Obj;
    expect(Object.keys(tooMany.headers as Obj)).toContain('Retry-After');
  });

  it('documents the signed upload address without bearer auth, with its outcomes', () => {
    const op = operation('PUT', '/uploads/{key}');
    expect(op.security).toEqual([]);
    expect((op.parameters as Obj[]).map((p) => p.name)).toEqual(['key', 'expires', 'signature']);
    expect(Object.keys(op.responses as Obj)).toEqual(expect.arrayContaining(['200', '403', '410', '413', '422']));
    const media = (((op.responses as Obj)['200'] as Obj).content as Obj)['application/json'] as Obj;
    // A track's file or a cover, as the address was asked for.
    expect(media.schema).toEqual({ oneOf: [{ $ref: '#/components/schemas/UploadResult' }, { $ref: '#/components/schemas/ArtworkFile' }] });
    const component = ((doc.components as Obj).schemas as Obj).UploadResult as Obj;
    expect(
      TrackFile.omit({ filename: true })
        .strict()
        .safeParse((component.examples as unknown[])[0]).success,
    ).toBe(true);
  });
});

describe('examples in the OpenAPI document', () => {
  it('gives every component schema an example that its own zod schema accepts', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names.length).toBeGreaterThan(40);
    for (const name of names) {
      const examples = doc.components.schemas[name]!.examples as unknown[] | undefined;
      expect(examples?.length, `${name} has no example`).toBeGreaterThan(0);
      for (const example of examples!) {
        const result = zodFor(name).safeParse(example);
        expect(result.success, `${name}: ${result.error?.message}`).toBe(true);
      }
    }
  });

  it('gives every inline response and body schema an example that the catalog schema accepts', () => {
    for (const endpoint of endpoints) {
      const op = operation(endpoint.method, endpoint.path);
      const success = ((op.responses as Obj)[String(endpoint.status)] as Obj).content as Obj;
      const media = success['application/json'] as Obj;
      const inline = (media.schema as Obj).$ref === undefined;
      if (inline) expect(endpoint.response.safeParse(media.example).success, endpoint.id).toBe(true);
      else
        expect(
          doc.components.schemas[
            String((media.schema as Obj).$ref)
              .split('/')
              .pop()!
          ]?.examples,
          endpoint.id,
        ).toBeDefined();
    }
  });

  it('gives every parameter an example its schema accepts', () => {
    for (const endpoint of endpoints) {
      const op = operation(endpoint.method, endpoint.path);
      for (const param of ((op.parameters ?? []) as Obj[]).map(resolve)) {
        expect(param.example, `${endpoint.id} ${String(param.name)}`).toBeDefined();
        const field = param.in === 'path' ? endpoint.pathParams.shape[param.name as string] : endpoint.query?.shape[param.name as string];
        if (field) expect((field as z.ZodType).safeParse(param.example).success, `${endpoint.id} ${String(param.name)}`).toBe(true);
      }
    }
  });
});

// Keeps the type honest for callers that only want the shape.
const _typed: OpenAPIObject = doc;
void _typed;
