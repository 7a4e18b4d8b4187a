// --remote: asks the service too, with the batch form (POST /releases/validate, at most
// validateBatchMax codes a request; one request counts once against the rate limit). The only
// file of `validate` that touches the HTTP client; check-codes.ts imports it only for --remote.
import type { EntityId } from '../../../contract/index.js';
import { validateBatchMax, validateCodeMaxLength } from '../../../contract/routes.js';
import type { Context } from '../../context.js';
import { CliError, UsageError } from '../../errors.js';
import type { RemoteVerdict } from './format.js';

/**
 * Chunks asked (or answered and waiting to be written) at once: with a thousand codes each,
 * enough to keep the service busy while answers are written; polite to a shared service.
 */
export const REMOTE_IN_FLIGHT = 4;

/** Asks the service about up to validateBatchMax codes in one request; the verdicts in their order. */
export type RemoteChecker = (codes: readonly string[]) => Promise<readonly RemoteVerdict[]>;

export async function remoteChecker(ctx: Context, kind: 'upc' | 'isrc', releaseId: EntityId | undefined): Promise<RemoteChecker> {
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

interface Chunk<T> {
  items: T[];
  answers?: readonly RemoteVerdict[];
  error?: { error: unknown };
}

export interface QueueOptions {
  chunkSize?: number;
  inFlight?: number;
}

/**
 * Codes on their way to the service: sent in chunks of `chunkSize`, at most `inFlight` chunks
 * asked or waiting to be written at once, and each code's answer handed to `each` in input order
 * as soon as its chunk and every chunk before it are answered, while more input is read (the
 * reader waits only for a free slot). `afterChunk` runs once a chunk's answers are all handed
 * out (a flush: a slow source sees its answers without waiting for more input).
 */
export class RemoteQueue<T> {
  private queued: T[] = [];
  /** Chunks asked, oldest first; `answers` (or `error`) once the service answered. */
  private readonly window: Chunk<T>[] = [];
  private failure: { error: unknown } | undefined;
  /** The hand-out of answers: one at a time, in order. */
  private writing: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  private readonly chunkSize: number;
  private readonly inFlight: number;

  constructor(
    private readonly ask: RemoteChecker,
    private readonly codeOf: (item: T) => string,
    private readonly each: (item: T, answer: RemoteVerdict) => void | Promise<void>,
    private readonly afterChunk: () => void | Promise<void>,
    { chunkSize = validateBatchMax, inFlight = REMOTE_IN_FLIGHT }: QueueOptions = {},
  ) {
    this.chunkSize = chunkSize;
    this.inFlight = inFlight;
  }

  /** Queues items; every full chunk is sent, waiting for a free slot when all are taken. */
  async add(items: Iterable<T>): Promise<void> {
    for (const item of items) {
      this.queued.push(item);
      if (this.queued.length >= this.chunkSize) await this.sendQueued();
    }
  }

  /** Sends what is queued, a partial chunk too: the end of an input chunk, or of the input. */
  async send(): Promise<void> {
    if (this.queued.length > 0) await this.sendQueued();
    this.rethrow();
  }

  /** Waits until every answer is handed out; throws the first failure. */
  async drain(): Promise<void> {
    await this.send();
    while (this.window.length > 0 && !this.failure) await this.nextChange();
    this.rethrow();
  }

  private async sendQueued(): Promise<void> {
    while (this.window.length >= this.inFlight && !this.failure) await this.nextChange();
    this.rethrow();
    const chunk: Chunk<T> = { items: this.queued };
    this.queued = [];
    this.window.push(chunk);
    const settled = () => {
      this.writing = this.writing.then(() => this.handOut()).catch((error: unknown) => this.fail(error));
    };
    this.ask(chunk.items.map(this.codeOf)).then(
      (answers) => {
        chunk.answers = answers;
        settled();
      },
      (error: unknown) => {
        // A failed chunk stops the run once the chunks before it are written: what was checked is on record.
        chunk.error = { error };
        settled();
      },
    );
  }

  /** Hands out the answers of the oldest chunks that are answered, in order. */
  private async handOut(): Promise<void> {
    for (let head = this.window[0]; head && !this.failure; head = this.window[0]) {
      if (head.error) return this.fail(head.error.error);
      if (!head.answers) return;
      for (let i = 0; i < head.items.length; i++) {
        // Awaited only when writing has to wait (a full pipe): a thousand needless awaits a chunk add up.
        const wait = this.each(head.items[i]!, head.answers[i]!);
        if (wait) await wait;
      }
      await this.afterChunk();
      this.window.shift();
      this.notify();
    }
  }

  private fail(error: unknown): void {
    this.failure ??= { error };
    this.notify();
  }

  private rethrow(): void {
    if (this.failure) throw this.failure.error;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private nextChange(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }
}
