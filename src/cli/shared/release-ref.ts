// A release named on the command line: an id (all digits) or a catalog number (anything else),
// looked up among the user's releases. Used by `release watch` and the `sandbox` controls.
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

/** Resolves each argument in order; the first unknown catalog number is a not-found error naming it. */
export async function resolveReleaseRefs(client: ApiClient, args: readonly string[], signal?: AbortSignal): Promise<ReleaseRef[]> {
  const out: ReleaseRef[] = [];
  for (const raw of args) {
    const arg = raw.trim();
    if (/^\d{1,16}$/.test(arg)) {
      out.push({ arg, id: idArg(arg, 'release id'), catalogNumber: null });
      continue;
    }
    if (arg === '' || arg.length > MAX_CATALOG_NUMBER) {
      throw new UsageError(`"${raw}" is neither a release id (digits) nor a catalog number (1 to ${MAX_CATALOG_NUMBER} characters)`);
    }
    const page = await client.call('listReleases', { query: { catalog_number: arg }, ...(signal ? { signal } : {}) });
    const found = page.data[0];
    if (!found) throw new CliError(`no release with catalog number "${arg}"`, { exitCode: ExitCode.notFound, code: 'not_found' });
    out.push({ arg, id: found.id, catalogNumber: found.catalog_number });
  }
  // The same release named twice (by id and by catalog number) is watched or moved once.
  return out.filter((r, i) => out.findIndex((o) => o.id === r.id) === i);
}

/** `release 42` or `release 42 (NLR-0042)`. */
export function releaseLabel(id: EntityId, catalogNumber: string | null | undefined): string {
  return catalogNumber ? `release ${id} (${catalogNumber})` : `release ${id}`;
}
