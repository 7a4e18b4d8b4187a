// A small promise pool: at most `size` tasks at once, each started as soon as a slot frees, so
// one slow release does not hold up the others. Once `signal` is aborted no task is started; the
// ones running are left to end on their own.
export async function runPool<T>(items: readonly T[], size: number, task: (item: T, index: number) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal?.aborted) {
      const i = next++;
      await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, items.length)) }, worker));
}
