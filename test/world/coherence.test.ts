/**
 * The world is one market: every chain prices an asset within 1% of every other at the head
 * (and of the asset's reference path), supplies sit with labelled treasuries, teams, exchanges
 * and holders (never a demo account, which is also the default payee), and regimes are
 * labelled. Prices are computed here from the pools' reserves on chain, not by Sibyl.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, parseAbi, parseAbiItem, type Address, type PublicClient } from 'viem';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { CHAINS, EMBEDDED_SERVICE_TOKEN, type EvmChainName } from '../../chain/chains.js';
import { viemChain } from '../../chain/runtime.js';
import { demoAccount } from '../../chain/accounts.js';
import { GENESIS_TREASURY } from '../../chain/genesis.js';
import { startWorld, worldGenesisTimestamp, type RunningWorld } from '../../world/index.js';

const CHAINS_UNDER_TEST: EvmChainName[] = ['base', 'ethereum', 'bsc', 'polygon'];
/** Canonical asset of each symbol the genesis markets use for a major (wrapped and bridged forms). */
const MAJORS: Record<string, string> = { WETH: 'ETH', ETH: 'ETH', WBTC: 'BTC', BTCB: 'BTC', WSOL: 'SOL', WBNB: 'BNB', WADA: 'ADA', ADA: 'ADA', WDOT: 'DOT', DOT: 'DOT', LINK: 'LINK', WPOL: 'POL' };
const erc20 = parseAbi(['function symbol() view returns (string)', 'function decimals() view returns (uint8)', 'function balanceOf(address) view returns (uint256)', 'function totalSupply() view returns (uint256)']);
const pairAbi = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)', 'function token0() view returns (address)', 'function token1() view returns (address)']);

interface Token { address: Address; symbol: string; decimals: number }

/** USD prices of every token on a chain, from its dex-0 pools at head: a USDC pool, or a pool with the wrapped native times the native's USDC price. */
async function pricesOnChain(client: PublicClient, chain: EvmChainName): Promise<{ prices: Map<string, number>; tokens: Token[] }> {
  const spec = CHAINS[chain];
  const created = await client.getLogs({ address: spec.dexes[0]!.factory, event: parseAbiItem('event PairCreated(address indexed token0, address indexed token1, address pair, uint256)'), fromBlock: 0n, toBlock: 'latest' });
  const tokens = new Map<string, Token>();
  const token = async (a: Address) => {
    const key = a.toLowerCase();
    if (!tokens.has(key)) {
      const [symbol, decimals] = await Promise.all([client.readContract({ address: a, abi: erc20, functionName: 'symbol' }), client.readContract({ address: a, abi: erc20, functionName: 'decimals' })]);
      tokens.set(key, { address: a, symbol, decimals });
    }
    return tokens.get(key)!;
  };
  const pools = await Promise.all(created.map(async (log) => {
    const [t0, t1, pair] = log.args as unknown as [Address, Address, Address];
    const [r0, r1] = await client.readContract({ address: pair, abi: pairAbi, functionName: 'getReserves' });
    return { a: await token(t0), b: await token(t1), ra: Number(r0), rb: Number(r1) };
  }));
  const usdc = spec.usdc.toLowerCase();
  const native = spec.wrappedNative.toLowerCase();
  // Price of x in y from the deepest pool of the pair.
  const quote = (x: string, y: string) => {
    const p = pools
      .filter((q) => (q.a.address.toLowerCase() === x && q.b.address.toLowerCase() === y) || (q.b.address.toLowerCase() === x && q.a.address.toLowerCase() === y))
      .sort((m, n) => n.rb - m.rb)[0];
    if (!p || !p.ra || !p.rb) return undefined;
    const [tx, rx, ty, ry] = p.a.address.toLowerCase() === x ? [p.a, p.ra, p.b, p.rb] : [p.b, p.rb, p.a, p.ra];
    return ry / 10 ** ty.decimals / (rx / 10 ** tx.decimals);
  };
  const nativeUsd = quote(native, usdc)!;
  const prices = new Map<string, number>();
  for (const [address, t] of tokens) {
    const usd = address === usdc ? 1 : address === native ? nativeUsd : quote(address, usdc) ?? (quote(address, native) ?? NaN) * nativeUsd;
    if (Number.isFinite(usd)) prices.set(address, usd);
  }
  return { prices, tokens: [...tokens.values()] };
}

describe('the world is one market', () => {
  let devnet: Devnet;
  let world: RunningWorld;
  const clients = new Map<EvmChainName, PublicClient>();

  beforeAll(async () => {
    devnet = await startDevnet({ chains: CHAINS_UNDER_TEST, basePort: 0, genesisTimestamp: worldGenesisTimestamp(1), fifo: true });
    world = await startWorld(devnet.chains, { seed: 'one-market', days: 1, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: join(tmpdir(), `sibyl-one-market-${process.pid}.json`) });
    for (const c of devnet.chains) clients.set(c.name, createPublicClient({ chain: viemChain(c.name, c.rpcUrl), transport: http(c.rpcUrl) }) as PublicClient);
  }, 180_000);
  afterAll(async () => {
    world?.stop();
    await devnet?.stop();
  });

  it('prices every major within 1% across chains at the head, and within 1% of its reference path', async () => {
    const byAsset = new Map<string, { chain: EvmChainName; usd: number; at: number }[]>();
    for (const chain of CHAINS_UNDER_TEST) {
      const client = clients.get(chain)!;
      const head = await client.getBlock();
      const { prices, tokens } = await pricesOnChain(client, chain);
      for (const t of tokens) {
        const asset = MAJORS[t.symbol];
        const usd = prices.get(t.address.toLowerCase());
        if (asset && usd) byAsset.set(asset, [...(byAsset.get(asset) ?? []), { chain, usd, at: Number(head.timestamp) }]);
      }
    }
    const spreads: Record<string, number> = {};
    for (const [asset, quotes] of byAsset) {
      for (const q of quotes) expect(Math.abs(q.usd / world.reference.priceUsd(asset, q.at) - 1), `${asset} on ${q.chain}`).toBeLessThan(0.01);
      if (quotes.length < 2) continue;
      const usd = quotes.map((q) => q.usd);
      spreads[asset] = Math.max(...usd) / Math.min(...usd) - 1;
    }
    expect(Object.keys(spreads)).toEqual(expect.arrayContaining(['ETH', 'BTC', 'BNB', 'ADA', 'DOT']));
    for (const [asset, spread] of Object.entries(spreads)) expect(spread, asset).toBeLessThan(0.01);
  });

  it('holds no genesis supply with a demo account (the default payee is demo #0)', async () => {
    for (const c of devnet.chains) {
      const client = clients.get(c.name)!;
      const supplied = [...c.genesis.tokens.values()].filter((t) => t.supply !== undefined).map((t) => t.address);
      if (c.name === 'base') supplied.push(EMBEDDED_SERVICE_TOKEN);
      for (const token of supplied) {
        const supply = await client.readContract({ address: token, abi: erc20, functionName: 'totalSupply' });
        const zeroForDemo0 = await client.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [demoAccount(0).address] });
        expect(zeroForDemo0, `${token} on ${c.name}`).toBe(0n);
        for (let i = 1; i < 10; i++) {
          const held = await client.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [demoAccount(i).address] });
          // Demo accounts 1-9 may hold a little service token (to call the forecast API), nothing else.
          expect(Number(held) / Number(supply), `${token} with demo #${i} on ${c.name}`).toBeLessThan(token === EMBEDDED_SERVICE_TOKEN ? 0.0001 : 1e-12);
        }
      }
    }
  });

  it('hands each supply to labelled teams, exchanges and holders, which hold exactly their share', async () => {
    for (const w of world.worlds) {
      const client = clients.get(w.labels.chain as EvmChainName)!;
      const shares = w.labels.distribution.filter((d) => d.share !== null && d.kind !== 'exchange'); // exchanges pay withdrawals out
      expect(shares.length).toBeGreaterThan(0);
      expect(new Set(shares.map((d) => d.kind))).toEqual(new Set(['team', 'holder']));
      for (const d of shares.slice(0, 60)) {
        const [held, supply] = await Promise.all([
          client.readContract({ address: d.token, abi: erc20, functionName: 'balanceOf', args: [d.holder] }),
          client.readContract({ address: d.token, abi: erc20, functionName: 'totalSupply' }),
        ]);
        // Besides its share, what it claimed of the token's airdrops (world/modules/airdrops.ts).
        const claimed = w.labels.airdrops.filter((a) => a.token.toLowerCase() === d.token.toLowerCase())
          .flatMap((a) => a.claims.filter((c) => c.account.toLowerCase() === d.holder.toLowerCase()).map((c) => BigInt(a.allocations.find((l) => l.index === c.index)!.amount)))
          .reduce((sum, x) => sum + x, 0n);
        expect(Math.abs(Number(held - claimed) / Number(supply) - d.share!), `${d.kind} ${d.holder} of ${d.symbol}`).toBeLessThan(2e-6);
      }
      // The genesis treasury, and where the stocks module lists, its market maker (each listing's first supply is minted to it).
      const makers = w.labels.moduleActors.filter((a) => a.role === 'stock-market-maker').map((a) => a.address);
      expect(w.labels.wallets.treasuries).toEqual([GENESIS_TREASURY, ...makers]);
      expect(w.labels.wallets.crossChainArbitrageurs.length).toBeGreaterThan(0);
    }
  });

  it('labels the regimes each asset lived through, covering the history', async () => {
    const labels = world.worlds[0]!.labels;
    const eth = labels.regimes.filter((r) => r.asset === 'ETH').sort((a, b) => a.from - b.from);
    expect(eth.length).toBeGreaterThan(0);
    for (let i = 1; i < eth.length; i++) expect(eth[i]!.from).toBe(eth[i - 1]!.until);
    const head = Number((await clients.get('base')!.getBlock()).timestamp);
    expect(eth[0]!.from).toBeLessThanOrEqual(head - 86_400 + 3_600);
    expect(eth.at(-1)!.until).toBeGreaterThan(head - 3_600);
    for (const r of eth) expect(['bull', 'bear', 'range']).toContain(r.label);
  });
});
