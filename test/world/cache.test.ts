/**
 * A built world is cached and a later start reloads it: the same chain (block hashes), the
 * same simulator (labels), the same index (balances equal balanceOf), fast-forwarded to now.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, parseAbi, type Address, type PublicClient } from 'viem';
import { loadConfig } from '../../server/config.js';
import { startSibyl, type Sibyl } from '../../server/service.js';
import { indexKeys } from '../../indexer/rows.js';
import type { WorldLabels } from '../../world/labels.js';

const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)']);

async function start(cacheDir: string, labelsPath: string): Promise<{ sibyl: Sibyl; progress: string[] }> {
  const progress: string[] = [];
  const sibyl = await startSibyl(
    loadConfig({
      HOST: '127.0.0.1', LOG_LEVEL: 'silent', PORT: '0', EMBEDDED_CHAINS: 'base', EMBEDDED_RPC_PORT: '0', WORLD_DAYS: '1', WORLD_BLOCK_SECONDS: '1200', WORLD_LIVE_BLOCK_MS: '0',
      WORLD_SEED: 'cached-world', WORLD_CACHE_DIR: cacheDir, WORLD_LABELS_PATH: labelsPath, CURVE_FEED: 'off', FORECAST: 'off', SNAPSHOT_JOBS: 'off',
    }),
    { log: () => {}, onProgress: (m) => progress.push(m) },
  );
  return { sibyl, progress };
}

describe('the world cache', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('reloads the same chain, simulator and index, and fast-forwards to now', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sibyl-world-cache-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const labelsPath = join(dir, 'labels.json');

    // A cache of the same seed from another version of the code is never read again: it goes.
    const stale = join(dir, 'cache', 'cached-world-0123456789abcdef');
    await mkdir(stale, { recursive: true });
    const first = await start(join(dir, 'cache'), labelsPath);
    let open: Sibyl | undefined = first.sibyl;
    cleanup.push(() => open?.close() ?? Promise.resolve());
    const chainA = createPublicClient({ transport: http(first.sibyl.chains.get('base').rpcUrl) }) as PublicClient;
    const head = await chainA.getBlock();
    const labelsA = (JSON.parse(await readFile(labelsPath, 'utf8')) as { chains: WorldLabels[] }).chains[0]!;
    await first.sibyl.close(); // waits for the cache being written in the background
    open = undefined;
    expect(first.progress.some((m) => /world cached in/.test(m))).toBe(true);
    await expect(stat(stale)).rejects.toThrow();

    const second = await start(join(dir, 'cache'), labelsPath);
    open = second.sibyl;
    expect(second.progress.some((m) => /state loaded/.test(m))).toBe(true);
    expect(second.progress.some((m) => /resumed from the cache/.test(m))).toBe(true);
    expect(second.progress.some((m) => /genesis deployed|writing 1 days of history/.test(m))).toBe(false);

    const chainB = createPublicClient({ transport: http(second.sibyl.chains.get('base').rpcUrl) }) as PublicClient;
    expect((await chainB.getBlock({ blockNumber: head.number })).hash).toBe(head.hash);
    expect(await chainB.getBlockNumber({ cacheTime: 0 })).toBeGreaterThanOrEqual(head.number);

    // The resumed simulator is the one that wrote the history: its labels go on from the cached ones.
    const labelsB = (JSON.parse(await readFile(labelsPath, 'utf8')) as { chains: WorldLabels[] }).chains[0]!;
    expect(labelsB.tokens.slice(0, labelsA.tokens.length)).toEqual(labelsA.tokens);
    expect(labelsB.distribution).toEqual(labelsA.distribution);

    // The restored index, brought up to the new head, agrees with the chain.
    const keys = indexKeys(8453);
    const checkpoint = JSON.parse((await second.sibyl.store.get(keys.checkpoint))!) as { block: number };
    expect(checkpoint.block).toBe(Number(await chainB.getBlockNumber({ cacheTime: 0 })));
    const holders = labelsB.distribution.filter((d) => d.kind === 'holder' || d.kind === 'exchange').slice(0, 12);
    expect(holders.length).toBeGreaterThan(0);
    for (const d of holders) {
      const indexed = await second.sibyl.store.hashGet(keys.balances(d.token), d.holder.toLowerCase());
      const onChain = await chainB.readContract({ address: d.token, abi: erc20, functionName: 'balanceOf', args: [d.holder as Address] });
      expect(BigInt(indexed ?? '0'), `${d.symbol} of ${d.holder}`).toBe(onChain);
    }
  }, 240_000);
});
