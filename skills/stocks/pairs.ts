/**
 * The stock-pairs boards: each underlying with every genuine wrapper of it across issuers and
 * chains, priced by the index and valued against the underlying's feed x the wrapper's multiplier,
 * so the same share's premiums sit side by side (and the spread between two wrappers is a trade
 * when the session is open). The per-venue board keeps only one venue's pools.
 */
import { round } from '../data/market.js';
import type { Session } from './fair-value.js';
import type { ListedStock, StockMarkets } from './stock-market.js';

/** A wrapper's price is read as a pair only with at least this much liquidity (a dust pool's premium is noise). */
export const PAIR_MIN_LIQUIDITY_USD = 5_000;

export interface WrapperQuote {
  readonly chain: string;
  readonly token: string;
  readonly symbol: string;
  readonly issuer: string;
  readonly venue: string | null;
  readonly pool: string | null;
  readonly priceUsd: number;
  readonly multiplier: number;
  readonly fairUsd: number;
  readonly premiumPct: number;
  /** Set when its multiplier lags an action its peers applied: fair value is at the multiplier it should carry, and this is the premium at its own. */
  readonly multiplierLag: { readonly action: string; readonly peer: string; readonly premiumAtOwnMultiplierPct: number | null } | null;
  readonly liquidityUsd: number;
  readonly volume24hUsd: number;
  readonly paused: boolean;
}

export interface StockPair {
  readonly underlying: string;
  readonly underlyingUsd: number;
  readonly feedUpdatedAt: string;
  readonly session: Session;
  readonly wrappers: WrapperQuote[];
  /** Highest premium less lowest among the wrappers listed (percentage points), null with fewer than two. */
  readonly spreadPct: number | null;
}

export function quoteOf(s: ListedStock): WrapperQuote | null {
  if (s.priceUsd === null || !s.fair || s.liquidityUsd < PAIR_MIN_LIQUIDITY_USD) return null;
  return {
    chain: s.chain, token: s.address, symbol: s.symbol, issuer: s.issuer.name, venue: s.dex, pool: s.pricedBy,
    priceUsd: round(s.priceUsd, 4), multiplier: s.multiplier, fairUsd: round(s.fair.fairUsd, 4), premiumPct: round(s.fair.premiumPct, 3),
    multiplierLag: s.lag && s.lag.hours === null ? { action: s.lag.action, peer: s.lag.peer, premiumAtOwnMultiplierPct: s.premiumAtOwnMultiplierPct } : null,
    liquidityUsd: s.liquidityUsd, volume24hUsd: s.volume24hUsd, paused: s.paused,
  };
}

/** Underlyings with their quoted wrappers (on `venue` only, when given), the widest premium first. */
export function stockPairs(markets: StockMarkets, venue?: string): StockPair[] {
  const byUnderlying = new Map<string, WrapperQuote[]>();
  for (const s of markets.stocks) {
    if (venue && s.dex !== venue) continue;
    const q = quoteOf(s);
    if (!q) continue;
    byUnderlying.set(s.underlying, [...(byUnderlying.get(s.underlying) ?? []), q]);
  }
  const pairs: StockPair[] = [];
  for (const [underlying, wrappers] of byUnderlying) {
    const feed = markets.feeds.get(underlying)!;
    const premiums = wrappers.map((w) => w.premiumPct);
    pairs.push({
      underlying, underlyingUsd: feed.priceUsd, feedUpdatedAt: new Date(feed.updatedAt * 1000).toISOString(),
      session: markets.stocks.find((s) => s.underlying === underlying && s.fair)!.fair!.session,
      wrappers: wrappers.sort((a, b) => b.premiumPct - a.premiumPct),
      spreadPct: wrappers.length > 1 ? round(Math.max(...premiums) - Math.min(...premiums), 3) : null,
    });
  }
  const widest = (p: StockPair) => Math.max(...p.wrappers.map((w) => Math.abs(w.premiumPct)));
  return pairs.sort((a, b) => widest(b) - widest(a));
}
