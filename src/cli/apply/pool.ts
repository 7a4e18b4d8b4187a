// A small promise pool: at most `size` tasks at once, each started as soon as a slot frees, so
// one slow release does not hold up the others.
export async function runPool<T>(items: readonly T[], size: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, items.length)) }, worker));
}
