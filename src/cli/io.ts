import type { Readable, Writable } from 'node:stream';

/** The process's streams, injected so that every command can run against buffers in a test. */
export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The terminal's width in characters when stdout is one (tables fit it); undefined: no limit. */
  columns?: number | undefined;
  /** stderr's width when it is a terminal (notes wrap to it); undefined: stdout's, if any. */
  stderrColumns?: number | undefined;
}

export type Env = Readonly<Record<string, string | undefined>>;

export function processIO(): IO {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    // A terminal that does not know its size (a pty opened without one) says 0: no width, then.
    columns: process.stdout.isTTY ? process.stdout.columns || undefined : undefined,
    stderrColumns: process.stderr.isTTY ? process.stderr.columns || undefined : undefined,
  };
}

/** Colour follows NO_COLOR / FORCE_COLOR / --no-color, then whether the stream is a terminal. */
export function colorEnabled(env: Env, isTTY: boolean, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return isTTY;
}
