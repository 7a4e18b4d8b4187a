// Tasks started as their inputs arrive, at most `limit` running at once: `add` waits for a free
// slot (so a producer faster than the tasks is held back) and throws the first task's failure;
// `settle` waits for every task started and throws the first failure, after all have ended.
export interface TaskWindow {
  add(task: () => Promise<void>): Promise<void>;
  settle(): Promise<void>;
}

export function taskWindow(limit: number): TaskWindow {
  const running = new Set<Promise<void>>();
  let failed: { err: unknown } | undefined;
  const rethrow = () => {
    if (failed) throw failed.err;
  };
  return {
    async add(task) {
      rethrow();
      while (running.size >= limit) await Promise.race(running);
      rethrow();
      const p: Promise<void> = task()
        .catch((err: unknown) => {
          failed ??= { err };
        })
        .finally(() => running.delete(p));
      running.add(p);
    },
    async settle() {
      while (running.size > 0) await Promise.all(running);
      rethrow();
    },
  };
}
