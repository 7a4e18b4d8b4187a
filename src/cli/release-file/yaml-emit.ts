// A small YAML writer for release files (JSON-like data: objects, arrays, text, numbers, booleans,
// null), about fifty times faster than the yaml library's stringify, which `release export` of a
// large catalog would spend most of its time in. Block style throughout; text is written plain
// only when it cannot be read as anything but that text, and otherwise as a JSON string (a JSON
// string is a valid YAML double-quoted scalar), so what the yaml parser reads back is the value.

/** Plain scalars that YAML 1.1 or 1.2 reads as something other than text. */
const KEYWORDS = new Set(['true', 'false', 'yes', 'no', 'on', 'off', 'y', 'n', 'null', '~', 'nan', 'inf']);

/** Letters first, then letters, digits, spaces, and . _ - inside: never a number, date, key or comment. */
const PLAIN = /^[A-Za-z](?:[A-Za-z0-9 ._-]*[A-Za-z0-9._])?$/;

export function yamlScalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new RangeError(`yamlScalar: ${String(v)} has no YAML form here`);
    return String(v);
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return PLAIN.test(v) && !KEYWORDS.has(v.toLowerCase()) ? v : JSON.stringify(v);
  throw new TypeError(`yamlScalar: not a scalar: ${typeof v}`);
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function key(k: string): string {
  return KEY.test(k) && !KEYWORDS.has(k.toLowerCase()) ? k : JSON.stringify(k);
}

function isContainer(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}

function isEmpty(v: object): boolean {
  return Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0;
}

/** The lines of a mapping's entries at `indent` spaces; keys whose value is undefined are left out. */
function mapping(o: Record<string, unknown>, indent: number, out: string[], firstPrefix?: string): void {
  const pad = ' '.repeat(indent);
  let first = true;
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined) continue;
    const lead = first && firstPrefix !== undefined ? firstPrefix : pad;
    first = false;
    if (isContainer(v) && !isEmpty(v)) {
      out.push(`${lead}${key(k)}:`);
      block(v, indent + 2, out);
    } else {
      out.push(`${lead}${key(k)}: ${isContainer(v) ? (Array.isArray(v) ? '[]' : '{}') : yamlScalar(v)}`);
    }
  }
}

function block(v: object, indent: number, out: string[]): void {
  if (!Array.isArray(v)) {
    mapping(v as Record<string, unknown>, indent, out);
    return;
  }
  const pad = ' '.repeat(indent);
  for (const item of v as unknown[]) {
    if (isContainer(item) && !isEmpty(item)) {
      if (Array.isArray(item)) {
        out.push(`${pad}-`);
        block(item, indent + 2, out);
      } else mapping(item as Record<string, unknown>, indent + 2, out, `${pad}- `);
    } else out.push(`${pad}- ${isContainer(item) ? (Array.isArray(item) ? '[]' : '{}') : yamlScalar(item)}`);
  }
}

/** A YAML document of a top-level mapping, ending in a newline. */
export function toYaml(data: Record<string, unknown>): string {
  const out: string[] = [];
  mapping(data, 0, out);
  return `${out.join('\n')}\n`;
}
