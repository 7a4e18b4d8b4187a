// A release named on the command line: its id (all digits) or its catalog number (anything
// else), looked up among the user's releases; `id:` and `cat:` settle a catalog number that looks
// like an id. Every command that names a release goes through here.
import type { ApiClient } from '../../client/index.js';
import type { EntityId } from '../../contract/index.js';
import { idArg } from './args.js';
import { CliError, ExitCode, UsageError } from '../errors.js';

export interface ReleaseRef {
  /** What the user typed, for messages. */
  arg: string;
  id: EntityId;
  catalogNumber: string | null;
}

const MAX_CATALOG_NUMBER = 20;

type Parsed = { kind: 'id'; id: EntityId } | { kind: 'catalog'; catalogNumber: string };

/** What an argument names, before any lookup: a usage error for what can name nothing. */
export function parseReleaseRef(raw: string | undefined, what = 'release'): Parsed {
  const arg = (raw ?? '').trim();
  const prefixed = /^(id|cat):(.*)$/i.exec(arg);
  if (prefixed) {
    const value = prefixed[2]!.trim();
    if (prefixed[1]!.toLowerCase() === 'id') {
      if (!/^[1-9][0-9]{0,15}$/.test(value)) throw new UsageError(`${what}: expected an id after "id:", like id:42, got "${arg}"`);
      return { kind: 'id', id: idArg(value, what) };
    }
    if (value === '' || value.length > MAX_CATALOG_NUMBER)
      throw new UsageError(`${what}: expected a catalog number of 1 to ${MAX_CATALOG_NUMBER} characters after "cat:", got "${arg}"`);
    return { kind: 'catalog', catalogNumber: value };
  }
  if (/^\d{1,16}$/.test(arg)) return { kind: 'id', id: idArg(arg, `${what} id`) };
  if (arg === '' || arg.length > MAX_CATALOG_NUMBER) {
    throw new UsageError(
      `${what}: expected a release id (digits) or a catalog number (1 to ${MAX_CATALOG_NUMBER} characters), got ${arg === '' ? 'nothing' : `"${raw}"`}`,
    );
  }
  return { kind: 'catalog', catalogNumber: arg };
}

/** One release: an id costs nothing, a catalog number one lookup; an unknown one is exit 5 naming it. */
export async function resolveReleaseRef(client: ApiClient, raw: string | undefined, signal?: AbortSignal, parsed = parseReleaseRef(raw)): Promise<ReleaseRef> {
  const arg = (raw ?? '').trim();
  if (parsed.kind === 'id') return { arg, id: parsed.id, catalogNumber: null };
  const page = await client.call('listReleases', { query: { catalog_number: parsed.catalogNumber }, ...(signal ? { signal } : {}) });
  const found = page.data[0];
  if (!found) {
    const digits = /^\d+$/.test(parsed.catalogNumber);
    throw new CliError(`no release with catalog number "${parsed.catalogNumber}"`, {
      exitCode: ExitCode.notFound,
      code: 'not_found',
      hint: digits
        ? `to name the release with id ${parsed.catalogNumber}, write id:${parsed.catalogNumber}`
        : 'see your releases and their catalog numbers with `reldist release list`',
    });
  }
  return { arg, id: found.id, catalogNumber: found.catalog_number };
}

/** The release's id, for commands that name one release. */
export async function releaseIdOf(client: ApiClient, raw: string | undefined, signal?: AbortSignal): Promise<EntityId> {
  return (await resolveReleaseRef(client, raw, signal)).id;
}

/** Resolves each argument in order (all checked before any lookup); the first unknown catalog number is a not-found error naming it. */
export async function resolveReleaseRefs(
  client: ApiClient,
  args: readonly string[],
  signal?: AbortSignal,
  options: { dedupe?: boolean } = {},
): Promise<ReleaseRef[]> {
  const parsed = args.map((a) => parseReleaseRef(a));
  const out: ReleaseRef[] = [];
  const byCatalog = new Map<string, ReleaseRef>();
  for (const [i, raw] of args.entries()) {
    const p = parsed[i]!;
    const known = p.kind === 'catalog' ? byCatalog.get(p.catalogNumber.toLowerCase()) : undefined;
    const ref = known ? { ...known, arg: raw.trim() } : await resolveReleaseRef(client, raw, signal, p);
    if (p.kind === 'catalog') byCatalog.set(p.catalogNumber.toLowerCase(), ref);
    out.push(ref);
  }
  if (options.dedupe === false) return out;
  // The same release named twice (by id and by catalog number) is watched or moved once.
  return out.filter((r, i) => out.findIndex((o) => o.id === r.id) === i);
}

/** `release 42` or `release 42 (NLR-0042)`. */
export function releaseLabel(id: EntityId, catalogNumber: string | null | undefined): string {
  return catalogNumber ? `release ${id} (${catalogNumber})` : `release ${id}`;
}
