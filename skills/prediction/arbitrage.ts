/**
 * Cross-platform arbitrage: an event listed on both venues, bought yes on one and no on the other
 * at the asks. One of the two pays $1 at resolution whatever happens, so a pair costing less than
 * $1 after fees is an edge, if both venues resolve the event the same way: the Kalshi market's
 * subtitle states where its rule differs, and the two close at different times.
 */
import { round } from '../data/market.js';
import { JOIN_RULE, closesAt, hoursUntil, isOpen, iso, matchQuery, readEvents, type JoinedMarket, type VenueName } from './markets.js';
import type { BookLevel, GammaMarket, KalshiMarket, PredictionSource } from './source.js';
import { kalshiYesBook } from './spread.js';

/** Kalshi's taker fee: 0.07 × contracts × P × (1 − P), rounded up to the cent (its published fee schedule). */
export const KALSHI_TAKER_RATE = 0.07;
/** Pairs whose fee-adjusted cost is at most this much over $1 are listed as near misses. */
export const NEAR_MISS = 0.03;
const EPS = 1e-9;

export const ARBITRAGE_METHODOLOGY = `prediction-arbitrage/v1: events listed on both venues (${JOIN_RULE}) and open on both; for each, yes on one venue plus no on the other bought at the asks (Polymarket: the best ask of the yes or no token's CLOB book; Kalshi: yes ask = 1 − best no bid, no ask = 1 − best yes bid); Kalshi's taker fee ${KALSHI_TAKER_RATE} × P × (1 − P) per contract, rounded up to the cent, is added (Polymarket charges no trading fee on these markets); an opportunity when the pair costs less than $1: edge per $1 payout = 1 − cost; the size is what both books hold while each further pair still costs under $1; near misses (cost under $${round(1 + NEAR_MISS, 2)}) are always listed apart; the risk is the resolution-rule difference (Kalshi's subtitle) and the close-time difference`;

export interface ArbitrageLeg {
  readonly venue: VenueName;
  readonly side: 'yes' | 'no';
  readonly market: string;
  readonly ask: number;
  readonly feePerContract: number;
  readonly sizeAtAsk: number;
}

export interface ArbitrageRow {
  readonly question: string;
  readonly direction: string;
  readonly legs: readonly [ArbitrageLeg, ArbitrageLeg];
  /** Both asks and the Kalshi fee, for one contract of each: pays $1 at resolution. */
  readonly cost: number;
  readonly edgePerDollar: number;
  readonly returnPct: number;
  /** Pairs both books hold while each still costs under $1, their total cost and profit. */
  readonly contracts: number;
  readonly costUsd: number;
  readonly profitUsd: number;
  readonly risk: {
    readonly ruleDifference: string;
    readonly polymarketClosesAt: string;
    readonly kalshiClosesAt: string;
    readonly closeDifferenceHours: number;
    readonly hoursToFirstClose: number;
    readonly note: string;
  };
}

export interface ArbitrageScan {
  readonly query: string | null;
  readonly terms: readonly string[];
  readonly crossListed: number;
  readonly compared: number;
  readonly opportunities: ArbitrageRow[];
  readonly nearMisses: ArbitrageRow[];
  readonly queryRule: string;
}

/** Kalshi's taker fee for `contracts` at price `p`, rounded up to the cent. */
export function kalshiTakerFee(p: number, contracts = 1): number {
  return Math.ceil(KALSHI_TAKER_RATE * contracts * p * (1 - p) * 100 - EPS) / 100;
}

export async function findArbitrage(source: PredictionSource, options: { query?: string | undefined; limit: number; now: number; signal?: AbortSignal | undefined }): Promise<ArbitrageScan> {
  const { now, signal } = options;
  const { events } = await readEvents(source, signal);
  const joined = events.filter((e): e is JoinedMarket & { polymarket: GammaMarket; kalshi: KalshiMarket } => e.polymarket !== null && e.kalshi !== null);
  const bothOpen = joined.filter((e) => isOpen(e.polymarket, now) && isOpen(e.kalshi, now));
  const match = matchQuery(options.query, bothOpen);
  const rows = (await Promise.all(match.matched.map((e) => comparePair(source, e, now, signal)))).flat();
  // The better direction of each event: one opportunity per event.
  const best = new Map<string, ArbitrageRow>();
  for (const r of rows) {
    const key = r.legs[1].market;
    if (!best.has(key) || r.cost < best.get(key)!.cost) best.set(key, r);
  }
  const ranked = [...best.values()].sort((a, b) => a.cost - b.cost || b.profitUsd - a.profitUsd);
  return {
    query: match.query, terms: match.terms, crossListed: joined.length, compared: match.matched.length,
    opportunities: ranked.filter((r) => r.cost < 1 - EPS).slice(0, options.limit),
    nearMisses: ranked.filter((r) => r.cost >= 1 - EPS && r.cost < 1 + NEAR_MISS).slice(0, options.limit),
    queryRule: match.rule,
  };
}

/** Both directions of one event: yes on Polymarket with no on Kalshi, and yes on Kalshi with no on Polymarket. */
async function comparePair(source: PredictionSource, e: JoinedMarket & { polymarket: GammaMarket; kalshi: KalshiMarket }, now: number, signal?: AbortSignal): Promise<ArbitrageRow[]> {
  const [pmYes, pmNo, k] = await Promise.all([
    source.polymarket.book(e.polymarket.clobTokenIds[0]!, signal),
    source.polymarket.book(e.polymarket.clobTokenIds[1]!, signal),
    kalshiYesBook(source, e.kalshi.ticker, signal),
  ]);
  // Kalshi's no asks: 1 − its yes bids.
  const kNoAsks = k.bids.map((l) => ({ price: round(1 - l.price, 6), size: l.size })).sort((a, b) => a.price - b.price);
  const pmClose = closesAt(e.polymarket);
  const kClose = closesAt(e.kalshi);
  const apart = round((kClose - pmClose) / 3_600, 1);
  const risk = {
    ruleDifference: e.kalshi.subtitle || 'none stated',
    polymarketClosesAt: iso(pmClose), kalshiClosesAt: iso(kClose),
    closeDifferenceHours: apart,
    hoursToFirstClose: hoursUntil(Math.min(pmClose, kClose), now),
    note: `Kalshi's rule ${e.kalshi.subtitle ? `differs: it ${e.kalshi.subtitle}` : 'states no difference'}; ${apart === 0 ? 'both close together' : `Kalshi closes ${Math.abs(apart)} h ${apart > 0 ? 'after' : 'before'} Polymarket`}: if the two resolve the event differently, both legs can lose`,
  };
  const pair = (direction: string, pmSide: 'yes' | 'no', pmAsks: readonly BookLevel[], kSide: 'yes' | 'no', kAsks: readonly BookLevel[]): ArbitrageRow | null => {
    if (!pmAsks.length || !kAsks.length) return null;
    const walk = walkPair(pmAsks, kAsks);
    const fee = kalshiTakerFee(kAsks[0]!.price);
    const cost = round(pmAsks[0]!.price + kAsks[0]!.price + fee, 6);
    return {
      question: e.question, direction,
      legs: [
        { venue: 'polymarket', side: pmSide, market: e.polymarket.id, ask: pmAsks[0]!.price, feePerContract: 0, sizeAtAsk: pmAsks[0]!.size },
        { venue: 'kalshi', side: kSide, market: e.kalshi.ticker, ask: kAsks[0]!.price, feePerContract: fee, sizeAtAsk: kAsks[0]!.size },
      ],
      cost, edgePerDollar: round(1 - cost, 6), returnPct: round(((1 - cost) / cost) * 100, 3),
      ...walk, risk,
    };
  };
  return [
    pair('yes on Polymarket + no on Kalshi', 'yes', pmYes.asks, 'no', kNoAsks),
    pair('yes on Kalshi + no on Polymarket', 'no', pmNo.asks, 'yes', k.asks),
  ].filter((r): r is ArbitrageRow => r !== null);
}

/** Pairs bought level by level, both books best first, while one more pair costs under $1 with the Kalshi fee. */
function walkPair(pmAsks: readonly BookLevel[], kAsks: readonly BookLevel[]): { contracts: number; costUsd: number; profitUsd: number } {
  let i = 0;
  let j = 0;
  let pmLeft = pmAsks[0]!.size;
  let kLeft = kAsks[0]!.size;
  let contracts = 0;
  let cost = 0;
  while (i < pmAsks.length && j < kAsks.length) {
    const unit = pmAsks[i]!.price + kAsks[j]!.price + kalshiTakerFee(kAsks[j]!.price);
    if (unit >= 1 - EPS) break;
    const q = Math.min(pmLeft, kLeft);
    contracts += q;
    cost += q * unit;
    pmLeft -= q;
    kLeft -= q;
    if (pmLeft <= EPS && ++i < pmAsks.length) pmLeft = pmAsks[i]!.size;
    if (kLeft <= EPS && ++j < kAsks.length) kLeft = kAsks[j]!.size;
  }
  return { contracts: round(contracts, 2), costUsd: round(cost, 2), profitUsd: round(contracts - cost, 2) };
}
