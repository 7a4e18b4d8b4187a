// The first command on the embedded sandbox starts the background process before it loads
// anything else (main.ts calls this before commander), so that the process's start overlaps the
// command's own; the command then finds it starting and waits for it (sandbox-background.ts).
// Only for a command that will go to the sandbox: nothing configured, a group that talks to a
// service, no help asked. When unsure, nothing happens here and the command goes the usual way.
import { mkdirSync, readFileSync } from 'node:fs';
import type { Env } from './io.js';
import { configFile, type ConfigData } from './config/store.js';
import { autoReviewSetting } from './config/auto-review.js';
import { resolveTarget } from './config/resolve.js';
import { dataDir } from './paths.js';
import { currentLauncher } from './sandbox-launcher.js';
import { sandboxIdleMs, sandboxKey } from './sandbox-settings.js';
import { startSandboxEarly } from './sandbox-background.js';

export function startSandboxBeforeLoading(args: string[], env: Env): void {
  try {
    const launcher = currentLauncher();
    const idleMs = sandboxIdleMs(env);
    if (!launcher || idleMs <= 0) return;
    // The config read without narrowing its mode: the command does that, and says so.
    const config = readConfigQuietly(env);
    if (!config) return;
    const t = resolveTarget({ flags: { profile: flagValue(args, '--profile'), baseUrl: flagValue(args, '--base-url') }, env, config });
    if (t.baseUrl !== undefined || t.token) return;
    const autoReview = autoReviewSetting(env, config.settings);
    const dir = dataDir(env);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    startSandboxEarly({ dataDir: dir, key: sandboxKey(launcher, autoReview), idleMs, sandboxAutoReview: autoReview ?? null, launcher, env });
  } catch {
    // A bad setting or flag: the command reports it in its own words.
  }
}

/** `--name value` or `--name=value` anywhere (a global flag); commander parses it properly later. */
function flagValue(args: string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return undefined;
    if (a === name) return args[i + 1];
    if (a.startsWith(`${name}=`)) return a.slice(name.length + 1);
  }
  return undefined;
}

/** {} when there is no config file; undefined when it cannot be read as one (the command will say). */
function readConfigQuietly(env: Env): ConfigData | undefined {
  let text: string;
  try {
    text = readFileSync(configFile(env), 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? {} : undefined;
  }
  try {
    const data: unknown = text.trim() === '' ? {} : JSON.parse(text);
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as ConfigData) : undefined;
  } catch {
    return undefined;
  }
}
