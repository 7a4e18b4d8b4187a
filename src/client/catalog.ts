// What the client takes from the contract: routes (plain data, no zod) for every call, and the
// zod schema of a request body only when there is a body to check.
import type { EndpointId } from '../contract/routes.js';

/** The minimum the client needs from a schema: zod's safeParse. */
export interface SchemaLike {
  safeParse(value: unknown): { success: true; data?: unknown } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** Request-body schemas by endpoint id. Loading it loads zod, so only calls with a body do. */
export type BodySchemas = (id: EndpointId) => SchemaLike | undefined;

export async function loadBodySchemas(): Promise<BodySchemas> {
  const { catalog } = await import('../contract/catalog.js');
  return (id) => catalog[id].body;
}

/** Response schemas by endpoint id: only for checking responses (see ApiClient.typedResponse). */
export type ResponseSchemas = (id: EndpointId) => SchemaLike;

export async function loadResponseSchemas(): Promise<ResponseSchemas> {
  const { catalog } = await import('../contract/catalog.js');
  return (id) => catalog[id].response;
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

export function buildQuery(query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (!query) return '';
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) sp.append(k, String(item));
    else sp.append(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

/** Zod issues as `path: message` pairs, paths dotted like the service's `fields`. */
export function schemaIssues(schema: SchemaLike, value: unknown): { path: string; message: string }[] {
  const r = schema.safeParse(value);
  if (r.success) return [];
  return r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}
