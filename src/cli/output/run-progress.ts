// One progress line for a run that uploads many files at once (`release apply`: several releases'
// tracks and covers in parallel): "Uploading 3 of 12 files: 31%, 1.2 GiB of 4.0 GiB, 45.0 MiB/s,
// 1m10s left". On a terminal it is redrawn in place on stderr, and cleared and drawn again around
// anything else the run writes to the terminal (report lines, retries), so that the two never
// share a line. Not on a terminal, a plain line every 10% of the run's bytes or 10 s, and only
// once bytes are going up in a run of 16 MiB or more: a re-run that uploads nothing logs nothing.
// --quiet silences it.
//
// The total is known only as each release is planned (a track already on the service is not
// sent): it starts as every file the run names and shrinks as plans say what stays.
import { Writable } from 'node:stream';
import type { Context } from '../context.js';
import type { IO } from '../io.js';
import { textWidth } from './fit.js';
import { LOG_EVERY_MS, LOG_FROM_BYTES, RATE_AFTER_MS, REDRAW_MS, durationWords, formatBytes } from './progress.js';
import { stderrWidth } from './width.js';

/** What one part of the run (a release) says of its uploads; the upload's own callbacks feed it. */
export interface PartUploads {
  /** The files this part's plan uploads (by path), said before the first is sent; again after a re-plan. */
  planned(paths: readonly string[]): void;
  /** Bytes of `path` sent so far (a retry starts again from 0). */
  sent(path: string, bytes: number): void;
  /** `path` is at the service: sent, or found there already. */
  uploaded(path: string): void;
}

export interface RunProgress {
  /** The uploads of part `index` (a release), as its steps report them. */
  part(index: number): PartUploads;
  /** The part has ended: what it did not upload leaves the total. */
  settle(index: number): void;
  /** Ends the line (and puts the run's streams back). */
  done(): void;
}

interface FileState {
  size: number;
  sent: number;
  started: boolean;
  finished: boolean;
}

const silent: RunProgress = {
  part: () => ({ planned() {}, sent() {}, uploaded() {} }),
  settle() {},
  done() {},
};

/**
 * `parts[i]`: the files part i may upload (path and size), counted in the total until its plan
 * says which it does upload. On a terminal, `ctx.io`'s streams are wrapped until `done` (see
 * guardStreams): the HTTP client's retry lines are written through them too.
 */
export function runProgress(ctx: Context, parts: readonly (readonly { path: string; size: number }[])[]): RunProgress {
  if (ctx.globals.quiet) return silent;
  const tty = ctx.io.stderrIsTTY;
  const stderr = ctx.io.stderr;
  const clock = () => ctx.now().getTime();
  const sizes = new Map(parts.flat().map((f) => [f.path, f.size]));
  const files: Map<string, FileState>[] = parts.map((p) => new Map(p.map((f) => [f.path, fresh(f.size)])));
  let firstByteAt: number | undefined;
  let lastDraw = Number.NEGATIVE_INFINITY;
  let lastLogged = 0;
  let loggedTenths = 0;
  let loggedDone = -1;
  let loggedComplete = false;
  let shown = '';
  let restore: (() => void) | undefined;
  // After done, a release still ending (a stopped run) draws nothing more.
  let closed = false;

  const tally = () => {
    let total = 0;
    let done = 0;
    let sent = 0;
    let count = 0;
    let begun = 0;
    let finished = 0;
    for (const part of files)
      for (const f of part.values()) {
        count++;
        total += f.size;
        done += f.finished ? f.size : f.sent;
        sent += f.sent;
        if (f.started || f.finished) begun++;
        if (f.finished) finished++;
      }
    return { total, done, sent, count, begun, finished };
  };
  const text = (now: number) => {
    const t = tally();
    const elapsed = firstByteAt === undefined ? 0 : now - firstByteAt;
    return runProgressLine({ ...t, elapsedMs: elapsed });
  };
  const draw = () => {
    if (shown !== '') stderr.write(`\r\x1b[2K${shown}`);
  };
  const clear = () => {
    if (shown !== '') stderr.write('\r\x1b[2K');
  };

  const changed = (force = false) => {
    if (closed) return;
    const now = clock();
    const t = tally();
    if (t.sent === 0 && t.finished === 0) return;
    if (tty) {
      if (now - lastDraw < REDRAW_MS && !force) return;
      lastDraw = now;
      restore ??= guardStreams(ctx.io, clear, draw);
      // One character short of the width: a full line would leave some terminals' cursor on the next.
      const width = stderrWidth(ctx);
      const next = width === undefined ? text(now) : fitRunLine(text(now), width - 1);
      if (next === shown) return;
      shown = next;
      draw();
      return;
    }
    // Every file there: said once (its last bytes were logged as "Uploading …: 100%").
    const complete = t.finished === t.count && !loggedComplete;
    // A small run gets no 10% lines, but a slow one still says something every 10 s (and then how it ended).
    const quietRun = t.total < LOG_FROM_BYTES && !(complete && loggedDone > 0);
    if (quietRun && (lastLogged === 0 || now - lastLogged < LOG_EVERY_MS)) return;
    const tenths = t.total > 0 ? Math.min(10, Math.floor((t.done / t.total) * 10)) : 0;
    if (tenths > loggedTenths || now - lastLogged >= LOG_EVERY_MS || complete) {
      loggedComplete ||= complete;
      loggedTenths = Math.max(loggedTenths, tenths);
      lastLogged = now;
      loggedDone = t.done;
      stderr.write(`${text(now)}\n`);
    }
  };

  return {
    part(index) {
      const mine = () => files[index]!;
      const entry = (path: string) => {
        let f = mine().get(path);
        if (f === undefined) {
          f = fresh(sizes.get(path) ?? 0);
          mine().set(path, f);
        }
        return f;
      };
      return {
        planned(paths) {
          const keep = new Map<string, FileState>();
          for (const [path, f] of mine()) if (f.started || f.finished) keep.set(path, f);
          for (const path of paths) keep.set(path, mine().get(path) ?? fresh(sizes.get(path) ?? 0));
          files[index] = keep;
          changed();
        },
        sent(path, bytes) {
          const f = entry(path);
          f.started = true;
          f.sent = bytes;
          // The rate, and a log's 10 s, count from the run's first byte sent.
          if (bytes > 0 && firstByteAt === undefined) firstByteAt = lastLogged = clock();
          changed();
        },
        uploaded(path) {
          const f = entry(path);
          f.finished = true;
          changed(true);
        },
      };
    },
    settle(index) {
      const part = files[index]!;
      for (const [path, f] of part) if (!f.finished) part.delete(path);
      changed(true);
    },
    done() {
      if (closed) return;
      closed = true;
      const now = clock();
      if (tty) {
        clear();
        shown = '';
      } else if (loggedDone >= 0 && loggedDone !== tally().done) stderr.write(`${text(now)}\n`);
      restore?.();
      restore = undefined;
    },
  };
}

function fresh(size: number): FileState {
  return { size, sent: 0, started: false, finished: false };
}

/** "Uploading 3 of 12 files: 31%, 1.2 GiB of 4.0 GiB, 45.0 MiB/s, 1m10s left". Pure, for tests. */
export function runProgressLine(t: { total: number; done: number; sent: number; count: number; begun: number; finished: number; elapsedMs: number }): string {
  const all = t.count > 0 && t.finished === t.count;
  const head = all
    ? `Uploaded ${t.count} of ${t.count} ${t.count === 1 ? 'file' : 'files'}`
    : `Uploading ${t.begun} of ${t.count} ${t.count === 1 ? 'file' : 'files'}`;
  const parts = [`${t.total > 0 ? Math.min(100, Math.floor((t.done / t.total) * 100)) : 100}%`, `${formatBytes(t.done)} of ${formatBytes(t.total)}`];
  if (t.elapsedMs >= RATE_AFTER_MS && t.sent > 0) {
    const rate = t.sent / (t.elapsedMs / 1000);
    parts.push(`${formatBytes(rate)}/s`);
    if (!all && t.done < t.total) parts.push(`${durationWords((t.total - t.done) / rate)} left`);
  }
  return `${head}: ${parts.join(', ')}`;
}

/** The line in `width` characters: the time left goes first, then the rate; never a cut number. */
export function fitRunLine(line: string, width: number): string {
  let fitted = line;
  while (textWidth(fitted) > width) {
    const cut = fitted.lastIndexOf(', ');
    if (cut < 0) return `${[...fitted].slice(0, Math.max(0, width - 1)).join('')}…`;
    fitted = fitted.slice(0, cut);
  }
  return fitted;
}

/**
 * While the line is drawn, anything else written to the terminal clears it first and draws it
 * again after a whole line: stderr always, stdout when it is the terminal too (--json lines, the
 * summary table). Returns what puts the streams back.
 */
function guardStreams(io: IO, clear: () => void, draw: () => void): () => void {
  const original = { stdout: io.stdout, stderr: io.stderr };
  const guard = (target: Writable) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        const text = String(chunk);
        clear();
        target.write(text);
        if (text.endsWith('\n')) draw();
        callback();
      },
    });
  io.stderr = guard(original.stderr);
  if (io.stdoutIsTTY) io.stdout = guard(original.stdout);
  return () => {
    io.stderr = original.stderr;
    io.stdout = original.stdout;
  };
}
