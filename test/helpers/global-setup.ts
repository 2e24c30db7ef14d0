/**
 * Starts one embedded devnet (every EVM chain Sibyl embeds) for the whole run and hands its
 * RPC URLs to the test files, which point their servers at it through CHAIN_RPC_URL_<CHAIN>,
 * the same path a real chain takes. Stopped at the end so no process is left behind.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDevnet } from '../../chain/devnet.js';
import { DEFAULT_EMBEDDED_CHAINS } from '../../server/config.js';

declare module 'vitest' {
  export interface ProvidedContext {
    rpcUrls: Record<string, string>;
    /** Where worlds shared by several files are dumped once per run (test/helpers/world.ts). */
    worldsDir: string;
  }
}

export default async function setup(project: TestProject) {
  const devnet = await startDevnet({ chains: DEFAULT_EMBEDDED_CHAINS, basePort: 0 });
  project.provide('rpcUrls', Object.fromEntries(devnet.chains.map((c) => [c.name, c.rpcUrl])));
  const worldsDir = await mkdtemp(join(tmpdir(), 'sibyl-test-worlds-'));
  project.provide('worldsDir', worldsDir);
  return async () => {
    await devnet.stop();
    await rm(worldsDir, { recursive: true, force: true });
  };
}
