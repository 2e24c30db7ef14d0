/**
 * Wrapped BTC on the EVM chains, methodology `bitcoin-bridges/v1`, per token and chain from the
 * chain's index: supply (totalSupply at the checkpoint), holders (addresses with a replayed
 * positive balance), mint and burn flows over 24 h and 7 d (Transfer from / to the zero address;
 * tokens sent to 0x…dead stay in totalSupply and redeem nothing, so they are no burn) and the
 * peg: each DEX pool's USD price of the token (its reserves times the other side's `market/v1`
 * price) against BTC's reference price, in basis points, and their liquidity-weighted mean.
 * Proof of reserves (the Bitcoin side) is bridges-reserves.ts.
 */
import { erc20Abi, formatUnits, zeroAddress, type Address } from 'viem';
import type { Checkpoint } from '../../../indexer/reader.js';
import { describeCoverage, windowCoverage, type CoverageBody } from '../../data/coverage.js';
import { MARKET_METHODOLOGY, MIN_QUOTE_LIQUIDITY_USD, round, type Market, type Pool } from '../../data/market.js';
import { indexProvenance } from '../../data/provenance.js';
import { custodyOf } from './custody.js';

export const BRIDGES_METHODOLOGY =
  'bitcoin-bridges/v1 (per wrapped BTC and chain: totalSupply at the index checkpoint; holders = addresses with a positive balance replayed from indexed Transfers, checked against totalSupply; ' +
  'mints and burns = Transfers from / to the zero address over 24 h and 7 d; peg = each pool\'s USD price (reserves x the other side\'s ' + MARKET_METHODOLOGY + ' price) ' +
  'against BTC\'s reference price, bps, liquidity-weighted; proof of reserves = confirmed balances of the custodian\'s published Bitcoin addresses (Esplora /address) against the supply summed over the chains read)';

const DEAD = '0x000000000000000000000000000000000000dead';
const WINDOWS = { '24h': 86_400, '7d': 7 * 86_400 } as const;
export type FlowWindow = keyof typeof WINDOWS;

/** BTC's USD price the peg is measured against, and where it comes from. */
export interface BtcReference {
  readonly usd: number;
  readonly source: string;
}

export interface FlowTotals {
  /** Whole tokens, as decimal strings. */
  minted: string;
  burned: string;
  net: string;
  mints: number;
  burns: number;
  coverage: CoverageBody<string>;
}

export interface PegPool {
  pool: string;
  dex: string;
  pair: string;
  quote: string;
  priceUsd: number;
  liquidityUsd: number;
  deviationBps: number;
}

export interface WrappedOnChain {
  chain: string;
  token: string;
  symbol: string;
  decimals: number;
  totalSupply: string;
  /** Raw units, for sums across chains. */
  supplyRaw: bigint;
  holders: number | null;
  holdersNote: string | null;
  flows: Record<FlowWindow, FlowTotals>;
  /** Every pool that prices the token, most liquid first (before any row cap). */
  pools: PegPool[];
  /** Liquidity-weighted deviation of its pools, bps; null without a priced pool or a reference. */
  pegDeviationBps: number | null;
  reference: BtcReference | null;
}

/**
 * The wrapped BTC tokens the chain's index holds pools of (by symbol, from the custody table):
 * one per symbol, the one with the deepest priced pool, so a copycat token under the same symbol
 * is never summed into the real one's supply.
 */
export function wrappedBtcTokens(market: Market): { address: string; symbol: string; decimals: number }[] {
  const best = new Map<string, { address: string; symbol: string; decimals: number; depth: number }>();
  for (const [address, info] of market.tokens) {
    const custody = info.symbol ? custodyOf(info.symbol) : undefined;
    if (!custody || info.decimals === null) continue;
    const depth = market.mainPool(address)?.quoteUsd ?? -1;
    const held = best.get(custody.symbol);
    if (!held || depth > held.depth) best.set(custody.symbol, { address, symbol: custody.symbol, decimals: info.decimals, depth });
  }
  return [...best.values()].map(({ depth: _depth, ...t }) => t).sort((a, b) => a.symbol.localeCompare(b.symbol));
}

/** Quote units per token unit in a pool's current reserves, or null when a side is empty or unknown. */
function poolRate(market: Market, pool: Pool, token: string): number | null {
  const d0 = market.decimals(pool.token0);
  const d1 = market.decimals(pool.token1);
  if (d0 === null || d1 === null || pool.r0 === 0n || pool.r1 === 0n) return null;
  const a0 = Number(formatUnits(pool.r0, d0));
  const a1 = Number(formatUnits(pool.r1, d1));
  return token === pool.token0 ? a1 / a0 : a0 / a1;
}

/**
 * The token's pools with a USD price each: only pools whose other side is priced and holds at
 * least MIN_QUOTE_LIQUIDITY_USD (dust cannot move a peg reading), most liquid first.
 */
export function pricedPools(market: Market, token: string): Omit<PegPool, 'deviationBps'>[] {
  const out = [];
  for (const pool of market.pools) {
    if (pool.token0 !== token && pool.token1 !== token) continue;
    const quote = pool.token0 === token ? pool.token1 : pool.token0;
    const quoteUsd = market.priceNow(quote)?.usd;
    const rate = poolRate(market, pool, token);
    const qd = market.decimals(quote);
    if (quoteUsd === undefined || rate === null || qd === null) continue;
    const quoteSideUsd = Number(formatUnits(pool.token0 === quote ? pool.r0 : pool.r1, qd)) * quoteUsd;
    if (quoteSideUsd < MIN_QUOTE_LIQUIDITY_USD) continue;
    const sym = (t: string) => market.tokens.get(t)?.symbol ?? t;
    out.push({ pool: pool.pair, dex: pool.dex, pair: `${sym(pool.token0)}/${sym(pool.token1)}`, quote: sym(quote), priceUsd: rate * quoteUsd, liquidityUsd: market.liquidityUsd(pool) ?? 2 * quoteSideUsd });
  }
  return out.sort((a, b) => b.liquidityUsd - a.liquidityUsd);
}

/** Basis points of a price against the reference. */
export const deviationBps = (priceUsd: number, referenceUsd: number) => round((priceUsd / referenceUsd - 1) * 10_000, 2);

/** Liquidity-weighted mean of the pools' deviations (bps), or null without pools. */
export function weightedDeviation(pools: readonly Pick<PegPool, 'deviationBps' | 'liquidityUsd'>[]): number | null {
  const weight = pools.reduce((s, p) => s + p.liquidityUsd, 0);
  return weight > 0 ? round(pools.reduce((s, p) => s + p.deviationBps * p.liquidityUsd, 0) / weight, 2) : null;
}

/**
 * BTC's reference from the market alone, where no BTC price feed is configured: the
 * liquidity-weighted mean USD price of every wrapped-BTC pool read (one asset, one price across
 * chains). Deviations against it show how far each pool sits from the wrapped tokens' consensus.
 */
export function marketReference(pools: readonly Pick<PegPool, 'priceUsd' | 'liquidityUsd'>[]): BtcReference | null {
  const weight = pools.reduce((s, p) => s + p.liquidityUsd, 0);
  if (weight <= 0) return null;
  return { usd: pools.reduce((s, p) => s + p.priceUsd * p.liquidityUsd, 0) / weight, source: `${MARKET_METHODOLOGY}: liquidity-weighted mean of every wrapped-BTC pool read (no BTC price feed configured)` };
}

/** Mints and burns of `token` over each window ending at the checkpoint, from the index's transfers. */
export async function mintBurnFlows(market: Market, checkpoint: Checkpoint, token: string, decimals: number): Promise<Record<FlowWindow, FlowTotals>> {
  const from7d = (await market.reader.firstBlockAtOrAfter(checkpoint.timestamp - WINDOWS['7d'])) ?? checkpoint.block + 1;
  const transfers = (await market.reader.transfers(from7d, checkpoint.block)).filter((t) => t.token.toLowerCase() === token);
  const totals = {} as Record<FlowWindow, FlowTotals>;
  for (const [window, seconds] of Object.entries(WINDOWS) as [FlowWindow, number][]) {
    const start = checkpoint.timestamp - seconds;
    let minted = 0n;
    let burned = 0n;
    let mints = 0;
    let burns = 0;
    for (const t of transfers) {
      if (t.ts < start) continue;
      if (t.from.toLowerCase() === zeroAddress) {
        minted += BigInt(t.value);
        mints++;
      } else if (t.to.toLowerCase() === zeroAddress) {
        burned += BigInt(t.value);
        burns++;
      }
    }
    totals[window] = {
      minted: formatUnits(minted, decimals), burned: formatUnits(burned, decimals), net: formatUnits(minted - burned, decimals), mints, burns,
      coverage: describeCoverage(windowCoverage(start, checkpoint.timestamp, market.historyStart), 'iso'),
    };
  }
  return totals;
}

/**
 * Holders with a positive replayed balance (the zero and 0x…dead addresses aside), or why they
 * cannot be counted: every positive balance must add up to totalSupply (tokens sent to 0x…dead
 * still count in it), else the index lacks part of the token's history.
 */
export async function holderCount(market: Market, token: string, supply: bigint): Promise<{ holders: number | null; note: string | null }> {
  const positive = Object.entries(await market.reader.balances(token)).filter(([holder, raw]) => BigInt(raw) > 0n && holder !== zeroAddress);
  const replayed = positive.reduce((s, [, raw]) => s + BigInt(raw), 0n);
  if (replayed !== supply) return { holders: null, note: `the index does not hold the token's whole transfer history (replayed ${replayed} of totalSupply ${supply} raw units)` };
  return { holders: positive.filter(([holder]) => holder !== DEAD).length, note: null };
}

/**
 * One chain's wrapped BTC, as of its index checkpoint. `reference(ts)` gives BTC's USD price at
 * the checkpoint's time, or null (the peg is then measured later against the market's consensus).
 */
export async function readWrappedOnChain(market: Market, checkpoint: Checkpoint, reference: (ts: number) => BtcReference | null): Promise<WrappedOnChain[]> {
  const tokens = wrappedBtcTokens(market);
  if (!tokens.length) return [];
  const ref = reference(checkpoint.timestamp);
  return Promise.all(tokens.map(async (t) => {
    const supply = await market.chain.client.readContract({ address: t.address as Address, abi: erc20Abi, functionName: 'totalSupply', blockNumber: BigInt(checkpoint.block) });
    const [flows, holders] = await Promise.all([mintBurnFlows(market, checkpoint, t.address, t.decimals), holderCount(market, t.address, supply)]);
    const pools = pricedPools(market, t.address).map((p) => ({ ...p, liquidityUsd: round(p.liquidityUsd, 2), deviationBps: ref ? deviationBps(p.priceUsd, ref.usd) : 0 }));
    return {
      chain: market.chain.name, token: t.address, symbol: t.symbol, decimals: t.decimals,
      totalSupply: formatUnits(supply, t.decimals), supplyRaw: supply,
      holders: holders.holders, holdersNote: holders.note, flows, pools,
      pegDeviationBps: ref ? weightedDeviation(pools) : null, reference: ref,
    };
  }));
}

/** Re-measures rows read without a reference against the market's consensus of all of them. */
export function applyMarketReference(rows: WrappedOnChain[]): BtcReference | null {
  const unmeasured = rows.filter((r) => r.reference === null);
  if (!unmeasured.length) return null;
  const ref = marketReference(unmeasured.flatMap((r) => r.pools));
  for (const r of unmeasured) {
    if (!ref) continue;
    r.reference = ref;
    r.pools = r.pools.map((p) => ({ ...p, deviationBps: deviationBps(p.priceUsd, ref.usd) }));
    r.pegDeviationBps = weightedDeviation(r.pools);
  }
  return ref;
}

/** Provenance of one chain's read: the index checkpoint, over the last 7 days of blocks. */
export async function chainProvenance(market: Market, checkpoint: Checkpoint) {
  const from = (await market.reader.firstBlockAtOrAfter(checkpoint.timestamp - WINDOWS['7d'])) ?? checkpoint.block;
  return indexProvenance(market.chain, checkpoint, BRIDGES_METHODOLOGY, from);
}

/** Whole-token sum of raw supplies across chains of one symbol (decimals may differ per chain). */
export function sumSupply(rows: readonly Pick<WrappedOnChain, 'supplyRaw' | 'decimals'>[]): string {
  const scale = Math.max(0, ...rows.map((r) => r.decimals));
  const total = rows.reduce((s, r) => s + r.supplyRaw * 10n ** BigInt(scale - r.decimals), 0n);
  return formatUnits(total, scale);
}
