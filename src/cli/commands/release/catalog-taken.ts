// The service keeps one release per catalog number: a second `release create` with the same
// number is refused (409 catalog_number_taken). The wizard asks the service at the catalog
// number's prompt, and every refusal names the release holding it and the command that updates it.
import { ApiError, type ApiClient } from '../../../client/index.js';
import type { EntityId } from '../../../contract/index.js';
import { CliError, ExitCode } from '../../errors.js';
import { statusWords } from '../../shared/release-views.js';

export interface CatalogHolder {
  releaseId: EntityId;
  status: string;
  /** Known when the release was looked up (the 409's details name only its id and status). */
  title?: string | undefined;
}

/** The release holding the catalog number, when `err` is the service's catalog_number_taken. */
export function catalogNumberHolder(err: unknown): CatalogHolder | undefined {
  if (!(err instanceof ApiError) || err.code !== 'catalog_number_taken' || !err.details) return undefined;
  return { releaseId: err.details.release_id, status: err.details.status };
}

/** The user's release with this catalog number (compared as the service compares them), if any. */
export async function findCatalogHolder(client: ApiClient, catalogNumber: string, signal: AbortSignal): Promise<CatalogHolder | undefined> {
  const page = await client.call('listReleases', { query: { catalog_number: catalogNumber }, signal });
  const found = page.data[0];
  return found ? { releaseId: found.id, status: found.status, title: found.title } : undefined;
}

/** A word for the shell as typed: quoted when it holds anything but letters, digits and -._/: */
export function shellWord(word: string): string {
  return /^[\p{L}\p{N}._/:-]+$/u.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `catalog number SBX-03 is already release 7 "Tidal Bloom" (draft)`. */
export function holderWords(catalogNumber: string, holder: CatalogHolder): string {
  return `catalog number ${catalogNumber} is already release ${holder.releaseId}${holder.title !== undefined ? ` "${holder.title}"` : ''} (${statusWords(holder.status)})`;
}

/** The refusal at the wizard's prompt: the holder, the commands that update it, and what to do here. */
export function catalogTakenAtPrompt(catalogNumber: string, holder: CatalogHolder): string {
  const edit = `reldist release edit ${shellWord(`cat:${catalogNumber}`)} …`;
  return `${holderWords(catalogNumber, holder)}: update that one with \`${edit}\` or \`reldist release apply FILE\`; here, type another number or Enter for none`;
}

/**
 * The one-line error of `release create`, or undefined when `err` is something else. `file`: the
 * release file the values came from (or the one the wizard's answers were saved to); without one
 * the values came from flags.
 */
export function catalogNumberTakenError(
  err: unknown,
  catalogNumber: string | null | undefined,
  file: string | undefined,
  title?: string,
): CliError | undefined {
  const holder = catalogNumberHolder(err);
  if (!holder) return undefined;
  const number = catalogNumber?.trim() || '(this one)';
  return new CliError(holderWords(number, { ...holder, title }), {
    exitCode: ExitCode.failure,
    code: 'catalog_number_taken',
    hint:
      file !== undefined
        ? `run \`reldist release apply ${shellWord(file)}\` to update it, or change catalog_number`
        : `update it with \`reldist release edit ${shellWord(`cat:${number}`)} …\`, or choose another --catalog-number`,
  });
}
