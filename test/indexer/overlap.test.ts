/**
 * Index passes never overlap and never count a transfer twice. The indexer reads the devnet
 * through a loopback proxy that holds every eth_getLogs back, so a pass is slow and concurrent
 * sync() calls, a fast poll and a second indexer on the same store all try to run beside it;
 * every indexed balance of every token must still equal balanceOf on chain, and each token's
 * holders must add up to its totalSupply.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createPublicClient, encodeFunctionData, http, parseAbi, parseEther, toHex, type Address, type Hex, type PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { demoAccount } from '../../chain/accounts.js';
import { CHAINS, EMBEDDED_SERVICE_TOKEN } from '../../chain/chains.js';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { ChainRuntime, viemChain } from '../../chain/runtime.js';
import { ChainIndexer } from '../../indexer/indexer.js';
import { IndexReader } from '../../indexer/reader.js';
import { RedisStore } from '../../store/redis.js';
import type { Store } from '../../store/store.js';
import { TEST_REDIS_URL } from '../helpers/env.js';
import { startSlowRpc, type SlowRpc } from '../helpers/slow-rpc.js';

const OPTIONS = { range: 5, reorgDepth: 12, lookbackBlocks: 1_000_000 };
const GET_LOGS_DELAY_MS = 100;
const POLL_MS = 10;
const erc20 = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function transfer(address, uint256) returns (bool)',
  'function mint(address, uint256)',
  'function deposit() payable',
]);
const { usdc, wrappedNative } = CHAINS.base;

describe('index passes', () => {
  let devnet: Devnet;
  let direct: PublicClient;
  const opened: { close(): Promise<unknown> }[] = [];

  beforeAll(async () => {
    devnet = await startDevnet({ chains: ['base'], basePort: 0 });
    const url = devnet.chains[0]!.rpcUrl;
    direct = createPublicClient({ chain: viemChain('base', url), transport: http(url), pollingInterval: 20 }) as PublicClient;
  });
  afterEach(async () => {
    for (const r of opened.splice(0).reverse()) await r.close();
  });
  afterAll(() => devnet?.stop());

  async function freshStore(): Promise<Store> {
    const store = await RedisStore.connect(TEST_REDIS_URL, `sibyl-test:${randomUUID()}:`);
    opened.push(store);
    return store;
  }

  async function slowProxy(): Promise<SlowRpc> {
    const proxy = await startSlowRpc(devnet.chains[0]!.rpcUrl, ['eth_getLogs'], GET_LOGS_DELAY_MS);
    opened.push(proxy);
    return proxy;
  }

  function indexerOver(url: string, store: Store): ChainIndexer {
    const indexer = new ChainIndexer(new ChainRuntime().add('base', url, 'embedded'), store, OPTIONS);
    opened.push({ close: () => indexer.stop() });
    return indexer;
  }

  async function send(from: Address, to: Address, data: Hex, value = 0n): Promise<void> {
    const res = await fetch(devnet.chains[0]!.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{ from, to, data, value: toHex(value) }] }),
    });
    const { result, error } = (await res.json()) as { result?: Hex; error?: { message: string } };
    if (!result) throw new Error(`send failed: ${error?.message}`);
    expect((await direct.waitForTransactionReceipt({ hash: result })).status).toBe('success');
  }

  /** One round of activity on three tokens, a block per transaction: a mint, transfers, a wrap. */
  async function activity(): Promise<void> {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    await send(demoAccount(0).address, usdc, encodeFunctionData({ abi: erc20, functionName: 'mint', args: [to, 1_000_000n] }));
    await send(demoAccount(1).address, usdc, encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [to, 7n] }));
    await send(demoAccount(3).address, wrappedNative, encodeFunctionData({ abi: erc20, functionName: 'deposit' }), parseEther('0.001'));
    await send(demoAccount(3).address, wrappedNative, encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [to, parseEther('0.0001')] }));
    await send(demoAccount(4).address, EMBEDDED_SERVICE_TOKEN, encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [to, parseEther('1')] }));
  }

  /** Every token the index saw move: each holder's indexed balance (both copies) is its balanceOf, and holders add up to totalSupply. */
  async function expectBalancesMatchChain(store: Store): Promise<void> {
    const reader = new IndexReader(store, CHAINS.base.chainId);
    const head = await direct.getBlockNumber({ cacheTime: 0 });
    const cp = (await reader.checkpoint())!;
    expect(cp.block).toBe(Number(head));
    const tokens = [...new Set((await reader.transfers(0, cp.block)).map((t) => t.token.toLowerCase() as Address))];
    expect(tokens).toEqual(expect.arrayContaining([usdc.toLowerCase(), wrappedNative.toLowerCase(), EMBEDDED_SERVICE_TOKEN.toLowerCase()]));
    for (const token of tokens) {
      const indexed = await reader.balances(token);
      const holders = Object.keys(indexed) as Address[];
      const onChain = await direct.multicall({
        contracts: holders.map((h) => ({ address: token, abi: erc20, functionName: 'balanceOf', args: [h] }) as const),
        blockNumber: head,
        allowFailure: false,
      });
      expect({ token, balances: indexed }).toEqual({ token, balances: Object.fromEntries(holders.map((h, i) => [h, String(onChain[i])])) });
      const supply = await direct.readContract({ address: token, abi: erc20, functionName: 'totalSupply', blockNumber: head });
      expect({ token, total: Object.values(indexed).reduce((s, b) => s + BigInt(b), 0n) }).toEqual({ token, total: supply });
      for (const h of holders) expect((await reader.holdings(h))[token]).toBe(indexed[h]);
    }
  }

  it('concurrent sync() calls and a fast poll over a slow getLogs: one pass at a time, every transfer counted once', async () => {
    const proxy = await slowProxy();
    const store = await freshStore();
    const indexer = indexerOver(proxy.url, store);
    const errors: unknown[] = [];
    const passes = [indexer.start(POLL_MS, (err) => errors.push(err)), indexer.sync(), indexer.sync()];
    for (let round = 0; round < 6; round++) {
      await activity();
      passes.push(indexer.sync(), indexer.sync());
    }
    await Promise.all(passes);
    expect(errors).toEqual([]);
    // Every call returned after the index reached the head as of the call: the last ones saw all of it.
    await expectBalancesMatchChain(store);
    expect(proxy.calls).toBeGreaterThan(10);
    expect(proxy.maxInFlight).toBe(1); // no two passes ever read at once
  });

  it('a window read again after a pass died before moving its checkpoint is not counted twice', async () => {
    const store = await freshStore();
    const indexer = indexerOver(devnet.chains[0]!.rpcUrl, store);
    await indexer.sync();
    const before = (await store.get(indexer.keys.checkpoint))!;
    await activity();
    await activity();
    await indexer.sync();
    // What a pass that wrote its rows and balances but not its checkpoint leaves behind.
    await store.set(indexer.keys.checkpoint, before);
    expect(await indexer.sync()).toBeGreaterThanOrEqual(10);
    await expectBalancesMatchChain(store);
  });

  it('two indexers of one chain on one store: one writes at a time, and the other takes over as soon as it stops', async () => {
    const proxy = await slowProxy();
    const store = await freshStore();
    const a = indexerOver(proxy.url, store);
    const b = indexerOver(proxy.url, store);
    const errors: unknown[] = [];
    const first = await Promise.all([a.start(POLL_MS, (err) => errors.push(err)), b.start(POLL_MS, (err) => errors.push(err))]);
    expect(first.filter((n) => n > 0)).toHaveLength(1);
    const [writer, other] = first[0]! > 0 ? [a, b] : [b, a];
    await activity();
    await Promise.all([a.sync(), b.sync(), writer.sync()]);
    expect(proxy.maxInFlight).toBe(1);
    await expectBalancesMatchChain(store);

    await writer.stop();
    await activity();
    // The lease was given back: the other reaches head now, not when the lease would have expired.
    await other.sync();
    expect(errors).toEqual([]);
    await expectBalancesMatchChain(store);
  });
});
