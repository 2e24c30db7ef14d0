import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Every answer a skill gives in a test is parsed with its output schema (skills/core/output-check.ts).
    env: { SIBYL_CHECK_OUTPUTS: '1' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: run test files two at a time, each in its own fork.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // Unit tests beside the code (engines on fixture rows, the payments core): in process, no chain, so no devnet. Files
      // share a worker's modules (isolate: false): importing viem once per worker, not per file, is
      // most of their time; the engines' process caches key on fixture chains and hashes that are
      // unique within a process, so files cannot see each other's data.
      { extends: true, test: { name: 'unit', include: ['skills/**/*.test.ts', 'payments/**/*.test.ts'], isolate: false } },
      // End-to-end and integration files share a worker's modules too: each file still starts its own
      // servers on its own ports, stores and wallets, and closes them; importing viem, the SDKs and
      // the registry once per worker instead of once per file saves most of a minute of CPU.
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], globalSetup: ['test/helpers/global-setup.ts'], isolate: false } },
    ],
  },
});
