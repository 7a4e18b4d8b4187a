// Runs the built binary (bin/reldist.js → dist/) as a user would, with a clean environment:
// the one way every end-to-end test spawns reldist with pipes (cli-e2e-helpers builds on it).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const binPath = fileURLToPath(new URL('../../bin/reldist.js', import.meta.url));
/** The repository root: relative paths in tests (examples/…, test/fixtures/…) are from here. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The parent's environment minus anything that would point reldist somewhere else. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('RELDIST_') || k === 'XDG_CONFIG_HOME' || k === 'XDG_DATA_HOME' || /_proxy$/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

export function runBin(args: string[], env: NodeJS.ProcessEnv, stdin: string | Buffer = '', nodeArgs: string[] = []): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, binPath, ...args], { env, cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    // Bytes first, text once at the end: a character split across two chunks stays whole.
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.end(stdin);
  });
}
