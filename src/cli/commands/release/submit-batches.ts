// `release submit` of several releases: through the batch endpoint (POST /releases/submit), in
// chunks of the most it takes, each release answered exactly as the single endpoint would have
// (the same outcomes, so the same output and exit code); against a service without the batch
// endpoint, one submit per release as before.
import { ApiError, apiErrorOf, type ApiClient } from '../../../client/index.js';
import type { EntityId, SubmitReleasesResult } from '../../../contract/index.js';
import { buildPath, routes, submitBatchMax } from '../../../contract/routes.js';
import { runPool } from '../../apply/pool.js';
import { CliError } from '../../errors.js';
import { answeredOutcome, refusedOutcome, submitBody, submitBodyChecked, submitOne, type Internal, type SubmitOptions } from './submission.js';

/**
 * Single submits at once (the fallback, and the look-ups of releases found already submitted):
 * enough to keep the service busy while the answers travel, few enough not to flood it (it takes
 * writers one at a time anyway).
 */
export const SUBMIT_PARALLEL = 8;
/** Batches at once: one is answered while the next is read; the service writes one at a time. */
export const SUBMIT_BATCHES_IN_FLIGHT = 2;

export async function submitMany(client: ApiClient, ids: readonly EntityId[], options: SubmitOptions, chunkSize = submitBatchMax): Promise<Internal[]> {
  const chunks: EntityId[][] = [];
  for (let i = 0; i < ids.length; i += chunkSize) chunks.push(ids.slice(i, i + chunkSize));
  // A release named in two chunks: the chunks go one after the other, so that its later mention
  // finds it submitted, as when every release is sent in order.
  const inFlight = new Set(ids).size < ids.length && chunks.length > 1 ? 1 : SUBMIT_BATCHES_IN_FLIGHT;
  const answers: Internal[][] = new Array(chunks.length);
  let noBatches = false;
  await runPool(chunks, inFlight, async (chunk, i) => {
    if (!noBatches) {
      try {
        answers[i] = await submitChunk(client, chunk, options);
        return;
      } catch (err) {
        if (!isMissingRoute(err)) {
          // The whole request failed (no connection, refused token, --notes too long…): every
          // release of it fails the same way, as each would have alone.
          answers[i] = await Promise.all(chunk.map((id) => refusedOutcome(client, id, err, options)));
          return;
        }
        noBatches = true;
      }
    }
    answers[i] = await submitEach(client, chunk, options);
  });
  return answers.flat();
}

/** One chunk through the batch endpoint: the service's answer for each release, in order. */
async function submitChunk(client: ApiClient, ids: readonly EntityId[], options: SubmitOptions): Promise<Internal[]> {
  const { data } = await client.call('submitReleases', { body: { release_ids: [...ids], ...submitBody(options) }, ...submitBodyChecked(options) });
  if (data.length !== ids.length) {
    throw new CliError(`the service answered ${data.length} results for ${ids.length} releases`, { code: 'bad_response' });
  }
  const outcomes: Internal[] = new Array(ids.length);
  // Only a release found already submitted costs another request (is it in review?), in parallel.
  await runPool(data, SUBMIT_PARALLEL, async (result, i) => {
    outcomes[i] = await outcomeOf(client, ids[i]!, result, options);
  });
  return outcomes;
}

function outcomeOf(client: ApiClient, id: EntityId, result: SubmitReleasesResult, options: SubmitOptions): Internal | Promise<Internal> {
  const { body } = result;
  if (!('error' in body)) return answeredOutcome(id, body);
  // The error the single endpoint would have thrown, read by the client's own reader, so that it reads the same.
  const err = apiErrorOf(result.status, '', body, {}, { method: routes.submitRelease.method, path: buildPath(routes.submitRelease.path, { releaseId: id }) });
  return refusedOutcome(client, id, err, options);
}

/**
 * A service without the batch endpoint answers 404 (no such path) or 405 (`/releases/{id}` takes
 * no POST); a batch the endpoint refuses as a whole never does.
 */
function isMissingRoute(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.status === 405);
}

/** One submit per release, up to SUBMIT_PARALLEL at once. */
export async function submitEach(client: ApiClient, ids: readonly EntityId[], options: SubmitOptions): Promise<Internal[]> {
  const outcomes: Internal[] = new Array(ids.length);
  // The same release named twice is submitted after its first mention has its answer, as one
  // after the other would: the second then finds it in review.
  const latest = new Map<EntityId, Promise<unknown>>();
  await runPool(ids, SUBMIT_PARALLEL, async (id, i) => {
    const before = latest.get(id);
    const mine = (before ?? Promise.resolve()).then(async () => {
      outcomes[i] = await submitOne(client, id, options);
    });
    latest.set(id, mine);
    await mine;
  });
  return outcomes;
}
