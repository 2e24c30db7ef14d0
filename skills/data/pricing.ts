/**
 * One price per token per block: how every engine reads a token's USD price (`market/v1`).
 *
 * A token's price at a block is the rate of the pool that was its price source at that block
 * (the deepest of its pools then, by quote-side USD at that block: a pool created later or
 * deeper only later did not price it then), after that pool's last Sync at or before the block,
 * times its quote's USD price at that same block (USDC at its $1 peg). Market builds that line
 * once per token and window (Market.timeline); the price now (Market.priceNow, from the deepest
 * pool now) is the line's value at the head. Rankings, charts, holdings, PnL and pairs all read
 * these, so one token at one block has one price in every answer, and one window has one
 * opening and one change.
 */
import { rowScore } from '../../indexer/rows.js';
import { pointAt, round, valueAt, type Market } from './market.js';
import { PERIODS, type Period } from './periods.js';

/** A token's USD price at a block, and the pool and quote it came from at that block (none for USDC, the numeraire). */
export interface TokenPrice {
  readonly usd: number;
  readonly block: number;
  readonly pool: string | null;
  readonly quote: string | null;
}

/** The price of `token` at the end of `block` (the head when omitted), from the pool that priced it then; null when none did. */
export async function priceAtBlock(market: Market, token: string, block: number = market.head.block): Promise<TokenPrice | null> {
  const at = Math.min(block, market.head.block);
  if (at === market.head.block) {
    const now = market.priceNow(token);
    return now && { usd: now.usd, block: at, pool: now.pool?.pair ?? null, quote: now.quote };
  }
  const t = token.toLowerCase();
  const point = pointAt(await market.timeline(t, at), rowScore(at + 1, 0) - 1);
  if (point?.usd == null) return null;
  const pool = point.pool ? market.pools.find((p) => p.pair === point.pool) : undefined;
  return { usd: point.usd, block: at, pool: pool?.pair ?? null, quote: pool ? (pool.token0 === t ? pool.token1 : pool.token0) : null };
}

/** The window of a period ending at the checkpoint: exactly its length, in unix seconds (charts cut the same window into candles). */
export function periodWindow(checkpoint: { timestamp: number }, period: Period): { start: number; end: number } {
  return { start: checkpoint.timestamp - PERIODS[period].seconds, end: checkpoint.timestamp };
}

/**
 * A token's price at the opening of a window that starts at `start` (unix seconds), its first
 * block being `fromBlock`: the price just before that block (`since` = `start`), or, for a token
 * listed during the window or an index whose history begins inside it, its first price inside
 * (`since` = that moment); null when none is known.
 */
export async function openingPrice(market: Market, token: string, fromBlock: number, start: number): Promise<{ usd: number; since: number } | null> {
  const line = await market.timeline(token, fromBlock);
  const before = valueAt(line, rowScore(fromBlock, 0) - 1);
  if (before !== null) return { usd: before, since: start };
  const first = line.find((p) => p.score >= rowScore(fromBlock, 0) && p.usd !== null);
  return first ? { usd: first.usd!, since: Math.max(first.ts, start) } : null;
}

/** The change from one price to another, in percent (4 decimals): what every answer calls `changePct`. */
export function changePct(from: number, to: number): number {
  return round(((to - from) / from) * 100, 4);
}

/** A token's change over a window, from its opening to `nowUsd`, and the moment it is measured from; null when no opening is known. */
export async function periodChange(market: Market, token: string, nowUsd: number, fromBlock: number, start: number): Promise<{ pct: number; since: number } | null> {
  const opening = await openingPrice(market, token, fromBlock, start);
  return opening ? { pct: changePct(opening.usd, nowUsd), since: opening.since } : null;
}

/** The change alone, where the caller states the window some other way. */
export async function periodChangePct(market: Market, token: string, nowUsd: number, fromBlock: number, start: number): Promise<number | null> {
  return (await periodChange(market, token, nowUsd, fromBlock, start))?.pct ?? null;
}
