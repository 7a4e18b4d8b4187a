// Reading and checking request input. Bad input is always a 4xx with a field path, never a 500:
// malformed JSON or query → 400, over the size limit → 413, not JSON → 415, wrong shape → 422.
import type { z } from 'zod';
import { ServiceError, validationFailed } from '../handler.js';

/** Largest JSON body accepted; documented in docs/api.md. */
export const JSON_BODY_LIMIT = 1024 * 1024;
/** Deepest nesting accepted in a JSON body; nothing in the contract comes close. */
export const MAX_JSON_DEPTH = 64;
/** Bytes read and thrown away from an oversized body so the client can read the 413. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

export function tooLarge(limit: number): ServiceError {
  // The rest of the body may be unread: the connection cannot carry another request.
  return new ServiceError(413, 'payload_too_large', `request body is larger than the limit of ${limit} bytes`, {
    headers: { connection: 'close' },
  });
}

/**
 * Reads the whole body, refusing past `limit` bytes (the declared length is checked first).
 * `cut` rejects when the body arrives too slowly (http/slow-bodies.ts): each read races it.
 */
export async function readBodyBytes(req: Request, limit: number, cut?: Promise<never>): Promise<Uint8Array> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) {
    await drain(req.body, DRAIN_LIMIT, cut);
    throw tooLarge(limit);
  }
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await (cut ? Promise.race([reader.read(), cut]) : reader.read());
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await drainReader(reader, DRAIN_LIMIT - total, cut);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const ch of chunks) {
    out.set(ch, off);
    off += ch.byteLength;
  }
  return out;
}

async function drain(body: ReadableStream<Uint8Array> | null, budget: number, cut: Promise<never> | undefined): Promise<void> {
  if (body) await drainReader(body.getReader(), budget, cut);
}

/** A body cut while drained is still answered with its 413: the connection closes after it anyway. */
async function drainReader(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number, cut: Promise<never> | undefined): Promise<void> {
  try {
    while (budget > 0) {
      const { done, value } = await (cut ? Promise.race([reader.read(), cut]) : reader.read());
      if (done) return;
      budget -= value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away; nothing to answer anyway.
  }
}

/** The one body type the document lists (parameters such as charset aside): `+json` types are other media types, 415. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses a JSON body. An empty body is read as `{}` where the body may be left out (every field
 * optional: `bodyOptional`), else it is a 400. A UTF-8 byte order mark before the JSON is ignored.
 */
export function parseJsonBody(bytes: Uint8Array, contentType: string | undefined, bodyOptional = true): unknown {
  if (bytes.byteLength === 0) {
    if (bodyOptional) return {};
    throw new ServiceError(400, 'invalid_json', 'request body is missing; send it as JSON with Content-Type: application/json');
  }
  if (!isJsonContentType(contentType)) {
    throw new ServiceError(415, 'unsupported_media_type', 'request body must be JSON; send Content-Type: application/json');
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ServiceError(400, 'invalid_json', 'request body is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const detail = e instanceof Error ? `: ${e.message.split('\n')[0]!.slice(0, 200)}` : '';
    throw new ServiceError(400, 'invalid_json', `request body is not valid JSON${detail}`);
  }
  if (depthExceeds(value, MAX_JSON_DEPTH)) {
    throw new ServiceError(400, 'invalid_json', `request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  return value;
}

/** Iterative, so a hostile body cannot overflow the stack here. */
function depthExceeds(root: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

/**
 * zod issues → `{ "artists.0.role": ["…"] }`; unknown keys are reported at their own path. A
 * body that matches no branch of a union (PUT …/tracks takes an object or an array) is reported
 * against the branch it got furthest into, not as a bare "invalid input".
 */
export function issuesToFields(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  // A Map, because the paths come from the client: "constructor" or "__proto__" are field names here.
  const fields = new Map<string, string[]>();
  const add = (path: string, message: string) => {
    const key = path || '(body)';
    const list = fields.get(key) ?? [];
    fields.set(key, list);
    if (!list.includes(message) && list.length < 10) list.push(message);
  };
  const walk = (list: readonly z.core.$ZodIssue[], prefix: PropertyKey[], depth: number) => {
    for (const issue of list) {
      if (fields.size >= 100) return;
      const path = [...prefix, ...issue.path];
      const base = path.map(String).join('.');
      if (issue.code === 'unrecognized_keys') {
        for (const k of issue.keys) add(base ? `${base}.${k}` : k, 'unknown field');
      } else if (issue.code === 'invalid_union' && issue.errors.length > 0 && depth < 8) {
        walk(bestBranch(issue.errors), path, depth + 1);
      } else {
        add(base, issue.message);
      }
    }
  };
  walk(issues, [], 0);
  // fromEntries defines own properties, so even a "__proto__" path is just a key.
  return Object.fromEntries(fields);
}

/** The union branch whose problems lie deepest in the body (ties: the fewest problems). */
function bestBranch(branches: readonly (readonly z.core.$ZodIssue[])[]): readonly z.core.$ZodIssue[] {
  const reach = (b: readonly z.core.$ZodIssue[]) => Math.max(0, ...b.map((i) => i.path.length));
  return [...branches].sort((a, b) => reach(b) - reach(a) || a.length - b.length)[0]!;
}

export function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw validationFailed(issuesToFields(result.error.issues));
  }
  return result.data;
}

const invalidQuery = (message: string) => new ServiceError(400, 'invalid_query', message);

/** A canonical decimal integer: no sign, no leading zeros, no spaces, no 0x or exponent. */
const CANONICAL_INTEGER = /^(0|[1-9][0-9]{0,15})$/;

/** Whether a query field is a number the schema coerces from text (z.coerce.number(), optional or not). */
function isCoercedNumber(field: z.ZodType): boolean {
  const def = (field as unknown as { _zod: { def: { type: string; coerce?: boolean; innerType?: z.ZodType } } })._zod.def;
  if (def.type === 'optional' || def.type === 'default') return def.innerType !== undefined && isCoercedNumber(def.innerType);
  return def.type === 'number' && def.coerce === true;
}

/**
 * Parses a query (every value of each name, as the URL has them). Each parameter comes at most
 * once, and integers are written as plain decimals: `0x10`, `1e1`, `+5` or ` 5` are refused,
 * not read as numbers.
 */
export function parseQuery<T extends z.ZodObject>(schema: T, values: Record<string, string[]>): z.output<T> {
  const entries: [string, string][] = [];
  for (const [name, list] of Object.entries(values)) {
    if (list.length > 1) throw invalidQuery(`query parameter ${name} is given ${list.length} times; give it once`);
    const field = Object.hasOwn(schema.shape, name) ? (schema.shape[name] as z.ZodType) : undefined;
    if (field && isCoercedNumber(field) && !CANONICAL_INTEGER.test(list[0]!)) {
      throw invalidQuery(`invalid query parameter ${name}: expected a whole number written in digits, got "${list[0]!.slice(0, 40)}"`);
    }
    entries.push([name, list[0]!]);
  }
  // fromEntries defines own properties: `__proto__` or `constructor` stay names, refused as unknown ones.
  const result = schema.safeParse(Object.fromEntries(entries));
  if (!result.success) {
    const fields = issuesToFields(result.error.issues);
    const [path, messages] = Object.entries(fields)[0] ?? ['query', ['invalid']];
    throw invalidQuery(`invalid query parameter ${path}: ${messages[0]}`);
  }
  return result.data;
}
