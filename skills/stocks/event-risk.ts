/**
 * The event-risk board: stock tokens with a corporate action ahead (a multiplier change an issuer
 * has scheduled under ERC-8056's pending extension: a split, a reverse split, a dividend
 * reinvested), and how each token behaved at its past events: multiplier changes, and earnings
 * days read from the feed (a session move of at least EARNINGS_MOVE_PCT in one round). For each
 * past event: the premium an hour before, an hour after and six hours after, and how long it took
 * to come back within the band.
 */
import type { Market } from '../data/market.js';
import { round } from '../data/market.js';
import { inSession } from '../../lib/market-hours.js';
import { priceAt, type FeedRound, type MultiplierChange } from './history.js';
import type { ListedStock } from './stock-market.js';

/** A feed round moving the price this much (percent) at once in session reads as an earnings release. */
export const EARNINGS_MOVE_PCT = 4;
/** A premium within this band (percent) is back at fair value. */
export const BACK_AT_FAIR_PCT = 0.5;

export type ActionKind = 'split' | 'reverse-split' | 'dividend' | 'earnings';

export function actionKind(ratio: number): Exclude<ActionKind, 'earnings'> {
  if (ratio >= 1.5) return 'split';
  if (ratio < 1) return 'reverse-split';
  return 'dividend';
}

export interface PastEvent {
  readonly kind: ActionKind;
  readonly at: string;
  readonly multiplier: { readonly before: number; readonly after: number } | null;
  /** The underlying's move across the event, percent (the split ratio shows here). */
  readonly underlyingMovePct: number | null;
  readonly premiumPct: { readonly hourBefore: number | null; readonly hourAfter: number | null; readonly sixHoursAfter: number | null };
  /** Hours after the event until the premium was back within the band; null when it has not been. */
  readonly hoursToFair: number | null;
}

export interface EventRiskRow {
  readonly chain: string;
  readonly token: string;
  readonly symbol: string;
  readonly underlying: string;
  readonly issuer: string;
  readonly ahead: { readonly kind: ActionKind; readonly effectiveAt: string; readonly hoursAhead: number; readonly multiplier: { readonly now: number; readonly next: number } } | null;
  readonly premiumPct: number | null;
  readonly liquidityUsd: number;
  readonly past: PastEvent[];
  /** The largest premium (absolute, percent) seen an hour after a past event. */
  readonly worstPremiumAfterPct: number | null;
}

const HOUR = 3600;

/** The token's multiplier in effect at `time`, from its changes (the current one after the last). */
export function multiplierAt(changes: readonly MultiplierChange[], current: number, time: number): number {
  let m: number | null = null;
  for (const c of changes) {
    if (c.effectiveAt <= time) m = c.to;
    else if (m === null) return c.from;
  }
  return m ?? current;
}

async function premiumAt(market: Market, token: ListedStock, rounds: readonly FeedRound[], changes: readonly MultiplierChange[], time: number): Promise<number | null> {
  if (time > market.head.timestamp) return null;
  const [price, underlying] = [await market.priceAt(token.address.toLowerCase(), time), priceAt(rounds, time)];
  if (price === null || underlying === null) return null;
  return round((price / (underlying * multiplierAt(changes, token.multiplier, time)) - 1) * 100, 3);
}

/** Past earnings days of an underlying, read from its feed: one in-session round moving at least EARNINGS_MOVE_PCT. */
export function earningsFromFeed(rounds: readonly FeedRound[], splits: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < rounds.length; i++) {
    const move = Math.abs(rounds[i]!.priceUsd / rounds[i - 1]!.priceUsd - 1) * 100;
    const at = rounds[i]!.updatedAt;
    // A split's round is the split, not earnings.
    if (move >= EARNINGS_MOVE_PCT && inSession(at) && !splits.some((s) => Math.abs(s - at) < 2 * HOUR)) out.push(at);
  }
  return out;
}

export async function eventRisk(token: ListedStock, market: Market, rounds: readonly FeedRound[], changes: readonly MultiplierChange[], now: number): Promise<EventRiskRow> {
  const own = changes.filter((c) => c.token.toLowerCase() === token.address.toLowerCase()).sort((a, b) => a.effectiveAt - b.effectiveAt);
  const events: { kind: ActionKind; at: number; multiplier: PastEvent['multiplier'] }[] = [
    ...own.filter((c) => c.effectiveAt <= now).map((c) => ({ kind: actionKind(c.to / c.from), at: c.effectiveAt, multiplier: { before: c.from, after: c.to } })),
    ...earningsFromFeed(rounds, own.map((c) => c.effectiveAt)).map((at) => ({ kind: 'earnings' as const, at, multiplier: null })),
  ].sort((a, b) => a.at - b.at);
  const past: PastEvent[] = [];
  for (const e of events) {
    const [before, after, later] = await Promise.all([-HOUR, HOUR, 6 * HOUR].map((d) => premiumAt(market, token, rounds, own, e.at + d)));
    let hoursToFair: number | null = null;
    for (let h = 1; h <= 72 && e.at + h * HOUR <= now; h++) {
      const p = await premiumAt(market, token, rounds, own, e.at + h * HOUR);
      if (p !== null && Math.abs(p) <= BACK_AT_FAIR_PCT) { hoursToFair = h; break; }
    }
    const u0 = priceAt(rounds, e.at - 1);
    const u1 = priceAt(rounds, e.at + HOUR);
    past.push({
      kind: e.kind, at: new Date(e.at * 1000).toISOString(), multiplier: e.multiplier,
      underlyingMovePct: u0 && u1 ? round((u1 / u0 - 1) * 100, 2) : null,
      premiumPct: { hourBefore: before!, hourAfter: after!, sixHoursAfter: later! }, hoursToFair,
    });
  }
  const afters = past.map((p) => p.premiumPct.hourAfter).filter((p): p is number => p !== null);
  return {
    chain: token.chain, token: token.address, symbol: token.symbol, underlying: token.underlying, issuer: token.issuer.name,
    ahead: token.pending && token.pending.effectiveAt > now
      ? { kind: actionKind(token.pending.multiplier / token.multiplier), effectiveAt: new Date(token.pending.effectiveAt * 1000).toISOString(), hoursAhead: round((token.pending.effectiveAt - now) / HOUR, 1), multiplier: { now: token.multiplier, next: token.pending.multiplier } }
      : null,
    premiumPct: token.fair ? round(token.fair.premiumPct, 3) : null,
    liquidityUsd: token.liquidityUsd,
    past,
    worstPremiumAfterPct: afters.length ? Math.max(...afters.map(Math.abs)) : null,
  };
}
