// A release's state where a refusal is about it: reports never say null for a state they can know.
import { ApiError, type ApiClient } from '../../client/index.js';
import type { EntityId, ReleaseStatus } from '../../contract/index.js';
import { releaseStatuses } from '../../contract/wire-values.js';

export function isReleaseStatus(s: unknown): s is ReleaseStatus {
  return typeof s === 'string' && (releaseStatuses as readonly string[]).includes(s);
}

/** The release's status now, or undefined when even that cannot be read. */
export async function readStatus(client: ApiClient, id: EntityId, signal?: AbortSignal): Promise<ReleaseStatus | undefined> {
  try {
    return (await client.call('getRelease', { params: { releaseId: id }, ...(signal ? { signal } : {}) })).status;
  } catch {
    return undefined;
  }
}

/**
 * The state a state-conflict refusal is about: named by the service in the error's details (a
 * submit's), else read again. Undefined for any other error, or when it cannot be read.
 */
export async function conflictStatus(client: ApiClient, id: EntityId, err: unknown, signal?: AbortSignal): Promise<ReleaseStatus | undefined> {
  if (!(err instanceof ApiError) || err.code !== 'state_conflict') return undefined;
  return isReleaseStatus(err.details?.status) ? err.details.status : readStatus(client, id, signal);
}
