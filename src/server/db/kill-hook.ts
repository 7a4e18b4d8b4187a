// Crash tests only (test/e2e/idempotency-crash.test.ts). With RELDIST_TEST_KILL_AT_STATEMENT=N in
// its environment, the service SIGKILLs itself just before the Nth SQL statement it runs once it
// listens (better-sqlite3 calls its `verbose` hook before a statement runs, BEGIN and COMMIT
// included), so a test can stop it at every point of a keyed write and check what a retry finds.
// Without the variable nothing is installed: no hook on the connection, no cost, no behaviour.
export interface StatementKillHook {
  /** better-sqlite3's `verbose` option; undefined unless the variable is set. */
  verbose: ((sql?: unknown) => void) | undefined;
  /** Starts counting (called once the service listens: opening the data directory is not counted). */
  arm(): void;
}

export const KILL_AT_STATEMENT_VARIABLE = 'RELDIST_TEST_KILL_AT_STATEMENT';

export function statementKillHook(env: NodeJS.ProcessEnv = process.env): StatementKillHook {
  const at = Number(env[KILL_AT_STATEMENT_VARIABLE] ?? '');
  if (!Number.isSafeInteger(at) || at < 1) return { verbose: undefined, arm() {} };
  let armed = false;
  let seen = 0;
  return {
    verbose() {
      if (armed && ++seen === at) process.kill(process.pid, 'SIGKILL');
    },
    arm() {
      armed = true;
    },
  };
}
