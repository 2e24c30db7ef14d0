import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: run test files two at a time, each in its own fork.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // Engine unit tests beside the engines: fixture rows in process, no chain, so no devnet.
      { extends: true, test: { name: 'unit', include: ['skills/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], globalSetup: ['test/helpers/global-setup.ts'] } },
    ],
  },
});
