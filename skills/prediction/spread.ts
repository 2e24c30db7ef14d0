/**
 * Spread analysis: each open market's yes book on each venue (Polymarket's CLOB book of the yes
 * token; Kalshi's bids-only book, a yes ask being 1 − a no bid), its best bid and ask, the spread,
 * the depth near the mid, and what buying `sizeUsd` of yes costs when it walks the asks.
 */
import { round } from '../data/market.js';
import { closesAt, hoursUntil, isOpen, iso, matchQuery, readEvents, type VenueName } from './markets.js';
import type { BookLevel, PredictionSource } from './source.js';

/** Depth is summed within these distances of the mid (dollars: 1¢ and 5¢). */
export const DEPTH_BANDS = [0.01, 0.05] as const;
/** Books read per answer at most (each open market on each venue is one). */
const MAX_BOOKS = 200;
const EPS = 1e-9;

export const SPREAD_METHODOLOGY = `prediction-spread/v1: the yes book of every open market matched to the query, per venue (Polymarket CLOB /book of the yes token; Kalshi /markets/{ticker}/orderbook, bids only: the yes asks are 1 − the no bids, each at the no bid\'s size); spread = best ask − best bid, in cents and in percent of the mid; depth = shares and USD resting within 1¢ and 5¢ of the mid on each side; the fill walks the asks from the best up, buying until sizeUsd is spent: average price = USD spent / shares bought, slippage = average − best ask; rows sorted by spread, then by depth within 5¢; ${MAX_BOOKS} books read at most`;

export interface Depth {
  readonly withinCents: number;
  readonly bidShares: number;
  readonly askShares: number;
  readonly bidUsd: number;
  readonly askUsd: number;
}

export interface Fill {
  readonly sizeUsd: number;
  readonly filled: boolean;
  readonly spentUsd: number;
  readonly shares: number;
  readonly averagePrice: number | null;
  readonly worstPrice: number | null;
  readonly levels: number;
  readonly slippageCents: number | null;
  readonly slippagePct: number | null;
  readonly note: string | null;
}

export interface SpreadRow {
  readonly question: string;
  readonly venue: VenueName;
  readonly market: string;
  readonly closesAt: string;
  readonly hoursToClose: number;
  readonly bestBid: number | null;
  readonly bestAsk: number | null;
  readonly mid: number | null;
  readonly spreadCents: number | null;
  readonly spreadPct: number | null;
  readonly depth: readonly Depth[];
  readonly fill: Fill;
  readonly note: string | null;
}

/** A yes book: bids best (highest) first, asks best (lowest) first. */
export interface YesBook {
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
}

export interface SpreadAnalysis {
  readonly query: string | null;
  readonly terms: readonly string[];
  readonly openMarkets: number;
  readonly matched: number;
  readonly booksRead: number;
  readonly rows: SpreadRow[];
  readonly queryRule: string;
}

export async function analyzeSpreads(source: PredictionSource, options: { query?: string | undefined; limit: number; sizeUsd: number; now: number; signal?: AbortSignal | undefined }): Promise<SpreadAnalysis> {
  const { now, signal, sizeUsd } = options;
  const { events } = await readEvents(source, signal);
  const open = events.filter((e) => (e.polymarket && isOpen(e.polymarket, now)) || (e.kalshi && isOpen(e.kalshi, now)));
  const match = matchQuery(options.query, open);
  const jobs = match.matched.flatMap((e) => [
    ...(e.polymarket && isOpen(e.polymarket, now) ? [{ question: e.question, venue: 'polymarket' as const, market: e.polymarket.id, close: closesAt(e.polymarket), read: () => polymarketYesBook(source, e.polymarket!.clobTokenIds[0]!, signal) }] : []),
    ...(e.kalshi && isOpen(e.kalshi, now) ? [{ question: e.question, venue: 'kalshi' as const, market: e.kalshi.ticker, close: closesAt(e.kalshi), read: () => kalshiYesBook(source, e.kalshi!.ticker, signal) }] : []),
  ]).slice(0, MAX_BOOKS);
  const rows = await Promise.all(jobs.map(async (j) => ({ question: j.question, venue: j.venue, market: j.market, closesAt: iso(j.close), hoursToClose: hoursUntil(j.close, now), ...bookFigures(await j.read(), sizeUsd) })));
  const depth5 = (r: SpreadRow) => (r.depth.at(-1)?.bidUsd ?? 0) + (r.depth.at(-1)?.askUsd ?? 0);
  rows.sort((a, b) => (a.spreadCents ?? Infinity) - (b.spreadCents ?? Infinity) || depth5(b) - depth5(a));
  return { query: match.query, terms: match.terms, openMarkets: open.length, matched: match.matched.length, booksRead: jobs.length, rows: rows.slice(0, options.limit), queryRule: match.rule };
}

export async function polymarketYesBook(source: PredictionSource, yesToken: string, signal?: AbortSignal): Promise<YesBook> {
  const book = await source.polymarket.book(yesToken, signal);
  return { bids: book.bids, asks: book.asks };
}

/** Kalshi's book turned into a yes book: the yes bids as they are, the no bids as yes asks at 1 − their price. */
export async function kalshiYesBook(source: PredictionSource, ticker: string, signal?: AbortSignal): Promise<YesBook> {
  const book = await source.kalshi.orderbook(ticker, signal);
  return { bids: book.yes, asks: book.no.map((l) => ({ price: round(1 - l.price, 6), size: l.size })).sort((a, b) => a.price - b.price) };
}

/** Spread, depth and fill of one yes book. */
export function bookFigures(book: YesBook, sizeUsd: number): Pick<SpreadRow, 'bestBid' | 'bestAsk' | 'mid' | 'spreadCents' | 'spreadPct' | 'depth' | 'fill' | 'note'> {
  const bestBid = book.bids[0]?.price ?? null;
  const bestAsk = book.asks[0]?.price ?? null;
  const mid = bestBid !== null && bestAsk !== null ? (bestBid + bestAsk) / 2 : null;
  const spread = bestBid !== null && bestAsk !== null ? bestAsk - bestBid : null;
  const depth = mid === null ? [] : DEPTH_BANDS.map((band) => {
    const bids = book.bids.filter((l) => mid - l.price <= band + EPS);
    const asks = book.asks.filter((l) => l.price - mid <= band + EPS);
    return {
      withinCents: round(band * 100, 0),
      bidShares: round(sum(bids.map((l) => l.size)), 2), askShares: round(sum(asks.map((l) => l.size)), 2),
      bidUsd: round(sum(bids.map((l) => l.size * l.price)), 2), askUsd: round(sum(asks.map((l) => l.size * l.price)), 2),
    };
  });
  const note = bestBid === null && bestAsk === null ? 'empty book: nothing rests on either side' : bestBid === null ? 'no bids' : bestAsk === null ? 'no asks: yes cannot be bought' : null;
  return {
    bestBid, bestAsk, mid: mid === null ? null : round(mid, 4),
    spreadCents: spread === null ? null : round(spread * 100, 2),
    spreadPct: spread === null || !mid ? null : round((spread / mid) * 100, 2),
    depth, fill: walkAsks(book.asks, sizeUsd, mid), note,
  };
}

/** Buys up to `sizeUsd` from the asks, best first. */
export function walkAsks(asks: readonly BookLevel[], sizeUsd: number, mid: number | null): Fill {
  let left = sizeUsd;
  let shares = 0;
  let levels = 0;
  let worst: number | null = null;
  for (const level of asks) {
    if (left <= EPS) break;
    const usd = Math.min(left, level.price * level.size);
    shares += usd / level.price;
    left -= usd;
    levels++;
    worst = level.price;
  }
  const spent = sizeUsd - Math.max(0, left);
  const filled = left <= 1e-6;
  const average = shares > 0 ? spent / shares : null;
  const best = asks[0]?.price ?? null;
  return {
    sizeUsd, filled, spentUsd: round(spent, 2), shares: round(shares, 2),
    averagePrice: average === null ? null : round(average, 6), worstPrice: worst, levels,
    slippageCents: average === null || best === null ? null : round((average - best) * 100, 3),
    slippagePct: average === null || !mid ? null : round((average / mid - 1) * 100, 3),
    note: filled ? null : asks.length ? `the book cannot fill $${sizeUsd}: its asks hold $${round(spent, 2)} in all` : 'no asks: nothing to buy',
  };
}

function sum(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0);
}
