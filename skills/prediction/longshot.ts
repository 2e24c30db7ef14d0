/**
 * Longshot fader: how often a side bought at a price on a venue went on to win, read from the
 * venue's own resolved markets (their trades and outcomes), bucket by bucket; then the open
 * longshots (a side under 15¢) priced above their bucket's hit rate, and the edge of fading them
 * (buying the other side). With the venue's Brier score over the same resolved markets.
 * Polymarket only: the Kalshi adapter reads no trade or price history to calibrate on.
 */
import { round } from '../data/market.js';
import { closesAt, hoursUntil, isOpen, iso, joinVenues, matchQuery, polymarketOutcome, quotePolymarket } from './markets.js';
import type { DataTrade, GammaMarket, PredictionSource } from './source.js';

const HOUR = 3_600;
/** Price buckets, in cents: finer where longshots and favourites are. */
export const BUCKET_EDGES = [0, 5, 10, 15, 25, 35, 50, 65, 75, 85, 90, 95, 100] as const;
/** A side priced below this is a longshot. */
export const LONGSHOT_BELOW = 0.15;
/** Calibration needs this many resolved markets, else none is given. */
export const MIN_RESOLVED_MARKETS = 20;
/** A bucket with fewer markets than this carries a caveat; one with fewer trades backs no fade. */
const FEW_MARKETS = 10;
const MIN_BUCKET_TRADES = 20;
/** The resolved markets read at most (the most recently closed). */
const MAX_RESOLVED = 300;
/** The pre-close price the Brier score reads: this long before the close. */
export const BRIER_LEAD_SECONDS = 24 * HOUR;
const TRADES_READ = 10_000;

export const LONGSHOT_METHODOLOGY = `prediction-longshot/v1 (Polymarket): the venue's resolved markets (Gamma closed, outcome read from the settled prices 1/0; the ${MAX_RESOLVED} most recently closed at most) and every trade of each (Data API /trades): each trade is a side bought at a price, bucketed by that price (${BUCKET_EDGES.join(', ')} cents); per bucket: trades, markets, mean price, hit rate = share of those trades whose side won, bias = mean price − hit rate, the hit rate's Wilson 95% interval over the bucket's markets (trades in one market share one outcome, so the markets, not the trades, are the sample); calibration needs ${MIN_RESOLVED_MARKETS} resolved markets. Open longshots: a side whose mid is under ${LONGSHOT_BELOW * 100}¢, listed when its mid is above the hit rate of its bucket (${MIN_BUCKET_TRADES} trades at least; beyondNoise when above the interval's top too); fading = buying the other side at its ask: edge per $1 payout = (1 − hit rate) − that ask. Brier score = mean (p − outcome)² with p the yes price ${BRIER_LEAD_SECONDS / HOUR} h before the close (CLOB /prices-history, hourly; the last trade before then where the history has none), beside 0.25 for a coin flip`;

export interface CalibrationBucket {
  readonly fromCents: number;
  readonly toCents: number;
  readonly trades: number;
  readonly markets: number;
  readonly meanPrice: number | null;
  readonly hitRate: number | null;
  readonly biasCents: number | null;
  /** Wilson 95% bounds of the hit rate over the bucket's markets (trades in one market share one outcome). */
  readonly hitRateLow: number | null;
  readonly hitRateHigh: number | null;
  readonly caveat: string | null;
}

export interface Brier {
  readonly available: boolean;
  readonly reason: string | null;
  readonly score: number | null;
  readonly markets: number;
  readonly skipped: number;
  readonly leadHours: number;
  readonly coinFlip: 0.25;
}

export interface Calibration {
  readonly available: boolean;
  readonly reason: string | null;
  readonly resolvedMarkets: number;
  readonly trades: number;
  readonly buckets: CalibrationBucket[];
  readonly brier: Brier;
}

export interface LongshotRow {
  readonly question: string;
  readonly market: string;
  readonly closesAt: string;
  readonly hoursToClose: number;
  readonly longshotSide: 'yes' | 'no';
  readonly longshotPrice: number;
  readonly bucket: CalibrationBucket;
  readonly biasCents: number;
  /** Its price is above the bucket's whole 95% interval, not only its hit rate. */
  readonly beyondNoise: boolean;
  readonly fadeSide: 'yes' | 'no';
  readonly fadeAsk: number;
  readonly fadeEdgePerDollar: number;
  readonly fadeReturnPct: number;
}

export interface LongshotScan {
  readonly calibration: Calibration;
  readonly kalshi: { readonly available: false; readonly reason: string };
  readonly query: string | null;
  readonly terms: readonly string[];
  readonly openMarkets: number;
  readonly matched: number;
  readonly longshots: LongshotRow[];
  readonly queryRule: string;
}

export const KALSHI_NOT_CALIBRATED = 'the Kalshi adapter reads markets and order books only, no trade or price history of settled markets: Kalshi has nothing of its own to calibrate on, and another venue\'s calibration is not its own';

/** One trade as calibration reads it: the price paid for a side, and whether that side won. */
export interface SideBet {
  readonly market: string;
  readonly price: number;
  readonly won: boolean;
}

export async function fadeLongshots(source: PredictionSource, options: { query?: string | undefined; limit: number; now: number; signal?: AbortSignal | undefined }): Promise<LongshotScan> {
  const { now, signal } = options;
  const markets = await source.polymarket.markets({}, signal);
  const calibration = await calibrate(source, markets, signal);
  const open = joinVenues(markets.filter((m) => isOpen(m, now)), []);
  const match = matchQuery(options.query, open);
  const longshots = calibration.available ? match.matched.flatMap((e) => longshotOf(e.polymarket!, calibration.buckets, now)) : [];
  longshots.sort((a, b) => b.fadeEdgePerDollar - a.fadeEdgePerDollar);
  return {
    calibration,
    kalshi: { available: false, reason: KALSHI_NOT_CALIBRATED },
    query: match.query, terms: match.terms, openMarkets: open.length, matched: match.matched.length,
    longshots: longshots.slice(0, options.limit), queryRule: match.rule,
  };
}

/** The venue's calibration over its resolved markets, and its Brier score. */
export async function calibrate(source: PredictionSource, markets: readonly GammaMarket[], signal?: AbortSignal): Promise<Calibration> {
  const resolved = markets.filter((m) => polymarketOutcome(m) !== null).sort((a, b) => closesAt(b) - closesAt(a)).slice(0, MAX_RESOLVED);
  const brierEmpty: Brier = { available: false, reason: null, score: null, markets: 0, skipped: 0, leadHours: BRIER_LEAD_SECONDS / HOUR, coinFlip: 0.25 };
  if (resolved.length < MIN_RESOLVED_MARKETS) {
    const reason = `${resolved.length} resolved Polymarket markets; calibration needs ${MIN_RESOLVED_MARKETS} at least`;
    return { available: false, reason, resolvedMarkets: resolved.length, trades: 0, buckets: [], brier: { ...brierEmpty, reason } };
  }
  const read = await Promise.all(resolved.map(async (m) => {
    const trades = await source.polymarket.trades(m.conditionId, TRADES_READ, signal);
    return { m, trades, preClose: await preClosePrice(source, m, trades, signal) };
  }));
  const bets = read.flatMap(({ m, trades }) => trades.map((t) => sideBet(m, t)));
  const scored = read.filter((r) => r.preClose !== null);
  const brier: Brier = scored.length
    ? { ...brierEmpty, available: true, score: round(mean(scored.map((r) => (r.preClose! - (polymarketOutcome(r.m) === 'yes' ? 1 : 0)) ** 2)), 4), markets: scored.length, skipped: read.length - scored.length }
    : { ...brierEmpty, reason: 'no resolved market has a price that long before its close', skipped: read.length };
  return { available: true, reason: null, resolvedMarkets: resolved.length, trades: bets.length, buckets: bucketize(bets), brier };
}

/** Trades bucketed by price: hit rate and bias per bucket. */
export function bucketize(bets: readonly SideBet[]): CalibrationBucket[] {
  return BUCKET_EDGES.slice(0, -1).map((from, i) => {
    const to = BUCKET_EDGES[i + 1]!;
    const last = i === BUCKET_EDGES.length - 2;
    const inside = bets.filter((b) => b.price * 100 >= from && (last ? b.price * 100 <= to : b.price * 100 < to));
    const markets = new Set(inside.map((b) => b.market)).size;
    if (!inside.length) return { fromCents: from, toCents: to, trades: 0, markets: 0, meanPrice: null, hitRate: null, biasCents: null, hitRateLow: null, hitRateHigh: null, caveat: 'no trades at these prices' };
    const price = mean(inside.map((b) => b.price));
    const hit = inside.filter((b) => b.won).length / inside.length;
    return {
      fromCents: from, toCents: to, trades: inside.length, markets,
      meanPrice: round(price, 4), hitRate: round(hit, 4), biasCents: round((price - hit) * 100, 2),
      ...wilson(hit, markets),
      caveat: markets < FEW_MARKETS ? `few markets: ${markets} outcome${markets === 1 ? '' : 's'} behind ${inside.length} trades (trades in one market share its outcome)` : null,
    };
  });
}

/** The bucket a price falls in. */
export function bucketOf(buckets: readonly CalibrationBucket[], price: number): CalibrationBucket | undefined {
  return buckets.find((b, i) => price * 100 >= b.fromCents && (i === buckets.length - 1 ? price * 100 <= b.toCents : price * 100 < b.toCents));
}

function sideBet(m: GammaMarket, t: DataTrade): SideBet {
  const yes = t.outcomeIndex === 0;
  return { market: m.conditionId, price: t.price, won: yes === (polymarketOutcome(m) === 'yes') };
}

/** The yes price BRIER_LEAD_SECONDS before the close: the hourly history, else the last trade before then. */
async function preClosePrice(source: PredictionSource, m: GammaMarket, trades: readonly DataTrade[], signal?: AbortSignal): Promise<number | null> {
  const at = closesAt(m) - BRIER_LEAD_SECONDS;
  const history = await source.polymarket.pricesHistory(m.clobTokenIds[0]!, 'max', 60, signal);
  const point = history.filter((h) => h.t <= at).at(-1);
  if (point) return point.p;
  const trade = trades.filter((t) => t.timestamp <= at).sort((a, b) => b.timestamp - a.timestamp)[0];
  return trade ? (trade.outcomeIndex === 0 ? trade.price : 1 - trade.price) : null;
}

function longshotOf(m: GammaMarket, buckets: readonly CalibrationBucket[], now: number): LongshotRow[] {
  const q = quotePolymarket(m);
  if (q.mid === null) return [];
  const side: 'yes' | 'no' | null = q.mid < LONGSHOT_BELOW ? 'yes' : 1 - q.mid < LONGSHOT_BELOW ? 'no' : null;
  if (!side) return [];
  const price = round(side === 'yes' ? q.mid : 1 - q.mid, 4);
  const bucket = bucketOf(buckets, price);
  if (!bucket || bucket.hitRate === null || bucket.trades < MIN_BUCKET_TRADES || price <= bucket.hitRate) return [];
  // Fading: buying the other side at its ask (no's ask is 1 − yes's best bid).
  const fadeAsk = side === 'yes' ? (q.bid === null ? null : round(1 - q.bid, 4)) : q.ask;
  if (fadeAsk === null) return [];
  const wins = 1 - bucket.hitRate;
  return [{
    question: m.question, market: m.id, closesAt: iso(closesAt(m)), hoursToClose: hoursUntil(closesAt(m), now),
    longshotSide: side, longshotPrice: price, bucket, biasCents: round((price - bucket.hitRate) * 100, 2), beyondNoise: price > bucket.hitRateHigh!,
    fadeSide: side === 'yes' ? 'no' : 'yes', fadeAsk,
    fadeEdgePerDollar: round(wins - fadeAsk, 4), fadeReturnPct: round((wins / fadeAsk - 1) * 100, 2),
  }];
}

/** Wilson's 95% interval of a rate `p` seen over `n` draws. */
function wilson(p: number, n: number): { hitRateLow: number; hitRateHigh: number } {
  const z = 1.96;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return { hitRateLow: round(Math.max(0, centre - half), 4), hitRateHigh: round(Math.min(1, centre + half), 4) };
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}
