/**
 * Closeness to graduation at the current pace, for any bonding curve: what the curve still needs
 * over what it took in, net, per hour lately. A curve that took nothing in (no trades, or more
 * sold than bought) has no pace and no estimate; rankings put it after every curve that has one.
 */
import { round } from '../data/market.js';

export interface Pace {
  /** Net amount into the curve over the pace window: buys minus sells (what the curve's raise changed by). */
  netInflow: number;
  perHour: number;
  /** Hours to graduation at that pace; null without a positive pace or without a known target. */
  etaHours: number | null;
  estimatedGraduationAt: string | null;
  /** Why there is no estimate; null when there is one. */
  noPaceReason: string | null;
}

export interface PaceInput {
  /** Still needed to graduate (null when the target is unknown). */
  needed: number | null;
  netInflow: number;
  tradesInWindow: number;
  windowSeconds: number;
  /** Unix seconds: now, and the curve's last trade. */
  now: number;
  lastTradeTime: number | null;
  /** The unit of the raise, for the reasons (SOL, ETH). */
  unit: string;
  /** Why the target is unknown, when it is. */
  unknownTarget?: string;
}

export function graduationPace(p: PaceInput): Pace {
  const perHour = p.netInflow / (p.windowSeconds / 3600);
  const eta = p.needed !== null && perHour > 0 ? p.needed / perHour : null;
  const window = `the last ${round(p.windowSeconds / 3600, 2)} h`;
  let reason: string | null = null;
  if (eta === null) {
    if (p.needed === null) reason = p.unknownTarget ?? 'the graduation target is unknown';
    else if (p.tradesInWindow === 0) reason = p.lastTradeTime === null ? 'never traded' : `no trades in ${window}; last trade ${round((p.now - p.lastTradeTime) / 3600, 1)} h ago`;
    else reason = p.netInflow < 0 ? `net ${p.unit} outflow in ${window} (${round(p.netInflow, 6)} ${p.unit})` : `no net ${p.unit} inflow in ${window}`;
  }
  return {
    netInflow: p.netInflow,
    perHour,
    etaHours: eta,
    estimatedGraduationAt: eta === null ? null : new Date((p.now + eta * 3600) * 1000).toISOString(),
    noPaceReason: reason,
  };
}

export interface PaceRanked {
  readonly etaHours: number | null;
  readonly lastTradeTime: number | null;
  readonly progressPct: number;
}

/** Soonest estimated graduation first; then curves without a pace, most recently traded first; progress breaks ties. */
export function byGraduationEta(a: PaceRanked, b: PaceRanked): number {
  if (a.etaHours !== null && b.etaHours !== null) return a.etaHours - b.etaHours || b.progressPct - a.progressPct;
  if (a.etaHours !== null) return -1;
  if (b.etaHours !== null) return 1;
  return (b.lastTradeTime ?? -1) - (a.lastTradeTime ?? -1) || b.progressPct - a.progressPct;
}

export function paceRanking(windowSeconds: number, unit: string): string {
  return `curves with a positive pace (net ${unit} into the curve over the last ${round(windowSeconds / 3600, 2)} h) by estimated time to graduation (${unit} still needed / ${unit} per hour), soonest first; then curves without one, most recently traded first`;
}
