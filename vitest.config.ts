import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here: integration tests each start a real service; keep the fan-out modest.
    maxWorkers: 2,
    pool: 'forks',
    // Every response the client receives through `call` is parsed with the catalog's response
    // schema, so a mismatch between the service, the contract and the client's types fails here
    // (see ApiClient.typedResponse). Spawned CLI processes inherit it.
    env: { RELDIST_CHECK_RESPONSES: '1' },
  },
});
