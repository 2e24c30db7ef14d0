/**
 * What the evaluation scripts share: a world built for a seed on fresh embedded chains, every
 * chain indexed into one memory store (its keys are per chain), handed chain by chain to the
 * evaluation with its labels (which only these scripts read), then all at once to an evaluation
 * across chains. The chains are stopped afterwards.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvmChainName } from '../chain/chains.js';
import { startDevnet } from '../chain/devnet.js';
import { ChainRuntime, type ConnectedChain } from '../chain/runtime.js';
import { ChainIndexer } from '../indexer/indexer.js';
import { IndexReader } from '../indexer/reader.js';
import { MemoryStore } from '../store/memory.js';
import type { WorldLabels } from '../world/labels.js';
import { startWorld, worldGenesisTimestamp } from '../world/index.js';
import type { ReferencePaths } from '../world/reference.js';
import type { World } from '../world/world.js';

export interface IndexedChain {
  readonly chain: ConnectedChain;
  readonly store: MemoryStore;
  readonly reader: IndexReader;
  readonly labels: WorldLabels;
  /** The chain's simulator, between blocks (off-chain feeds its modules wrote, e.g. the social feed, are read from it; an evaluation may step it on, last). */
  readonly world: World;
  /** The price paths the world follows (and the prediction venues' plan is drawn on). */
  readonly reference: ReferencePaths;
}

/**
 * Builds and indexes the world, hands each chain to `each`, then (when given) every chain at once
 * to `all`, with one store holding every chain's index (index keys are per chain id) and the
 * runtime reading them all: what an evaluation across chains reads, as the service would.
 */
export async function withIndexedWorld(
  seed: string, days: number, chains: readonly EvmChainName[], each: (c: IndexedChain) => Promise<void>,
  all?: (indexed: { readonly runtime: ChainRuntime; readonly store: MemoryStore; readonly chains: readonly IndexedChain[] }) => Promise<void>,
): Promise<void> {
  const devnet = await startDevnet({ chains, basePort: 0, genesisTimestamp: worldGenesisTimestamp(days), fifo: true });
  try {
    const world = await startWorld(devnet.chains, { seed, days, meanBlockSeconds: 2_400, liveBlockMs: 0, labelsPath: join(tmpdir(), `sibyl-eval-${seed}-${process.pid}.json`) });
    const runtime = new ChainRuntime();
    const store = new MemoryStore();
    const indexed: IndexedChain[] = [];
    for (const [i, c] of devnet.chains.entries()) {
      const chain = runtime.add(c.name, c.rpcUrl, 'embedded');
      // Short ranges: a node answers weeks of a busy world in one getLogs only slowly.
      await new ChainIndexer(chain, store, { range: 25, reorgDepth: 12, lookbackBlocks: 1e9 }).sync();
      const one = { chain, store, reader: new IndexReader(store, chain.spec.chainId), labels: world.worlds[i]!.labels, world: world.worlds[i]!, reference: world.reference };
      indexed.push(one);
      await each(one);
    }
    await all?.({ runtime, store, chains: indexed });
    world.stop();
  } finally {
    await devnet.stop();
  }
}
