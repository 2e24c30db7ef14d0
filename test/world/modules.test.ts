/**
 * World modules (world/modules): a module acts in the world's blocks with its own generator, so
 * adding one leaves the market's actors doing exactly what they did; its state is saved with the
 * world's and a resumed world continues it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, encodeFunctionData, erc20Abi, http, parseUnits, type Address, type PublicClient } from 'viem';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { viemChain } from '../../chain/runtime.js';
import { CHAINS } from '../../chain/chains.js';
import { startWorld, worldGenesisTimestamp, type RunningWorld } from '../../world/index.js';
import { World } from '../../world/world.js';
import type { WorldLabels } from '../../world/labels.js';
import type { WorldModuleFactory } from '../../world/modules/module.js';

/** Long enough, on two chains, that a clock shifted by the modules' setup would show in the market. */
const DAYS = 1.5;
const SEED = 'modules-a';
const TIP = parseUnits('1', 6);

/** A module that tips one USDC between two of its own actors, at random, about twice an hour. */
const tipper: WorldModuleFactory = (chain, rng) => {
  if (chain !== 'base' && chain !== 'ethereum') return undefined;
  let tips = 0;
  let pair: [Address, Address] | undefined;
  return {
    name: 'tipper',
    setup(host) {
      pair = [host.actorAddress('tipper', 0), host.actorAddress('tipper', 1)];
      host.queueBalance(pair[0], 10n ** 18n);
      host.fundToken(pair[0], host.usdc.address, TIP * 1_000n);
    },
    step(host, _t, dt) {
      if (!rng.chance((dt / 3600) * 2)) return;
      host.queue({ from: pair![0], to: host.usdc.address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [pair![1], TIP] }), gas: 100_000n });
      tips++;
    },
    toState: () => ({ tips, pair }),
    restore(state) {
      ({ tips, pair } = state as { tips: number; pair: [Address, Address] });
    },
  };
};

interface Built { devnet: Devnet; world: RunningWorld; client: PublicClient }

async function build(modules: readonly WorldModuleFactory[]): Promise<Built> {
  const devnet = await startDevnet({ chains: ['base', 'ethereum'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(DAYS), fifo: true });
  const world = await startWorld(devnet.chains, { seed: SEED, days: DAYS, meanBlockSeconds: 600, liveBlockMs: 0, labelsPath: join(tmpdir(), `sibyl-modules-${process.pid}-${modules.length}.json`), modules });
  const client = createPublicClient({ chain: viemChain('base', devnet.chains[0]!.rpcUrl), transport: http(devnet.chains[0]!.rpcUrl) }) as PublicClient;
  return { devnet, world, client };
}

const tipsOnChain = async (b: Built, pair: [Address, Address]) =>
  (await b.client.getLogs({ address: CHAINS.base.usdc, event: erc20Abi.find((e) => e.type === 'event' && e.name === 'Transfer')!, args: { from: pair[0], to: pair[1] }, fromBlock: 0n, toBlock: 'latest' })).length;

describe('world modules', () => {
  let bare: Built;
  let withTipper: Built;
  beforeAll(async () => {
    [bare, withTipper] = await Promise.all([build([]), build([tipper])]);
  }, 120_000);
  afterAll(async () => {
    for (const b of [bare, withTipper]) {
      b?.world.stop();
      await b?.devnet.stop();
    }
  });

  it('leave the market doing what it did without them', () => {
    // Blocks shift by the module's setup block; who did what, to which token and pool, does not.
    const market = (l: WorldLabels) => ({
      tokens: l.tokens,
      snipes: l.snipes.map(({ block: _b, ...s }) => s),
      sandwiches: l.sandwiches.map(({ block: _b, ...s }) => s),
      arbitrages: l.arbitrages.map(({ block: _b, ...s }) => s),
    });
    for (const i of [0, 1]) {
      const [a, b] = [bare.world.worlds[i]!.labels, withTipper.world.worlds[i]!.labels];
      expect(a.tokens.length + a.sandwiches.length + a.arbitrages.length).toBeGreaterThan(0);
      expect(market(b), a.chain).toEqual(market(a));
    }
  });

  it('act on the chain, and their state counts what they did', async () => {
    const state = withTipper.world.worlds[0]!.toState().modules['tipper']!.state as { tips: number; pair: [Address, Address] };
    expect(state.tips).toBeGreaterThan(0);
    expect(await tipsOnChain(withTipper, state.pair)).toBe(state.tips);
  });

  it('are resumed with the world and continue where they were', async () => {
    const running = withTipper.world.worlds[0]!;
    const saved = running.toState();
    const before = (saved.modules['tipper']!.state as { tips: number }).tips;
    withTipper.world.stop();
    const chain = withTipper.devnet.chains[0]!;
    const resumed = await World.resume({ name: 'base', rpcUrl: chain.rpcUrl, genesis: chain.genesis, seed: SEED, startTimestamp: withTipper.world.reference.origin, meanBlockSeconds: 600, reference: withTipper.world.reference, modules: [tipper] }, saved);
    try {
      await resumed.backfill(saved.now + 6 * 3600);
      const after = resumed.toState().modules['tipper']!;
      const state = after.state as { tips: number; pair: [Address, Address] };
      expect(state.tips).toBeGreaterThan(before);
      expect(after.rng).not.toEqual(saved.modules['tipper']!.rng);
      expect(await tipsOnChain(withTipper, state.pair)).toBe(state.tips);
    } finally {
      resumed.stop();
    }
  });
});
