// --timeout: bounds the whole of a command. When it passes, the command's signal is aborted (its
// requests stop where they are, its own clean-up starts) and the command ends with exit 7 and one
// line saying what was in flight, what the service already did and whether running the command
// again is safe.
import { CliError, ExitCode } from './errors.js';
import type { Exchange, Exchanges } from './exchanges.js';
import { formatDuration } from './shared/duration.js';

export interface Deadline<T> {
  /** Aborted when the time is up, so that the command's requests stop and its clean-up starts. */
  signal: AbortSignal;
  /** Resolves when the time is up, with what `snapshot` saw at that moment; never otherwise. */
  expired: Promise<T>;
  stop(): void;
  /**
   * Stops the clock until the function it returns is called (a prompt waiting for a person):
   * the bound is on the command's own work, not on how long someone takes to read and answer.
   * Holds may overlap; the clock runs again when the last one ends.
   */
  hold(): () => void;
}

/** No bound when `ms` is undefined or 0. `snapshot` is taken the moment the time is up, before anything stops. */
export function startDeadline<T>(ms: number | undefined, snapshot: () => T): Deadline<T> {
  const controller = new AbortController();
  if (!ms) return { signal: controller.signal, expired: new Promise<T>(() => {}), stop: () => {}, hold: () => () => {} };
  let timer: NodeJS.Timeout | undefined;
  let left = ms;
  let runningSince = Date.now();
  let holds = 0;
  let stopped = false;
  let resolveExpired: (seen: T) => void = () => {};
  const expired = new Promise<T>((resolve) => (resolveExpired = resolve));
  const run = () => {
    runningSince = Date.now();
    timer = setTimeout(() => {
      stopped = true;
      const seen = snapshot();
      controller.abort(new CliError(`timed out after ${formatDuration(ms)}`, { exitCode: ExitCode.timedOut, code: 'timed_out' }));
      resolveExpired(seen);
    }, left);
  };
  run();
  return {
    signal: controller.signal,
    expired,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
    hold: () => {
      if (stopped) return () => {};
      if (holds++ === 0) {
        clearTimeout(timer);
        left = Math.max(0, left - (Date.now() - runningSince));
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (--holds === 0 && !stopped) run();
      };
    },
  };
}

/** The one line for a command stopped by --timeout, from what it had asked the service. */
export function timedOutError(ms: number, inFlight: readonly Exchange[], exchanges: Exchanges, safeToRerun: boolean, fromCi?: string): CliError {
  const changes = exchanges.changesSent();
  const parts = [`timed out after ${formatDuration(ms)}`];
  if (inFlight.length > 0)
    parts[0] += ` waiting for the service to ${words(inFlight)}${inFlight.some((e) => e.changes) ? ' (which may or may not be done)' : ''}`;
  else if (!exchanges.any()) parts[0] += ' before anything was sent to the service';
  if (changes.length === 0) {
    parts.push('nothing was changed on the service: safe to run again');
  } else {
    const done = changes.filter((e) => e.state === 'answered');
    // Sent, and no answer came (cut off by the timeout itself, or a lost connection), not counting
    // what the first part of the line names.
    const maybe = changes.filter((e) => e.state !== 'answered' && !inFlight.includes(e));
    if (done.length > 0) parts.push(`already done: ${words(done)}`);
    if (maybe.length > 0) parts.push(`may or may not be done: ${words(maybe)}`);
    parts.push(safeToRerun ? 'safe to run again' : 'check what exists (`reldist release list`) before running it again');
  }
  return new CliError(parts.join('; '), { exitCode: ExitCode.timedOut, code: 'timed_out', hint: timeoutHint(ms, fromCi) });
}

/** What to do about a bound: a longer one, or none; says where a bound nobody passed came from. */
export function timeoutHint(ms: number, fromCi: string | undefined): string {
  const how = 'a longer --timeout waits longer; --timeout 0 waits forever';
  return fromCi ? `under CI (${fromCi}) every command stops after ${formatDuration(ms)} unless --timeout says otherwise: ${how}` : how;
}

function words(list: readonly { what: string }[]): string {
  const counts = new Map<string, number>();
  for (const e of list) counts.set(e.what, (counts.get(e.what) ?? 0) + 1);
  return [...counts].map(([what, n]) => (n > 1 ? `${what} (×${n})` : what)).join(', ');
}
