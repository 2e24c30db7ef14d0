/**
 * The world's embedded venues for a plan, served on loopback at a clock the caller moves, with
 * the adapters pointed at them: what the prediction tests and evaluations run the engines on. The
 * plan (the truth) is returned beside the adapters for the scoring only; engines get the adapters.
 */
import { embeddedVenues } from '../../world/prediction/embedded.js';
import { PredictionPlan } from '../../world/prediction/plan.js';
import { servePredictionVenues } from '../../world/prediction/server.js';
import { predictionSource, type PredictionSource } from './source.js';
import type { PredictionVenues } from './venues.js';

export interface ServedPlan {
  readonly plan: PredictionPlan;
  readonly source: PredictionSource;
  /** The adapters as a deployment's `ctx.prediction` (both venues embedded). */
  readonly venues: PredictionVenues;
  /** The venues' clock, unix seconds. */
  now: number;
  close(): Promise<void>;
}

export async function servePlan(seed: string, origin: number, priceAt: (asset: string, time: number) => number, now: number): Promise<ServedPlan> {
  const plan = new PredictionPlan(seed, origin, priceAt);
  const served: { now: number } = { now };
  const server = await servePredictionVenues(embeddedVenues(plan, priceAt, () => served.now), () => served.now);
  const source = predictionSource(server.urls, 10_000);
  return Object.assign(served, {
    plan, source,
    venues: { ...source, kind: { polymarket: 'embedded', kalshi: 'embedded' }, plan: { seed, origin } } as const,
    close: () => server.close(),
  });
}
