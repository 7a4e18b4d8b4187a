// `-f key=value` / `-F key=value` like `gh api`: -f sends the value as a string; -F reads
// true/false/null and numbers as JSON values and `@file` as the file's text. Keys nest with
// brackets: `artists[0][name]=X` (an index), `genres[]=rock` (append), `meta[label]=X`.
import { UsageError } from '../../errors.js';

export type FieldKind = 'raw' | 'typed';

export interface FieldArg {
  kind: FieldKind;
  text: string;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export function parseKey(key: string, flag: string): (string | number | '[]')[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) throw new UsageError(`${flag} ${key}: the key must look like name, name[sub] or name[]`);
  const parts: (string | number | '[]')[] = [m[1]!];
  for (const seg of m[2]!.matchAll(/\[([^[\]]*)\]/g)) {
    const s = seg[1]!;
    parts.push(s === '' ? '[]' : /^\d+$/.test(s) ? Number(s) : s);
  }
  return parts;
}

export function typedValue(text: string, readFile: (path: string) => string): Json {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(text) && Number.isFinite(Number(text))) return Number(text);
  if (text.startsWith('@')) return readFile(text.slice(1));
  return text;
}

/** Builds the JSON object from -f/-F arguments in order; conflicting shapes are usage errors. */
export function buildFields(
  args: readonly FieldArg[],
  readFile: (path: string) => string = () => {
    throw new UsageError('@file values are not available here');
  },
): Record<string, Json> {
  const root: Record<string, Json> = {};
  for (const a of args) {
    const flag = a.kind === 'raw' ? '-f' : '-F';
    const eq = a.text.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} ${a.text}: expected key=value`);
    const key = a.text.slice(0, eq);
    const raw = a.text.slice(eq + 1);
    const value: Json = a.kind === 'raw' ? raw : typedValue(raw, readFile);
    assign(root, parseKey(key, flag), value, `${flag} ${key}`);
  }
  return root;
}

function assign(root: Record<string, Json>, path: (string | number | '[]')[], value: Json, where: string): void {
  let node: Json = root;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    const last = i === path.length - 1;
    const next = path[i + 1];
    const fresh = (): Json => (next === '[]' || typeof next === 'number' ? [] : {});
    if (seg === '[]') {
      if (!Array.isArray(node)) throw new UsageError(`${where}: [] used on something that is not a list`);
      if (last) node.push(value);
      else {
        const child = fresh();
        node.push(child);
        node = child;
      }
      continue;
    }
    if (typeof seg === 'number') {
      if (!Array.isArray(node)) throw new UsageError(`${where}: [${seg}] used on something that is not a list`);
      if (seg > node.length) throw new UsageError(`${where}: index ${seg} skips over [${node.length}]`);
      if (last) node[seg] = value;
      else {
        node[seg] ??= fresh();
        node = node[seg]!;
      }
      continue;
    }
    if (node === null || typeof node !== 'object' || Array.isArray(node)) throw new UsageError(`${where}: "${seg}" used on something that is not an object`);
    const obj: { [k: string]: Json } = node;
    if (last) {
      obj[seg] = value;
    } else {
      const existing = obj[seg];
      if (existing === undefined) obj[seg] = fresh();
      else if (existing === null || typeof existing !== 'object') {
        const wants = next === '[]' || typeof next === 'number' ? 'a list' : 'an object';
        throw new UsageError(`${where}: "${seg}" already holds a value, not ${wants}`);
      }
      node = obj[seg]!;
    }
  }
}

/** `-H 'Name: value'` → [name, value]. */
export function parseHeader(text: string): [string, string] {
  const i = text.indexOf(':');
  if (i <= 0) throw new UsageError(`-H ${text}: expected "Name: value"`);
  const name = text.slice(0, i).trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`-H ${text}: "${name}" is not a header name`);
  if (name.toLowerCase() === 'authorization') {
    throw new UsageError('-H Authorization: tokens are never passed as flags', 'use `reldist auth login` or set RELDIST_TOKEN');
  }
  return [name, text.slice(i + 1).trim()];
}

/** Flattens a fields object into query parameters (nested keys bracketed, like the fields). */
export function toQuery(fields: Record<string, Json>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const walk = (prefix: string, v: Json) => {
    if (Array.isArray(v)) {
      const flat = v.every((x) => x === null || typeof x !== 'object');
      if (flat) out[prefix] = v.map((x) => String(x));
      else v.forEach((x, i) => walk(`${prefix}[${i}]`, x));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(`${prefix}[${k}]`, x);
    } else {
      out[prefix] = v === null ? '' : String(v);
    }
  };
  for (const [k, v] of Object.entries(fields)) walk(k, v);
  return out;
}

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
