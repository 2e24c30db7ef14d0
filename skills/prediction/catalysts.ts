/**
 * Prediction-market catalysts: the resolutions coming up (open events closing soonest) and the
 * markets that moved most over the last day, each with its price, 24 h move and volume.
 */
import { round } from '../data/market.js';
import { closesAt, hoursUntil, isOpen, iso, quoteKalshi, quotePolymarket, readEvents, type JoinedMarket } from './markets.js';
import type { PredictionSource } from './source.js';

/** A 24 h move at least this large (in price, 0-1) is a big move. */
export const BIG_MOVE = 0.05;
/** Rows a snapshot keeps per list (the tool cuts to the caller's limit). */
const KEPT = 100;

export const CATALYSTS_METHODOLOGY = `prediction-catalysts/v1: both venues' markets joined into events (Polymarket Gamma /markets, Kalshi /markets); matches = events open on either venue, the soonest close first (the earliest close among the venues it is open on); moves = open events whose Polymarket yes price moved at least ${BIG_MOVE * 100} points over 24 h (Gamma oneDayPriceChange; the Kalshi adapter reads no earlier price), the largest first; yes = the mid of the best bid and ask`;

export interface CatalystRow {
  readonly question: string;
  readonly polymarket: { readonly id: string; readonly yes: number | null; readonly closesAt: string } | null;
  readonly kalshi: { readonly ticker: string; readonly yes: number | null; readonly closesAt: string; readonly ruleDifference: string } | null;
  readonly yes: number | null;
  readonly change24h: number | null;
  readonly volumeUsd: number;
  readonly volume24hUsd: number | null;
  readonly closesAt: string;
  readonly hoursToClose: number;
}

export interface Catalysts {
  readonly openEvents: number;
  readonly matches: CatalystRow[];
  readonly moves: CatalystRow[];
}

export async function predictionCatalysts(source: PredictionSource, now: number, signal?: AbortSignal): Promise<Catalysts> {
  const { events } = await readEvents(source, signal);
  const open = events.filter((e) => (e.polymarket && isOpen(e.polymarket, now)) || (e.kalshi && isOpen(e.kalshi, now)));
  const rows = open.map((e) => row(e, now));
  const matches = [...rows].sort((a, b) => a.hoursToClose - b.hoursToClose);
  const moves = rows.filter((r) => r.change24h !== null && Math.abs(r.change24h) >= BIG_MOVE).sort((a, b) => Math.abs(b.change24h!) - Math.abs(a.change24h!));
  return { openEvents: open.length, matches: matches.slice(0, KEPT), moves: moves.slice(0, KEPT) };
}

function row(e: JoinedMarket, now: number): CatalystRow {
  const pm = e.polymarket && isOpen(e.polymarket, now) ? e.polymarket : null;
  const k = e.kalshi && isOpen(e.kalshi, now) ? e.kalshi : null;
  const close = Math.min(pm ? closesAt(pm) : Infinity, k ? closesAt(k) : Infinity);
  const pmYes = pm && quotePolymarket(pm).mid;
  const kYes = k && quoteKalshi(k).mid;
  return {
    question: e.question,
    polymarket: pm && { id: pm.id, yes: pmYes, closesAt: iso(closesAt(pm)) },
    kalshi: k && { ticker: k.ticker, yes: kYes, closesAt: iso(closesAt(k)), ruleDifference: k.subtitle },
    yes: pm ? pmYes : kYes,
    change24h: pm?.oneDayPriceChange ?? null,
    volumeUsd: round((e.polymarket?.volumeNum ?? 0) + (e.kalshi?.volume ?? 0), 2),
    volume24hUsd: e.polymarket ? round(e.polymarket.volume24hr, 2) : null,
    closesAt: iso(close),
    hoursToClose: hoursUntil(close, now),
  };
}
