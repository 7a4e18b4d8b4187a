// --timeout: bounds the whole of a command. When it passes, the command's signal is aborted (its
// requests stop where they are) and the command ends with exit 7 and one line saying what was in
// flight, what may already exist on the service and whether running the command again is safe.
import { CliError, ExitCode } from './errors.js';
import type { Exchanges } from './exchanges.js';
import { formatDuration } from './shared/duration.js';

export interface Deadline {
  /** Aborted, with the timed-out error as its reason, when the time is up. */
  signal: AbortSignal;
  /** Rejects with the timed-out error when the time is up; never settles otherwise. */
  expired: Promise<never>;
  /** The time is up (the clean-up after it is bounded too). */
  passed(): boolean;
  stop(): void;
}

/** No bound: `ms` undefined or 0. `explain` builds the error at the moment the time is up. */
export function startDeadline(ms: number | undefined, explain: () => CliError): Deadline {
  const controller = new AbortController();
  if (!ms) return { signal: controller.signal, expired: new Promise<never>(() => {}), passed: () => false, stop: () => {} };
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = explain();
      controller.abort(err);
      reject(err);
    }, ms);
  });
  // The race in build-program.ts handles the rejection; this keeps an unraced one quiet.
  expired.catch(() => {});
  return { signal: controller.signal, expired, passed: () => controller.signal.aborted, stop: () => clearTimeout(timer) };
}

/** The one line for a command stopped by --timeout, from what it had asked the service. */
export function timedOutError(ms: number, exchanges: Exchanges, safeToRerun: boolean): CliError {
  const inFlight = exchanges.inFlight();
  const changes = exchanges.changesSent();
  const parts = [`timed out after ${formatDuration(ms)}`];
  if (inFlight.length > 0) parts[0] += ` waiting for the service to ${words(inFlight)}${inFlight.some((e) => e.changes) ? ' (which may or may not be done)' : ''}`;
  else if (!exchanges.any()) parts[0] += ' before anything was sent to the service';
  if (changes.length === 0) {
    parts.push('nothing was changed on the service: safe to run again');
  } else {
    const done = changes.filter((e) => e.state === 'answered');
    // Sent, and no answer came (a lost connection the command went on after).
    const maybe = changes.filter((e) => e.state === 'failed');
    if (done.length > 0) parts.push(`already done: ${words(done)}`);
    if (maybe.length > 0) parts.push(`may or may not be done: ${words(maybe)}`);
    parts.push(safeToRerun ? 'safe to run again' : 'check what exists (`reldist release list`) before running it again');
  }
  return new CliError(parts.join('; '), { exitCode: ExitCode.timedOut, code: 'timed_out', hint: 'a longer --timeout waits longer; --timeout 0 waits forever' });
}

function words(list: { what: string }[]): string {
  const counts = new Map<string, number>();
  for (const e of list) counts.set(e.what, (counts.get(e.what) ?? 0) + 1);
  return [...counts].map(([what, n]) => (n > 1 ? `${what} (×${n})` : what)).join(', ');
}
