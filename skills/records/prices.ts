/**
 * How the records engines price a stock: a reader the caller passes in (the service gives the
 * stock token's fair value; tests give the world's paths), split-adjusted so a return spans a
 * split, and one rule for a move against the index: the name's simple return less SPY's over the
 * same closes (Quiver's ExcessReturn = PriceChange - SPYChange). A date is priced at its close.
 */
import { round } from '../data/market.js';

export const INDEX_TICKER = 'SPY';
/** The US close as the engines price a date (21:00 UTC; the close is 20:00 UTC in summer, 21:00 in winter). */
export const CLOSE_HOUR_UTC = 21;
const DAY = 86_400;

export interface PriceReader {
  /** Where the prices come from, as provenance names it. */
  readonly source: string;
  /** Split-adjusted USD price of `ticker` at `time` (unix seconds); null when the reader has none. */
  priceUsd(ticker: string, time: number): Promise<number | null>;
}

export interface MoveVsIndex {
  readonly fromAt: string;
  readonly toAt: string;
  readonly returnPct: number;
  readonly indexReturnPct: number;
  /** returnPct - indexReturnPct. */
  readonly excessPct: number;
  readonly source: string;
}

export const closeOfDay = (dayStartUnix: number) => Math.floor(dayStartUnix / DAY) * DAY + CLOSE_HOUR_UTC * 3_600;
const iso = (t: number) => new Date(t * 1000).toISOString();

/** A reader that asks for each (ticker, time) once. */
export function cachedReader(reader: PriceReader): PriceReader {
  const memo = new Map<string, Promise<number | null>>();
  return {
    source: reader.source,
    priceUsd(ticker, time) {
      const key = `${ticker}@${time}`;
      let p = memo.get(key);
      if (!p) memo.set(key, (p = reader.priceUsd(ticker, time)));
      return p;
    },
  };
}

/** The name's move and the index's from `fromAt` to `toAt`; null when either price is missing or the span is empty. */
export async function moveVsIndex(prices: PriceReader, ticker: string, fromAt: number, toAt: number): Promise<MoveVsIndex | null> {
  if (toAt <= fromAt) return null;
  const [a, b, ia, ib] = await Promise.all([prices.priceUsd(ticker, fromAt), prices.priceUsd(ticker, toAt), prices.priceUsd(INDEX_TICKER, fromAt), prices.priceUsd(INDEX_TICKER, toAt)]);
  if (!a || !b || !ia || !ib) return null;
  const returnPct = (b / a - 1) * 100;
  const indexReturnPct = (ib / ia - 1) * 100;
  return { fromAt: iso(fromAt), toAt: iso(toAt), returnPct: round(returnPct, 2), indexReturnPct: round(indexReturnPct, 2), excessPct: round(returnPct - indexReturnPct, 2), source: prices.source };
}
