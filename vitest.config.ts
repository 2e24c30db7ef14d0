import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every answer a skill gives in a test is parsed with its output schema (skills/output-check.ts).
    env: { SIBYL_CHECK_OUTPUTS: '1' },
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: run test files two at a time, each in its own fork.
    pool: 'forks',
    maxWorkers: 2,
  },
});
