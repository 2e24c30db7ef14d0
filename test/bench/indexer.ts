/**
 * Indexer ingest against raw getLogs on the same chain: a 14-day world on one embedded chain,
 * read once with bare eth_getLogs over the indexer's own windows and topics (the ceiling), then
 * indexed into the in-memory store and into Redis. Also times the world's seeding.
 */
import { randomUUID } from 'node:crypto';
import { toHex } from 'viem';
import { startDevnet } from '../../chain/devnet.js';
import { ChainRuntime } from '../../chain/runtime.js';
import { ALL_TOPICS, EVENTS } from '../../indexer/events.js';
import { ChainIndexer } from '../../indexer/indexer.js';
import { MemoryStore } from '../../store/memory.js';
import { RedisStore } from '../../store/redis.js';
import { startWorld, worldGenesisTimestamp } from '../../world/index.js';
import { EMBEDDED_LOG_RANGE } from '../../server/service.js';

/** Windows of the service's own size on an embedded chain (one window of the whole history passes viem's 10 MB response cap). */
export async function benchIndexer(redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', range = EMBEDDED_LOG_RANGE) {
  const devnet = await startDevnet({ chains: ['base'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(14), fifo: true });
  try {
    let t = performance.now();
    const world = await startWorld(devnet.chains, { seed: 'bench', days: 14, meanBlockSeconds: 2_400, liveBlockMs: 0, labelsPath: `/tmp/sibyl-bench-labels-${process.pid}.json` });
    world.stop();
    const seedingMs = performance.now() - t;
    const chain = new ChainRuntime().add('base', devnet.chains[0]!.rpcUrl, 'embedded');
    const head = Number(await chain.client.getBlockNumber());

    t = performance.now();
    let raw = 0;
    for (let from = 0; from <= head; from += range) {
      const logs = (await chain.client.request({ method: 'eth_getLogs', params: [{ fromBlock: toHex(from), toBlock: toHex(Math.min(head, from + range - 1)), topics: [ALL_TOPICS] }] })) as unknown[];
      raw += logs.length;
    }
    const rawMs = performance.now() - t;

    // The same through viem's getLogs, which parses and decodes every log: what a client usually calls.
    t = performance.now();
    let decoded = 0;
    for (let from = 0; from <= head; from += range) {
      decoded += (await chain.client.getLogs({ fromBlock: BigInt(from), toBlock: BigInt(Math.min(head, from + range - 1)), events: Object.values(EVENTS) } as never) as unknown[]).length;
    }
    const decodedMs = performance.now() - t;

    const options = { range, reorgDepth: 12, lookbackBlocks: 1_000_000_000 };
    t = performance.now();
    const memoryLogs = await new ChainIndexer(chain, new MemoryStore(), options).sync();
    const memoryMs = performance.now() - t;

    const redis = await RedisStore.connect(redisUrl, `sibyl-bench:${randomUUID()}:`);
    t = performance.now();
    const redisLogs = await new ChainIndexer(chain, redis, options).sync();
    const redisMs = performance.now() - t;
    await redis.close();

    return {
      blocks: head + 1,
      seedingMs,
      raw: { logs: raw, ms: rawMs, perSec: raw / (rawMs / 1000) },
      viemGetLogs: { logs: decoded, ms: decodedMs, perSec: decoded / (decodedMs / 1000) },
      memory: { logs: memoryLogs, ms: memoryMs, perSec: memoryLogs / (memoryMs / 1000) },
      redis: { logs: redisLogs, ms: redisMs, perSec: redisLogs / (redisMs / 1000) },
    };
  } finally {
    await devnet.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchIndexer());
