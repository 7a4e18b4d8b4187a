// One warning line per client the service cuts off (slow headers, slow bodies, too many
// connections), on the service's log: what was cut and why, never a query string (an upload's
// carries its signature) nor a header. An attack means thousands of cuts a second, so at most
// LINES_PER_WINDOW lines are written per window; the rest are counted and summed up in one line.
import type { Logger } from '../handler.js';

const WINDOW_MS = 10_000;
const LINES_PER_WINDOW = 20;

export class CutLog {
  private windowStart = -Infinity;
  private written = 0;
  private readonly suppressed = new Map<string, number>();
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** `kind` groups the lines left out ("headers too slow"); `line` is the whole message. */
  cut(kind: string, line: string): void {
    const now = this.now();
    if (now - this.windowStart >= WINDOW_MS) {
      this.flush();
      this.windowStart = now;
      this.written = 0;
    }
    if (this.written < LINES_PER_WINDOW) {
      this.written++;
      this.log.warn(line);
      return;
    }
    this.suppressed.set(kind, (this.suppressed.get(kind) ?? 0) + 1);
    this.flushTimer ??= setTimeout(() => this.flush(), WINDOW_MS).unref();
  }

  /** Writes the count of the lines left out, if any. */
  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.suppressed.size === 0) return;
    const counts = [...this.suppressed].map(([kind, n]) => `${n} ${kind}`).join(', ');
    this.suppressed.clear();
    this.log.warn(`and more clients cut off than shown: ${counts}`);
  }
}
