/**
 * The embedded prediction venues over the world's plan: both venues rebuilt only when the plan
 * grows a day, so a request costs one venue lookup. Served by server.ts.
 */
import { KalshiVenue } from './kalshi-api.js';
import type { PredictionPlan } from './plan.js';
import { PolymarketVenue } from './polymarket-api.js';

export interface EmbeddedVenues {
  readonly polymarket: PolymarketVenue;
  readonly kalshi: KalshiVenue;
}

/** The venues as they stand at `now()` (unix seconds), each built over the plan through that day. */
export function embeddedVenues(plan: PredictionPlan, priceAt: (asset: string, time: number) => number, now: () => number): EmbeddedVenues {
  let built: { state: ReturnType<PredictionPlan['through']>; venues: EmbeddedVenues } | undefined;
  const current = () => {
    const state = plan.through(now());
    if (built?.state !== state) {
      built = {
        state,
        venues: {
          polymarket: new PolymarketVenue(plan.seed, state.events, state.trading.trades, priceAt),
          kalshi: new KalshiVenue(plan.seed, state.events, state.trading.trades, priceAt),
        },
      };
    }
    return built.venues;
  };
  return {
    get polymarket() { return current().polymarket; },
    get kalshi() { return current().kalshi; },
  };
}
