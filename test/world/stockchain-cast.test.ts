/**
 * The wallets' labels say who acts as what on each chain, where detectors are scored against them
 * (scripts/eval-detectors.ts). The stock chain runs a light crypto cast (world/world.ts): only its
 * roles are there, and each of them acts there; its genesis gives the genesis treasury no supply to
 * hand out, so it is no treasury there. The stocks module's market maker, to which every listing's
 * first supply is minted, is a treasury wherever it lists; its skilled traders, once they trade, are
 * smart money. Built on the stock chain and Ethereum (which has genesis supply and the traders).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, parseAbiItem, zeroAddress, type Address, type PublicClient } from 'viem';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { GENESIS_TREASURY } from '../../chain/genesis.js';
import { viemChain } from '../../chain/runtime.js';
import { STOCK_CHAIN, type EvmChainName } from '../../chain/chains.js';
import { startWorld, worldGenesisTimestamp, type RunningWorld } from '../../world/index.js';
import type { WorldLabels } from '../../world/labels.js';
import { ACTOR_COUNTS } from '../../world/actors.js';

const DAYS = 2;
const CHAINS_UNDER_TEST: EvmChainName[] = [STOCK_CHAIN, 'ethereum'];
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const swapEvent = parseAbiItem('event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)');

describe('who is labelled what, chain by chain', () => {
  let devnet: Devnet;
  let world: RunningWorld;
  const clients = new Map<string, PublicClient>();
  const labelsOf = (chain: string): WorldLabels => world.worlds.find((w) => w.labels.chain === chain)!.labels;
  const lower = (list: readonly string[]) => list.map((a) => a.toLowerCase());
  const moduleRole = (l: WorldLabels, role: string) => lower(l.moduleActors.filter((a) => a.role === role).map((a) => a.address));
  /** Accounts that received a Swap's output on the chain (a router swap pays its sender). */
  const swappers = async (chain: string) => new Set((await clients.get(chain)!.getLogs({ event: swapEvent, fromBlock: 0n, toBlock: 'latest' })).map((l) => l.args.to!.toLowerCase()));
  /** Each listed stock token's first mint's receiver. */
  const firstMintedTo = async (chain: string) => {
    const l = labelsOf(chain);
    const out = new Map<string, string>();
    for (const t of l.stocks!.tokens.filter((x) => !x.impostor)) {
      const mints = await clients.get(chain)!.getLogs({ address: t.address, event: transferEvent, args: { from: zeroAddress }, fromBlock: 0n, toBlock: 'latest' });
      out.set(t.address.toLowerCase(), mints[0]!.args.to!.toLowerCase());
    }
    return out;
  };

  beforeAll(async () => {
    devnet = await startDevnet({ chains: CHAINS_UNDER_TEST, basePort: 0, genesisTimestamp: worldGenesisTimestamp(DAYS), fifo: true });
    world = await startWorld(devnet.chains, { seed: 'stockchain-cast', days: DAYS, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: join(tmpdir(), `sibyl-stockchain-cast-${process.pid}.json`) });
    world.stop();
    for (const c of devnet.chains) clients.set(c.name, createPublicClient({ chain: viemChain(c.name, c.rpcUrl), transport: http(c.rpcUrl) }) as PublicClient);
  }, 300_000);
  afterAll(async () => {
    await devnet?.stop();
  });

  it('the stock chain labels only the roles that act there, and each of its labelled wallets acts', async () => {
    const l = labelsOf(STOCK_CHAIN);
    const client = clients.get(STOCK_CHAIN)!;
    // No listings, retail flow, DEX arbitrage or genesis supply there: none of their roles.
    expect({ snipers: l.wallets.snipers, sandwichers: l.wallets.sandwichers, arbitrageurs: l.wallets.arbitrageurs, retail: l.wallets.retail, holders: l.wallets.holders })
      .toEqual({ snipers: [], sandwichers: [], arbitrageurs: [], retail: [], holders: [] });
    // Smart money there is the stock traders who see ahead and have traded (a history over a weekend
    // may give them no edge to trade on).
    const traded = await swappers(STOCK_CHAIN);
    const skilled = moduleRole(l, 'stock-trader-skilled');
    expect(skilled.length).toBeGreaterThan(0);
    expect(new Set(lower(l.wallets.smartMoney))).toEqual(new Set(skilled.filter((a) => traded.has(a))));
    // The cross-chain crowd keeps the one pool on the reference: every buyer and seller traded it.
    expect(l.wallets.crossChainArbitrageurs.length).toBeGreaterThan(0);
    for (const a of lower(l.wallets.crossChainArbitrageurs)) expect(traded.has(a), a).toBe(true);
    // Whales, exchanges and LPs send (whale transfers, liquidity; an exchange wraps its float).
    for (const a of [...l.wallets.whales, ...l.wallets.exchanges, ...l.wallets.liquidityProviders]) {
      expect(await client.getTransactionCount({ address: a as Address }), a).toBeGreaterThan(0);
    }
    // The treasury there is the market maker every listing's first supply is minted to, not the genesis treasury.
    const minted = await firstMintedTo(STOCK_CHAIN);
    expect(minted.size).toBeGreaterThan(0);
    expect(new Set(minted.values())).toEqual(new Set(moduleRole(l, 'stock-market-maker')));
    expect(lower(l.wallets.treasuries)).toEqual(moduleRole(l, 'stock-market-maker'));
  });

  it('on a chain with genesis supply, the genesis treasury and the stock market maker are the treasuries; the cast\'s smart money and the skilled stock traders the smart money', async () => {
    const l = labelsOf('ethereum');
    const minted = await firstMintedTo('ethereum');
    expect(new Set(minted.values())).toEqual(new Set(moduleRole(l, 'stock-market-maker')));
    expect(lower(l.wallets.treasuries)).toEqual([GENESIS_TREASURY.toLowerCase(), ...moduleRole(l, 'stock-market-maker')]);
    const skilled = moduleRole(l, 'stock-trader-skilled');
    expect(skilled.length).toBeGreaterThan(0);
    const traded = await swappers('ethereum');
    const smart = lower(l.wallets.smartMoney);
    // The cast's first, then each skilled trader that has traded; the poor ones never.
    const cast = ACTOR_COUNTS.smart;
    expect(smart.slice(0, cast).some((a) => skilled.includes(a))).toBe(false);
    expect(new Set(smart.slice(cast))).toEqual(new Set(skilled.filter((a) => traded.has(a))));
    for (const a of moduleRole(l, 'stock-trader-poor')) expect(smart).not.toContain(a);
  });
});
