/**
 * Who trades the world's prediction markets, and at what price. Each event is listed on the
 * first venue (Polymarket-like) and, when cross-listed, on the second (Kalshi-like). A venue's
 * price follows the public belief (events.ts) with the venue's own bias:
 *  - retail overpays longshots: a contract the public believes has a chance below 15% trades a
 *    few cents above it (so 5¢ contracts win less often than 5%, as on real venues);
 *  - the second venue lags the first by a draw of minutes, so a cross-listed event's two prices
 *    part after news (a drawn event's), or whenever the reference price moves (a crypto event's):
 *    the gap, yes on one plus no on the other below 1, is planted and labelled.
 * Traders: retail (small, often longshots), whales (large, after news), conviction holders (large
 * and early on the side they believe, held to the close), and insiders who learn a drawn event's
 * outcome before the news: a fresh account (funded hours before) buys that side large, 1-6 hours
 * before the news that moves the price there (10 points or more). Deterministic per seed; roles are labels.
 */
import { createHash } from 'node:crypto';
import { getAddress, type Address } from 'viem';
import { Rng } from '../../lib/random.js';
import { beliefAt, type PredictionEvent } from './events.js';

export type Venue = 'polymarket' | 'kalshi';
export type TraderRole = 'retail' | 'whale' | 'conviction' | 'insider';

export interface PredictionTrade {
  readonly venue: Venue;
  readonly eventId: string;
  readonly account: Address;
  readonly outcome: 'yes' | 'no';
  /** Price paid per share (0-1) and shares bought. */
  readonly price: number;
  readonly shares: number;
  readonly time: number;
}

export interface PredictionAccount {
  readonly address: Address;
  readonly role: TraderRole;
  /** When it was first funded (an insider's hours before its trade). */
  readonly fundedAt: number;
}

/** A window in which the two venues priced a cross-listed event apart by more than fees. */
export interface PlantedGap {
  readonly eventId: string;
  readonly from: number;
  readonly until: number;
}

export interface PredictionTrading {
  readonly trades: readonly PredictionTrade[];
  readonly accounts: readonly PredictionAccount[];
  /** Labels: the insiders' trades (account, event, time), the gaps planted. */
  readonly insiders: readonly { readonly account: Address; readonly eventId: string; readonly time: number }[];
  readonly gaps: readonly PlantedGap[];
}

const HOUR = 3_600;
/** Public belief below which retail overpays (and, mirrored, above which the no side is overpaid). */
const LONGSHOT_BELOW = 0.15;
/** A gap is labelled where the two venues part by more than this: a drawn event's news jump, a crypto event's prices. */
export const GAP_ABOVE = 0.04;
/**
 * A crypto event's prices are compared on this grid (excursions shorter than it go unlabelled: at
 * 5 minutes, 3-8% of the time apart did; at 1, 0.1%), a window's edges then narrowed to the second.
 */
const GAP_SCAN_SECONDS = 60;
const GAP_EDGE_SECONDS = 1;

/** The venue's price of yes at `time`: the belief, longshots overpaid, the second venue lagging. */
export function venuePrice(event: PredictionEvent, venue: Venue, time: number, priceAt: (asset: string, time: number) => number, lagSeconds: number): number {
  if (time >= event.closesAt) return event.outcome ? 1 : 0;
  const belief = beliefAt(event, venue === 'kalshi' ? time - lagSeconds : time, priceAt);
  return Math.min(0.99, Math.max(0.01, belief + longshotPremium(belief) - longshotPremium(1 - belief)));
}

/** How far the second venue's price lags the first's on a cross-listed event (10-40 minutes). */
export function venueLagSeconds(seed: string, eventId: string): number {
  return new Rng(`${seed}:prediction-lag:${eventId}`).int(10, 40) * 60;
}

/** What retail adds to a longshot's price: up to 3¢ for the least likely. */
export function longshotPremium(belief: number): number {
  return belief >= LONGSHOT_BELOW ? 0 : 0.03 * (1 - belief / LONGSHOT_BELOW);
}

/** Every trade of the history up to `until`, with the accounts and the labels. */
export function simulateTrading(
  events: readonly PredictionEvent[],
  options: {
    seed: string;
    /** Trades after it are not made (Infinity: each market's whole life, for a venue that shows what stands at its own clock). */
    until: number;
    /** When the long-lived traders' funding is counted back from (default: the first market's opening). */
    since?: number;
    priceAt(asset: string, time: number): number;
  },
): PredictionTrading {
  const rng = new Rng(`${options.seed}:prediction-trading`);
  const accounts: PredictionAccount[] = [];
  // Named by role and key, never by count: an event added later leaves every other account as it was.
  const account = (role: TraderRole, key: string, fundedAt: number): PredictionAccount => {
    const digest = createHash('sha256').update(`${options.seed}:prediction:${role}:${key}`).digest('hex');
    const made = { address: getAddress(`0x${digest.slice(0, 40)}`), role, fundedAt };
    accounts.push(made);
    return made;
  };
  // Long-lived traders, funded before the first market opens (or `since`).
  const since = options.since ?? Math.min(...events.map((e) => e.opensAt));
  const retail = Array.from({ length: 40 }, (_, i) => account('retail', String(i), since - rng.int(30, 400) * 86_400));
  const whales = Array.from({ length: 6 }, (_, i) => account('whale', String(i), since - rng.int(60, 700) * 86_400));
  const patient = Array.from({ length: 8 }, (_, i) => account('conviction', String(i), since - rng.int(60, 700) * 86_400));

  const trades: PredictionTrade[] = [];
  const insiders: { account: Address; eventId: string; time: number }[] = [];
  const gaps: PlantedGap[] = [];
  for (const event of events) {
    const r = rng.fork(event.id);
    const lag = event.crossListing ? venueLagSeconds(options.seed, event.id) : 0;
    const venues: Venue[] = event.crossListing ? ['polymarket', 'kalshi'] : ['polymarket'];
    const end = Math.min(event.closesAt, options.until);
    const buy = (venue: Venue, who: PredictionAccount, time: number, outcome: 'yes' | 'no', usd: number) => {
      if (time >= end) return; // closed (or past the history): nothing trades
      const yes = venuePrice(event, venue, time, options.priceAt, lag);
      const price = round(outcome === 'yes' ? yes : 1 - yes);
      trades.push({ venue, eventId: event.id, account: who.address, outcome, price, shares: round(usd / price), time });
    };
    for (const venue of venues) {
      // Retail through the life of the market, longshots bought twice as often as their share.
      for (let t = event.opensAt + r.int(5, 90) * 60; t < end; t += r.int(20, 240) * 60) {
        const yes = venuePrice(event, venue, t, options.priceAt, lag);
        const longshot = yes < LONGSHOT_BELOW ? 'yes' : yes > 1 - LONGSHOT_BELOW ? 'no' : undefined;
        const outcome = longshot && r.chance(0.5) ? longshot : r.chance(yes) ? 'yes' : 'no';
        buy(venue, r.pick(retail), t, outcome, r.logUniform(5, 400));
      }
      // Conviction: early, large, on the side believed, held to the close.
      if (r.chance(0.5) && event.opensAt + 2 * HOUR < end) {
        const t = event.opensAt + r.int(1, 24) * HOUR;
        if (t < end) buy(venue, r.pick(patient), t, beliefAt(event, t, options.priceAt) >= 0.5 ? 'yes' : 'no', r.logUniform(5_000, 40_000));
      }
    }
    // Whales follow the news on the first venue.
    for (const news of event.news.slice(1)) {
      if (news.at < end && r.chance(0.6)) buy('polymarket', r.pick(whales), news.at + r.int(2, 30) * 60, news.belief >= 0.5 ? 'yes' : 'no', r.logUniform(10_000, 80_000));
    }
    // An insider in a quarter of the drawn events whose last news is a move (10 points or more toward
    // the outcome: something to know early): a fresh account, large, ahead of that news.
    const decisive = event.news.at(-1);
    const before = event.news.at(-2)?.belief;
    const move = decisive && before !== undefined ? (event.outcome ? decisive.belief - before : before - decisive.belief) : 0;
    if (!event.strike && decisive && move >= 0.1 && decisive.at < end && r.chance(0.25)) {
      const time = decisive.at - r.int(1, 6) * HOUR;
      if (time > event.opensAt) {
        const insider = account('insider', event.id, time - r.int(2, 20) * HOUR);
        buy('polymarket', insider, time, event.outcome ? 'yes' : 'no', r.logUniform(8_000, 60_000));
        insiders.push({ account: insider.address, eventId: event.id, time });
      }
    }
    // The second venue lags the first: after each news, the two prices part for the lag; a crypto
    // event's part whenever the reference price moves, so they are compared while both venues are open.
    if (event.crossListing && event.strike) {
      gaps.push(...cryptoGaps(event, lag, Math.min(end, event.closesAt + event.crossListing.closeShiftSeconds), options.priceAt));
    } else if (event.crossListing) {
      for (const news of event.news.slice(1)) {
        if (news.at >= end) continue;
        const before = event.news[event.news.indexOf(news) - 1]!.belief;
        if (Math.abs(news.belief - before) > GAP_ABOVE) gaps.push({ eventId: event.id, from: news.at, until: Math.min(news.at + lag, end) });
      }
    }
  }
  trades.sort((a, b) => a.time - b.time || a.eventId.localeCompare(b.eventId));
  return { trades, accounts, insiders, gaps };
}

/**
 * The windows before `close` in which a crypto event's two venue prices stand more than GAP_ABOVE
 * apart: found on a 1-minute grid (consecutive steps apart are one window), each edge then
 * narrowed by halving to the first moment apart (`from`) and the first moment back within (`until`).
 */
function cryptoGaps(event: PredictionEvent, lag: number, close: number, priceAt: (asset: string, time: number) => number): PlantedGap[] {
  const apart = (t: number) => Math.abs(venuePrice(event, 'polymarket', t, priceAt, 0) - venuePrice(event, 'kalshi', t, priceAt, lag)) > GAP_ABOVE;
  // The first moment after `a` (state `was`) that is no longer so, `b` being one.
  const edge = (a: number, b: number, was: boolean) => {
    while (b - a > GAP_EDGE_SECONDS) {
      const mid = Math.floor((a + b) / 2);
      if (apart(mid) === was) a = mid;
      else b = mid;
    }
    return b;
  };
  const gaps: PlantedGap[] = [];
  let from: number | undefined;
  for (let t = event.opensAt, last = t; t < close; last = t, t += GAP_SCAN_SECONDS) {
    const now = apart(t);
    if (now && from === undefined) from = t === event.opensAt ? t : edge(last, t, false);
    else if (!now && from !== undefined) {
      gaps.push({ eventId: event.id, from, until: edge(last, t, true) });
      from = undefined;
    }
  }
  if (from !== undefined) gaps.push({ eventId: event.id, from, until: close });
  return gaps;
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
