/** A prediction world for the venue tests: events and trades drawn for a seed over 30 days on the reference paths. */
import { drawEvents } from '../../world/prediction/events.js';
import { simulateTrading } from '../../world/prediction/trading.js';
import { ReferencePaths } from '../../world/reference.js';

export const ORIGIN = 1_790_000_000;
const paths = new ReferencePaths('prediction-test', ORIGIN);
export const priceAt = (asset: string, time: number) => paths.priceUsd(asset, time);

export function predictionWorld(seed: string, count: number, until: number, assets = [{ asset: 'BTC', annualVol: 0.5 }]) {
  const events = drawEvents({ seed, origin: ORIGIN, days: 30, count, priceAt, assets });
  return { events, trading: simulateTrading(events, { seed, until, priceAt }) };
}
