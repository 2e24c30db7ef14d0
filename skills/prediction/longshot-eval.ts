/**
 * How the longshot fader's calibration reads the venue against the world's truth: the engine's
 * Brier score and per-bucket bias (from the embedded venue's resolved markets) beside the same
 * figures from the plan: the Brier score of the events' true chances, and the premium the world
 * put on each trade's price over the fair chance of its side when it traded. Only this scoring
 * reads the plan; the engine reads the adapters.
 */
import { beliefAt } from '../../world/prediction/events.js';
import { BRIER_LEAD_SECONDS, bucketOf, calibrate, LONGSHOT_BELOW } from './longshot.js';
import { servePlan } from './markets-served.js';

export interface CalibrationEvalOptions {
  readonly seed: string;
  readonly origin: number;
  priceAt(asset: string, time: number): number;
  /** The venues' clock: markets closed by then are the resolved ones. */
  readonly at: number;
}

export interface CalibrationEval {
  readonly available: boolean;
  readonly reason: string | null;
  readonly resolvedMarkets: number;
  readonly trades: number;
  readonly brier: {
    /** The engine's: the venue's yes price a day before each close. */
    readonly venue: number | null;
    /** The events' true chances (drawn; a crypto event's fair chance when it opened). */
    readonly truth: number;
    /** The world's fair chance a day before each close (the venue's price without its longshot premium). */
    readonly fairBeforeClose: number;
    readonly coinFlip: 0.25;
  };
  /** Per bucket: the bias the engine measured (price − hit rate) and the premium the world planted (price − fair chance of the side). */
  readonly buckets: readonly { readonly fromCents: number; readonly toCents: number; readonly trades: number; readonly measuredBiasCents: number | null; readonly plantedPremiumCents: number | null }[];
  /** The same over every side bought under 15¢. */
  readonly longshots: { readonly trades: number; readonly measuredBiasCents: number | null; readonly plantedPremiumCents: number | null };
}

export async function evaluateCalibration(options: CalibrationEvalOptions): Promise<CalibrationEval> {
  const { seed, origin, priceAt, at } = options;
  const served = await servePlan(seed, origin, priceAt, at);
  try {
    const calibration = await calibrate(served.source, await served.source.polymarket.markets());
    const { events, trading } = served.plan.through(at);
    const resolved = events.filter((e) => e.closesAt <= at);
    const outcome = (e: (typeof resolved)[number]) => (e.outcome ? 1 : 0);
    const byId = new Map(resolved.map((e) => [e.id, e]));
    // Each trade of a resolved market: its price, the fair chance of its side then, and whether it won.
    const trades = trading.trades.filter((t) => t.venue === 'polymarket' && byId.has(t.eventId)).map((t) => {
      const e = byId.get(t.eventId)!;
      const fairYes = beliefAt(e, t.time, priceAt);
      return { price: t.price, fair: t.outcome === 'yes' ? fairYes : 1 - fairYes, won: (t.outcome === 'yes') === e.outcome };
    });
    const premium = (xs: typeof trades) => (xs.length ? round2((mean(xs.map((x) => x.price - x.fair))) * 100) : null);
    const measured = (xs: typeof trades) => (xs.length ? round2((mean(xs.map((x) => x.price)) - xs.filter((x) => x.won).length / xs.length) * 100) : null);
    const longshots = trades.filter((x) => x.price < LONGSHOT_BELOW);
    return {
      available: calibration.available, reason: calibration.reason,
      resolvedMarkets: calibration.resolvedMarkets, trades: calibration.trades,
      brier: {
        venue: calibration.brier.score,
        truth: round4(mean(resolved.map((e) => (e.truth - outcome(e)) ** 2))),
        fairBeforeClose: round4(mean(resolved.map((e) => (beliefAt(e, e.closesAt - BRIER_LEAD_SECONDS, priceAt) - outcome(e)) ** 2))),
        coinFlip: 0.25,
      },
      buckets: calibration.buckets.map((b) => {
        const inside = trades.filter((x) => bucketOf(calibration.buckets, x.price) === b);
        return { fromCents: b.fromCents, toCents: b.toCents, trades: b.trades, measuredBiasCents: b.biasCents, plantedPremiumCents: premium(inside) };
      }),
      longshots: { trades: longshots.length, measuredBiasCents: measured(longshots), plantedPremiumCents: premium(longshots) },
    };
  } finally {
    await served.close();
  }
}

function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
