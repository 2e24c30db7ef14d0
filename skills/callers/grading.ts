/**
 * Grading one market call, TipRanks-style: a long or short call is measured from when it was made
 * to when it closes, at its horizon (1, 7 or 30 days) or earlier at the caller's first hold on the
 * same asset (a hold closes every call the caller has open there; it is no bet itself). Until then
 * it is pending. Its return is the asset's move in the called direction; its excess return is that
 * less the benchmark's move in the same direction over the same span (BTC for crypto, SPY for
 * stocks, cash for a call on the benchmark itself). It hits when the excess is above zero. Every
 * price comes from the reader passed in, at the call's time and its close; a call the reader cannot
 * price at either end is left out as unpriced.
 */
import type { AssetClass, CallHorizon, CallRead } from './source.js';

const DAY = 86_400;
export const HORIZON_SECONDS: Readonly<Record<CallHorizon, number>> = { '1d': DAY, '7d': 7 * DAY, '30d': 30 * DAY };
export const HORIZONS: readonly CallHorizon[] = ['1d', '7d', '30d'];
/** BTC is crypto's market (every major moves with it), as SPY is the stocks'; beating it isolates the call from the market. */
export const CALL_BENCHMARKS: Readonly<Record<AssetClass, string>> = { crypto: 'BTC', equity: 'SPY' };

/** USD price of an asset at a time (unix seconds), split-adjusted for stocks; null or undefined when unknown. */
export type PriceReader = (asset: string, time: number) => number | null | undefined | Promise<number | null | undefined>;

export interface GradedCall {
  readonly call: CallRead;
  readonly closedAt: number;
  readonly closedBy: 'horizon' | 'hold';
  /** The benchmark symbol, or 'cash'. */
  readonly benchmark: string;
  /** The asset's return in the called direction, and the benchmark's in the same direction (fractions). */
  readonly callReturn: number;
  readonly benchmarkReturn: number;
  readonly excessReturn: number;
  readonly hit: boolean;
}

export interface GradedBook {
  readonly graded: readonly GradedCall[];
  /** Long and short calls whose close has not come by `now`. */
  readonly pending: readonly CallRead[];
  readonly holds: readonly CallRead[];
  /** Calls the reader could not price at the call or its close. */
  readonly unpriced: readonly CallRead[];
}

export const benchmarkOf = (call: Pick<CallRead, 'asset' | 'assetClass'>): string => (call.asset === CALL_BENCHMARKS[call.assetClass] ? 'cash' : CALL_BENCHMARKS[call.assetClass]);

/** When a long or short call closes: its horizon, or the caller's first hold on the asset (made by `now`) before then. */
export function closeOf(call: CallRead, holds: readonly CallRead[], now: number): { at: number; by: 'horizon' | 'hold' } {
  let close: { at: number; by: 'horizon' | 'hold' } = { at: call.madeAt + HORIZON_SECONDS[call.horizon], by: 'horizon' };
  for (const h of holds) {
    if (h.caller === call.caller && h.asset === call.asset && h.madeAt > call.madeAt && h.madeAt < close.at && h.madeAt <= now) close = { at: h.madeAt, by: 'hold' };
  }
  return close;
}

export async function gradeCalls(calls: readonly CallRead[], now: number, prices: PriceReader): Promise<GradedBook> {
  const holds = calls.filter((c) => c.direction === 'hold');
  const holdsBy = new Map<string, CallRead[]>();
  for (const h of holds) {
    const key = `${h.caller}\u0000${h.asset}`;
    holdsBy.set(key, [...(holdsBy.get(key) ?? []), h]);
  }
  const graded: GradedCall[] = [];
  const pending: CallRead[] = [];
  const unpriced: CallRead[] = [];
  for (const call of calls) {
    if (call.direction === 'hold' || call.madeAt > now) continue;
    const close = closeOf(call, holdsBy.get(`${call.caller}\u0000${call.asset}`) ?? [], now);
    if (close.at > now) {
      pending.push(call);
      continue;
    }
    const benchmark = benchmarkOf(call);
    const assetMove = await move(prices, call.asset, call.madeAt, close.at);
    const benchmarkMove = benchmark === 'cash' ? 0 : await move(prices, benchmark, call.madeAt, close.at);
    if (assetMove === null || benchmarkMove === null) {
      unpriced.push(call);
      continue;
    }
    const sign = call.direction === 'long' ? 1 : -1;
    const excessReturn = sign * (assetMove - benchmarkMove);
    graded.push({ call, closedAt: close.at, closedBy: close.by, benchmark, callReturn: sign * assetMove, benchmarkReturn: sign * benchmarkMove, excessReturn, hit: excessReturn > 0 });
  }
  return { graded, pending, holds, unpriced };
}

async function move(prices: PriceReader, asset: string, from: number, to: number): Promise<number | null> {
  const a = await prices(asset, from);
  const b = await prices(asset, to);
  return a && b && a > 0 && b > 0 ? b / a - 1 : null;
}
