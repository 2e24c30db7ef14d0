/**
 * The prediction module (world/modules/prediction.ts): the plan's traders are Polygon accounts,
 * each funded by one USDC mint in the first block at or after its `fundedAt` (the setup block for
 * accounts older than the history), with what it spends on the venues; the labels hold the plan's
 * truth as far as the world has run; a resumed world funds the accounts that come due and none twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, erc20Abi, http, zeroAddress, type Address, type PublicClient } from 'viem';
import { CHAINS } from '../../chain/chains.js';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { viemChain } from '../../chain/runtime.js';
import { startWorld, worldGenesisTimestamp, type RunningWorld } from '../../world/index.js';
import type { WorldLabels } from '../../world/labels.js';
import type { WorldModuleFactory } from '../../world/modules/module.js';
import { predictionModule } from '../../world/modules/prediction.js';
import { PredictionPlan } from '../../world/prediction/plan.js';
import { World } from '../../world/world.js';

/** A seed whose first day has insiders funded after the history starts, and accounts due the day after. */
const SEED = 'prediction-mod-2242';
const DAYS = 1;
const BLOCK_SECONDS = 600;
const HOUR = 3_600;
/** The world's setup blocks, one second apart, end this far after the origin (world.ts MODULE_SETUP_SECONDS). */
const SETUP_SECONDS = 60;
const labelsPath = join(tmpdir(), `sibyl-prediction-mod-${process.pid}.json`);

let devnet: Devnet;
let world: RunningWorld;
/** The same world without the module. */
let bare: { devnet: Devnet; world: RunningWorld };
let client: PublicClient;
let plan: PredictionPlan;
beforeAll(async () => {
  const build = async (modules: readonly WorldModuleFactory[], labels: string) => {
    const d = await startDevnet({ chains: ['polygon'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(DAYS), fifo: true });
    const w = await startWorld(d.chains, { seed: SEED, days: DAYS, meanBlockSeconds: BLOCK_SECONDS, liveBlockMs: 0, labelsPath: labels, modules });
    w.stop();
    return { devnet: d, world: w };
  };
  [{ devnet, world }, bare] = await Promise.all([build([predictionModule], labelsPath), build([], `${labelsPath}.bare`)]);
  client = createPublicClient({ chain: viemChain('polygon', devnet.chains[0]!.rpcUrl), transport: http(devnet.chains[0]!.rpcUrl) }) as PublicClient;
  // The plan as the service's venues build it: the same seed, origin and reference prices.
  plan = new PredictionPlan(SEED, world.reference.origin, (asset, t) => world.reference.priceUsd(asset, t));
}, 300_000);
afterAll(async () => {
  world?.stop();
  await devnet?.stop();
  await bare?.devnet.stop();
});

/** Every USDC mint on the chain, by recipient: block, its timestamp, the previous block's, and the amount. */
async function mints(): Promise<Map<string, { block: number; time: number; before: number; value: bigint }[]>> {
  const transfer = erc20Abi.find((e) => e.type === 'event' && e.name === 'Transfer')!;
  const logs = await client.getLogs({ address: CHAINS.polygon.usdc, event: transfer, args: { from: zeroAddress }, fromBlock: 0n, toBlock: 'latest' });
  const times = new Map<bigint, number>();
  const timeOf = async (n: bigint) => times.get(n) ?? times.set(n, Number((await client.getBlock({ blockNumber: n })).timestamp)).get(n)!;
  const byAccount = new Map<string, { block: number; time: number; before: number; value: bigint }[]>();
  for (const log of logs) {
    const to = log.args.to!.toLowerCase();
    const mint = { block: Number(log.blockNumber), time: await timeOf(log.blockNumber), before: await timeOf(log.blockNumber - 1n), value: log.args.value! };
    byAccount.set(to, [...(byAccount.get(to) ?? []), mint]);
  }
  return byAccount;
}

const headTime = async () => Number((await client.getBlock()).timestamp);
const prediction = (labels: WorldLabels) => labels.prediction!;
/** What an account spends over its trades in a plan state, USDC raw units. */
const spentRaw = (state: ReturnType<PredictionPlan['through']>, account: Address) =>
  BigInt(Math.ceil(state.trading.trades.filter((t) => t.account === account).reduce((sum, t) => sum + t.price * t.shares, 0))) * 10n ** 6n;

describe('the prediction module', () => {
  it('is on Polygon only', () => {
    expect(predictionModule('base', null as never)).toBeUndefined();
    expect(predictionModule('polygon', null as never)?.name).toBe('prediction');
  });

  it('leaves the market doing what it did without it', () => {
    // Blocks shift by the module's setup block; who did what, to which token and pool, does not.
    const market = (l: WorldLabels) => ({
      tokens: l.tokens,
      snipes: l.snipes.map(({ block: _b, ...s }) => s),
      sandwiches: l.sandwiches.map(({ block: _b, ...s }) => s),
      arbitrages: l.arbitrages.map(({ block: _b, ...s }) => s),
    });
    const [a, b] = [bare.world.worlds[0]!.labels, world.worlds[0]!.labels];
    expect(a.tokens.length + a.sandwiches.length + a.arbitrages.length).toBeGreaterThan(0);
    expect(market(b)).toEqual(market(a));
    expect(a.prediction).toBeUndefined();
  });

  it('funds every account due by the head once, in the first block at or after its fundedAt, with what it spends', async () => {
    const head = await headTime();
    const origin = world.reference.origin;
    const state = plan.through(head + 86_400);
    const byAccount = await mints();
    const labels = prediction(world.worlds[0]!.labels);
    const labelled = new Map(labels.accounts.map((a) => [a.address, a]));
    const due = state.trading.accounts.filter((a) => a.fundedAt <= head);
    const notDue = state.trading.accounts.filter((a) => a.fundedAt > head);
    const fresh = due.filter((a) => a.fundedAt > origin + SETUP_SECONDS);
    expect(due.length).toBeGreaterThan(50);
    expect(fresh.length).toBeGreaterThanOrEqual(2);
    expect(notDue.length).toBeGreaterThanOrEqual(1);
    expect(labels.accounts).toHaveLength(due.length);
    for (const a of due) {
      const got = byAccount.get(a.address.toLowerCase()) ?? [];
      expect(got, a.address).toHaveLength(1);
      const [mint] = got;
      if (a.fundedAt <= origin + SETUP_SECONDS) {
        // Older than the history: funded in the setup block, the chain's first moment.
        expect(mint!.time).toBeLessThanOrEqual(origin + SETUP_SECONDS);
      } else {
        expect(mint!.time).toBeGreaterThanOrEqual(a.fundedAt);
        expect(mint!.before).toBeLessThan(a.fundedAt);
      }
      expect(mint!.value).toBeGreaterThanOrEqual(spentRaw(state, a.address));
      expect(labelled.get(a.address)).toEqual({ address: a.address, role: a.role, fundedAt: a.fundedAt, fundingBlock: mint!.block, fundingTime: mint!.time });
    }
    for (const a of notDue) {
      expect(byAccount.has(a.address.toLowerCase()), a.address).toBe(false);
      expect(labelled.has(a.address)).toBe(false);
    }
  });

  it('funds an insider at most 20 h before its trade, and a fresh one before it trades', async () => {
    const head = await headTime();
    const origin = world.reference.origin;
    const state = plan.through(head + 86_400);
    const byAccount = await mints();
    const insiders = state.trading.insiders.filter((i) => i.time <= head);
    expect(insiders.length).toBeGreaterThanOrEqual(3);
    let freshOnes = 0;
    for (const i of insiders) {
      const funding = byAccount.get(i.account.toLowerCase())![0]!;
      expect(i.time - funding.time).toBeLessThanOrEqual(20 * HOUR);
      if (state.trading.accounts.find((a) => a.address === i.account)!.fundedAt > origin + SETUP_SECONDS) {
        freshOnes++;
        expect(funding.time).toBeLessThan(i.time);
      }
    }
    expect(freshOnes).toBeGreaterThanOrEqual(2);
  });

  it('labels what has happened by the head, and the labels file holds it', async () => {
    const head = await headTime();
    const state = plan.through(head + 86_400);
    const labels = prediction(world.worlds[0]!.labels);
    expect(labels.events.map((e) => e.id).sort()).toEqual(state.events.filter((e) => e.opensAt <= head).map((e) => e.id).sort());
    expect(labels.events.length).toBeGreaterThan(20);
    for (const e of labels.events) {
      const drawn = state.events.find((x) => x.id === e.id)!;
      expect(e).toEqual({ id: drawn.id, title: drawn.title, category: drawn.category, opensAt: drawn.opensAt, closesAt: drawn.closesAt, truth: drawn.truth, outcome: drawn.outcome, crossListing: drawn.crossListing ?? null });
    }
    const byTime = <T extends { eventId: string }>(key: (x: T) => number) => (a: T, b: T) => key(a) - key(b) || a.eventId.localeCompare(b.eventId);
    expect(labels.insiders).toEqual(state.trading.insiders.filter((i) => i.time <= head).map((i) => ({ ...i })).sort(byTime((i) => i.time)));
    expect(labels.gaps).toEqual(state.trading.gaps.filter((g) => g.from <= head).map((g) => ({ ...g })).sort(byTime((g) => g.from)));
    expect(labels.gaps.length).toBeGreaterThan(0);
    expect(state.trading.insiders.some((i) => i.time > head) || state.trading.gaps.some((g) => g.from > head)).toBe(true);
    const file = JSON.parse(await readFile(labelsPath, 'utf8')) as { chains: WorldLabels[] };
    expect(file.chains[0]!.prediction).toEqual(labels);
  });

  it('is resumed with the world: the accounts that come due are funded, none twice', async () => {
    const running = world.worlds[0]!;
    const saved = JSON.parse(JSON.stringify(running.toState()));
    const fundedBefore = prediction(saved.labels).accounts.length;
    const chain = devnet.chains[0]!;
    const resumed = await World.resume({ name: 'polygon', rpcUrl: chain.rpcUrl, genesis: chain.genesis, seed: SEED, startTimestamp: world.reference.origin, meanBlockSeconds: BLOCK_SECONDS, reference: world.reference, modules: [predictionModule] }, saved);
    try {
      await resumed.backfill(saved.now + 8 * HOUR);
      const head = await headTime();
      const due = plan.through(head + 86_400).trading.accounts.filter((a) => a.fundedAt <= head);
      const labels = prediction(resumed.labels);
      expect(due.length).toBeGreaterThan(fundedBefore);
      expect(labels.accounts).toHaveLength(due.length);
      const byAccount = await mints();
      for (const a of due) expect(byAccount.get(a.address.toLowerCase()), a.address).toHaveLength(1);
    } finally {
      resumed.stop();
    }
  });
});
