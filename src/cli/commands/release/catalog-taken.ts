// The service keeps one release per catalog number: a second `release create` with the same
// number is refused (409 catalog_number_taken) and told to update the existing one with apply.
import { ApiError } from '../../../client/index.js';
import type { EntityId } from '../../../contract/index.js';
import { CliError, ExitCode } from '../../errors.js';
import { statusWords } from '../../shared/release-views.js';

/** The release holding the catalog number, when `err` is the service's catalog_number_taken. */
export function catalogNumberHolder(err: unknown): { releaseId: EntityId; status: string } | undefined {
  if (!(err instanceof ApiError) || err.code !== 'catalog_number_taken' || !err.details) return undefined;
  return { releaseId: err.details.release_id, status: err.details.status };
}

/** The one-line error of `release create`, or undefined when `err` is something else. */
export function catalogNumberTakenError(err: unknown, catalogNumber: string | null | undefined, file: string | undefined): CliError | undefined {
  const holder = catalogNumberHolder(err);
  if (!holder) return undefined;
  const number = catalogNumber?.trim() || '(this one)';
  return new CliError(`catalog number ${number} is already release ${holder.releaseId} (${statusWords(holder.status)})`, {
    exitCode: ExitCode.failure,
    code: 'catalog_number_taken',
    hint: `run \`reldist release apply ${file ?? 'release.yaml'}\` to update it, or change catalog_number`,
  });
}
