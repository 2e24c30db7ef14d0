/**
 * How well cross-platform arbitrage finds the gaps the world planted: the engine runs on the
 * embedded venues at a series of clock times, and each (time, event) it calls an opportunity is
 * scored against the plan's gaps (a drawn event's window after news while the Kalshi price lags; a
 * crypto event's windows where the lagging price stands more than the labels' threshold from the
 * first venue's). A find outside every gap is told apart by the plan's prices then: within the
 * threshold (the engine's bar, two ticks and Kalshi's fee, is lower where the fee rounds to a cent)
 * or apart (a crypto excursion between the label grid's steps). Only this scoring reads the plan;
 * the engine reads the adapters.
 */
import { GAP_ABOVE, venueLagSeconds, venuePrice } from '../../world/prediction/trading.js';
import type { PredictionEvent } from '../../world/prediction/events.js';
import { findArbitrage, kalshiTakerFee } from './arbitrage.js';
import { servePlan } from './markets-served.js';

const HOUR = 3_600;
const TICK = 0.01;

export interface ArbitrageEvalOptions {
  readonly seed: string;
  /** The plan's history origin and the world's reference prices (unix seconds; USD). */
  readonly origin: number;
  priceAt(asset: string, time: number): number;
  /** The span scored (unix seconds). */
  readonly from: number;
  readonly until: number;
  /** Clock times between the gaps, as controls (default every 2 h). */
  readonly controlStepSeconds?: number;
}

export interface ArbitrageEval {
  /** Clock times the engine ran at: each planted gap's middle, and the controls. */
  readonly times: number;
  /** (time, event) pairs inside a planted gap while both venues were open. */
  readonly planted: number;
  /** Of those, the ones whose prices, spread and Kalshi's fee included, leave a pair under $1. */
  readonly plantedClearingFees: number;
  readonly found: number;
  readonly truePositives: number;
  readonly truePositivesClearingFees: number;
  /** Found outside any planted gap; of those, on a crypto market. */
  readonly unplanted: number;
  readonly unplantedCrypto: number;
  /** Of the unplanted, those where the plan's two prices were no more than the labels' threshold apart (a pair clearing the spreads and a 1¢ fee). */
  readonly unplantedWithinThreshold: number;
  readonly precision: number | null;
  /** Precision over the drawn events (gaps planted by news) and the crypto ones (gaps found on the label grid). */
  readonly precisionDrawn: number | null;
  readonly precisionCrypto: number | null;
  readonly recall: number | null;
  readonly recallClearingFees: number | null;
  /** The (time, event) pairs found and planted, as `time:eventId`: what a detectors' table scores. */
  readonly pairs: { readonly found: readonly string[]; readonly planted: readonly string[] };
}

export async function evaluateArbitrage(options: ArbitrageEvalOptions): Promise<ArbitrageEval> {
  const { seed, origin, priceAt, from, until } = options;
  const served = await servePlan(seed, origin, priceAt, from);
  try {
    const { events, trading } = served.plan.through(until);
    const byId = new Map(events.map((e) => [e.id, e]));
    const bothOpen = (e: PredictionEvent, t: number) => !!e.crossListing && e.opensAt <= t && e.closesAt > t && e.closesAt + e.crossListing.closeShiftSeconds > t;
    const gaps = trading.gaps.filter((g) => g.from >= from && g.from < until);
    const times = new Set(gaps.map((g) => Math.floor((g.from + g.until) / 2)));
    for (let t = from; t < until; t += options.controlStepSeconds ?? 2 * HOUR) times.add(t);
    const score = { planted: 0, plantedClearingFees: 0, found: 0, foundCrypto: 0, truePositives: 0, truePositivesClearingFees: 0, unplanted: 0, unplantedCrypto: 0, unplantedWithinThreshold: 0 };
    const pairs = { found: [] as string[], planted: [] as string[] };
    for (const t of [...times].sort((a, b) => a - b)) {
      const planted = new Set(trading.gaps.filter((g) => g.from <= t && t < g.until && bothOpen(byId.get(g.eventId)!, t)).map((g) => g.eventId));
      served.now = t;
      const found = new Set((await findArbitrage(served.source, { limit: 100, now: t })).opportunities.map((o) => o.legs[1].market.replace(/^SIB-/, '').toLowerCase()));
      pairs.found.push(...[...found].map((id) => `${t}:${id}`));
      pairs.planted.push(...[...planted].map((id) => `${t}:${id}`));
      score.planted += planted.size;
      const clearing = new Set([...planted].filter((id) => clearsFees(byId.get(id)!, t, seed, priceAt)));
      score.plantedClearingFees += clearing.size;
      score.truePositivesClearingFees += [...found].filter((id) => clearing.has(id)).length;
      score.found += found.size;
      score.truePositives += [...found].filter((id) => planted.has(id)).length;
      score.foundCrypto += [...found].filter((id) => byId.get(id)!.strike).length;
      const unplanted = [...found].filter((id) => !planted.has(id));
      score.unplanted += unplanted.length;
      score.unplantedCrypto += unplanted.filter((id) => byId.get(id)!.strike).length;
      score.unplantedWithinThreshold += unplanted.filter((id) => apart(byId.get(id)!, t, seed, priceAt) <= GAP_ABOVE).length;
    }
    const { foundCrypto, ...counts } = score;
    const foundDrawn = score.found - foundCrypto;
    return {
      times: times.size, ...counts,
      precision: score.found ? score.truePositives / score.found : null,
      precisionDrawn: foundDrawn ? (foundDrawn - (score.unplanted - score.unplantedCrypto)) / foundDrawn : null,
      precisionCrypto: foundCrypto ? (foundCrypto - score.unplantedCrypto) / foundCrypto : null,
      recall: score.planted ? score.truePositives / score.planted : null,
      recallClearingFees: score.plantedClearingFees ? score.truePositivesClearingFees / score.plantedClearingFees : null,
      pairs,
    };
  } finally {
    await served.close();
  }
}

/** How far apart the plan's two venue prices of yes stand at `t`. */
function apart(e: PredictionEvent, t: number, seed: string, priceAt: (asset: string, time: number) => number): number {
  return Math.abs(venuePrice(e, 'polymarket', t, priceAt, 0) - venuePrice(e, 'kalshi', t, priceAt, venueLagSeconds(seed, e.id)));
}

/** The plan's own prices at `t` leave a pair (with the venues' one-tick spreads and Kalshi's fee) under $1. */
function clearsFees(e: PredictionEvent, t: number, seed: string, priceAt: (asset: string, time: number) => number): boolean {
  const pm = venuePrice(e, 'polymarket', t, priceAt, 0);
  const k = venuePrice(e, 'kalshi', t, priceAt, venueLagSeconds(seed, e.id));
  const kNo = 1 - k + TICK;
  const kYes = k + TICK;
  return Math.min(pm + TICK + kNo + kalshiTakerFee(kNo), kYes + kalshiTakerFee(kYes) + 1 - pm + TICK) < 1;
}
