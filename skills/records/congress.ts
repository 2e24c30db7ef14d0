/**
 * Congress trades, methodology `congress-trades/v1`: the House and Senate periodic transaction
 * reports read through the adapter, each trade with who made it, the ticker, side, amount band,
 * its transaction and disclosure dates, the filing delay (late beyond the STOCK Act's 45 days) and
 * the stock's return from the transaction date's close to now against the index (SPY), priced by
 * the reader passed in. Each member gets a record from every measurable trade in the feeds, graded
 * over a fixed horizon after the trade (purchases count the excess return, sales its opposite:
 * caller grading against a benchmark; a fixed horizon keeps old trades' later noise out), and a
 * z-score (mean over its standard error) ranks the members. Per ticker over the window, purchases
 * and sales (netted by their estimated USD) become long and short signals scored from how many
 * members trade it, how much, the buyers' records and how fresh the disclosures are.
 */
import { round } from '../data/market.js';
import { cachedReader, closeOfDay, moveVsIndex, type MoveVsIndex, type PriceReader } from './prices.js';
import { sectorOf } from './recipients.js';
import type { CongressTradeRead, FeedRead, RecordsSource, TradeSide } from './source.js';

/** The STOCK Act: a periodic transaction report is due within 45 days of the transaction. */
export const FILING_DEADLINE_DAYS = 45;
export const DEFAULT_LOOKBACK_DAYS = 90;
/** A member's record needs this many measured trades before its z-score counts. */
export const MIN_RECORD_TRADES = 3;
/** A record is graded over this horizon after each trade (to now when sooner), once at least MIN_HORIZON_DAYS have passed: two weeks, long enough for the news a trade may be ahead of, short enough that later noise does not drown it. */
export const RECORD_HORIZON_DAYS = 10;
export const MIN_HORIZON_DAYS = 5;
/** Score weights (they sum to 1) and the band cut-offs. */
const WEIGHTS = { cluster: 0.35, size: 0.25, record: 0.25, freshness: 0.15 } as const;
const STRONG = 0.65;
const MODERATE = 0.4;
export const CONGRESS_METHODOLOGY = `congress-trades/v1 (House and Senate stock-watcher reports; amount = band midpoint (an open band its floor); filing delay = disclosure - transaction date, late > ${FILING_DEADLINE_DAYS} days; return = transaction date's close to now vs SPY; member record = mean signed excess return over ${RECORD_HORIZON_DAYS} days after each trade (sales negated; >= ${MIN_HORIZON_DAYS} days elapsed), z = mean / standard error, >= ${MIN_RECORD_TRADES} trades; signal score = ${WEIGHTS.cluster} members (3+ = full) + ${WEIGHTS.size} size (log, $15k-$1.5M) + ${WEIGHTS.record} buyers' record + ${WEIGHTS.freshness} freshness (0-${FILING_DEADLINE_DAYS} days); strong >= ${STRONG}, moderate >= ${MODERATE}, actionable = not weak)`;

const DAY = 86_400;

export interface CongressOptions {
  /** Rows of trades and signals returned (1-25). */
  readonly limit: number;
  /** The time the answer stands at (unix seconds). */
  readonly now: number;
  /** Only this ticker's trades (e.g. "Which members of Congress traded NVDA?"). */
  readonly ticker?: string;
  /** Trades disclosed within this many days make the signals and the trade list. */
  readonly lookbackDays?: number;
}

export type SignalBand = 'strong' | 'moderate' | 'weak';

export interface CongressSignal {
  readonly ticker: string;
  /** Estimated USD traded on this side (band midpoints). */
  readonly totalUsd: number;
  /** 0-1, from the components the rationale names. */
  readonly score: number;
  readonly band: SignalBand;
  readonly headline: string;
  /** Distinct members trading it on this side. */
  readonly lawmakerCount: number;
  /** The earliest transaction (ISO) among them. */
  readonly earliestTxAt: string;
  readonly rationale: string;
  readonly lawmakers: readonly string[];
}

export interface CongressTradeRow {
  readonly member: string;
  readonly chamber: 'house' | 'senate';
  readonly state: string | null;
  readonly district: string | null;
  readonly ticker: string | null;
  readonly assetDescription: string;
  readonly side: TradeSide;
  readonly owner: string;
  /** The band as filed, and its midpoint in USD. */
  readonly amount: string;
  readonly amountUsdEstimate: number;
  readonly transactionDate: string;
  readonly disclosureDate: string;
  readonly filingDelayDays: number;
  /** Disclosed more than FILING_DEADLINE_DAYS after the transaction. */
  readonly late: boolean;
  /** The stock from the transaction date's close to now, against SPY (null: not priced). */
  readonly sinceTransaction: MoveVsIndex | null;
  /** The same over RECORD_HORIZON_DAYS after the trade (to now when sooner): what the member's record grades. */
  readonly overHorizon: MoveVsIndex | null;
  readonly ptrLink: string | null;
  /** Which feed the row came from. */
  readonly source: string;
}

export interface LawmakerRecord {
  readonly member: string;
  readonly chamber: 'house' | 'senate';
  readonly trades: number;
  /** Trades with a price on both dates (exchanges are not measured). */
  readonly measured: number;
  /** Mean signed excess return (%) over RECORD_HORIZON_DAYS: a purchase's excess, a sale's negated. */
  readonly meanExcessPct: number | null;
  /** Share of measured trades whose signed excess was positive. */
  readonly hitRate: number | null;
  /** Mean over its standard error; null below MIN_RECORD_TRADES. */
  readonly zScore: number | null;
  readonly lateFilings: number;
}

export interface CongressTradesResult {
  readonly count: number;
  readonly actionableLongs: number;
  readonly shorts: number;
  readonly sources: readonly (FeedRead | { name: 'prices'; source: string })[];
  readonly sectorAggregates: readonly { sector: string; totalUsd: number; count: number }[];
  readonly longSignals: readonly CongressSignal[];
  readonly shortSignals: readonly CongressSignal[];
  readonly trades: readonly CongressTradeRow[];
  readonly lateFilings: number;
  readonly lawmakers: readonly LawmakerRecord[];
  readonly ticker: string | null;
  readonly window: { readonly from: string; readonly to: string; readonly lookbackDays: number };
  readonly methodology: string;
  readonly fetchedAt: string;
}

/** A band's midpoint; an open band ("Over $50,000,000") counts its floor. */
export const bandMidUsd = (t: Pick<CongressTradeRead, 'band'>) => (t.band.highUsd === null ? t.band.lowUsd : (t.band.lowUsd + t.band.highUsd) / 2);
export const filingDelayDays = (t: Pick<CongressTradeRead, 'transactedAt' | 'disclosedAt'>) => Math.round((t.disclosedAt - t.transactedAt) / DAY);
const signOf = (side: TradeSide) => (side === 'purchase' ? 1 : side === 'exchange' ? 0 : -1);
const clamp01 = (x: number) => Math.max(0, Math.min(1, x));
const usd = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`;

/** Each member's record from its measured trades, best z-score first (members without one last, by mean). */
export function lawmakerRecords(rows: readonly { trade: CongressTradeRead; move: MoveVsIndex | null }[]): LawmakerRecord[] {
  const by = new Map<string, { chamber: 'house' | 'senate'; trades: number; late: number; signed: number[] }>();
  for (const { trade, move } of rows) {
    const r = by.get(trade.member) ?? { chamber: trade.chamber, trades: 0, late: 0, signed: [] };
    r.trades++;
    if (filingDelayDays(trade) > FILING_DEADLINE_DAYS) r.late++;
    if (move && signOf(trade.side) !== 0) r.signed.push(signOf(trade.side) * move.excessPct);
    by.set(trade.member, r);
  }
  return [...by].map(([member, r]) => {
    const n = r.signed.length;
    const mean = n ? r.signed.reduce((a, b) => a + b, 0) / n : null;
    const sd = n > 1 ? Math.sqrt(r.signed.reduce((a, b) => a + (b - mean!) ** 2, 0) / (n - 1)) : null;
    const zScore = n >= MIN_RECORD_TRADES && sd ? round(mean! / (sd / Math.sqrt(n)), 2) : null;
    return {
      member, chamber: r.chamber, trades: r.trades, measured: n, meanExcessPct: mean === null ? null : round(mean, 2),
      hitRate: n ? round(r.signed.filter((x) => x > 0).length / n, 3) : null, zScore, lateFilings: r.late,
    };
  }).sort((a, b) => (b.zScore ?? -Infinity) - (a.zScore ?? -Infinity) || (b.meanExcessPct ?? -Infinity) - (a.meanExcessPct ?? -Infinity));
}

/** Long (purchases) and short (sales) signals per ticker over the window's trades, netted by estimated USD. */
export function tickerSignals(trades: readonly CongressTradeRead[], records: ReadonlyMap<string, LawmakerRecord>, now: number): { longs: CongressSignal[]; shorts: CongressSignal[] } {
  const byTicker = new Map<string, CongressTradeRead[]>();
  for (const t of trades) if (t.ticker && t.side !== 'exchange') byTicker.set(t.ticker, [...(byTicker.get(t.ticker) ?? []), t]);
  const longs: CongressSignal[] = [];
  const shorts: CongressSignal[] = [];
  for (const [ticker, list] of byTicker) {
    const buys = list.filter((t) => t.side === 'purchase');
    const sells = list.filter((t) => t.side !== 'purchase');
    const buyUsd = buys.reduce((s, t) => s + bandMidUsd(t), 0);
    const sellUsd = sells.reduce((s, t) => s + bandMidUsd(t), 0);
    const long = buyUsd >= sellUsd;
    const side = long ? buys : sells;
    const totalUsd = long ? buyUsd : sellUsd;
    const lawmakers = [...new Set(side.map((t) => t.member))];
    const zs = lawmakers.map((m) => records.get(m)?.zScore).filter((z): z is number => z !== null && z !== undefined);
    // A seller with a good record is as telling as a buyer with one: the record counts whichever side it trades.
    const record = zs.length ? clamp01(0.5 + Math.max(...zs) / 6) : 0.5;
    const cluster = clamp01(lawmakers.length / 3);
    const size = clamp01(Math.log10(Math.max(1, totalUsd) / 15_000) / 2);
    const latest = Math.max(...side.map((t) => t.disclosedAt));
    const freshness = clamp01(1 - (now - latest) / (FILING_DEADLINE_DAYS * DAY));
    const score = round(WEIGHTS.cluster * cluster + WEIGHTS.size * size + WEIGHTS.record * record + WEIGHTS.freshness * freshness, 3);
    const band: SignalBand = score >= STRONG ? 'strong' : score >= MODERATE ? 'moderate' : 'weak';
    const earliest = Math.min(...side.map((t) => t.transactedAt));
    const verb = long ? 'bought' : 'sold';
    const signal: CongressSignal = {
      ticker, totalUsd: round(totalUsd, 0), score, band, lawmakerCount: lawmakers.length, earliestTxAt: new Date(earliest * 1000).toISOString(), lawmakers,
      headline: `${lawmakers.length} member${lawmakers.length === 1 ? '' : 's'} of Congress ${verb} ${ticker} (about ${usd(totalUsd)})`,
      rationale: `${lawmakers.length} ${verb} (members ${round(cluster, 2)}), ${usd(totalUsd)} by band midpoints (size ${round(size, 2)}), best record z ${zs.length ? round(Math.max(...zs), 2) : 'n/a'} (record ${round(record, 2)}), last disclosed ${Math.round((now - latest) / DAY)} days ago (freshness ${round(freshness, 2)})${long ? '' : `; against ${usd(buyUsd)} bought`}`,
    };
    (long ? longs : shorts).push(signal);
  }
  const order = (a: CongressSignal, b: CongressSignal) => b.score - a.score || b.totalUsd - a.totalUsd;
  return { longs: longs.sort(order), shorts: shorts.sort(order) };
}

export async function congressTrades(source: RecordsSource, priceReader: PriceReader, options: CongressOptions): Promise<CongressTradesResult> {
  const { limit, now } = options;
  const lookbackDays = options.lookbackDays ?? DEFAULT_LOOKBACK_DAYS;
  const ticker = options.ticker?.trim().toUpperCase() || null;
  const prices = cachedReader(priceReader);
  const feed = await source.congressTrades();
  const fetchedAt = new Date().toISOString();
  const visible = feed.trades.filter((t) => t.disclosedAt <= now);
  // Every trade a member made is part of its record; priced from the transaction date's close.
  const measured = await Promise.all(visible.map(async (trade) => {
    const from = closeOfDay(trade.transactedAt);
    const to = Math.min(now, from + RECORD_HORIZON_DAYS * DAY);
    const [since, horizon] = trade.ticker
      ? await Promise.all([moveVsIndex(prices, trade.ticker, from, now), to - from >= MIN_HORIZON_DAYS * DAY ? moveVsIndex(prices, trade.ticker, from, to) : null])
      : [null, null];
    return { trade, since, horizon };
  }));
  const records = lawmakerRecords(measured.map((m) => ({ trade: m.trade, move: m.horizon })));
  const recordOf = new Map(records.map((r) => [r.member, r]));
  const from = now - lookbackDays * DAY;
  const inWindow = measured.filter(({ trade }) => trade.disclosedAt >= from && (!ticker || trade.ticker === ticker));
  const { longs, shorts } = tickerSignals(inWindow.map((m) => m.trade), recordOf, now);
  const sectors = new Map<string, { totalUsd: number; count: number }>();
  for (const { trade } of inWindow) {
    const key = trade.ticker ? sectorOf(trade.ticker) : 'other';
    const s = sectors.get(key) ?? { totalUsd: 0, count: 0 };
    s.totalUsd += bandMidUsd(trade);
    s.count++;
    sectors.set(key, s);
  }
  const feedName = (t: CongressTradeRead) => (t.chamber === 'house' ? 'house-stock-watcher' : 'senate-stock-watcher');
  const rows = inWindow
    .sort((a, b) => b.trade.disclosedAt - a.trade.disclosedAt || b.trade.transactedAt - a.trade.transactedAt)
    .slice(0, limit)
    .map(({ trade: t, since, horizon }): CongressTradeRow => ({
      member: t.member, chamber: t.chamber, state: t.state, district: t.district, ticker: t.ticker, assetDescription: t.assetDescription, side: t.side, owner: t.owner,
      amount: t.band.label, amountUsdEstimate: bandMidUsd(t), transactionDate: t.transactionDate, disclosureDate: t.disclosureDate,
      filingDelayDays: filingDelayDays(t), late: filingDelayDays(t) > FILING_DEADLINE_DAYS, sinceTransaction: since, overHorizon: horizon, ptrLink: t.ptrLink, source: feedName(t),
    }));
  return {
    count: inWindow.length,
    actionableLongs: longs.filter((s) => s.band !== 'weak').length,
    shorts: shorts.length,
    sources: [...feed.feeds, { name: 'prices', source: prices.source }],
    sectorAggregates: [...sectors].map(([sector, s]) => ({ sector, totalUsd: round(s.totalUsd, 0), count: s.count })).sort((a, b) => b.totalUsd - a.totalUsd),
    longSignals: longs.slice(0, limit),
    shortSignals: shorts.slice(0, limit),
    trades: rows,
    lateFilings: inWindow.filter(({ trade }) => filingDelayDays(trade) > FILING_DEADLINE_DAYS).length,
    lawmakers: ticker ? records.filter((r) => inWindow.some(({ trade }) => trade.member === r.member)) : records,
    ticker,
    window: { from: new Date(from * 1000).toISOString(), to: new Date(now * 1000).toISOString(), lookbackDays },
    methodology: CONGRESS_METHODOLOGY,
    fetchedAt,
  };
}
