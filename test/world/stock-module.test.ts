/**
 * The tokenized-equities module draws from its own generator and sends from its own accounts, so
 * adding it leaves the market and every other module doing exactly what they did (blocks shift by
 * its setup blocks; who did what, to which token and pool, does not).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { STOCK_FEED_CHAIN } from '../../chain/stocks.js';
import { worldGenesisTimestamp, worldOrigin } from '../../world/index.js';
import { World } from '../../world/world.js';
import type { WorldLabels } from '../../world/labels.js';
import { WORLD_MODULES } from '../../world/modules/index.js';
import { stocksModule } from '../../world/modules/stocks.js';
import type { WorldModuleFactory } from '../../world/modules/module.js';
import { ReferencePaths } from '../../world/reference.js';

const DAYS = 1.5;
const SEED = 'stock-module-a';
const CHAINS_UNDER_TEST = ['ethereum', STOCK_FEED_CHAIN] as const;

interface Built { devnet: Devnet; worlds: World[] }

/**
 * The labels less the module's own section and actors (also where they take a market role: its
 * market maker a treasury, its skilled traders smart money), and every block number (setup blocks shift them).
 */
function withoutStocks(l: WorldLabels): unknown {
  const { stocks: _stocks, ...rest } = l;
  const mine = new Set(rest.moduleActors.filter((a) => a.role.startsWith('stock-')).map((a) => a.address.toLowerCase()));
  const wallets = Object.fromEntries(Object.entries(rest.wallets).map(([role, list]) => [role, list.filter((a) => !mine.has(a.toLowerCase()))]));
  // On the stock chain the lending market lends against the stock tokens (world/modules/lending.ts): its positions and borrowers there follow them.
  const lends = l.chain === STOCK_FEED_CHAIN;
  const stripped = {
    ...rest, wallets, ...(lends && { lendingPositions: [], liquidations: [] }),
    moduleActors: rest.moduleActors.filter((a) => !a.role.startsWith('stock-') && !(lends && a.role === 'lending-borrower')),
  };
  return JSON.parse(JSON.stringify(stripped, (key, value) => (/block/i.test(key) ? undefined : value)));
}

describe('the stocks module beside the others', () => {
  let without: Built;
  let withStocks: Built;
  beforeAll(async () => {
    // Both histories end at the same moment (a history written to the clock ends wherever each build finishes).
    const now = Date.now();
    const origin = worldOrigin(DAYS, now);
    const until = Math.floor(now / 1000);
    const reference = new ReferencePaths(SEED, origin);
    const build = async (modules: readonly WorldModuleFactory[]): Promise<Built> => {
      const devnet = await startDevnet({ chains: [...CHAINS_UNDER_TEST], basePort: 0, genesisTimestamp: worldGenesisTimestamp(DAYS, now), fifo: true });
      const worlds = await Promise.all(devnet.chains.map(async (c) => {
        const world = await World.create({ name: c.name, rpcUrl: c.rpcUrl, genesis: c.genesis, seed: SEED, startTimestamp: origin, meanBlockSeconds: 600, reference, modules });
        await world.backfill(until);
        return world;
      }));
      return { devnet, worlds };
    };
    [without, withStocks] = await Promise.all([build(WORLD_MODULES.filter((m) => m !== stocksModule)), build(WORLD_MODULES)]);
  }, 180_000);
  afterAll(async () => {
    for (const b of [without, withStocks]) {
      b?.worlds.forEach((w) => w.stop());
      await b?.devnet.stop();
    }
  });

  it('leaves the market and the other modules doing what they did', () => {
    for (const [i, chain] of CHAINS_UNDER_TEST.entries()) {
      const [a, b] = [without.worlds[i]!.labels, withStocks.worlds[i]!.labels];
      expect(a.chain).toBe(chain);
      expect(a.stocks).toBeUndefined();
      expect(b.stocks?.tokens.length, chain).toBeGreaterThan(0);
      expect(withoutStocks(b), chain).toEqual(withoutStocks(a));
    }
    // Something to compare: the market traded, and the other modules acted.
    const eth = without.worlds[0]!.labels;
    expect(eth.arbitrages.length + eth.sandwiches.length).toBeGreaterThan(0);
    expect(eth.vaults.length).toBeGreaterThan(0);
  });
});
