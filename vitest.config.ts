import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here: integration tests each start a real service; keep the fan-out modest.
    maxWorkers: 2,
    pool: 'forks',
  },
});
