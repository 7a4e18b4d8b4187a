// Runs reldist commands in-process against the real reference service, with injected streams:
// the whole command tree and flag parsing, as a user would run it, minus the process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, expect } from 'vitest';
import { runCli as runArgv } from '../../src/cli/run-cli.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../helpers/server.js';
import type { IO } from '../../src/cli/io.js';
import type { Services } from '../../src/cli/context.js';

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
  /** With `tty`: the terminal's width (tables fit it); unset, no limit. */
  columns?: number;
  stdin?: string;
  /** Added to (or, with undefined, taken from) the environment below. */
  env?: Record<string, string | undefined>;
  configDir: string;
  /** A live stdin (instead of `stdin` text): for tests of streaming. */
  stdinStream?: Readable;
  /** Overrides of the context's lazily built services (e.g. a client that counts its calls). */
  services?: Partial<Services>;
  /** A person at the terminal (with `tty`): stdin is a terminal too, every confirmation is answered `answer`, its question kept in `asked`. */
  person?: { answer: boolean; asked: string[] };
  /** Called on every write to stdout (for tests of streaming). */
  onStdout?: (text: string) => void;
  /** The bound of a command under CI without --timeout (the real one is 30 minutes). */
  ciTimeoutMs?: number;
}

class Sink extends Writable {
  text = '';
  constructor(private readonly onWrite?: (text: string) => void) {
    super();
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    this.onWrite?.(this.text);
    cb();
  }
}

export async function makeConfigDir(): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'reldist-cli-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** What a test file gets from `useCli`: the running service, a private config folder, and `run`. */
export interface CliFixture {
  readonly server: TestServer;
  readonly configDir: string;
  /** Runs reldist against the service, signed in as the seeded label unless `token` says otherwise. */
  run(argv: string[], o?: Partial<RunOptions>): Promise<RunResult>;
  /** Runs reldist with --json, expects exit 0 and returns the parsed stdout. */
  json<T = any>(argv: string[], o?: Partial<RunOptions>): Promise<T>;
}

/** For a test file: starts the reference service (with `serverOptions`) and a config folder before its tests, stops both after. */
export function useCli(serverOptions: TestServerOptions = {}): CliFixture {
  let server: TestServer | undefined;
  let config: { dir: string; cleanup(): Promise<void> } | undefined;
  beforeAll(async () => {
    server = await startTestServer(serverOptions);
    config = await makeConfigDir();
  });
  afterAll(async () => {
    await server?.close();
    await config?.cleanup();
  });
  const started = () => {
    if (!server || !config) throw new Error('useCli: the service starts in beforeAll; use the fixture inside tests');
    return { server, config };
  };
  return {
    get server() {
      return started().server;
    },
    get configDir() {
      return started().config.dir;
    },
    run,
    async json(argv, o = {}) {
      const r = await run([...argv, '--json'], o);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    },
  };
  function run(argv: string[], o: Partial<RunOptions> = {}): Promise<RunResult> {
    const { server: s, config: c } = started();
    return runCli(argv, { url: s.url, token: s.tokens.label, configDir: c.dir, ...o });
  }
}

export async function runCli(argv: string[], o: RunOptions): Promise<RunResult> {
  const stdout = new Sink(o.onStdout);
  const stderr = new Sink();
  const stdin = o.stdinStream ?? (o.stdin !== undefined ? Readable.from([o.stdin]) : new PassThrough().end());
  const io: IO = {
    stdin,
    stdout,
    stderr,
    stdinIsTTY: o.person !== undefined,
    stdoutIsTTY: Boolean(o.tty),
    stderrIsTTY: Boolean(o.tty),
    columns: o.tty ? o.columns : undefined,
  };
  // Built from nothing (not the test process's environment): CI=true of the suite's own CI job
  // does not reach a command unless a test sets it.
  const env: Record<string, string> = {};
  const given: Record<string, string | undefined> = {
    RELDIST_BASE_URL: o.url,
    RELDIST_TOKEN: o.token,
    RELDIST_CONFIG_DIR: o.configDir,
    RELDIST_DATA_DIR: join(o.configDir, 'data'),
    HOME: o.configDir,
    ...(o.tty ? { NO_COLOR: '1' } : {}),
    ...o.env,
  };
  for (const [k, v] of Object.entries(given)) if (v !== undefined) env[k] = v;
  // The real argv → exit code path of the binary, error reporting included, minus the process.
  const person = o.person;
  const services = person ? { ...o.services, prompts: async () => answering(person) } : o.services;
  const code = await runArgv(argv, {
    io,
    env,
    ...(services ? { services } : {}),
    ...(o.ciTimeoutMs !== undefined ? { ciTimeoutMs: o.ciTimeoutMs } : {}),
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Prompts that answer every confirmation `answer` and keep the questions in `asked` (only confirmations: any other prompt is not there). */
function answering(person: { answer: boolean; asked: string[] }): Awaited<ReturnType<Services['prompts']>> {
  const prompter = {
    confirm: async (q: { message: string }) => {
      person.asked.push(q.message);
      return person.answer;
    },
  };
  return prompter as unknown as Awaited<ReturnType<Services['prompts']>>;
}

/** Replaces what changes from run to run (timestamps, relative times, hashes, keys) with placeholders. */
export function normalize(text: string): string {
  return text
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/\b(just now|in a moment|\d+ (second|minute|hour)s? ago)\b/g, '<when>')
    .replace(/req_[\w-]+/g, 'req_<id>')
    .replace(/upl_[A-Za-z0-9]+/g, 'upl_<key>');
}

/** Progress redraws depend on timing: keep only what is left on screen (the final lines). */
export function dropRedraws(text: string): string {
  return text.replace(/\r\x1b\[2K[^\r\n]*(?=\r)/g, '').replace(/\r\x1b\[2K/g, '');
}

/** The whole visible result of a run, normalized, for a golden file. */
export function transcript(r: RunResult): string {
  return normalize(`exit: ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${dropRedraws(r.stderr)}`);
}

/** A 16-bit PCM WAV of a tone (stereo, 440 Hz unless told), written to `path`; another `hz` is other audio of the same size. */
export async function writeWav(path: string, options: { seconds: number; channels?: number; rate?: number; hz?: number }): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  const channels = options.channels ?? 2;
  const rate = options.rate ?? 44_100;
  const frames = Math.round(rate * options.seconds);
  const data = Buffer.alloc(frames * channels * 2);
  for (let i = 0; i < frames; i++) {
    const v = Math.round(3000 * Math.sin((2 * Math.PI * (options.hz ?? 440) * i) / rate));
    for (let c = 0; c < channels; c++) data.writeInt16LE(v, (i * channels + c) * 2);
  }
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * channels * 2, 28);
  h.writeUInt16LE(channels * 2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  await writeFile(path, Buffer.concat([h, data]));
}
