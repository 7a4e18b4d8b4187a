// Runs the built binary (bin/reldist.js → dist/) as a user would, with a clean environment:
// the one way every end-to-end test spawns reldist with pipes (cli-e2e-helpers builds on it).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CI_VARIABLES } from '../../src/cli/config/ci.js';

export const binPath = fileURLToPath(new URL('../../bin/reldist.js', import.meta.url));
/** The repository root: relative paths in tests (examples/…, test/fixtures/…) are from here. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const CI_NAMES: ReadonlySet<string> = new Set(CI_VARIABLES);

/**
 * The parent's environment minus anything that would point reldist somewhere else, and minus the
 * variables that say CI (the suite's own CI job sets CI=true): a person's machine, unless the
 * test says otherwise in `extra` (CI=true for the CI rules, RELDIST_SANDBOX=1 for the sandbox).
 */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('RELDIST_') || CI_NAMES.has(k) || k === 'XDG_CONFIG_HOME' || k === 'XDG_DATA_HOME' || /_proxy$/i.test(k)) continue;
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
