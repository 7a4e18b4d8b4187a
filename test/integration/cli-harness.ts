// Runs reldist commands in-process against the real reference service, with injected streams:
// the whole command tree and flag parsing, as a user would run it, minus the process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { CommanderError } from 'commander';
import { buildProgram, toUsageError } from '../../src/cli/program.js';
import { describeError } from '../../src/cli/describe-error.js';
import type { IO } from '../../src/cli/io.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  url: string;
  token: string;
  /** Terminal mode: stdout and stderr are terminals (NO_COLOR set, so no escapes in tables). */
  tty?: boolean;
  stdin?: string;
  env?: Record<string, string>;
  configDir: string;
}

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

export async function makeConfigDir(): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'reldist-cli-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function runCli(argv: string[], o: RunOptions): Promise<RunResult> {
  const stdout = new Sink();
  const stderr = new Sink();
  const stdin = o.stdin !== undefined ? Readable.from([o.stdin]) : new PassThrough().end();
  const io: IO = { stdin, stdout, stderr, stdinIsTTY: false, stdoutIsTTY: Boolean(o.tty), stderrIsTTY: Boolean(o.tty) };
  const env = {
    RELDIST_BASE_URL: o.url,
    RELDIST_TOKEN: o.token,
    RELDIST_CONFIG_DIR: o.configDir,
    RELDIST_DATA_DIR: join(o.configDir, 'data'),
    HOME: o.configDir,
    ...(o.tty ? { NO_COLOR: '1' } : {}),
    ...o.env,
  };
  const program = buildProgram({ io, env });
  let code = 0;
  try {
    await program.parseAsync(['node', 'reldist', ...argv]);
  } catch (caught) {
    let err = caught;
    if (err instanceof CommanderError) {
      if (err.exitCode === 0) return { code: 0, stdout: stdout.text, stderr: stderr.text };
      err = toUsageError(err);
    }
    // The same one-line report as main.ts.
    const d = describeError(err, { debug: false });
    stderr.write(`error: ${d.message}\n`);
    if (d.hint) stderr.write(`hint: ${d.hint}\n`);
    code = d.exitCode;
  }
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Replaces what changes from run to run (timestamps, relative times, hashes, keys) with placeholders. */
export function normalize(text: string): string {
  return text
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/\b(just now|in a moment|\d+ (second|minute|hour)s? ago)\b/g, '<when>')
    .replace(/req_[A-Za-z0-9]+/g, 'req_<id>')
    .replace(/upl_[A-Za-z0-9]+/g, 'upl_<key>');
}
