/**
 * The stock chain (Robinhood Chain, id 4663) as the embedded devnet runs it: a world on it builds
 * (its genesis ETH/USDC pool held on the reference price, the light cast, vaults, a lending market
 * and a hooked v4 pool manager; no listings, snipes or sandwiches) and the indexer reads it exactly;
 * a Sibyl reading it answers the hook radar for chain id 4663 (A2A and MCP scan_hook_layer) and
 * every kind of MCP find_yield with `chain: stockchain`, while its HTTP operations keep the spec's
 * chain enums (stockchain is a 400 there).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, type Address } from 'viem';
import { inject } from 'vitest';
import { CHAINS, LENDING_MARKETS, STOCK_CHAIN, V4_POOL_MANAGERS } from '../../chain/chains.js';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { ChainRuntime } from '../../chain/runtime.js';
import { EVENTS } from '../../indexer/events.js';
import { ChainIndexer } from '../../indexer/indexer.js';
import { IndexReader } from '../../indexer/reader.js';
import { MemoryStore } from '../../store/memory.js';
import { startWorld, worldGenesisTimestamp } from '../../world/index.js';
import type { WorldLabels } from '../../world/labels.js';
import { creditedMcpClient } from '../helpers/mcp-credits.js';
import { fundedPayer, json, payingFetch, postJson, startTestSibyl, walletPoster, type TestSibyl } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';

const DAYS = 2;
const SEED = 'stockchain-a';
const stock = CHAINS.stockchain;
let devnet: Devnet;
let labels: WorldLabels;
let sibyl: TestSibyl;
let stockRpc: string;
const baseRpc = () => inject('rpcUrls').base!;

beforeAll(async () => {
  devnet = await startDevnet({ chains: [STOCK_CHAIN], basePort: 0, genesisTimestamp: worldGenesisTimestamp(DAYS), fifo: true });
  stockRpc = devnet.chains[0]!.rpcUrl;
  const world = await startWorld(devnet.chains, { seed: SEED, days: DAYS, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: `/tmp/sibyl-${SEED}-${process.pid}.json` });
  world.stop();
  labels = world.worlds[0]!.labels;
  // Payments settle on the shared devnet's Base; the stock chain is this file's own, read by URL.
  sibyl = await startTestSibyl({ rpcUrls: { base: baseRpc(), stockchain: stockRpc } });
}, 180_000);
afterAll(async () => {
  await sibyl?.close();
  await devnet?.stop();
});

const lower = (a: string) => a.toLowerCase();

describe('a world on the stock chain', () => {
  it('builds its light market and the modules that run there, and the indexer reads it exactly', async () => {
    expect(labels.chain).toBe(STOCK_CHAIN);
    // The crypto cast is the one pool's: no listings, snipes, rugs or sandwiches.
    expect(labels.snipes).toEqual([]);
    expect(labels.sandwiches).toEqual([]);
    expect(labels.rugs).toEqual([]);
    expect(labels.tokens).toEqual([]);
    // Vaults, the lending market (at the catalogue's addresses), the hooked manager and their actors.
    expect(labels.vaults.length).toBeGreaterThanOrEqual(5);
    expect(labels.lendingMarket).toEqual({ pool: LENDING_MARKETS.stockchain!.pool, oracle: LENDING_MARKETS.stockchain!.oracle });
    expect(labels.lendingPositions.length).toBeGreaterThan(0);
    expect(labels.hooks.length).toBe(6);
    expect(labels.hookVictims.length).toBeGreaterThan(0);

    const chain = new ChainRuntime().add(STOCK_CHAIN, stockRpc, 'embedded');
    const store = new MemoryStore();
    const indexer = new ChainIndexer(chain, store, { range: 25, reorgDepth: 12, lookbackBlocks: 1_000_000 });
    await indexer.sync();
    expect((await indexer.checkpoint())!.block).toBe(Number(await chain.client.getBlockNumber({ cacheTime: 0 })));
    // The pairs of the chain's one factory (the genesis ETH/USDC pair first; stock tokens' pairs
    // when their module runs) and every swap on them, as getLogs has them.
    const created = await chain.client.getLogs({ address: stock.dexes[0].factory, event: EVENTS.pairCreated, fromBlock: 0n, toBlock: 'latest' });
    const genesis = created.find((l) => [l.args.token0, l.args.token1].map((t) => lower(t!)).sort().join() === [stock.usdc, stock.wrappedNative].map(lower).sort().join());
    expect(genesis).toBeDefined();
    const pairs = created.map((l) => l.args.pair!);
    const swaps = await chain.client.getLogs({ address: pairs, event: EVENTS.swap, fromBlock: 0n, toBlock: 'latest' });
    expect(swaps.filter((l) => lower(l.address) === lower(genesis!.args.pair!)).length).toBeGreaterThan(10);
    expect(await store.sortedCount(indexer.keys.sets.pairs)).toBe(pairs.length);
    expect(await store.sortedCount(indexer.keys.sets.swaps)).toBe(swaps.length);
    const reserves = await new IndexReader(store, stock.chainId).reserves();
    expect(reserves.get(lower(genesis!.args.pair!))).toBeDefined();
  });

  it('is served and indexed beside Base (healthz names it with its chain id)', async () => {
    const health = await json(await fetch(`${sibyl.url}/healthz`));
    const row = health.chains.find((c: { name: string }) => c.name === STOCK_CHAIN);
    expect(row).toMatchObject({ chainId: 4663, state: 'up' });
    expect(Number(row.indexedBlock)).toBe(Number(row.headBlock));
  });
});

describe('the hook radar on chain id 4663', () => {
  it('answers with the stock chain\'s hooks over A2A, paid at the spec price', async () => {
    const p = await walletPoster(sibyl.url, '2', baseRpc());
    const before = await p.balance();
    const res = await p.post('/api/a2a/skills/v4-hook-radar', { params: { chainId: 4663, limit: 100, timeperiod: '30d' } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(200);
    expect(before - (await p.balance())).toBe(SPEC_SKILL_PRICE['v4-hook-radar']);
    const [scan] = body.response.chains;
    expect(scan).toMatchObject({ available: true, chain: STOCK_CHAIN, manager: getAddress(V4_POOL_MANAGERS.stockchain!) });
    expect(scan.hookCount).toBe(labels.hooks.length);
    for (const label of labels.hooks) {
      const found = scan.hooks.find((h: { hook: Address }) => lower(h.hook) === lower(label.hook));
      expect(found, label.name).toBeDefined();
      expect(found.permissions, label.name).toEqual(label.permissions);
      expect(new Set(found.pools.map((x: { id: string }) => x.id)), label.name).toEqual(new Set(label.pools));
    }
    expect(scan.swapLogs).toBeGreaterThan(0);
  });

  it('answers as MCP scan_hook_layer with data, alone and beside Base when no chain id is named', async () => {
    const { client } = await creditedMcpClient(sibyl.url, baseRpc(), '1');
    try {
      const one = (await client.callTool({ name: 'scan_hook_layer', arguments: { chainId: 4663 } })).structuredContent as any;
      expect(one).toMatchObject({ available: true, skill: 'v4-hook-radar', billing: { debitedUsd: '$0.25' } });
      expect(one.chains).toEqual([expect.objectContaining({ available: true, chainId: 4663, chain: STOCK_CHAIN, hookCount: labels.hooks.length })]);
      const both = (await client.callTool({ name: 'scan_hook_layer', arguments: {} })).structuredContent as any;
      expect(both.chains.map((c: { chainId: number }) => c.chainId)).toEqual([4663, 8453]);
      expect(both.chains[0]).toMatchObject({ available: true, chain: STOCK_CHAIN, hookCount: labels.hooks.length });
    } finally {
      await client.close();
    }
  });
});

describe('find_yield with chain stockchain', () => {
  it('answers every kind over MCP: pools, fixed-rate markets (none there), vaults and lending positions', async () => {
    // The four kinds cost $2.10: two top-ups of $2 (a payment's cap).
    const { client, auth } = await creditedMcpClient(sibyl.url, baseRpc(), '2');
    const { pay } = payingFetch((await fundedPayer('5', baseRpc())).key);
    expect((await pay(`${sibyl.url}/api/credits/topup`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ amountUsd: '2' }) })).status).toBe(200);
    const call = async (kind: string) => (await client.callTool({ name: 'find_yield', arguments: { kind, chain: STOCK_CHAIN, limit: 20 } })) as { isError?: boolean; structuredContent: any };
    try {
      const defi = await call('defi');
      expect(defi.isError, JSON.stringify(defi).slice(0, 400)).not.toBe(true);
      expect(defi.structuredContent).toMatchObject({ available: true, skill: 'defi-yield-analysis', chain: STOCK_CHAIN, chainId: 4663 });
      const eth = defi.structuredContent.pools.find((p: { pair: string }) => p.pair === 'USDC/WETH');
      expect(eth?.volumeUsd).toBeGreaterThan(0);

      const pendle = await call('pendle');
      expect(pendle.structuredContent).toMatchObject({ available: true, skill: 'fixed-yield-analysis', markets: [], errors: [] });
      expect(pendle.structuredContent.chainsRead).toEqual([expect.objectContaining({ chain: STOCK_CHAIN, marketsFound: 0 })]);

      const discover = await call('discover');
      expect(discover.structuredContent).toMatchObject({ available: true, skill: 'yield-discover', errors: [] });
      const vaults = discover.structuredContent.vaults as { chain: string; vault: string }[];
      expect(vaults.length).toBeGreaterThan(0);
      expect(vaults.every((v) => v.chain === STOCK_CHAIN)).toBe(true);
      const planted = new Set(labels.vaults.map((v) => lower(v.vault)));
      expect(vaults.every((v) => planted.has(lower(v.vault)))).toBe(true);

      const liquidations = await call('liquidations');
      expect(liquidations.structuredContent).toMatchObject({ available: true, skill: 'liquidation-monitor', chain: STOCK_CHAIN, pool: LENDING_MARKETS.stockchain!.pool });
      expect(liquidations.structuredContent.positionsWithDebt).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('solana, which no yield skill reads, is available: false with the reason, never an error', async () => {
    const { client } = await creditedMcpClient(sibyl.url, baseRpc(), null);
    try {
      for (const kind of ['defi', 'pendle', 'discover', 'liquidations']) {
        const result = (await client.callTool({ name: 'find_yield', arguments: { kind, chain: 'solana' } })) as { isError?: boolean; structuredContent: any };
        expect(result.isError, kind).not.toBe(true);
        expect(result.structuredContent, kind).toMatchObject({ available: false, reason: 'chain_unavailable', billing: { debitedUsd: '$0' } });
      }
    } finally {
      await client.close();
    }
  });

  it('the skills\' HTTP and A2A surfaces keep the spec\'s chains: stockchain is a 400 naming the field, before any 402', async () => {
    for (const id of ['defi-yield-analysis', 'fixed-yield-analysis', 'yield-discover', 'liquidation-monitor']) {
      const res = await postJson(`${sibyl.url}/api/a2a/skills/${id}`, { params: { chain: STOCK_CHAIN } });
      expect(res.status, id).toBe(400);
      expect(JSON.stringify(await json(res)), id).toContain('params.chain');
    }
    const report = await postJson(`${sibyl.url}/x402/svc/report`, { service: 'defi-yield-analysis', chain: STOCK_CHAIN });
    expect(report.status).toBe(400);
    expect(JSON.stringify(await json(report))).toContain('chain');
  });
});
