// Waiting on other processes from a test: bounded polls, never an absolute time asserted.

/** Whether a process with this pid is alive (signal 0 checks without signalling). */
export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls `ok` every 50 ms until it holds; throws naming `what` after `ms`. */
export async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Asks every process still alive of `pids` to stop (SIGTERM); those gone already are skipped. */
export function stopAll(pids: Iterable<number>): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Gone already.
    }
  }
}
