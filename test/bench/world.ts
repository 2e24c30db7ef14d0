/** The benchmarks' market: a base devnet with a 14-day world (seed `bench`), indexed into a memory store. */
import { startDevnet } from '../../chain/devnet.js';
import { ChainRuntime } from '../../chain/runtime.js';
import { ChainIndexer } from '../../indexer/indexer.js';
import { MemoryStore } from '../../store/memory.js';
import { startWorld, worldGenesisTimestamp } from '../../world/index.js';

export async function indexedBenchWorld(label: string) {
  const devnet = await startDevnet({ chains: ['base'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(14), fifo: true });
  try {
    const world = await startWorld(devnet.chains, { seed: 'bench', days: 14, meanBlockSeconds: 2_400, liveBlockMs: 0, labelsPath: `/tmp/sibyl-bench-${label}-${process.pid}.json` });
    world.stop();
    const chains = new ChainRuntime();
    const chain = chains.add('base', devnet.chains[0]!.rpcUrl, 'embedded');
    const store = new MemoryStore();
    const indexer = new ChainIndexer(chain, store, { range: 10_000, reorgDepth: 12, lookbackBlocks: 1e9 });
    await indexer.sync();
    return { devnet, chains, chain, store, indexer };
  } catch (err) {
    await devnet.stop();
    throw err;
  }
}
