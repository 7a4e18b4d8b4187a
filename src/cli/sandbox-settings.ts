// What a command on the embedded sandbox asks of the background process, read the same way by the
// command (session.ts) and by the early start before commander loads (sandbox-early.ts).
import type { Env } from './io.js';
import { autoReviewSetting } from './config/auto-review.js';
import { parseDuration } from './shared/duration.js';
import { VERSION } from './version.js';
import type { SandboxKey } from './sandbox-state.js';
import type { SandboxLauncher } from './sandbox-launcher.js';

const DEFAULT_SANDBOX_IDLE_MS = 5 * 60_000;

/** How long the background sandbox stays without commands; RELDIST_SANDBOX_IDLE (0: no background process). */
export function sandboxIdleMs(env: Env): number {
  const v = env.RELDIST_SANDBOX_IDLE;
  return v === undefined || v === '' ? DEFAULT_SANDBOX_IDLE_MS : parseDuration(v, 'RELDIST_SANDBOX_IDLE', { maxMs: 24 * 3_600_000 });
}

/** What a running process must match to serve this command. */
export function sandboxKey(launcher: SandboxLauncher, autoReview: ReturnType<typeof autoReviewSetting>): SandboxKey {
  return { version: VERSION, build: launcher.build, autoReview: autoReview ? `${autoReview.outcome}:${autoReview.delayMs}` : '' };
}
