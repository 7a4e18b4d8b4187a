// The CLI's streams as buffers, for unit tests of output: a terminal (`tty`, `columns` wide) or pipes.
import { PassThrough } from 'node:stream';
import type { IO } from '../../src/cli/io.js';

export function bufferIO(tty: boolean, columns?: number) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const io: IO = { stdin: new PassThrough(), stdout, stderr, stdinIsTTY: tty, stdoutIsTTY: tty, stderrIsTTY: tty, columns };
  return { io, out: () => out, err: () => err };
}
