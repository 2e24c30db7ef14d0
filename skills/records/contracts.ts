/**
 * Government contracts, methodology `government-contracts/v1`: federal contract awards (USAspending
 * award types A-D) to the covered listed companies, read through the adapter over the window and the
 * year before it, each matched to its ticker by the recipient's name. An award is a surprise when
 * it is large against the company's usual award (the median of its awards over the year before);
 * the surprise carries most of its score. Per company the best award in the window makes a long
 * signal; a de-obligation at least the usual award's size makes a short one. Each award's stock move
 * after it (from the close before its action date) is measured against the index, over five days
 * and to now. Large awards to recipients no ticker covers are suggested for the watchlist.
 */
import { round } from '../data/market.js';
import { cachedReader, closeOfDay, moveVsIndex, type MoveVsIndex, type PriceReader } from './prices.js';
import { RECIPIENT_SEARCH_TERMS, sectorOf, tickerOfRecipient } from './recipients.js';
import type { AwardRead, FeedRead, RecordsSource } from './source.js';

export const DEFAULT_WINDOW_DAYS = 30;
/** The company's usual award is the median over this many days before an award, from at least MIN_HISTORY awards. */
export const HISTORY_DAYS = 365;
export const MIN_HISTORY = 3;
/** A surprise ratio of SURPRISE_FLOOR scores nothing, SURPRISE_FULL or more scores fully (log scale between). */
export const SURPRISE_FLOOR = 2;
export const SURPRISE_FULL = 20;
/** The post-award move is measured over this many days (and to now). */
export const MOVE_DAYS = 5;
/** Awards of at least this much to recipients no ticker covers are watchlist candidates. */
export const WATCHLIST_MIN_USD = 50_000_000;
const WEIGHTS = { surprise: 0.75, size: 0.15, fms: 0.05, confluence: 0.05 } as const;
const STRONG = 0.65;
const MODERATE = 0.4;
export const CONTRACTS_METHODOLOGY = `government-contracts/v1 (USAspending contracts A-D; ticker by recipient name; usual award = median of the company's awards over the ${HISTORY_DAYS} days before (>= ${MIN_HISTORY}); surpriseRatio = award / usual; score = ${WEIGHTS.surprise} surprise (log, ${SURPRISE_FLOOR}x-${SURPRISE_FULL}x) + ${WEIGHTS.size} size (log, $1M-$1B) + ${WEIGHTS.fms} FMS + ${WEIGHTS.confluence} confluence (stock beat SPY since the award); strong >= ${STRONG}, moderate >= ${MODERATE}, actionable = not weak; short = a de-obligation >= the usual award; move = close before the action date to ${MOVE_DAYS} days on and to now, vs SPY)`;

const DAY = 86_400;
const clamp01 = (x: number) => Math.max(0, Math.min(1, x));
const usd = (n: number) => (Math.abs(n) >= 1e9 ? `$${round(n / 1e9, 2)}B` : Math.abs(n) >= 1e6 ? `$${round(n / 1e6, 1)}M` : `$${Math.round(n).toLocaleString('en-US')}`);

export interface ContractsOptions {
  readonly limit: number;
  readonly now: number;
  readonly windowDays?: number;
}

export type SignalBand = 'strong' | 'moderate' | 'weak';

/** One award in the window, scored, with the stock's move after it. */
export interface ScoredAward {
  readonly awardId: string;
  readonly recipient: string;
  readonly ticker: string;
  readonly sector: string;
  readonly agency: string | null;
  readonly subAgency: string | null;
  readonly amountUsd: number;
  readonly awardedAt: string;
  /** The median of the company's awards over HISTORY_DAYS before this one (null: fewer than MIN_HISTORY). */
  readonly usualAwardUsd: number | null;
  /** amountUsd / usualAwardUsd: how many usual awards this one is (null without a usual). */
  readonly surpriseRatio: number | null;
  /** Funded through Foreign Military Sales: a foreign government pays through the US (named in the description). */
  readonly hasFms: boolean;
  /** The stock beat the index since the award: the market agrees with the news (null: not priced). */
  readonly fundamentalsConfluence: boolean | null;
  readonly score: number;
  readonly band: SignalBand;
  /** The stock against SPY from the close before the action date, over MOVE_DAYS days (or less when newer) and to now. */
  readonly move: { readonly days: MoveVsIndex | null; readonly sinceAward: MoveVsIndex | null };
  readonly source: 'usaspending';
}

export interface ContractSignal {
  /** The ticker the award moves. */
  readonly primaryTicker: string;
  /** Every ticker the signal touches (the primary first). */
  readonly tickers: readonly string[];
  /** USD awarded to the company over the window (de-obligations netted). */
  readonly totalUsd: number;
  /** 0-1: the best award's score (the weights the methodology names). */
  readonly score: number;
  readonly band: SignalBand;
  readonly headline: string;
  /** The best award's action date (ISO). */
  readonly awardedAt: string;
  readonly sector: string;
  /** long for new money, short for money taken back. */
  readonly direction: 'long' | 'short';
  /** The best award against the company's usual award (null: no usual). */
  readonly surpriseRatio: number | null;
  /** Any award of the company in the window funded through Foreign Military Sales. */
  readonly hasFms: boolean;
  /** The stock beat the index since the best award (null: not priced). */
  readonly fundamentalsConfluence: boolean | null;
  readonly rationale: string;
  readonly awardIds: readonly string[];
}

export interface GovernmentContractsResult {
  /** Awards to covered companies in the window. */
  readonly count: number;
  /** Long signals that are not weak. */
  readonly actionableLongs: number;
  readonly shorts: number;
  readonly topTicker: string | null;
  readonly topScore: number | null;
  /** The sector awarded the most USD in the window. */
  readonly topSector: string | null;
  readonly sources: readonly (FeedRead | { name: 'prices'; source: string })[];
  readonly sectorAggregates: readonly { sector: string; totalUsd: number; awardCount: number; topTickers: readonly string[] }[];
  readonly longSignals: readonly ContractSignal[];
  readonly shortSignals: readonly ContractSignal[];
  /** Recipients no covered ticker matches whose awards in the window add to WATCHLIST_MIN_USD or more. */
  readonly watchlistExpansion: readonly { recipient: string; totalUsd: number; awardCount: number; largestAwardId: string; agency: string | null }[];
  /** The window's awards, best score first. */
  readonly awards: readonly ScoredAward[];
  readonly window: { readonly from: string; readonly to: string; readonly days: number };
  readonly truncated: boolean;
  readonly methodology: string;
  readonly fetchedAt: string;
}

/** The median of the company's positive awards in the HISTORY_DAYS before `at` (null below MIN_HISTORY). */
export function usualAward(history: readonly AwardRead[], at: number): number | null {
  const sizes = history.filter((a) => a.amountUsd > 0 && a.awardedAt < at && a.awardedAt >= at - HISTORY_DAYS * DAY).map((a) => a.amountUsd).sort((a, b) => a - b);
  if (sizes.length < MIN_HISTORY) return null;
  const mid = Math.floor(sizes.length / 2);
  return sizes.length % 2 ? sizes[mid]! : (sizes[mid - 1]! + sizes[mid]!) / 2;
}

/** An award's score from its surprise, size, FMS funding and the market's confluence. */
export function awardScore(a: { amountUsd: number; surpriseRatio: number | null; hasFms: boolean; confluence: boolean | null }): number {
  const surprise = a.surpriseRatio === null ? 0 : clamp01(Math.log(a.surpriseRatio / SURPRISE_FLOOR) / Math.log(SURPRISE_FULL / SURPRISE_FLOOR));
  const size = clamp01(Math.log10(Math.max(1, Math.abs(a.amountUsd)) / 1e6) / 3);
  return round(WEIGHTS.surprise * surprise + WEIGHTS.size * size + WEIGHTS.fms * (a.hasFms ? 1 : 0) + WEIGHTS.confluence * (a.confluence ? 1 : 0), 3);
}

const bandOf = (score: number): SignalBand => (score >= STRONG ? 'strong' : score >= MODERATE ? 'moderate' : 'weak');

export async function governmentContracts(source: RecordsSource, priceReader: PriceReader, options: ContractsOptions): Promise<GovernmentContractsResult> {
  const { limit, now } = options;
  const days = options.windowDays ?? DEFAULT_WINDOW_DAYS;
  const prices = cachedReader(priceReader);
  const from = now - days * DAY;
  // The covered companies over the window and the year before it; anyone's large awards over the window.
  const [covered, large] = await Promise.all([
    source.awards({ since: from - HISTORY_DAYS * DAY, until: now, recipients: RECIPIENT_SEARCH_TERMS }),
    source.awards({ since: from, until: now, minAmountUsd: WATCHLIST_MIN_USD }),
  ]);
  const fetchedAt = new Date().toISOString();
  const byTicker = new Map<string, AwardRead[]>();
  for (const a of covered.awards) {
    const ticker = tickerOfRecipient(a.recipient);
    if (ticker && a.awardedAt <= now) byTicker.set(ticker, [...(byTicker.get(ticker) ?? []), a]);
  }
  const scored: ScoredAward[] = [];
  const deobligations: ScoredAward[] = [];
  let count = 0;
  for (const [ticker, awards] of byTicker) {
    for (const a of awards.filter((x) => x.awardedAt >= from - (from % DAY))) {
      count++;
      const usual = usualAward(awards, a.awardedAt);
      const surpriseRatio = usual === null ? null : round(Math.abs(a.amountUsd) / usual, 2);
      const start = closeOfDay(a.awardedAt - DAY);
      const [moveDays, sinceAward] = await Promise.all([moveVsIndex(prices, ticker, start, Math.min(now, start + MOVE_DAYS * DAY)), moveVsIndex(prices, ticker, start, now)]);
      const confluence = sinceAward ? sinceAward.excessPct > 0 : null;
      const score = awardScore({ amountUsd: a.amountUsd, surpriseRatio, hasFms: a.hasFms, confluence });
      const row: ScoredAward = {
        awardId: a.awardId, recipient: a.recipient, ticker, sector: sectorOf(ticker), agency: a.agency, subAgency: a.subAgency, amountUsd: a.amountUsd,
        awardedAt: new Date(a.awardedAt * 1000).toISOString(), usualAwardUsd: usual === null ? null : round(usual, 2), surpriseRatio, hasFms: a.hasFms,
        fundamentalsConfluence: confluence, score, band: bandOf(score), move: { days: moveDays, sinceAward }, source: 'usaspending',
      };
      if (a.amountUsd > 0) scored.push(row);
      else if (surpriseRatio !== null && surpriseRatio >= 1) deobligations.push(row);
    }
  }
  scored.sort((a, b) => b.score - a.score || b.amountUsd - a.amountUsd);
  const signal = (ticker: string, best: ScoredAward, all: readonly ScoredAward[], direction: 'long' | 'short'): ContractSignal => {
    const totalUsd = round(all.reduce((s, a) => s + a.amountUsd, 0), 2);
    return {
      primaryTicker: ticker, tickers: [ticker], totalUsd, score: best.score, band: best.band, awardedAt: best.awardedAt, sector: best.sector, direction,
      surpriseRatio: best.surpriseRatio, hasFms: all.some((a) => a.hasFms), fundamentalsConfluence: best.fundamentalsConfluence, awardIds: all.map((a) => a.awardId),
      headline: direction === 'long'
        ? `${ticker}: ${usd(best.amountUsd)} from ${best.subAgency ?? best.agency ?? 'a federal agency'}${best.surpriseRatio === null ? '' : `, ${best.surpriseRatio}x its usual award`}`
        : `${ticker}: ${usd(-best.amountUsd)} de-obligated by ${best.subAgency ?? best.agency ?? 'a federal agency'}`,
      rationale: `${all.length} award${all.length === 1 ? '' : 's'} in ${days} days totalling ${usd(totalUsd)}; best ${best.awardId} ${usd(best.amountUsd)} against a usual ${best.usualAwardUsd === null ? 'unknown (too few awards in the year before)' : usd(best.usualAwardUsd)}`
        + `${best.hasFms ? '; funded through Foreign Military Sales' : ''}; stock ${best.move.sinceAward ? `${best.move.sinceAward.excessPct >= 0 ? '+' : ''}${best.move.sinceAward.excessPct}% vs SPY since` : 'not priced'}`,
    };
  };
  const longSignals = [...new Set(scored.map((a) => a.ticker))].map((t) => {
    const all = scored.filter((a) => a.ticker === t);
    return signal(t, all[0]!, all, 'long');
  }).sort((a, b) => b.score - a.score || b.totalUsd - a.totalUsd);
  const shortSignals = [...new Set(deobligations.map((a) => a.ticker))].map((t) => {
    const all = deobligations.filter((a) => a.ticker === t).sort((a, b) => b.score - a.score);
    return signal(t, all[0]!, all, 'short');
  }).sort((a, b) => b.score - a.score);
  const sectors = new Map<string, { totalUsd: number; awardCount: number; byTicker: Map<string, number> }>();
  for (const a of scored) {
    const s = sectors.get(a.sector) ?? { totalUsd: 0, awardCount: 0, byTicker: new Map() };
    s.totalUsd += a.amountUsd;
    s.awardCount++;
    s.byTicker.set(a.ticker, (s.byTicker.get(a.ticker) ?? 0) + a.amountUsd);
    sectors.set(a.sector, s);
  }
  const sectorAggregates = [...sectors].map(([sector, s]) => ({
    sector, totalUsd: round(s.totalUsd, 2), awardCount: s.awardCount, topTickers: [...s.byTicker].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([t]) => t),
  })).sort((a, b) => b.totalUsd - a.totalUsd);
  const unlisted = new Map<string, AwardRead[]>();
  for (const a of large.awards) if (!tickerOfRecipient(a.recipient) && a.awardedAt <= now) unlisted.set(a.recipient, [...(unlisted.get(a.recipient) ?? []), a]);
  const watchlistExpansion = [...unlisted].map(([recipient, list]) => {
    const top = [...list].sort((a, b) => b.amountUsd - a.amountUsd)[0]!;
    return { recipient, totalUsd: round(list.reduce((s, a) => s + a.amountUsd, 0), 2), awardCount: list.length, largestAwardId: top.awardId, agency: top.agency };
  }).filter((w) => w.totalUsd >= WATCHLIST_MIN_USD).sort((a, b) => b.totalUsd - a.totalUsd).slice(0, limit);
  return {
    count,
    actionableLongs: longSignals.filter((s) => s.band !== 'weak').length,
    shorts: shortSignals.length,
    topTicker: longSignals[0]?.primaryTicker ?? null,
    topScore: longSignals[0]?.score ?? null,
    topSector: sectorAggregates[0]?.sector ?? null,
    sources: [covered.feed, large.feed, { name: 'prices', source: prices.source }],
    sectorAggregates,
    longSignals: longSignals.slice(0, limit),
    shortSignals: shortSignals.slice(0, limit),
    watchlistExpansion,
    awards: scored.slice(0, limit),
    window: { from: new Date(from * 1000).toISOString(), to: new Date(now * 1000).toISOString(), days },
    truncated: covered.truncated || large.truncated,
    methodology: CONTRACTS_METHODOLOGY,
    fetchedAt,
  };
}
