/**
 * The analyst leaderboard, methodology `source-leaderboard/v1`: market callers ranked by their
 * graded record (grading.ts), weighted by how much record there is, so three lucky calls never
 * outrank a hundred good ones.
 * - Calls, callers' names and source types come from the calls feed (source.ts); every price from
 *   the reader passed in (grading.ts). Nothing else is read.
 * - Per caller, and per horizon: graded calls, hits, misses, pending, hit rate, and the average
 *   return in the called direction beside the benchmark's and the excess over it.
 * - Recent calls count more: each graded call weighs 0.5^(age / DECAY_HALF_LIFE_DAYS), its age from
 *   its close to `now`; `decayed_samples` is the sum of those weights.
 * - The score is a one-sided z-test of the decayed hit rate against a coin flip,
 *   z = (hit rate - 0.5) / sqrt(0.25 / n), n the weights' effective sample size (sum w)^2 / sum w^2
 *   (the variance of a weighted rate: decay shifts the rate toward recent calls, it loses no
 *   evidence). z grows with the hit rate and with the square root of the record, so a long good
 *   record beats a short perfect one, and a long bad one sinks below a short middling one. `weight`
 *   is the confidence it gives that the caller beats a coin flip, Phi(z); `beats_coin_flip` when
 *   z >= 1.645 (5%, one-sided).
 * - Only callers with at least RELIABILITY_GATE_CALLS graded calls are ranked (`past_gate`), by z;
 *   the others follow in the same order, their weight 0.
 */
import { round } from '../data/market.js';
import { gradeCalls, HORIZONS, type GradedCall, type PriceReader } from './grading.js';
import type { CallerRead, CallHorizon, CallRead, CallsSource } from './source.js';

export const RELIABILITY_GATE_CALLS = 10;
export const DECAY_HALF_LIFE_DAYS = 90;
/** One-sided 5%. */
export const SIGNIFICANT_Z = 1.645;
export const ANALYST_LIMIT = { min: 1, max: 25, default: 10 } as const;
export const SOURCE_LEADERBOARD_METHODOLOGY = `source-leaderboard/v1 (calls from the calls feed; a long or short call closes at its horizon or at the caller's first hold on the asset, pending until then; hit = the asset's return beats the benchmark's in the called direction (BTC for crypto, SPY for stocks, cash for the benchmark itself), prices from the price reader at the call and the close; each graded call weighs 0.5^(age/${DECAY_HALF_LIFE_DAYS} d) from its close; score z = (decayed hit rate - 0.5) / sqrt(0.25 / n), n = (sum w)^2 / sum w^2; ranked by z past ${RELIABILITY_GATE_CALLS} graded calls, weight = Phi(z) there, 0 below)`;

export interface HorizonRecord {
  readonly graded_calls: number;
  readonly hits: number;
  readonly misses: number;
  readonly pending: number;
  /** 0-1, null with no graded call. */
  readonly hit_rate: number | null;
  /** Averages over the graded calls, percent: the call's return in its direction, the benchmark's in the same direction, and the difference. */
  readonly avg_return_pct: number | null;
  readonly avg_benchmark_return_pct: number | null;
  readonly avg_excess_return_pct: number | null;
}

export interface LeaderboardRow extends HorizonRecord {
  readonly rank: number;
  readonly source_type: string;
  readonly source_id: string;
  readonly source_label: string;
  readonly weight: number;
  readonly decayed_samples: number;
  readonly decayed_hit_rate: number | null;
  /** The decay weights' effective sample size, (sum w)^2 / sum w^2: the z-test's n. */
  readonly effective_samples: number;
  /** One-sided z of the decayed hit rate against one half: the ranking's score. */
  readonly z_score: number | null;
  readonly beats_coin_flip: boolean;
  readonly past_gate: boolean;
  readonly holds: number;
  readonly horizons: Readonly<Record<CallHorizon, HorizonRecord>>;
}

export interface SourceLeaderboard {
  readonly object: 'source-leaderboard';
  readonly reliability_gate_calls: number;
  readonly sources_tracked: number;
  readonly sources_past_gate: number;
  readonly pending_calls: number;
  readonly rows: readonly LeaderboardRow[];
  readonly as_of: string;
  readonly methodology: string;
  readonly decay_half_life_days: number;
  readonly benchmarks: { readonly crypto: 'BTC'; readonly equity: 'SPY'; readonly benchmark_itself: 'cash' };
  readonly calls_read: number;
  readonly graded_calls: number;
  readonly unpriced_calls: number;
  /** The feed held more calls than were read (the oldest were). */
  readonly truncated: boolean;
  readonly sources: { readonly calls: string; readonly prices: string };
}

/** Every caller's record and rank, from the callers and calls given (no limit). */
export async function rankCallers(callers: readonly CallerRead[], calls: readonly CallRead[], now: number, prices: PriceReader) {
  const book = await gradeCalls(calls, now, prices);
  const known = new Map(callers.map((c) => [c.id, c]));
  const ids = new Set([...callers.map((c) => c.id), ...calls.map((c) => c.caller)]);
  const gradedBy = groupBy(book.graded, (g) => g.call.caller);
  const pendingBy = groupBy(book.pending, (c) => c.caller);
  const holdsBy = groupBy(book.holds, (c) => c.caller);
  const scored = [...ids].map((id) => {
    const graded = gradedBy.get(id) ?? [];
    const pending = pendingBy.get(id) ?? [];
    const decay = graded.map((g) => 0.5 ** ((now - g.closedAt) / 86_400 / DECAY_HALF_LIFE_DAYS));
    const n = decay.reduce((s, w) => s + w, 0);
    const decayedHits = graded.reduce((s, g, i) => s + (g.hit ? decay[i]! : 0), 0);
    const effective = n > 0 ? n ** 2 / decay.reduce((s, w) => s + w * w, 0) : 0;
    const z = n > 0 ? coinFlipZ(decayedHits / n, effective) : null;
    const score = z ?? 0;
    const pastGate = graded.length >= RELIABILITY_GATE_CALLS;
    const caller = known.get(id);
    return {
      score, pastGate,
      row: {
        source_type: caller?.sourceType ?? 'unknown', source_id: id, source_label: caller?.label ?? id,
        ...record(graded, pending),
        weight: pastGate && z !== null ? round(normalCdf(z), 4) : 0,
        decayed_samples: round(n, 3),
        decayed_hit_rate: n > 0 ? round(decayedHits / n, 4) : null,
        effective_samples: round(effective, 3),
        z_score: z === null ? null : round(z, 3),
        beats_coin_flip: z !== null && z >= SIGNIFICANT_Z,
        past_gate: pastGate,
        holds: holdsBy.get(id)?.length ?? 0,
        horizons: Object.fromEntries(HORIZONS.map((h) => [h, record(graded.filter((g) => g.call.horizon === h), pending.filter((c) => c.horizon === h))])) as Record<CallHorizon, HorizonRecord>,
      },
    };
  });
  scored.sort((a, b) => Number(b.pastGate) - Number(a.pastGate) || b.score - a.score || b.row.decayed_samples - a.row.decayed_samples || (a.row.source_id < b.row.source_id ? -1 : 1));
  return { rows: scored.map((s, i): LeaderboardRow => ({ rank: i + 1, ...s.row })), book };
}

/** The leaderboard as get_analyst_accuracy answers it: the feed read through its adapter, graded at `now` on the reader's prices. */
export async function analystAccuracy(source: CallsSource, prices: PriceReader, options: { now: number; limit?: number; pricesFrom: string }): Promise<SourceLeaderboard> {
  const limit = options.limit ?? ANALYST_LIMIT.default;
  const [callers, read] = await Promise.all([source.callers(), source.calls({ until: options.now })]);
  const { rows, book } = await rankCallers(callers, read.calls, options.now, prices);
  return {
    object: 'source-leaderboard',
    reliability_gate_calls: RELIABILITY_GATE_CALLS,
    sources_tracked: rows.length,
    sources_past_gate: rows.filter((r) => r.past_gate).length,
    pending_calls: book.pending.length,
    rows: rows.slice(0, limit),
    as_of: new Date(options.now * 1000).toISOString(),
    methodology: SOURCE_LEADERBOARD_METHODOLOGY,
    decay_half_life_days: DECAY_HALF_LIFE_DAYS,
    benchmarks: { crypto: 'BTC', equity: 'SPY', benchmark_itself: 'cash' },
    calls_read: read.calls.length,
    graded_calls: book.graded.length,
    unpriced_calls: book.unpriced.length,
    truncated: read.truncated,
    sources: { calls: `${source.url}/v1/calls`, prices: options.pricesFrom },
  };
}

/** One-sided z of a hit rate p over n samples against a coin flip (n may be fractional: decayed). */
export function coinFlipZ(p: number, n: number): number {
  return (p - 0.5) / Math.sqrt(0.25 / n);
}

/** The standard normal CDF (Abramowitz and Stegun 7.1.26, error below 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

function record(graded: readonly GradedCall[], pending: readonly CallRead[]): HorizonRecord {
  const hits = graded.filter((g) => g.hit).length;
  const avg = (f: (g: GradedCall) => number) => (graded.length ? round((graded.reduce((s, g) => s + f(g), 0) / graded.length) * 100, 3) : null);
  return {
    graded_calls: graded.length, hits, misses: graded.length - hits, pending: pending.length,
    hit_rate: graded.length ? round(hits / graded.length, 4) : null,
    avg_return_pct: avg((g) => g.callReturn),
    avg_benchmark_return_pct: avg((g) => g.benchmarkReturn),
    avg_excess_return_pct: avg((g) => g.excessReturn),
  };
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}
