// Spawning the built binary (npm test builds it first) against a reference service started by
// the test, and driving it through a real pseudo-terminal (tmux) with bounded waits.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeConfigDir } from '../integration/cli-harness.js';
import { binPath, cleanEnv, repoRoot, runBin } from './sandbox-helpers.js';
import { CI_VARIABLES } from '../../src/cli/config/ci.js';

export const BIN = binPath;
export const ROOT = repoRoot;

export interface Target {
  url: string;
  token: string;
  configDir: string;
}

export function cliEnv(t: Target, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = cleanEnv({
    RELDIST_BASE_URL: t.url,
    RELDIST_TOKEN: t.token,
    RELDIST_CONFIG_DIR: t.configDir,
    RELDIST_DATA_DIR: join(t.configDir, 'data'),
    HOME: t.configDir,
    ...extra,
  });
  delete env.FORCE_COLOR;
  return env;
}

/**
 * For a test file: starts the reference service and a private config folder before its tests,
 * hands the target to `use`, and stops both after them.
 */
export function serveForTests(use: (t: Target) => void): void {
  let server: TestServer | undefined;
  let config: { dir: string; cleanup(): Promise<void> } | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    config = await makeConfigDir();
    use({ url: server.url, token: server.tokens.label, configDir: config.dir });
  });
  afterAll(async () => {
    await server?.close();
    await config?.cleanup();
  });
}

/** Runs the binary with pipes (not a terminal) against the target: exit code and both streams. */
export async function reldist(t: Target, args: string[], options: { stdin?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await runBin(args, cliEnv(t), options.stdin ?? '');
  // No exit code means it was killed (timed out): a failure all the same.
  return { ...r, code: r.code ?? 1 };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A program running in a detached tmux session: a real terminal of 160x50 (or `width` columns), in the repository (or `cwd`). */
export class Tty {
  private constructor(
    readonly name: string,
    private readonly exitFile: string,
  ) {}

  /** `env`: the whole environment instead of the target's (its RELDIST_ variables, HOME, NO_COLOR and PATH are passed on). */
  static start(name: string, t: Target, args: string[], dir: string, options: { width?: number; cwd?: string; env?: NodeJS.ProcessEnv } = {}): Tty {
    const exitFile = join(dir, `${name}.exit`);
    const script = join(dir, `${name}.sh`);
    const env = options.env ?? cliEnv(t);
    const exports = Object.keys(env)
      .filter((k) => k.startsWith('RELDIST_') || ['HOME', 'NO_COLOR', 'PATH'].includes(k))
      .map((k) => `export ${k}='${String(env[k] ?? '').replace(/'/g, `'\\''`)}'`)
      .join('\n');
    const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    // Ctrl-C outside a prompt reaches the whole foreground group: the trap keeps the shell alive
    // (its children still get the default) so that it records the program's exit code.
    // The tmux server is shared and keeps the environment it started with: none of its RELDIST_
    // variables may reach the program, only the ones given here.
    const unset = `for v in $(env | sed -n 's/^\\(RELDIST_[A-Z0-9_]*\\)=.*/\\1/p'); do unset "$v"; done`;
    writeFileSync(
      script,
      `trap 'true' INT\nunset ${CI_VARIABLES.join(' ')} FORCE_COLOR\n${unset}\n${exports}\ncd '${options.cwd ?? ROOT}'\n${quoted}\necho $? > '${exitFile}'\nsleep 60\n`,
    );
    const r = spawnSync('tmux', ['new-session', '-d', '-s', name, '-x', String(options.width ?? 160), '-y', '50', `sh '${script}'`]);
    if (r.status !== 0) throw new Error(`tmux failed: ${r.stderr.toString()}`);
    return new Tty(name, exitFile);
  }

  screen(): string {
    return spawnSync('tmux', ['capture-pane', '-p', '-J', '-S', '-200', '-t', this.name]).stdout.toString();
  }

  /** Waits (at most `tries` × 100 ms) until the screen shows `text`. */
  async waitFor(text: string | RegExp, tries = 300): Promise<string> {
    for (let i = 0; i < tries; i++) {
      const s = this.screen();
      if (typeof text === 'string' ? s.includes(text) : text.test(s)) return s;
      await sleep(100);
    }
    throw new Error(`timed out waiting for ${String(text)}; the screen:\n${this.screen()}`);
  }

  keys(...keys: string[]): void {
    spawnSync('tmux', ['send-keys', '-t', this.name, ...keys]);
  }

  /** Types text literally, then Enter. */
  answer(text: string): void {
    if (text) spawnSync('tmux', ['send-keys', '-t', this.name, '-l', text]);
    this.keys('Enter');
  }

  async exitCode(tries = 300): Promise<number> {
    for (let i = 0; i < tries; i++) {
      try {
        const v = readFileSync(this.exitFile, 'utf8').trim();
        if (v) return Number(v);
      } catch {
        // not yet
      }
      await sleep(100);
    }
    throw new Error(`the program did not finish; the screen:\n${this.screen()}`);
  }

  kill(): void {
    spawnSync('tmux', ['kill-session', '-t', this.name]);
  }
}

/** The `release create` wizard's questions from Genre to UPC/EAN, in the order it asks them, each answered with Enter: its default. */
export async function wizardDefaultsGenreToUpc(tty: Tty): Promise<void> {
  for (const prompt of ['Genre:', 'Language of the metadata:', 'Explicit content:', '℗ line', '© line', 'UPC/EAN']) {
    await tty.waitFor(prompt);
    tty.answer('');
  }
}
