// The background sandbox lets the command that spawned it finish first, bounded; the command now
// spawns it at its very end, so that command is often gone before the process looks. It must then
// not wait at all (it had taken its parent pid at start for the command's, and waited the whole
// bound for a parent that was already init: every second command on a fresh machine took 1 s more).
import { expect, test } from 'vitest';
import { starterDone } from '../../src/cli/sandbox-daemon.js';

test('a starter that is gone (not our parent): no wait', async () => {
  let pauses = 0;
  const waited = await starterDone(process.ppid + 1, async () => {
    pauses++;
  });
  expect({ waited, pauses }).toEqual({ waited: 0, pauses: 0 });
});

test('a starter still running (our parent): waits, and at most its bound', async () => {
  let pauses = 0;
  const waited = await starterDone(process.ppid, async () => {
    pauses++;
  });
  expect(pauses).toBeGreaterThan(0);
  expect(waited).toBe(pauses * 10);
  expect(pauses).toBeLessThanOrEqual(100);
});
