/**
 * The perp venue the perp skills read: the real Hyperliquid at its configured URLs, or the
 * embedded venue served on loopback over the world's perp plan (drawn from the world's seed, origin
 * and reference prices, so a coin's mark follows the same path as its pools on chain).
 */
import { defaultCurveGenesis } from '../world/curve/embedded.js';
import { HyperliquidVenue } from '../world/perps/hyperliquid-api.js';
import { PerpPlan } from '../world/perps/plan.js';
import { servePerpVenue } from '../world/perps/server.js';
import { ReferencePaths } from '../world/reference.js';
import { hyperliquidSource } from '../skills/perps/source.js';
import type { PerpVenue } from '../skills/perps/venue.js';
import type { Config } from './config.js';
import { publicRpcUrl } from './health.js';

export interface PerpRuntime {
  readonly venue: PerpVenue;
  close(): Promise<void>;
}

export async function startPerps(config: NonNullable<Config['perps']>, reference: ReferencePaths | undefined, onProgress?: (msg: string) => void): Promise<PerpRuntime> {
  if (config.urls) {
    const venue: PerpVenue = { ...hyperliquidSource(config.urls), kind: 'configured' };
    // Logged as /healthz shows it: a path or query may carry a key.
    onProgress?.(`perp venue: hyperliquid configured (${publicRpcUrl('rpc', config.urls.api)}, ${publicRpcUrl('rpc', config.urls.stats)})`);
    return { venue, close: async () => {} };
  }
  const started = performance.now();
  const paths = reference ?? new ReferencePaths(config.seed, defaultCurveGenesis());
  const plan = new PerpPlan(config.seed, paths.origin, (asset, t) => paths.priceUsd(asset, t));
  const now = () => Date.now() / 1000;
  // Simulated through now at start-up (not at the first request), and measured.
  const state = plan.through(now());
  const served = await servePerpVenue(new HyperliquidVenue(plan), now);
  const venue: PerpVenue = { ...hyperliquidSource(served.urls), kind: 'embedded', plan: { seed: plan.seed, origin: plan.origin } };
  onProgress?.(`perp venue: hyperliquid embedded (${served.urls.api}; seed ${config.seed}, origin ${new Date(paths.origin * 1000).toISOString()}): ${state.accounts.length} accounts over ${Math.round((state.through - state.start) / 3_600)} h simulated and served in ${Math.round(performance.now() - started)} ms`);
  return { venue, close: () => served.close() };
}
