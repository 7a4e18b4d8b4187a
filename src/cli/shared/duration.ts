// Durations on the command line and in settings: `500ms`, `10s`, `5m`, `1h`, `3d` (a bare number is
// seconds). One parser, so every flag that takes a duration reads it the same way.
import { UsageError } from '../errors.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds; throws a one-line UsageError naming `what` (a flag or setting) when unreadable or out of bounds. */
export function parseDuration(value: string, what: string, bounds: { minMs?: number; maxMs?: number } = {}): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim().toLowerCase());
  if (!m) throw new UsageError(`${what}: expected a duration like 500ms, 10s, 5m or 1h, got "${value}"`);
  const ms = Math.round(Number(m[1]) * UNIT_MS[m[2] ?? 's']!);
  if (bounds.minMs !== undefined && ms < bounds.minMs) throw new UsageError(`${what}: must be at least ${formatDuration(bounds.minMs)}, got "${value}"`);
  if (bounds.maxMs !== undefined && ms > bounds.maxMs) throw new UsageError(`${what}: must be at most ${formatDuration(bounds.maxMs)}, got "${value}"`);
  return ms;
}

/** The shortest of `1h30m`-style text for a number of milliseconds (`500ms`, `5s`, `2m30s`). */
export function formatDuration(ms: number): string {
  if (ms > 0 && ms < 1000) return `${Math.round(ms)}ms`;
  let s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const min = Math.floor(s / 60);
  s -= min * 60;
  return [h ? `${h}h` : '', min ? `${min}m` : '', s ? `${s}s` : ''].join('') || '0s';
}
