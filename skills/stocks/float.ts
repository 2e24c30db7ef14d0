/**
 * The float-corner board: how much of a stock token trades freely on chain, and how few hands hold
 * it. The float is the supply outside the issuer (its contract and the token's owner); of it, what
 * sits in DEX pools is what a buyer can take, and what the largest holders keep is what they could
 * withhold. A token whose float is held by few, with much of the rest in pools, can be squeezed.
 * Every amount is in shares (raw x multiplier), so a split never inflates it.
 */
import { round } from '../data/market.js';
import type { ListedStock } from './stock-market.js';

/** The largest holders counted in the concentration figure. */
export const TOP_HOLDERS = 5;
/** Squeezable: the top holders keep at least this share of the float ... */
export const CORNER_CONCENTRATION = 0.5;
/** ... and the pools hold at least this share of it (what a squeeze buys out). */
export const CORNER_POOL_SHARE = 0.2;

export interface FloatRow {
  readonly chain: string;
  readonly token: string;
  readonly symbol: string;
  readonly underlying: string;
  readonly supplyShares: number;
  readonly issuerHeldShares: number;
  readonly floatShares: number;
  readonly floatUsd: number | null;
  readonly inPoolsShares: number;
  /** Of the float: held by the largest holders (pools, the issuer and its owner aside), and in pools. */
  readonly topHoldersPct: number;
  readonly inPoolsPct: number;
  readonly holders: number;
  readonly liquidityUsd: number;
  readonly topHolders: { readonly address: string; readonly shares: number; readonly pctOfFloat: number }[];
  /** 0-100: 60 x concentration + 40 x pool share of the float. */
  readonly cornerScore: number;
  readonly squeezable: boolean;
}

export const FLOAT_METHODOLOGY = `float-corner/v1 (shares = raw balance x uiMultiplier; float = supply less the issuer contract's and the token owner's balances; concentration = the ${TOP_HOLDERS} largest other holders' share of the float, pools aside; squeezable at >= ${CORNER_CONCENTRATION * 100}% concentration with >= ${CORNER_POOL_SHARE * 100}% of the float in pools; score 60 x concentration + 40 x pool share)`;

/** One token's float from its replayed balances (lower-case holder to raw units) and its pools' addresses. */
export function floatRow(s: ListedStock, balances: Readonly<Record<string, string>>, pools: ReadonlySet<string>): FloatRow {
  const unit = 10 ** s.decimals;
  const shares = (raw: bigint) => (Number(raw) / unit) * s.multiplier;
  const insiders = new Set([s.issuer.address.toLowerCase(), s.owner?.toLowerCase()].filter(Boolean) as string[]);
  let issuerRaw = 0n;
  let poolRaw = 0n;
  const others: { address: string; raw: bigint }[] = [];
  for (const [holder, value] of Object.entries(balances)) {
    const raw = BigInt(value);
    if (raw <= 0n || holder === '0x0000000000000000000000000000000000000000') continue;
    if (insiders.has(holder)) issuerRaw += raw;
    else if (pools.has(holder)) poolRaw += raw;
    else others.push({ address: holder, raw });
  }
  others.sort((a, b) => (b.raw > a.raw ? 1 : b.raw < a.raw ? -1 : 0));
  const supply = shares(s.totalSupplyRaw);
  const float = Math.max(0, supply - shares(issuerRaw));
  const top = others.slice(0, TOP_HOLDERS);
  const topShares = top.reduce((sum, h) => sum + shares(h.raw), 0);
  const concentration = float > 0 ? topShares / float : 0;
  const poolShare = float > 0 ? shares(poolRaw) / float : 0;
  return {
    chain: s.chain, token: s.address, symbol: s.symbol, underlying: s.underlying,
    supplyShares: round(supply, 6), issuerHeldShares: round(shares(issuerRaw), 6), floatShares: round(float, 6),
    floatUsd: s.fair ? round(float * s.fair.underlyingUsd, 2) : null,
    inPoolsShares: round(shares(poolRaw), 6), topHoldersPct: round(concentration * 100, 2), inPoolsPct: round(poolShare * 100, 2),
    holders: others.length, liquidityUsd: s.liquidityUsd,
    topHolders: top.map((h) => ({ address: h.address, shares: round(shares(h.raw), 6), pctOfFloat: float > 0 ? round((shares(h.raw) / float) * 100, 2) : 0 })),
    cornerScore: round(100 * (0.6 * Math.min(1, concentration) + 0.4 * Math.min(1, poolShare)), 1),
    squeezable: concentration >= CORNER_CONCENTRATION && poolShare >= CORNER_POOL_SHARE,
  };
}
