// --remote: asks the service too, with the batch form (POST /releases/validate, at most
// validateBatchMax codes a request; one request counts once against the rate limit). The only
// file of `validate` that touches the HTTP client, which ctx.services builds only for --remote.
import { validateBatchMax, validateCodeMaxLength } from '../../../contract/routes.js';
import type { Context } from '../../context.js';
import { CliError, UsageError } from '../../errors.js';
import type { RemoteVerdict } from './format.js';

/**
 * Requests in flight at once (on the undici pool): with chunks of a thousand codes, enough to
 * keep the service busy while answers are printed; polite to a service shared with others.
 */
export const REMOTE_IN_FLIGHT = 4;

/** Asks the service about up to validateBatchMax codes in one request; the verdicts in their order. */
export type RemoteChecker = (codes: readonly string[]) => Promise<readonly RemoteVerdict[]>;

export async function remoteChecker(ctx: Context, kind: 'upc' | 'isrc', releaseId: string | undefined): Promise<RemoteChecker> {
  // node:http (the one-shot transport, keep-alive) rather than undici: for a few large requests it
  // does as well, and loading undici cost more than all of 10,000 codes' requests (measured:
  // bench/validate-remote.bench.mjs). Behind a proxy the client takes undici anyway.
  const client = await ctx.services.client();
  // A --release the service does not know fails once, before any code is sent, in the words of
  // the single form ("release 12 not found"), not the batch's (which names the code at fault).
  if (releaseId !== undefined) await client.call('getRelease', { params: { releaseId } });
  const forRelease = releaseId === undefined ? {} : { release_id: releaseId };
  return async (codes) => {
    // The only bound a person's input can break (the rest of the body is built here, typed by the
    // contract); checked here, so the client need not load zod to check a thousand codes again.
    const tooLong = codes.find((code) => code.length > validateCodeMaxLength);
    if (tooLong !== undefined) {
      throw new UsageError(
        `--remote: a code of ${tooLong.length} characters (${JSON.stringify(`${tooLong.slice(0, 20)}…`)}); the service checks codes of at most ${validateCodeMaxLength}`,
        'remove that line, or check the codes without --remote',
      );
    }
    const { data } = await client.call('validateCodes', {
      body: { codes: codes.map((code) => (kind === 'upc' ? { kind, code, ...forRelease } : { kind, code })) },
      bodyChecked: true,
    });
    if (data.length !== codes.length) {
      throw new CliError(`the service answered ${data.length} verdicts for ${codes.length} codes`, { code: 'bad_response' });
    }
    return data;
  };
}

/**
 * Asks about `items` in chunks of `chunkSize` codes, with at most `inFlight` requests at once, and
 * hands each item its answer in input order. The next chunk is sent as soon as the oldest is
 * answered, before its answers are handed out, so printing overlaps the requests.
 */
export async function askInOrder<T>(
  items: readonly T[],
  codeOf: (item: T) => string,
  ask: RemoteChecker,
  each: (item: T, answer: RemoteVerdict) => void | Promise<void>,
  { chunkSize = validateBatchMax, inFlight = REMOTE_IN_FLIGHT }: { chunkSize?: number; inFlight?: number } = {},
): Promise<void> {
  const window: { start: number; answers: Promise<readonly RemoteVerdict[]> }[] = [];
  let next = 0;
  const send = () => {
    const start = next;
    next = Math.min(items.length, start + chunkSize);
    const answers = ask(items.slice(start, next).map(codeOf));
    // Awaited in order below; a failure further on must not go unhandled meanwhile.
    answers.catch(() => {});
    window.push({ start, answers });
  };
  while (next < items.length && window.length < inFlight) send();
  while (window.length > 0) {
    const head = window.shift()!;
    const answers = await head.answers;
    if (next < items.length) send();
    for (let i = 0; i < answers.length; i++) await each(items[head.start + i]!, answers[i]!);
  }
}
