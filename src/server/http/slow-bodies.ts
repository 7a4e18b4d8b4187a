// Request bodies that arrive too slowly are cut: each must deliver a minimum of bytes in every
// window (a slow but moving upload lives, a trickle does not), and a body other than an upload
// must be whole within its own bound. One sweep on an interval looks at every body in flight (no
// timer per request, and the bytes are the socket's own count, so nothing runs per chunk). The
// cut reaches whoever reads the body as a 408 request_timeout (`bodyCutOf`), so that the client
// gets the contract's answer; the caller closes the connection if nobody answers.
import type { IncomingMessage } from 'node:http';
import { ServiceError } from '../handler.js';
import { bytesInWords, checkingIntervalMs, secondsInWords, type ClientLimits } from './client-limits.js';

const kWatched = Symbol('reldist.slowBodies');

interface Watched {
  req: IncomingMessage;
  startedAt: number;
  windowStart: number;
  /** The socket's bytesRead at the window's start. */
  windowBytes: number;
  totalMs: number | undefined;
  onCut: (reason: string) => void;
  cutError?: ServiceError;
  cutPromise?: Promise<never>;
  reject?: (e: ServiceError) => void;
}

type WatchedRequest = IncomingMessage & { [kWatched]?: Watched };

export type BodyRateLimits = Pick<ClientLimits, 'minBodyRate' | 'bodyRateWindowMs' | 'bodyTimeoutMs'>;

export class SlowBodies {
  private readonly watched = new Set<Watched>();
  private timer: NodeJS.Timeout | undefined;
  private readonly intervalMs: number;

  constructor(
    private readonly limits: BodyRateLimits,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.intervalMs = checkingIntervalMs(Math.min(limits.bodyRateWindowMs, limits.bodyTimeoutMs));
  }

  /**
   * Watches `req`'s body until it ends or the request closes. `totalMs`: the whole body's bound
   * (none for an upload, which lives as long as it keeps the rate). `onCut` is told why, after
   * the 408 went to whoever reads the body.
   */
  watch(req: IncomingMessage, totalMs: number | undefined, onCut: (reason: string) => void): void {
    const now = this.now();
    const w: Watched = { req, startedAt: now, windowStart: now, windowBytes: req.socket.bytesRead, totalMs, onCut };
    (req as WatchedRequest)[kWatched] = w;
    this.watched.add(w);
    const stop = () => this.watched.delete(w);
    req.once('end', stop);
    req.once('close', stop);
    this.timer ??= setInterval(() => this.sweep(), this.intervalMs).unref();
  }

  /** Stops the sweep (the service closing). */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.watched.clear();
  }

  private sweep(): void {
    if (this.watched.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const now = this.now();
    const { minBodyRate, bodyRateWindowMs } = this.limits;
    for (const w of this.watched) {
      if (w.totalMs !== undefined && now - w.startedAt >= w.totalMs) {
        this.cut(w, `the request body was not complete within ${secondsInWords(w.totalMs)}`);
        continue;
      }
      const elapsed = now - w.windowStart;
      if (elapsed < bodyRateWindowMs) continue;
      const bytesRead = w.req.socket?.bytesRead ?? w.windowBytes;
      const got = bytesRead - w.windowBytes;
      // Paused by the reader (its disk or parser behind): the client is not the one holding it up.
      if (!w.req.isPaused() && got < (minBodyRate * elapsed) / 1000) {
        this.cut(
          w,
          `the request body arrived too slowly: ${bytesInWords(got)} in ${secondsInWords(elapsed)}, under the minimum of ${bytesInWords(minBodyRate)}/s`,
        );
        continue;
      }
      w.windowStart = now;
      w.windowBytes = bytesRead;
    }
  }

  private cut(w: Watched, reason: string): void {
    this.watched.delete(w);
    const error = new ServiceError(408, 'request_timeout', `${reason}; send it again`, { headers: { connection: 'close' } });
    w.cutError = error;
    w.reject?.(error);
    w.onCut(reason);
  }
}

/**
 * Rejects with the 408 when the body of `req` is cut; undefined when nothing watches it. Race
 * each read of the body against it.
 */
export function bodyCutOf(req: IncomingMessage): Promise<never> | undefined {
  const w = (req as WatchedRequest)[kWatched];
  if (!w) return undefined;
  if (!w.cutPromise) {
    w.cutPromise = new Promise<never>((_, reject) => (w.reject = reject));
    // Read by a race that may be over already: never an unhandled rejection.
    w.cutPromise.catch(() => {});
    if (w.cutError) w.reject!(w.cutError);
  }
  return w.cutPromise;
}

/** True when `req` comes with a body (a declared length above 0, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}
