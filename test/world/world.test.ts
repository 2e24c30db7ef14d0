/** The world is deterministic for a seed, leaves the traces its labels claim, and keeps living. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, parseAbiItem, type PublicClient } from 'viem';
import { startDevnet } from '../../chain/devnet.js';
import { viemChain } from '../../chain/runtime.js';
import { startWorld, worldGenesisTimestamp, type RunningWorld } from '../../world/index.js';
import type { WorldLabels } from '../../world/labels.js';
import { demoAccount } from '../../chain/accounts.js';

const DAYS = 1.5;

async function buildWorld(seed: string, labelsPath: string) {
  const devnet = await startDevnet({ chains: ['base'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(DAYS), fifo: true });
  const world = await startWorld(devnet.chains, { seed, days: DAYS, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath });
  const client = createPublicClient({ chain: viemChain('base', devnet.chains[0]!.rpcUrl), transport: http(devnet.chains[0]!.rpcUrl), pollingInterval: 20 }) as PublicClient;
  return { devnet, world, client, labels: world.worlds[0]!.labels };
}

describe('the market world', () => {
  let a: Awaited<ReturnType<typeof buildWorld>>;
  let b: Awaited<ReturnType<typeof buildWorld>>;
  const labelsPath = join(tmpdir(), `sibyl-labels-${process.pid}.json`);
  beforeAll(async () => {
    a = await buildWorld('det-b', labelsPath);
    b = await buildWorld('det-b', join(tmpdir(), `sibyl-labels-${process.pid}-b.json`));
  });
  afterAll(async () => {
    for (const w of [a, b]) {
      w?.world.stop();
      await w?.devnet.stop();
    }
  });

  it('is the same world for the same seed', () => {
    const strip = (l: WorldLabels) => ({ tokens: l.tokens, snipes: l.snipes, sandwiches: l.sandwiches, rugs: l.rugs, wallets: l.wallets });
    expect(strip(b.labels)).toEqual(strip(a.labels));
    expect(a.labels.tokens.length).toBeGreaterThan(0);
    expect(a.labels.sandwiches.length).toBeGreaterThan(0);
    expect(a.labels.snipes.length).toBeGreaterThan(0);
  });

  it('writes its labels file', async () => {
    const file = JSON.parse(await readFile(labelsPath, 'utf8')) as { chains: WorldLabels[] };
    expect(file.chains[0]!.chain).toBe('base');
    expect(file.chains[0]!.tokens).toEqual(a.labels.tokens);
  });

  it('history spans the requested days and ends now', async () => {
    const head = await a.client.getBlock();
    const first = await a.client.getBlock({ blockNumber: 1n });
    const now = Date.now() / 1000;
    expect(Number(head.timestamp)).toBeGreaterThan(now - 3_600);
    expect(Number(head.timestamp) - Number(first.timestamp)).toBeGreaterThan(DAYS * 86_400 - 3_600);
  });

  it('every labelled sandwich is front-run, victim, back-run in one block, in that order, each leg succeeding', async () => {
    for (const s of a.labels.sandwiches) {
      const block = await a.client.getBlock({ blockNumber: BigInt(s.block), includeTransactions: true });
      // The block's swaps through the routers (an actor's first trade of a token also sends an approve).
      const routers = new Set(a.labels.contracts.routers.map((r) => r.toLowerCase()));
      const trades = block.transactions.filter((t) => t.to && routers.has(t.to.toLowerCase()));
      const senders = trades.map((t) => t.from.toLowerCase());
      const front = senders.indexOf(s.attacker.toLowerCase());
      const victim = senders.indexOf(s.victim.toLowerCase(), front + 1);
      const back = senders.indexOf(s.attacker.toLowerCase(), victim + 1);
      expect(front).toBeGreaterThanOrEqual(0);
      expect(victim).toBeGreaterThan(front);
      expect(back).toBeGreaterThan(victim);
      for (const leg of [front, victim, back]) expect((await a.client.getTransactionReceipt({ hash: trades[leg]!.hash })).status).toBe('success');
      const swaps = await a.client.getLogs({ address: s.pool, event: parseAbiItem('event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)'), fromBlock: BigInt(s.block), toBlock: BigInt(s.block) });
      expect(swaps.length).toBeGreaterThanOrEqual(3);
    }
  });

  it('every labelled snipe buys in the block the pair was created', async () => {
    const created = await a.client.getLogs({ event: parseAbiItem('event PairCreated(address indexed token0, address indexed token1, address pair, uint256)'), fromBlock: 0n, toBlock: 'latest' });
    const createdAt = new Map(created.map((l) => [(l.args as readonly unknown[])[2] as string, Number(l.blockNumber)]));
    for (const snipe of a.labels.snipes.slice(0, 10)) expect(createdAt.get(snipe.pair)).toBe(snipe.block);
  });

  it('rugged pools are drained', async () => {
    const rug = a.labels.rugs[0];
    if (!rug) return; // a short world may hold none; the long one is checked by the detector evaluation
    const [r0, r1] = await a.client.readContract({ address: rug.pair, abi: [parseAbiItem('function getReserves() view returns (uint112, uint112, uint32)')], functionName: 'getReserves' });
    expect(r0 < 10n ** 15n || r1 < 10n ** 15n).toBe(true);
  });

  // Every account that acts has a label with its role (the cast, the deployer, each module's actors,
  // the listings' creators, the supply's team wallets): the detector evaluation scores what a detector
  // flags against these labels, and an unlabelled sender could not be scored.
  it('labels every account that sends a transaction', async () => {
    const l = a.labels;
    const labelled = new Set([
      ...Object.values(l.wallets).flat(), ...l.moduleActors.map((m) => m.address), ...l.tokens.map((t) => t.creator), ...l.distribution.map((d) => d.holder),
    ].map((x) => x.toLowerCase()));
    const head = await a.client.getBlockNumber({ cacheTime: 0 });
    const senders = new Set<string>();
    for (let b = 0n; b <= head; b++) {
      for (const tx of (await a.client.getBlock({ blockNumber: b, includeTransactions: true })).transactions) senders.add(tx.from.toLowerCase());
    }
    expect(senders.size).toBeGreaterThan(50);
    expect([...senders].filter((x) => !labelled.has(x))).toEqual([]);
  });

  it('keeps producing blocks, and a transaction between them is mined at once', async () => {
    const running: RunningWorld = a.world;
    const before = await a.client.getBlockNumber({ cacheTime: 0 });
    running.worlds[0]!.startLive(150, (err) => {
      throw err;
    });
    await new Promise((r) => setTimeout(r, 500));
    const rpc = a.devnet.chains[0]!.rpcUrl;
    const sent = await fetch(rpc, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{ from: demoAccount(0).address, to: demoAccount(1).address, value: '0x1' }] }) });
    const hash = ((await sent.json()) as { result: `0x${string}` }).result;
    const receipt = await a.client.waitForTransactionReceipt({ hash, timeout: 2_000 });
    expect(receipt.status).toBe('success');
    await new Promise((r) => setTimeout(r, 300));
    running.stop();
    const after = await a.client.getBlockNumber({ cacheTime: 0 });
    expect(after - before).toBeGreaterThanOrEqual(2n);
  });
});
