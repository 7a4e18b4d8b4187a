// Progress of long work on stderr (uploads, pages). On a terminal, one line redrawn in place, at
// most every 100 ms, fitted to its width. Not on a terminal (a CI log), an upload says how far it is
// on a plain line every 10 s, and one of 16 MiB or more at every 10% too, never a carriage return;
// other work (pages, files written) says nothing there. --quiet silences both.
import type { Context } from '../context.js';
import { textWidth } from './fit.js';
import { stderrWidth } from './width.js';

export interface Progress {
  /** `done` of `total` units (bytes, pages, items). */
  update(done: number, total?: number): void;
  /** Ends the line; prints `message` if given. */
  done(message?: string): void;
}

export interface ProgressOptions {
  total?: number;
  unit?: 'bytes' | 'items';
  /** This file's place among several going up in one command: "file 2 of 5". */
  file?: number;
  files?: number;
}

const silent: Progress = { update() {}, done() {} };

/** How often a terminal's line is redrawn, and how often a log gets a line without 10% more done. */
export const REDRAW_MS = 100;
export const LOG_EVERY_MS = 10_000;
/** Below this, a rate (and so a time left) would be a guess. */
export const RATE_AFTER_MS = 500;
/**
 * Smaller files (a cover, a short or lossy track) go up in seconds on most links: ten lines of them
 * in a log would be noise, so they get only the 10 s line. A master (a 4-minute WAV is 40 MiB and
 * more) is logged at every 10% too.
 */
export const LOG_FROM_BYTES = 16 * 1024 * 1024;

export function progress(ctx: Context, label: string, options: ProgressOptions = {}): Progress {
  if (ctx.globals.quiet) return silent;
  const tty = ctx.io.stderrIsTTY;
  if (!tty && options.unit !== 'bytes') return silent;
  const clock = () => ctx.now().getTime();
  const started = clock();
  const head = options.files !== undefined && options.files > 1 && options.file !== undefined ? `${label} (file ${options.file} of ${options.files})` : label;
  let total = options.total;
  let lastDraw = Number.NEGATIVE_INFINITY;
  let lastLogged = started;
  let loggedTenths = 0;
  let drawn = false;

  const line = (done: number, now: number) => progressLine(head, done, total, options.unit, now - started);
  return {
    update(done, t) {
      if (t !== undefined) total = t;
      const now = clock();
      const finished = total !== undefined && done >= total;
      if (tty) {
        if (now - lastDraw < REDRAW_MS && !finished) return;
        lastDraw = now;
        // One character short of the width: a full line would leave some terminals' cursor on the next.
        const width = stderrWidth(ctx);
        ctx.io.stderr.write(`\r\x1b[2K${width === undefined ? line(done, now) : fitLine(head, line(done, now), width - 1)}`);
        drawn = true;
        return;
      }
      // A small file gets no 10% lines, but one that is slow (a poor link) still says something every 10 s.
      if (total !== undefined && total < LOG_FROM_BYTES && now - lastLogged < LOG_EVERY_MS) return;
      const tenths = total ? Math.min(10, Math.floor((done / total) * 10)) : 0;
      if (tenths > loggedTenths || now - lastLogged >= LOG_EVERY_MS) {
        loggedTenths = Math.max(loggedTenths, tenths);
        lastLogged = now;
        ctx.io.stderr.write(`${line(done, now)}\n`);
      }
    },
    done(message) {
      if (drawn) ctx.io.stderr.write('\r\x1b[2K');
      if (message) ctx.io.stderr.write(`${message}\n`);
    },
  };
}

/** "Uploading a.flac: 42%, 91.6 KiB of 218.2 KiB, 1.2 MiB/s, 1s left". Pure, for tests. */
export function progressLine(head: string, done: number, total: number | undefined, unit: ProgressOptions['unit'], elapsedMs: number): string {
  const bytes = unit === 'bytes';
  const fmt = (n: number) => (bytes ? formatBytes(n) : String(n));
  const parts: string[] = [];
  if (total) parts.push(`${Math.min(100, Math.floor((done / total) * 100))}%`, `${fmt(done)} of ${fmt(total)}`);
  else parts.push(fmt(done));
  if (bytes && elapsedMs >= RATE_AFTER_MS && done > 0) {
    const rate = done / (elapsedMs / 1000);
    parts.push(`${formatBytes(rate)}/s`);
    if (total && done < total) parts.push(`${durationWords((total - done) / rate)} left`);
  }
  return `${head}: ${parts.join(', ')}`;
}

/** The progress line in `width` characters: the label (a file's path) gives up its start, its end (the file's name) stays. */
function fitLine(head: string, text: string, width: number): string {
  const over = textWidth(text) - width;
  if (over <= 0) return text;
  const chars = [...head];
  const keep = Math.max(1, chars.length - over - 1);
  return `…${chars.slice(chars.length - keep).join('')}${text.slice(head.length)}`;
}

/** Seconds as a person reads a time left: "8s", "1m05s", "2h03m". */
export function durationWords(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * A size in binary units (KiB, MiB, GiB: powers of 1024, as the sizes are counted), one unit
 * system everywhere reldist prints a size.
 */
export function formatBytes(n: number): string {
  if (n < 1024) return `${Math.round(n)} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}
