// Runs the built CLI (bin/reldist.js; `npm run build` first) as a child process and SIGKILLs it
// at a chosen point, for crash-safety tests: kill, then run again and check the outcome.
//
//   const env = cliEnv({ url: proxy.url, token, configDir });          // test/e2e/cli-e2e-helpers.ts
//   for (let k = 1; k <= 200; k++) {                                     // bounded
//     const r = await runAndKill({ args: ['release', 'apply', dir], env, killAt: { proxy, request: k, phase: 'answered' } });
//     const again = await runAndKill({ args: ['release', 'apply', dir], env });
//     expect(again.code).toBe(0);
//     if (!r.killed) break;                                              // the run ended before request k
//   }
//
// Kill points:
//   { afterMs }                         after that many ms (least deterministic);
//   { output: /re/, stream?, count? }   when the count-th complete line matching re was printed;
//   { proxy, request: k, phase, match? } at the k-th matching request through a fault proxy
//     (fault-proxy.ts): 'arrived' holds it before the service sees it, 'answered' after the service
//     did the work; the CLI is killed and has exited before the proxy goes on, and the exchange is
//     dropped, so the service never sees / the CLI never hears. The run owns the proxy's hooks
//     while it lasts and clears them at its end.
// Every run is bounded by `timeoutMs`: past it the child is killed and the promise rejects with
// the command and the end of its stderr.
import { spawn } from 'node:child_process';
import type { FaultProxy, ProxyEvent } from './fault-proxy.js';

export const BIN = new URL('../../bin/reldist.js', import.meta.url).pathname;
export const ROOT = new URL('../..', import.meta.url).pathname;

export type KillPoint =
  | { afterMs: number }
  | { output: RegExp; stream?: 'stdout' | 'stderr' | 'both'; count?: number }
  | { proxy: FaultProxy; request: number; phase: 'arrived' | 'answered'; match?: (event: ProxyEvent) => boolean };

export interface RunOptions {
  /** Arguments after the command (by default the CLI: `node bin/reldist.js ...args`). */
  args: string[];
  /** The child's whole environment; for the CLI build it with cliEnv() of the e2e helpers. */
  env?: NodeJS.ProcessEnv;
  /** The program and its leading arguments; default [process.execPath, BIN]. */
  command?: string[];
  /** Default the repository root. */
  cwd?: string;
  /** Written to stdin, which is then closed (always closed, so nothing waits on it). */
  stdin?: string;
  /** No kill point: the run ends by itself (or at the timeout). */
  killAt?: KillPoint;
  /** Hard bound on the whole run, ms; default 60 000. */
  timeoutMs?: number;
}

export interface RunResult {
  /** Exit code; null when killed. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The kill point was reached and the child SIGKILLed there. */
  killed: boolean;
}

export interface Run {
  pid: number | undefined;
  /** SIGKILLs the child now (counts as `killed`); resolves once it has exited. */
  kill(): Promise<void>;
  result: Promise<RunResult>;
}

/** Starts the child; `result` settles when it has exited (rejects at the timeout). */
export function startRun(options: RunOptions): Run {
  const [program, ...lead] = options.command ?? [process.execPath, BIN];
  if (program === undefined) throw new Error('startRun: empty command');
  const timeoutMs = options.timeoutMs ?? 60_000;
  const child = spawn(program, [...lead, ...options.args], { env: options.env ?? process.env, cwd: options.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  let killed = false;
  let timedOut = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', reject);
    // 'close': the process has exited and both pipes are drained, so the output is complete.
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      killed = true;
      child.kill('SIGKILL');
    }
    await exited.catch(() => {});
  };

  const point = options.killAt;
  const pending: string[] = ['', ''];
  const matches = { n: 0 };
  const watch = (stream: 'stdout' | 'stderr', index: number) => (chunk: string) => {
    out[stream] += chunk;
    if (!point || !('output' in point) || killed) return;
    const which = point.stream ?? 'both';
    if (which !== 'both' && which !== stream) return;
    const lines = (pending[index] + chunk).split('\n');
    pending[index] = lines.pop() ?? '';
    for (const line of lines) {
      if (point.output.test(line) && ++matches.n >= (point.count ?? 1)) {
        void kill();
        return;
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', watch('stdout', 0));
  child.stderr.setEncoding('utf8').on('data', watch('stderr', 1));
  child.stdin.on('error', () => {}); // the child may be gone before it reads its stdin
  child.stdin.end(options.stdin ?? '');

  let timer: NodeJS.Timeout | undefined;
  if (point && 'afterMs' in point) timer = setTimeout(() => void kill(), point.afterMs);
  if (point && 'proxy' in point) {
    let n = 0;
    const hook = async (event: ProxyEvent) => {
      if (killed || (point.match && !point.match(event)) || ++n !== point.request) return undefined;
      await kill();
      return 'drop' as const;
    };
    point.proxy.setHooks(point.phase === 'arrived' ? { onRequest: hook } : { onAnswered: hook });
  }
  const hardStop = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);

  const result = exited
    .then(({ code, signal }): RunResult => {
      if (timedOut) {
        throw new Error(
          `${[program, ...lead, ...options.args].join(' ')} did not finish within ${timeoutMs} ms; the end of its stderr:\n${out.stderr.slice(-2000)}`,
        );
      }
      return { code, signal, stdout: out.stdout, stderr: out.stderr, killed };
    })
    .finally(() => {
      clearTimeout(timer);
      clearTimeout(hardStop);
      if (point && 'proxy' in point) point.proxy.setHooks({});
    });
  return { pid: child.pid, kill, result };
}

/** startRun, waiting for the end: the result of a run killed at `killAt` (or not, if never reached). */
export function runAndKill(options: RunOptions): Promise<RunResult> {
  return startRun(options).result;
}
