/**
 * Fixed-rate markets (`fixed-yield/v1`): principal/yield splits of yield-bearing ERC-4626 shares.
 * Markets are those the fixed-yield factory announced (MarketCreated logs of
 * EMBEDDED_FIXED_YIELD_FACTORY: share, underlying, maturity, PT, YT). A PT redeems one unit of
 * the underlying's value at maturity, so its price in the underlying before then is a discount
 * that fixes a rate: implied APY = (1 / ptPrice)^(365 days / time to maturity) - 1, time counted
 * in seconds to the index head (actual/365). The PT price is read from its deepest V2 pool
 * against the underlying in the index (market/v1 reserves), and set beside the variable rate the
 * share really earned (vaults/v1's realised APY), so a buyer sees what fixing costs or pays.
 */
import { erc20Abi, formatUnits, getAddress, parseAbiItem, type Address } from 'viem';
import { EMBEDDED_FIXED_YIELD_FACTORY } from '../../chain/chains.js';
import { readInHalves } from '../../chain/log-ranges.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { round, TRADEABLE_LIQUIDITY_USD, type Market, type Pool } from '../data/market.js';
import { rankingApy, vaultRows, type RealisedApy, type VaultRow } from '../vaults/engine.js';

const YEAR_S = 365 * 86_400;
/** Under this many days to maturity the implied APY annualises a tiny discount: any trade swings it. */
export const NEAR_MATURITY_DAYS = 7;
/** A variable rate realised over fewer days than this is young. */
export const YOUNG_VARIABLE_DAYS = 7;

export const FIXED_YIELD_METHODOLOGY = `fixed-yield/v1 (markets from the fixed-yield factory's MarketCreated logs (share, underlying, maturity, PT, YT); PT price in the underlying = underlying reserve / PT reserve of the PT's deepest V2 pool against the underlying (index reserves at the head, decimals applied); implied fixed APY = (1 / ptPrice)^(365 days / time to maturity) - 1, time to maturity in seconds from the index head, actual/365 day count; liquidity = both sides of that pool valued in the underlying at the pool's price x the underlying's market/v1 USD price; variable APY = the share's realised APY from vaults/v1 (7 days, else the history there is); spread = implied - variable; notes: matured (no fixed rate left: PT redeems at par), near-maturity (under ${NEAR_MATURITY_DAYS} days: a tiny discount annualised), thin-liquidity (under $${TRADEABLE_LIQUIDITY_USD.toLocaleString('en-US')}), no-pool, young-history (variable APY over under ${YOUNG_VARIABLE_DAYS} days), no-variable-rate)`;

const MARKET_CREATED = parseAbiItem('event MarketCreated(address indexed share, address indexed underlying, uint256 indexed maturity, address pt, address yt)');

/** A market as its factory announced it. */
export interface FixedMarket {
  share: Address;
  underlying: Address;
  maturity: number;
  pt: Address;
  yt: Address;
  block: number;
}

export type NoteKind = 'matured' | 'near-maturity' | 'thin-liquidity' | 'no-pool' | 'young-history' | 'no-variable-rate';

export interface FixedYieldRow {
  market: Address;
  pt: { address: Address; symbol: string | null; decimals: number | null };
  yt: { address: Address; symbol: string | null };
  vault: { address: Address; name: string | null; symbol: string | null };
  underlying: { address: Address; symbol: string | null; decimals: number | null };
  maturity: string;
  daysToMaturity: number;
  matured: boolean;
  pool: { pair: Address; dex: string; reservePt: string; reserveUnderlying: string } | null;
  /** Underlying per PT. */
  ptPrice: number | null;
  impliedApyPct: number | null;
  liquidityUsd: number | null;
  variableApy: (RealisedApy & { window: '7d' | '30d' }) | null;
  /** implied - variable, APY points. */
  spreadPct: number | null;
  notes: { kind: NoteKind; note: string }[];
}

/** The markets the chain's fixed-yield factory created up to `toBlock`, oldest first. */
export async function factoryMarkets(chain: ConnectedChain, toBlock: number): Promise<FixedMarket[]> {
  const logs = await readInHalves((from, to) => chain.client.getLogs({ address: EMBEDDED_FIXED_YIELD_FACTORY, event: MARKET_CREATED, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }), 0, toBlock);
  return logs.map((l) => ({
    share: getAddress(l.args.share!), underlying: getAddress(l.args.underlying!), maturity: Number(l.args.maturity!),
    pt: getAddress(l.args.pt!), yt: getAddress(l.args.yt!), block: Number(l.blockNumber),
  }));
}

/** The fixed APY (a fraction) a PT price implies with `ttmSeconds` to maturity: (1 / price)^(year / ttm) - 1. */
export function impliedApy(ptPrice: number, ttmSeconds: number): number {
  return Math.pow(1 / ptPrice, YEAR_S / ttmSeconds) - 1;
}

/** The PT's deepest pool against the underlying (by underlying reserve), or null. */
export function ptPool(market: Pick<Market, 'pools'>, pt: Address, underlying: Address): Pool | null {
  const [p, u] = [pt.toLowerCase(), underlying.toLowerCase()];
  const reserveU = (pool: Pool) => (pool.token0 === u ? pool.r0 : pool.r1);
  return market.pools
    .filter((pool) => (pool.token0 === p && pool.token1 === u) || (pool.token0 === u && pool.token1 === p))
    .filter((pool) => pool.r0 > 0n && pool.r1 > 0n)
    .reduce<Pool | null>((best, pool) => (!best || reserveU(pool) > reserveU(best) ? pool : best), null);
}

/** The pool's reserves as (PT, underlying) in token units. */
function reserves(pool: Pool, pt: Address, ptDecimals: number, underlyingDecimals: number): { pt: number; underlying: number; raw: [bigint, bigint] } {
  const ptIs0 = pool.token0 === pt.toLowerCase();
  const [rp, ru] = ptIs0 ? [pool.r0, pool.r1] : [pool.r1, pool.r0];
  return { pt: Number(formatUnits(rp, ptDecimals)), underlying: Number(formatUnits(ru, underlyingDecimals)), raw: [rp, ru] };
}

/** Every market of the chain's factory as of the index head (`asOf`), best implied APY first (matured and unpriced last). */
export async function fixedYieldMarkets(chain: ConnectedChain, market: Market, asOf: { block: number; timestamp: number }): Promise<FixedYieldRow[]> {
  const markets = await factoryMarkets(chain, asOf.block);
  if (!markets.length) return [];
  const head = { number: BigInt(asOf.block), timestamp: BigInt(asOf.timestamp) };
  // The variable rate is vaults/v1's own reading of each share, at the same block.
  const shares = [...new Map(markets.map((m) => [m.share.toLowerCase(), m.share])).values()];
  const vaults = new Map((await vaultRows(chain, market, head, shares)).vaults.map((v) => [v.vault.toLowerCase(), v]));
  const symbolOf = (token: Address) => chain.client.readContract({ address: token, abi: erc20Abi, functionName: 'symbol', blockNumber: head.number }).catch(() => null);
  const decimalsOf = async (token: Address) => market.decimals(token) ?? (await chain.client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals', blockNumber: head.number }).catch(() => null));
  const rows = await Promise.all(markets.map(async (m) => {
    const [ptSymbol, ytSymbol, ptDecimals, underlyingDecimals, underlyingSymbol] = await Promise.all([
      symbolOf(m.pt), symbolOf(m.yt), decimalsOf(m.pt), decimalsOf(m.underlying), market.tokens.get(m.underlying.toLowerCase())?.symbol ?? symbolOf(m.underlying),
    ]);
    return marketRow(m, {
      asOf: asOf.timestamp, pool: ptPool(market, m.pt, m.underlying), vault: vaults.get(m.share.toLowerCase()) ?? null,
      underlyingUsd: market.priceNow(m.underlying)?.usd ?? null,
      ptSymbol, ytSymbol, ptDecimals, underlyingDecimals, underlyingSymbol: underlyingSymbol ?? null,
    });
  }));
  return rows.sort(byFixedRate);
}

/** Live markets by implied APY, highest first, then live ones without a price, then matured ones. */
export function byFixedRate(a: Pick<FixedYieldRow, 'matured' | 'impliedApyPct'>, b: Pick<FixedYieldRow, 'matured' | 'impliedApyPct'>): number {
  return Number(a.matured) - Number(b.matured) || (b.impliedApyPct ?? -Infinity) - (a.impliedApyPct ?? -Infinity);
}

/** One market's figures from what was read of it. */
export function marketRow(m: FixedMarket, r: {
  asOf: number; pool: Pool | null; vault: VaultRow | null; underlyingUsd: number | null;
  ptSymbol: string | null; ytSymbol: string | null; ptDecimals: number | null; underlyingDecimals: number | null; underlyingSymbol: string | null;
}): FixedYieldRow {
  const ttm = m.maturity - r.asOf;
  const matured = ttm <= 0;
  const notes: FixedYieldRow['notes'] = [];
  const sides = r.pool && r.ptDecimals !== null && r.underlyingDecimals !== null ? reserves(r.pool, m.pt, r.ptDecimals, r.underlyingDecimals) : null;
  const ptPrice = sides && sides.pt > 0 ? sides.underlying / sides.pt : null;
  const implied = ptPrice !== null && !matured ? impliedApy(ptPrice, ttm) * 100 : null;
  const liquidityUsd = sides && ptPrice !== null && r.underlyingUsd !== null ? (sides.underlying + sides.pt * ptPrice) * r.underlyingUsd : null;
  const ranking = r.vault ? rankingApy(r.vault) : null;
  const variableApy = ranking && r.vault ? { ...ranking, window: r.vault.apy['7d'] ? '7d' as const : '30d' as const } : null;

  if (matured) notes.push({ kind: 'matured', note: 'matured: no fixed rate is left; the PT redeems its face value in the underlying at the market' });
  else if (ttm < NEAR_MATURITY_DAYS * 86_400) notes.push({ kind: 'near-maturity', note: `${round(ttm / 86_400, 2)} days to maturity: the implied APY annualises a tiny discount, and any trade swings it` });
  if (!r.pool) notes.push({ kind: 'no-pool', note: 'no pool trades the PT against its underlying: no price, no implied rate' });
  else if (liquidityUsd !== null && liquidityUsd < TRADEABLE_LIQUIDITY_USD) notes.push({ kind: 'thin-liquidity', note: `the PT pool holds about $${round(liquidityUsd, 0)}: a small trade moves the implied rate` });
  if (!variableApy) notes.push({ kind: 'no-variable-rate', note: 'the share has no realised APY yet (under 6 hours of price history, or not an ERC-4626 vault)' });
  else if (variableApy.days < YOUNG_VARIABLE_DAYS) notes.push({ kind: 'young-history', note: `the variable APY is over ${variableApy.days} days of share-price history only` });

  return {
    market: m.yt,
    pt: { address: m.pt, symbol: r.ptSymbol, decimals: r.ptDecimals },
    yt: { address: m.yt, symbol: r.ytSymbol },
    vault: { address: m.share, name: r.vault?.name ?? null, symbol: r.vault?.symbol ?? null },
    underlying: { address: m.underlying, symbol: r.underlyingSymbol, decimals: r.underlyingDecimals },
    maturity: new Date(m.maturity * 1000).toISOString(),
    daysToMaturity: round(Math.max(0, ttm) / 86_400, 4),
    matured,
    pool: r.pool && sides ? { pair: getAddress(r.pool.pair), dex: r.pool.dex, reservePt: formatUnits(sides.raw[0], r.ptDecimals!), reserveUnderlying: formatUnits(sides.raw[1], r.underlyingDecimals!) } : null,
    ptPrice: ptPrice === null ? null : round(ptPrice, 10),
    impliedApyPct: implied === null ? null : round(implied, 4),
    liquidityUsd: liquidityUsd === null ? null : round(liquidityUsd, 2),
    variableApy,
    spreadPct: implied !== null && variableApy ? round(implied - variableApy.apyPct, 4) : null,
    notes,
  };
}
