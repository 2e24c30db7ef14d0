/**
 * The indexer against a world's history: what it stores matches raw getLogs exactly, a new
 * instance resumes from the checkpoint without gaps or duplicates, a reorganisation is
 * repaired, and balances match balanceOf.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createPublicClient, custom, encodeFunctionData, parseAbi, type Address, type Hex } from 'viem';
import { demoAccount } from '../../chain/accounts.js';
import { CHAINS } from '../../chain/chains.js';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { ChainRuntime, type ConnectedChain } from '../../chain/runtime.js';
import { ChainIndexer } from '../../indexer/indexer.js';
import { EVENTS } from '../../indexer/events.js';
import { IndexReader } from '../../indexer/reader.js';
import type { Row } from '../../indexer/rows.js';
import { RedisStore } from '../../store/redis.js';
import type { Store } from '../../store/store.js';
import { startWorld, worldGenesisTimestamp } from '../../world/index.js';
import { TEST_REDIS_URL } from '../helpers/env.js';

const OPTIONS = { range: 50, reorgDepth: 16, lookbackBlocks: 1_000_000 };
const usdcAbi = parseAbi(['function balanceOf(address) view returns (uint256)', 'function mint(address, uint256)']);

describe('chain indexer', () => {
  let devnet: Devnet;
  let chain: ConnectedChain;
  let store: Store;
  let rpc: (method: string, params?: unknown[]) => Promise<any>;

  beforeAll(async () => {
    devnet = await startDevnet({ chains: ['base'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(1), fifo: true });
    const world = await startWorld(devnet.chains, { seed: 'indexer-test', days: 1, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: `/tmp/sibyl-idx-${process.pid}.json` });
    world.stop();
    chain = new ChainRuntime().add('base', devnet.chains[0]!.rpcUrl, 'embedded');
    store = await RedisStore.connect(TEST_REDIS_URL, `sibyl-test:${randomUUID()}:`);
    rpc = async (method, params = []) => {
      const res = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      return ((await res.json()) as { result: unknown }).result;
    };
  });
  afterAll(async () => {
    await store?.close();
    await devnet?.stop();
  });

  /** What a plain getLogs says the index should hold. */
  async function rawCounts() {
    const logs = await chain.client.getLogs({ fromBlock: 0n, toBlock: 'latest', events: [EVENTS.transfer, EVENTS.swap, EVENTS.pairCreated, EVENTS.deposit, EVENTS.withdrawal] } as never) as any[];
    const factories = CHAINS.base.dexes.map((d) => d.factory.toLowerCase());
    const pairs = new Set(logs.filter((l) => l.eventName === 'PairCreated' && factories.includes(l.address.toLowerCase())).map((l) => l.args.pair.toLowerCase()));
    const weth = CHAINS.base.wrappedNative.toLowerCase();
    return {
      pairs: pairs.size,
      swaps: logs.filter((l) => l.eventName === 'Swap' && pairs.has(l.address.toLowerCase())).length,
      transfers: logs.filter((l) => (l.eventName === 'Transfer' && l.topics.length === 3) || ((l.eventName === 'Deposit' || l.eventName === 'Withdrawal') && l.address.toLowerCase() === weth)).length,
    };
  }

  async function indexedCounts(indexer: ChainIndexer) {
    return {
      pairs: await store.sortedCount(indexer.keys.sets.pairs),
      swaps: await store.sortedCount(indexer.keys.sets.swaps),
      transfers: await store.sortedCount(indexer.keys.sets.transfers),
    };
  }

  it('indexes the whole history exactly as getLogs reports it', async () => {
    const indexer = new ChainIndexer(chain, store, OPTIONS);
    const read = await indexer.sync();
    expect(read).toBeGreaterThan(1_000);
    const counts = await indexedCounts(indexer);
    expect(counts).toEqual(await rawCounts());
    expect(counts.swaps).toBeGreaterThan(100);
    expect((await indexer.checkpoint())!.block).toBe(Number(await chain.client.getBlockNumber({ cacheTime: 0 })));
    // Each pool's reserves history holds exactly its Sync logs.
    const pair = (JSON.parse((await store.sortedRange(indexer.keys.sets.pairs, -Infinity, Infinity, 1))[0]!.member) as Row<'pairCreated'>).pair;
    const syncs = await chain.client.getLogs({ address: pair, event: EVENTS.sync, fromBlock: 0n, toBlock: 'latest' });
    expect(await store.sortedCount(indexer.keys.syncs(pair))).toBe(syncs.length);
    expect(syncs.length).toBeGreaterThan(1);
  });

  it('a new instance resumes from the checkpoint without gaps or duplicates; a second one waits for the lease', async () => {
    const first = new ChainIndexer(chain, store, OPTIONS);
    const before = (await first.checkpoint())!.block;
    for (let i = 0; i < 3; i++) await mintUsdc(demoAccount(5).address, 7n);
    const resumed = new ChainIndexer(chain, store, OPTIONS);
    // The earlier instance in this file still holds the lease: a fresh one must not write.
    expect(await resumed.sync()).toBe(0);
    await store.delete(resumed.keys.lease);
    expect(await resumed.sync()).toBe(3);
    expect((await resumed.checkpoint())!.block).toBe(before + 3);
    expect(await indexedCounts(resumed)).toEqual(await rawCounts());
  });

  it('repairs a reorganisation: rows above the fork go, the new branch comes in, balances follow', async () => {
    const indexer = new ChainIndexer(chain, store, OPTIONS);
    await store.delete(indexer.keys.lease);
    await indexer.sync();
    const holder = demoAccount(6).address;
    const snapshot = await rpc('evm_snapshot');
    for (let i = 0; i < 3; i++) await mintUsdc(holder, 1_000_000n);
    await indexer.sync();
    expect(await indexedBalance(indexer, holder)).toBe(await chainBalance(holder));

    await rpc('evm_revert', [snapshot]);
    await mintUsdc(holder, 5n); // a different branch at the same heights
    await mintUsdc(demoAccount(7).address, 9n);
    await indexer.sync();
    expect(await indexedCounts(indexer)).toEqual(await rawCounts());
    expect(await indexedBalance(indexer, holder)).toBe(await chainBalance(holder));
    const head = await chain.client.getBlock({ blockTag: 'latest' });
    expect((await indexer.checkpoint())!.hash).toBe(head.hash);
    const transfers = (await store.sortedRange(indexer.keys.sets.transfers, -Infinity, Infinity)).map((e) => JSON.parse(e.member) as Row<'transfer'>);
    expect(transfers.filter((t) => t.to.toLowerCase() === holder.toLowerCase() && t.value === '1000000')).toHaveLength(0);
  });

  it('repairs a fork far deeper than the reorganisation depth (a node restarted from an older state)', async () => {
    const indexer = new ChainIndexer(chain, store, OPTIONS);
    await store.delete(indexer.keys.lease);
    await indexer.sync();
    const holder = demoAccount(8).address;
    const snapshot = await rpc('evm_snapshot');
    for (let i = 0; i < OPTIONS.reorgDepth * 3; i++) await mintUsdc(holder, 1_000n);
    await indexer.sync();
    await rpc('evm_revert', [snapshot]); // 48 blocks gone, three times the depth
    for (let i = 0; i < OPTIONS.reorgDepth * 4; i++) await mintUsdc(demoAccount(9).address, 3n); // the head passes the old one
    await indexer.sync();
    expect(await indexedCounts(indexer)).toEqual(await rawCounts());
    expect(await indexedBalance(indexer, holder)).toBe(await chainBalance(holder));
    expect((await indexer.checkpoint())!.hash).toBe((await chain.client.getBlock({ blockTag: 'latest' })).hash);
  });

  it('indexed balances equal balanceOf for the world actors', async () => {
    const indexer = new ChainIndexer(chain, store, OPTIONS);
    const reader = new IndexReader(store, CHAINS.base.chainId);
    const holders = Object.keys(await reader.balances(CHAINS.base.usdc)).slice(0, 15) as Address[];
    expect(holders.length).toBeGreaterThan(10);
    for (const h of holders) expect(await indexedBalance(indexer, h)).toBe(await chainBalance(h));
    const wethHolders = Object.entries(await reader.balances(CHAINS.base.wrappedNative)).slice(0, 10);
    for (const [h, bal] of wethHolders) {
      expect(BigInt(bal)).toBe(await chain.client.readContract({ address: CHAINS.base.wrappedNative, abi: usdcAbi, functionName: 'balanceOf', args: [h as Address] }));
    }
  });

  async function mintUsdc(to: Address, amount: bigint) {
    const hash = (await rpc('eth_sendTransaction', [{ from: demoAccount(0).address, to: CHAINS.base.usdc, data: encodeFunctionData({ abi: usdcAbi, functionName: 'mint', args: [to, amount] }) }])) as Hex;
    await chain.client.waitForTransactionReceipt({ hash });
  }

  /** The indexed balance, kept per token and per holder: both copies must agree. */
  async function indexedBalance(indexer: ChainIndexer, holder: Address) {
    const byToken = BigInt((await store.hashGet(indexer.keys.balances(CHAINS.base.usdc), holder.toLowerCase())) ?? '0');
    const byHolder = BigInt((await store.hashGet(indexer.keys.holdings(holder), CHAINS.base.usdc.toLowerCase())) ?? '0');
    expect(byHolder).toBe(byToken);
    return byToken;
  }

  async function chainBalance(holder: Address) {
    return chain.client.readContract({ address: CHAINS.base.usdc, abi: usdcAbi, functionName: 'balanceOf', args: [holder] });
  }

  it('halves a getLogs range the node refuses as too large, and still indexes everything', async () => {
    // A node that caps ranges at 20 blocks, as public RPCs cap results.
    const capped = createPublicClient({
      chain: chain.chain,
      transport: custom({
        async request({ method, params }) {
          if (method === 'eth_getLogs') {
            const [{ fromBlock, toBlock }] = params as [{ fromBlock: string; toBlock: string }];
            if (Number(toBlock) - Number(fromBlock) > 20) throw new Error('query returned more than 10000 results');
          }
          return chain.client.request({ method, params } as never);
        },
      }),
    });
    const fresh = await RedisStore.connect(TEST_REDIS_URL, `sibyl-test:${randomUUID()}:`);
    try {
      const indexer = new ChainIndexer({ ...chain, client: capped as never }, fresh, { ...OPTIONS, range: 10_000 });
      await indexer.sync();
      expect(await fresh.sortedCount(indexer.keys.sets.transfers)).toBe((await rawCounts()).transfers);
    } finally {
      await fresh.close();
    }
  });
});
