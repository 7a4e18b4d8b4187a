// The OpenAPI 3.1 document, generated from the endpoint catalog: every path, parameter, body and
// response comes from routes.ts and the zod schemas, so the document cannot drift from the wire.
// What is here and nowhere else is prose (tag and error descriptions) and the transport-level facts
// the catalog does not model: auth, error classes per operation, the idempotency header and the
// signed upload address.
import * as z from 'zod';
import { bodyMayBeLeftOut, endpoints, type Endpoint } from './catalog.js';
import { EntityId } from './common.js';
import { ErrorBody } from './errors.js';
import { ArtworkFile, UploadPart, UploadResult, UploadStatus } from './resources.js';
import { WebhookPayload } from './webhooks.js';
import { CompleteUploadRequest, uploadContentTypes } from './requests.js';
import { acceptsIdempotencyKey, idempotencyKeyPattern, type Route } from './routes.js';

type JsonObject = { [key: string]: unknown };

export interface OpenAPIObject {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string; description: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, JsonObject>>;
  /** What the service sends to the account's webhook endpoints (OpenAPI 3.1). */
  webhooks: Record<string, Record<string, JsonObject>>;
  components: {
    schemas: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
    headers: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
  };
}

export interface BuildOpenApiOptions {
  /** The service's base URL, for `servers`. */
  serverUrl?: string;
  /** The document's version; the caller passes package.json's. */
  version?: string;
}

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8080';

// The sandbox controls are typed in the contract (sandboxCatalog) but not listed here: this
// document describes the service, not its test double (docs/api.md describes them).
const tagDescriptions: Record<Exclude<Route['tag'], 'sandbox'>, string> = {
  me: 'The authenticated user.',
  releases: 'Releases: create, edit, submit for review; UPC checks.',
  tracks: 'Tracks of a release, their audio files, and ISRC checks.',
  uploads: "The account's uploads that nothing names yet (complete, or in parts still arriving): list them, discard them.",
  events: "What happened to the account's releases, in order: one event per change, recorded with it.",
  webhooks:
    "Endpoints the account's events are POSTed to, signed (Standard Webhooks) and retried; their delivery logs. What is sent: the document's `webhooks`.",
  preferences: 'Artist and label preferences, and the artists a label manages.',
  'artist-platforms': 'Artist profiles on the external platforms (streaming service A, video service B, store C).',
  lookups: 'Read-only reference lists.',
};

/** The error classes: one shared response each, all with the one error body. */
interface ErrorClass {
  status: number;
  name: string;
  description: string;
  example: { code: string; message: string; fields?: Record<string, string[]>; problems?: unknown[] };
  /** Response headers beyond X-Request-Id (and Idempotent-Replayed, which every error may carry). */
  headers?: ('Retry-After' | 'WWW-Authenticate' | 'Allow')[];
}

const errorClasses: ErrorClass[] = [
  {
    status: 400,
    name: 'BadRequest',
    description:
      'Malformed JSON, a query parameter the operation does not list (whatever its name) or a bad one, a bad header, or a request that is not valid HTTP (invalid_json, invalid_query, bad_request).',
    example: { code: 'invalid_query', message: 'perPage: expected a number from 1 to 100' },
  },
  {
    status: 401,
    name: 'Unauthorized',
    description: 'No bearer token, or one the service does not know.',
    headers: ['WWW-Authenticate'],
    example: { code: 'unauthorized', message: 'missing Authorization header; send "Authorization: Bearer <token>"' },
  },
  {
    status: 403,
    name: 'Forbidden',
    description: 'This endpoint belongs to the other kind of account (artist or label) (forbidden).',
    example: { code: 'forbidden', message: 'label preferences belong to label accounts; this token is an artist account: use /preferences/artist' },
  },
  {
    status: 403,
    name: 'UploadForbidden',
    description: 'The upload address was altered or signed for another file (upload_signature_invalid).',
    example: { code: 'upload_signature_invalid', message: 'the upload address is not valid; ask for a new one' },
  },
  {
    status: 404,
    name: 'NotFound',
    description: 'Nothing with this id, or it belongs to another user; ids that are not positive integers are 404 too.',
    example: { code: 'not_found', message: 'release 42 not found' },
  },
  {
    status: 409,
    name: 'Conflict',
    description:
      "The release's state does not allow this (state_conflict; the message names the state), another release already has this catalog number (catalog_number_taken, with details), or a request with the same Idempotency-Key is still running (idempotency_in_progress, with Retry-After).",
    headers: ['Retry-After'],
    example: {
      code: 'state_conflict',
      message: 'the release is in review (status in_review): its metadata cannot be edited; it can be edited again if the review rejects it',
    },
  },
  {
    status: 405,
    name: 'MethodNotAllowed',
    description: "The path exists, but not with the request's method (method_not_allowed); Allow lists the methods it takes.",
    headers: ['Allow'],
    example: { code: 'method_not_allowed', message: 'DELETE is not allowed on /me; allowed: GET' },
  },
  {
    status: 410,
    name: 'UploadExpired',
    description: 'The upload address has expired (upload_expired); ask for a new one.',
    example: { code: 'upload_expired', message: 'the upload address expired; ask for a new one' },
  },
  {
    status: 412,
    name: 'PreconditionFailed',
    description:
      'If-Match named an ETag the resource no longer has: someone changed it since you read it (precondition_failed). Read it again, redo your change, and send it with the new ETag.',
    example: {
      code: 'precondition_failed',
      message: 'the track list of release 42 changed since it was read (If-Match "3f1a9c0b5d2e7f64"); read it again and retry',
    },
  },
  {
    status: 413,
    name: 'PayloadTooLarge',
    description: 'The body is larger than the limit (payload_too_large).',
    example: { code: 'payload_too_large', message: 'request body is larger than the limit of 1048576 bytes' },
  },
  {
    status: 413,
    name: 'UploadQuotaExceeded',
    description:
      'The account already holds as many upload bytes as the service allows (uploads arriving, counted by declared size, plus complete uploads attached to no track), or the file alone is more (upload_quota_exceeded). Sent before the body to a client that asked with Expect: 100-continue.',
    example: {
      code: 'upload_quota_exceeded',
      message:
        'this account already has 3.5 GiB of uploads arriving; with this file (812 MiB) that is more than the 4 GiB allowed at once; upload it when they have finished',
    },
  },
  {
    status: 415,
    name: 'UnsupportedMediaType',
    description:
      'The body is not sent as application/json, the one type listed (a +json type such as application/vnd.api+json is another type) (unsupported_media_type).',
    example: { code: 'unsupported_media_type', message: 'request body must be JSON; send Content-Type: application/json' },
  },
  {
    status: 422,
    name: 'Unprocessable',
    description:
      'The body is well-formed but wrong: validation_failed (with fields), submit_blocked (with problems), idempotency_key_reused, upload_mismatch, audio_rejected.',
    example: {
      code: 'validation_failed',
      message: 'artists.0.role: expected one of primary, featuring, with, remixer',
      fields: { 'artists.0.role': ['expected one of primary, featuring, with, remixer'] },
    },
  },
  {
    status: 429,
    name: 'TooManyRequests',
    description: 'Too many requests; wait for Retry-After seconds (rate_limited).',
    headers: ['Retry-After'],
    example: { code: 'rate_limited', message: 'too many requests; retry in 2 seconds' },
  },
  {
    status: 507,
    name: 'UploadCapacityExceeded',
    description: 'The service is receiving as many upload bytes as it holds at once (upload_capacity_exceeded); try again after Retry-After seconds.',
    headers: ['Retry-After'],
    example: { code: 'upload_capacity_exceeded', message: 'the service is receiving as many uploads as it can hold right now; try again in a few minutes' },
  },
  {
    status: 500,
    name: 'InternalError',
    description: 'The service failed; the request id finds it in the log.',
    example: { code: 'internal', message: 'the service failed to handle this request; see its log' },
  },
];

const errorClass = (status: number): ErrorClass => {
  const found = errorClasses.find((e) => e.status === status);
  if (!found) throw new Error(`no error class for ${status}`);
  return found;
};

/** A body that is itself the id of what the request acts on (alone or as one form of a union). */
function namesTarget(body: z.ZodType | undefined): boolean {
  if (body === undefined) return false;
  if (body === EntityId) return true;
  const def = (body as unknown as { _zod: { def: { type: string; options?: z.ZodType[] } } })._zod.def;
  return def.type === 'union' && (def.options ?? []).includes(EntityId);
}

/** Whether a field of this name is anywhere in the body (in its objects, their lists and union forms). */
function namesField(schema: z.ZodType | undefined, name: string, seen = new Set<z.ZodType>()): boolean {
  if (schema === undefined || seen.has(schema)) return false;
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  if (def.type === 'object' && name in (def.shape as object)) return true;
  const children = [def.innerType, def.in, def.element, ...((def.options as unknown[]) ?? []), ...Object.values((def.shape as object) ?? {})];
  return children.some((c) => c !== undefined && namesField(c as z.ZodType, name, seen));
}

const hasField = (schema: z.ZodType | undefined, name: string) => schema instanceof z.ZodObject && name in schema.shape;

/** Which error statuses an endpoint can answer with, from what the catalog says about it. */
export function errorStatusesOf(endpoint: Endpoint): number[] {
  // 405: the path exists, with other methods (every path of the document has one operation or more).
  const statuses = new Set<number>([401, 405, 429, 500]);
  // 400: a query parameter or header; a body that is missing, not JSON or not UTF-8.
  if (endpoint.query || endpoint.body || acceptsIdempotencyKey(endpoint)) statuses.add(400);
  // 404: what the request acts on does not exist (or is another user's): an id in the path, the
  // id that is the whole body (the label-artist remove), the release a code check is for
  // (release_id), a link to resolve. An id merely referred to inside a body (a credit's
  // artist_id, a label artist to update, a track's upload key, a platform profile) is a 422
  // validation_failed naming its field instead.
  const actsOn = namesTarget(endpoint.body) || namesField(endpoint.body, 'release_id') || hasField(endpoint.query, 'url') || hasField(endpoint.body, 'url');
  if (endpoint.path.includes('{') || actsOn) {
    statuses.add(404);
  }
  // Artist preferences belong to artist accounts, label preferences to label accounts.
  if (endpoint.account) statuses.add(403);
  // State matters for every change to one release; a key still in use conflicts too.
  if ((endpoint.path.startsWith('/releases/{releaseId}') && endpoint.method !== 'GET') || acceptsIdempotencyKey(endpoint)) statuses.add(409);
  if (endpoint.body) [413, 415, 422].forEach((s) => statuses.add(s));
  if (endpoint.ifMatch) statuses.add(412);
  return [...statuses].sort((a, b) => a - b);
}

// ---- schemas: zod → JSON Schema, with every `.meta({ id })` schema hoisted into components ----

type Io = 'input' | 'output';
const REF_PREFIX = 'reldist-ref:';

/** Collects component schemas per direction, and names the input form `XInput` where it differs. */
class SchemaSet {
  private readonly defs: Record<Io, Map<string, JsonObject>> = { input: new Map(), output: new Map() };

  /** Converts one schema; references to named schemas are left as placeholders until `finish`. */
  convert(schema: z.ZodType, io: Io): JsonObject {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', metadata: z.globalRegistry }) as JsonObject;
    // Answers are open for additive change (docs/api.md, versioning): a client must ignore a field
    // it does not know, so no answer's object is closed. Requests stay strict.
    const marked = markRefs(withoutDefaults(io === 'output' ? openObjects(json) : json, io), io) as JsonObject;
    const defs = (marked.$defs ?? {}) as Record<string, JsonObject>;
    for (const [id, def] of Object.entries(defs)) {
      const known = this.defs[io].get(id);
      if (known && JSON.stringify(known) !== JSON.stringify(def)) throw new Error(`two different schemas carry the id ${id}`);
      this.defs[io].set(id, def);
    }
    delete marked.$defs;
    delete marked.$schema;
    return marked;
  }

  /** Names each component and resolves every placeholder in `trees` (and in the components). */
  finish<T>(trees: T): { trees: T; schemas: Record<string, JsonObject> } {
    const strip = (v: unknown) => JSON.stringify(v).replaceAll(`${REF_PREFIX}input:`, REF_PREFIX).replaceAll(`${REF_PREFIX}output:`, REF_PREFIX);
    // A named schema whose input form differs (defaults, non-strict objects) gets a second name;
    // so does any named schema that refers to one of those, until nothing changes.
    const differs = new Set<string>();
    for (const [id, input] of this.defs.input) {
      const output = this.defs.output.get(id);
      if (output && strip(output) !== strip(input)) differs.add(id);
    }
    for (let changed = true; changed; ) {
      changed = false;
      for (const [id, input] of this.defs.input) {
        if (differs.has(id) || !this.defs.output.has(id)) continue;
        if ([...differs].some((d) => JSON.stringify(input).includes(`"${REF_PREFIX}input:${d}"`))) {
          differs.add(id);
          changed = true;
        }
      }
    }
    const nameOf = (io: Io, id: string) => (io === 'input' && differs.has(id) ? `${id}Input` : id);
    const resolve = <V>(v: V): V =>
      JSON.parse(
        JSON.stringify(v).replace(new RegExp(`"${REF_PREFIX}(input|output):([A-Za-z0-9_]+)"`, 'g'), (_, io: Io, id: string) =>
          JSON.stringify(`#/components/schemas/${nameOf(io, id)}`),
        ),
      ) as V;
    const schemas: Record<string, JsonObject> = {};
    for (const io of ['output', 'input'] as const) {
      for (const [id, def] of this.defs[io]) {
        const name = nameOf(io, id);
        if (!(name in schemas)) schemas[name] = resolve(def);
      }
    }
    const sorted = Object.fromEntries(
      Object.keys(schemas)
        .sort()
        .map((k) => [k, schemas[k]!]),
    );
    return { trees: resolve(trees), schemas: sorted };
  }
}

function openObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openObjects);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !(k === 'additionalProperties' && v === false))
      .map(([k, v]) => [k, openObjects(v)]),
  );
}

/**
 * No `default` keyword: generators take a default as "always present" and make the field
 * required in the request type (openapi-typescript's defaultNonNullable), so the documented
 * `{ mode: 'worldwide' }` would not compile. What the service fills in is said in the
 * description instead (an answer always carries the field: its `required` says so).
 */
function withoutDefaults(node: unknown, io: Io): unknown {
  if (Array.isArray(node)) return node.map((n) => withoutDefaults(n, io));
  if (node === null || typeof node !== 'object') return node;
  const { default: value, ...rest } = node as JsonObject;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(rest)) {
    // Under `properties` the keys are field names (a field may be called "default"), not keywords.
    out[k] =
      k === 'properties' && v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([name, field]) => [name, withoutDefaults(field, io)]))
        : withoutDefaults(v, io);
  }
  if (value !== undefined && io === 'input') {
    const said = `Left out, it is ${JSON.stringify(value)}.`;
    out.description = typeof out.description === 'string' ? `${out.description} ${said}` : said;
  }
  return out;
}

function markRefs(node: unknown, io: Io): unknown {
  if (Array.isArray(node)) return node.map((n) => markRefs(n, io));
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? `${REF_PREFIX}${io}:${v.slice('#/$defs/'.length)}` : markRefs(v, io);
  }
  return out;
}

// ---- examples ----

const metaOf = (schema: z.ZodType): Record<string, unknown> | undefined => z.globalRegistry.get(schema) as Record<string, unknown> | undefined;

/**
 * An example value for a schema: its own `examples` metadata when it has some, else one built
 * from its parts (arrays of their element's example, objects of their required fields).
 */
export function exampleOf(schema: z.ZodType): unknown {
  const meta = metaOf(schema);
  if (Array.isArray(meta?.examples) && meta.examples.length > 0) return meta.examples[0];
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return exampleOf(def.innerType as z.ZodType);
    case 'pipe':
      return exampleOf(def.in as z.ZodType);
    case 'array':
      return [exampleOf(def.element as z.ZodType)];
    case 'object': {
      const out: JsonObject = {};
      for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        if (!field.safeParse(undefined).success) out[key] = exampleOf(field);
      }
      return out;
    }
    case 'union':
      return exampleOf((def.options as z.ZodType[])[0]!);
    case 'enum':
      return Object.values(def.entries as Record<string, string>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'boolean':
      return true;
    case 'number':
    case 'int':
      return 1;
    case 'record':
      return {};
    default:
      return 'string';
  }
}

/** Every example a body can take: one per form of a union whose forms are named, else one. */
export function examplesOf(schema: z.ZodType): unknown[] {
  const def = (schema as unknown as { _zod: { def: { type: string; options?: z.ZodType[] } } })._zod.def;
  if (def.type === 'union' && def.options) return def.options.map((o) => exampleOf(o));
  return [exampleOf(schema)];
}

// ---- the document ----

const json = 'application/json';
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

function errorResponse(e: ErrorClass): JsonObject {
  const example = { error: { status: e.status, ...e.example, request_id: 'req_9b1f0c6d2a' } };
  const headerNames = { 'Retry-After': 'RetryAfter', 'WWW-Authenticate': 'WWWAuthenticate', Allow: 'Allow' } as const;
  return {
    description: e.description,
    headers: {
      'X-Request-Id': ref('headers', 'XRequestId'),
      // A mutation's error (below 500) is replayed under its Idempotency-Key like a success.
      ...(e.status < 500 ? { 'Idempotent-Replayed': ref('headers', 'IdempotentReplayed') } : {}),
      ...Object.fromEntries((e.headers ?? []).map((h) => [h, ref('headers', headerNames[h])])),
    },
    content: { [json]: { schema: ref('schemas', 'ErrorBody'), example } },
  };
}

function parametersOf(objectSchema: z.ZodObject, where: 'path' | 'query', set: SchemaSet): JsonObject[] {
  const converted = set.convert(objectSchema, 'input');
  const properties = (converted.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set((converted.required ?? []) as string[]);
  return Object.entries(properties).map(([name, propSchema]) => {
    const { description, ...schema } = propSchema;
    const field = objectSchema.shape[name] as z.ZodType;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema,
      example: exampleOf(field),
    };
  });
}

/** A media type object; an example only where the schema is inline (a named one carries its own). */
function mediaOf(schema: JsonObject, example: unknown): JsonObject {
  const named = typeof schema.$ref === 'string' && Object.keys(schema).length === 1;
  return named ? { schema } : { schema, example };
}

function bodyOf(body: z.ZodType, set: SchemaSet): JsonObject {
  const examples = examplesOf(body);
  let media = mediaOf(set.convert(body, 'input'), examples[0]);
  if (examples.length > 1) {
    // A union body (PUT tracks, label-artist remove): one named example per accepted form.
    const formOf = (v: unknown) => (Array.isArray(v) ? 'list' : typeof v === 'object' && v !== null ? 'object' : 'id');
    media = { ...media, examples: Object.fromEntries(examples.map((value) => [formOf(value), { summary: `The ${formOf(value)} form`, value }])) };
  }
  // A body whose fields are all optional may be left out (read as {}); any other is a 400 without one.
  return { required: !bodyMayBeLeftOut(body), content: { [json]: media } };
}

/** If-Match on a write: the ETag of the read (named by operationId) the change was based on. */
function ifMatchParameter(readId: string): JsonObject {
  return {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: `The ETag of ${readId} that this change was based on: when the resource no longer has it (someone changed it since), the answer is 412 precondition_failed and nothing changes. Without it, the write happens unconditionally.`,
    schema: { type: 'string', minLength: 1 },
    example: '"3f1a9c0b5d2e7f64"',
  };
}

/**
 * Answers of operations that share a schema with another but answer differently: each
 * operation's example is what the service answers it (test/contract/examples.test.ts checks).
 */
const answerExamples = {
  validateIsrc: {
    kind: 'isrc',
    input: 'gb-nlr-26-00001',
    valid: true,
    normalized: 'GBNLR2600001',
    display: 'GB-NLR-26-00001',
    problems: [],
  },
  submitArtistPreference: { message: 'Artist preferences saved (Streaming service A: Nina Vale).' },
  submitLabelPreference: { message: 'Label preferences saved: 1 artist added.' },
  removeLabelArtist: { message: "Artist 3 (Kai Moreno) removed from the label's artists; releases that credit them keep the name." },
} satisfies Partial<Record<Endpoint['id'], unknown>>;

function operationOf(endpoint: Endpoint, set: SchemaSet): JsonObject {
  const parameters = [
    ...parametersOf(endpoint.pathParams, 'path', set),
    ...(endpoint.query ? parametersOf(endpoint.query, 'query', set) : []),
    ...(acceptsIdempotencyKey(endpoint) ? [ref('parameters', 'IdempotencyKey')] : []),
    ...(endpoint.etag ? [ref('parameters', 'IfNoneMatch')] : []),
    ...(endpoint.ifMatch ? [ifMatchParameter(endpoint.ifMatch)] : []),
  ];
  const successHeaders: JsonObject = { 'X-Request-Id': ref('headers', 'XRequestId') };
  if (acceptsIdempotencyKey(endpoint)) successHeaders['Idempotent-Replayed'] = ref('headers', 'IdempotentReplayed');
  if (endpoint.etag) successHeaders.ETag = ref('headers', 'ETag');
  const responses: JsonObject = {
    [String(endpoint.status)]: {
      description: endpoint.status === 201 ? 'Created.' : 'OK.',
      headers: successHeaders,
      content: {
        [json]:
          endpoint.id in answerExamples
            ? { schema: set.convert(endpoint.response, 'output'), example: answerExamples[endpoint.id as keyof typeof answerExamples] }
            : mediaOf(set.convert(endpoint.response, 'output'), exampleOf(endpoint.response)),
      },
    },
  };
  if (endpoint.etag) {
    responses['304'] = {
      description: 'Not Modified: If-None-Match named the current ETag; no body.',
      headers: { 'X-Request-Id': ref('headers', 'XRequestId'), ETag: ref('headers', 'ETag') },
    };
  }
  for (const status of errorStatusesOf(endpoint)) responses[String(status)] = ref('responses', errorClass(status).name);
  return {
    operationId: endpoint.id,
    summary: endpoint.summary,
    tags: [endpoint.tag],
    ...(parameters.length ? { parameters } : {}),
    ...(endpoint.body ? { requestBody: bodyOf(endpoint.body, set) } : {}),
    responses,
  };
}

/** The key, expiry and signature of a signed upload address: what every operation on it takes. */
const signedParameters = [
  {
    name: 'key',
    in: 'path',
    required: true,
    description: 'The upload key.',
    schema: { type: 'string', minLength: 1, maxLength: 100 },
    example: 'upl_7f3a9c2e4b1d0a6f8e5c3b2a19d7e4f6',
  },
  { name: 'expires', in: 'query', required: true, description: 'Expiry, Unix seconds.', schema: { type: 'integer', minimum: 0 }, example: 1795000000 },
  {
    name: 'signature',
    in: 'query',
    required: true,
    description: 'HMAC-SHA256 signature of the address.',
    schema: { type: 'string', minLength: 1 },
    example: '3d5e8a1f0c9b7d6e4a2f1c0b9e8d7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b',
  },
];

/** The shared error responses of the signed upload addresses, by status. */
const signedErrorNames: Record<number, string> = {
  400: 'BadRequest',
  403: 'UploadForbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'UploadExpired',
  413: 'UploadQuotaExceeded',
  422: 'Unprocessable',
  500: 'InternalError',
  507: 'UploadCapacityExceeded',
};
const signedErrors = (statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [String(status), ref('responses', signedErrorNames[status] ?? 'InternalError')]));

const uploadResultExample = exampleOf(UploadResult);

/** The signed upload address that POST …/tracks/upload-url hands out, served by the service itself. */
function uploadOperation(set: SchemaSet): JsonObject {
  return {
    operationId: 'uploadFile',
    summary: 'Upload a track file or a cover image to a signed address',
    description:
      'The address comes from createTrackUploadUrl or createArtworkUploadUrl, whole, with its query; send the headers it lists. The signature ' +
      'is the credential, so no bearer token is needed. Send `Expect: 100-continue` to hear of a refusal (403, 410, 413, ' +
      '507…) before sending a byte; a refused body sent anyway is read and dropped (up to 16 MiB, then the connection ' +
      'closes) before the answer. The service checks the size, and the sha256 when one was declared, computes the ' +
      'sha256 of the bytes it received and answers it: a client that declared none compares it with its own, computed ' +
      'while sending (integrity is checked end to end either way). Then it probes the audio (WAV, FLAC or AIFF; ' +
      "stereo; 16 or 24 bit; 44.1 to 192 kHz; at least 30 s), or, at a cover's address, reads the image from its bytes " +
      '(format, size, colour space, bit depth, ICC profile): not an image, damaged or cut short, animated, or over 100 ' +
      'megapixels (refused from the header, never decoded) is 422. An upload lives as long as it moves; one silent for ' +
      'the stall timeout (60 s by default) is cut off.',
    tags: ['tracks'],
    security: [],
    parameters: signedParameters,
    requestBody: {
      required: true,
      description: 'The file bytes, exactly as declared (size and sha256).',
      // The types createTrackUploadUrl instructs (the file's declared type when it is one of these).
      content: Object.fromEntries(uploadContentTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
    },
    responses: {
      '200': {
        description: "Stored and probed: the file, ready to attach with its key (a track's file: UploadResult; a cover: ArtworkFile).",
        headers: { 'X-Request-Id': ref('headers', 'XRequestId') },
        content: {
          [json]: {
            schema: { oneOf: [set.convert(UploadResult, 'output'), set.convert(ArtworkFile, 'output')] },
            examples: {
              track: { summary: "A track's file", value: uploadResultExample },
              cover: { summary: 'A cover image', value: exampleOf(ArtworkFile) },
            },
          },
        },
      },
      ...signedErrors([400, 403, 404, 405, 409, 410, 413, 422, 500, 507]),
    },
  };
}

/** GET on a signed upload address: how much of the upload the service holds (tus's HEAD, S3's ListParts). */
function uploadStatusOperation(set: SchemaSet): JsonObject {
  return {
    operationId: 'getUploadStatus',
    summary: 'Ask how much of an upload the service holds',
    description:
      'The same signed address as the PUT of the whole file (an expired one still answers). For an upload in parts: the parts held, each with ' +
      'its size and checksum, so that a client that stopped (killed, disconnected) sends only the others. An upload of one PUT holds nothing until it is complete.',
    tags: ['uploads'],
    security: [],
    parameters: signedParameters,
    responses: {
      '200': {
        description: 'What the service holds.',
        headers: { 'X-Request-Id': ref('headers', 'XRequestId') },
        content: { [json]: mediaOf(set.convert(UploadStatus, 'output'), exampleOf(UploadStatus)) },
      },
      ...signedErrors([403, 405, 500]),
    },
  };
}

/** PUT of one part of an upload in parts. */
function uploadPartOperation(set: SchemaSet): JsonObject {
  return {
    operationId: 'uploadPart',
    summary: 'Upload one part of an upload in parts',
    description:
      "The part's address is the answer's `parts.part_url` with `{part}` replaced by its number, 1 to `parts.count`. Every part is `part_size` " +
      'bytes but the last (the rest). Send them in any order, several at once; send `Expect: 100-continue` to hear of a refusal, or of a part held ' +
      'already, before sending a byte. The part is written only if its bytes have the checksum that `Upload-Checksum` declares: otherwise ' +
      '`422 upload_part_mismatch`, nothing of it kept: send it again. A part held already with that checksum is answered 200 at once (the body ' +
      'need not come); one arriving on another connection is `409 upload_in_progress` with Retry-After. Each part counts against the quota while it arrives, and once held.',
    tags: ['uploads'],
    security: [],
    parameters: [
      ...signedParameters,
      { name: 'part', in: 'path', required: true, description: 'The part number, from 1.', schema: { type: 'integer', minimum: 1 }, example: 1 },
      {
        name: 'Upload-Checksum',
        in: 'header',
        required: true,
        description:
          "tus's checksum extension: `crc32 <base64 of the part's CRC-32, 4 bytes big-endian>` (zlib's CRC-32, as `reldist` sends) or `sha256 <base64 of its sha256>`.",
        schema: { type: 'string' },
        example: 'crc32 CUhVxw==',
      },
    ],
    requestBody: {
      required: true,
      description: "The part's bytes.",
      content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
    },
    responses: {
      '200': {
        description: 'The part is held.',
        headers: { 'X-Request-Id': ref('headers', 'XRequestId') },
        content: { [json]: mediaOf(set.convert(UploadPart, 'output'), exampleOf(UploadPart)) },
      },
      ...signedErrors([400, 403, 404, 405, 409, 410, 413, 422, 500, 507]),
    },
  };
}

/** POST to complete an upload in parts. */
function uploadCompleteOperation(set: SchemaSet): JsonObject {
  return {
    operationId: 'completeUpload',
    summary: 'Complete an upload in parts: the whole file checked, then probed',
    description:
      'Once every part is held (else `409 upload_incomplete`, naming the parts missing). The service reads the file once and compares its sha256 with the one declared here (or when the upload was asked for): a mismatch is `422 upload_mismatch` and drops the parts, to send again. Then the audio is probed as for a PUT of the whole file, and the answer is the same. Asked again once complete, it answers the same (safe to retry); one running already is `409 upload_in_progress`.',
    tags: ['uploads'],
    security: [],
    parameters: signedParameters,
    requestBody: { required: false, content: { [json]: mediaOf(set.convert(CompleteUploadRequest, 'input'), exampleOf(CompleteUploadRequest)) } },
    responses: {
      '200': {
        description: 'Complete: the probed file, ready to attach with its key.',
        headers: { 'X-Request-Id': ref('headers', 'XRequestId') },
        content: { [json]: mediaOf(set.convert(UploadResult, 'output'), exampleOf(UploadResult)) },
      },
      ...signedErrors([400, 403, 404, 405, 409, 410, 413, 422, 500]),
    },
  };
}

/** A webhook delivery: what the service POSTs to a registered endpoint (docs/api.md, "Webhooks"). */
function webhookOperation(set: SchemaSet): JsonObject {
  const header = (name: string, description: string, example: string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
    example,
  });
  return {
    operationId: 'webhookEvent',
    summary: 'An event of the account, delivered to a webhook endpoint',
    description:
      'Sent for each event whose type the endpoint wants, by POST with Content-Type application/json, following the ' +
      'Standard Webhooks specification: verify webhook-signature over `webhook-id.webhook-timestamp.body` (the raw bytes) ' +
      "with the endpoint's secret, for instance with the standardwebhooks library. At least once: the same event always " +
      'carries the same webhook-id (evt_<event id>), on every attempt and every resend, so a receiver drops ids it has seen. ' +
      'Any 2xx within the timeout (10 s by default) is a delivery; anything else (another status, a redirect, no answer) is ' +
      "retried with exponential backoff up to the service's retry horizon (3 days by default). Deliveries of different " +
      'events may arrive out of order: order by data.id.',
    tags: ['webhooks'],
    security: [],
    parameters: [
      header('webhook-id', 'evt_<event id>: the same on every attempt of the event; a ping: msg_test_<random>.', 'evt_1043'),
      header('webhook-timestamp', 'Unix seconds when this attempt was signed; refuse one far from your clock (the library allows 5 minutes).', '1795000000'),
      header(
        'webhook-signature',
        "Space-separated v1,<base64 HMAC-SHA256> signatures: one per secret in use (two during a rotation's overlap). One matching is enough.",
        'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4= v1,3ZQ3Jd5N1mVLBkXo9N0uVJ2Y1c7g1kqD8b5ZTzq1mP0=',
      ),
    ],
    requestBody: { required: true, content: { [json]: mediaOf(set.convert(WebhookPayload, 'output'), exampleOf(WebhookPayload)) } },
    responses: {
      '2XX': { description: 'Delivered: no more attempts. The body is ignored.' },
      default: { description: 'Not delivered (as are redirects, timeouts and connection errors): attempted again later.' },
    },
  };
}

export function buildOpenApi(options: BuildOpenApiOptions = {}): OpenAPIObject {
  const set = new SchemaSet();
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const endpoint of endpoints) {
    (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = operationOf(endpoint, set);
  }
  paths['/uploads/{key}'] = { put: uploadOperation(set), get: uploadStatusOperation(set) };
  paths['/uploads/{key}/parts/{part}'] = { put: uploadPartOperation(set) };
  paths['/uploads/{key}/complete'] = { post: uploadCompleteOperation(set) };
  const webhooks = { event: { post: webhookOperation(set) } };
  set.convert(ErrorBody, 'output');

  const usedErrors = new Set<string>();
  JSON.stringify(paths, (_k, v: unknown) => {
    if (typeof v === 'string' && v.startsWith('#/components/responses/')) usedErrors.add(v.slice('#/components/responses/'.length));
    return v;
  });
  const { trees: resolved, schemas } = set.finish({ paths, webhooks });

  return {
    openapi: '3.1.0',
    info: {
      title: 'reldist',
      version: options.version ?? '0.0.0',
      description:
        'The music release distribution service, as the reldist reference service implements it. Generated from the ' +
        'contract (src/contract); docs/api.md explains auth, errors, paging, idempotency, states and uploads.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.serverUrl ?? DEFAULT_SERVER_URL, description: 'A reference service started with `reldist serve --port 8080`.' }],
    security: [{ bearerAuth: [] }],
    tags: (Object.keys(tagDescriptions) as (keyof typeof tagDescriptions)[]).map((name) => ({ name, description: tagDescriptions[name] })),
    paths: resolved.paths,
    webhooks: resolved.webhooks,
    components: {
      schemas,
      responses: Object.fromEntries(errorClasses.filter((e) => usedErrors.has(e.name)).map((e) => [e.name, errorResponse(e)])),
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes a retry safe: the same key with the same body replays the first response (with Idempotent-Replayed: true); ' +
            'the same key with a different body is 422 idempotency_key_reused; while the first request runs, 409 ' +
            'idempotency_in_progress (with Retry-After). The answer is saved with the write it answers, so a key left ' +
            'running by a crashed process means nothing was committed: the next request takes it over at once when ' +
            'that process is provably gone, else once it has been running for 30 s. Every POST, PUT, PATCH and DELETE accepts one.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: idempotencyKeyPattern.source },
          example: '5f0c1e9a-3b7d-4c2e-9a41-0d6b8e2f7c13',
        },
        IfNoneMatch: {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'An ETag from an earlier answer: when the resource still has it, the answer is 304 with no body.',
          schema: { type: 'string', minLength: 1 },
          example: '"3f1a9c0b5d2e7f64"',
        },
      },
      headers: {
        XRequestId: {
          description: 'Names this request in the service log; quote it when reporting a problem.',
          schema: { type: 'string' },
          example: 'req_9b1f0c6d2a',
        },
        ETag: {
          description: 'Strong validator of the body (a hash of it); send it back in If-None-Match.',
          schema: { type: 'string' },
          example: '"3f1a9c0b5d2e7f64"',
        },
        IdempotentReplayed: {
          description: 'Present on a replayed response (a replayed error carries it too), whose body is the first one.',
          schema: { type: 'string', enum: ['true'] },
          example: 'true',
        },
        RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 }, example: 2 },
        WWWAuthenticate: {
          description: 'The scheme to authenticate with.',
          schema: { type: 'string', const: 'Bearer realm="reldist"' },
          example: 'Bearer realm="reldist"',
        },
        Allow: { description: 'The methods the path takes.', schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' }, example: 'GET' },
      },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <token>. The service stores only a sha256 hash of each token.' },
      },
    },
  };
}
