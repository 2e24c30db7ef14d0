/**
 * A Sibyl on its own base devnet with a short world history, for tests that check figures
 * against what the world did: the labels, a public client on the chain, and a paying poster.
 */
import { createPublicClient, http, type PublicClient } from 'viem';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { viemChain } from '../../chain/runtime.js';
import { startWorld, worldGenesisTimestamp } from '../../world/index.js';
import type { WorldLabels } from '../../world/labels.js';
import { fundedPayer, payingFetch, startTestSibyl, type TestSibyl } from './sibyl.js';

export interface WorldSibyl {
  devnet: Devnet;
  sibyl: TestSibyl;
  labels: WorldLabels;
  rpcUrl: string;
  client: PublicClient;
  /** Pays for `path` with the official x402 client. */
  post(path: string, body: unknown): Promise<Response>;
  close(): Promise<void>;
}

export async function startWorldSibyl(seed: string, days = 2, env: Record<string, string> = {}): Promise<WorldSibyl> {
  const devnet = await startDevnet({ chains: ['base'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(days), fifo: true });
  const world = await startWorld(devnet.chains, { seed, days, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: `/tmp/sibyl-${seed}-${process.pid}.json` });
  world.stop();
  const rpcUrl = devnet.chains[0]!.rpcUrl;
  const sibyl = await startTestSibyl({ rpcUrls: { base: rpcUrl }, env });
  const client = createPublicClient({ chain: viemChain('base', rpcUrl), transport: http(rpcUrl), pollingInterval: 50 }) as PublicClient;
  const { key } = await fundedPayer('50', rpcUrl);
  const pay = payingFetch(key);
  return {
    devnet, sibyl, labels: world.worlds[0]!.labels, rpcUrl, client,
    post: (path, body) => pay.pay(`${sibyl.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    async close() {
      await sibyl.close();
      await devnet.stop();
    },
  };
}
