/**
 * The prediction venues the prediction skills read: per provider, the real service at its
 * configured URLs, or the embedded venue served on loopback over the world's prediction plan. The
 * plan is drawn from the world's seed, origin and reference prices, the ones the Polygon world
 * module funds the traders from, so the accounts the venues show are the ones on chain.
 */
import { defaultCurveGenesis } from '../world/curve/embedded.js';
import { embeddedVenues } from '../world/prediction/embedded.js';
import { PredictionPlan } from '../world/prediction/plan.js';
import { servePredictionVenues } from '../world/prediction/server.js';
import { ReferencePaths } from '../world/reference.js';
import { predictionSource } from '../skills/prediction/source.js';
import { PREDICTION_PROVIDERS, type PredictionProvider, type PredictionVenues } from '../skills/prediction/venues.js';
import type { Config } from './config.js';
import { publicRpcUrl } from './health.js';

export interface PredictionRuntime {
  readonly venues: PredictionVenues;
  close(): Promise<void>;
}

/**
 * The adapters over the configured or embedded venues. `reference` is the world's paths; without
 * a world, the caller passes the Solana venue's (one SOL/USD across the off-chain venues), and
 * without that either the venues follow paths of their own from the Solana venue's default genesis.
 */
export async function startPrediction(
  config: NonNullable<Config['prediction']>,
  reference: ReferencePaths | undefined,
  onProgress?: (msg: string) => void,
): Promise<PredictionRuntime> {
  const kind: PredictionVenues['kind'] = { polymarket: config.polymarket ? 'configured' : 'embedded', kalshi: config.kalshi ? 'configured' : 'embedded' };
  let served: Awaited<ReturnType<typeof servePredictionVenues>> | undefined;
  let plan: PredictionPlan | undefined;
  let cost = '';
  if (!config.polymarket || !config.kalshi) {
    const started = performance.now();
    const paths = reference ?? new ReferencePaths(config.seed, defaultCurveGenesis());
    const priceAt = (asset: string, t: number) => paths.priceUsd(asset, t);
    const now = () => Date.now() / 1000;
    plan = new PredictionPlan(config.seed, paths.origin, priceAt);
    // Drawn through now and both venues built at start-up (not at the first request), and measured.
    const { events } = plan.through(now());
    const venues = embeddedVenues(plan, priceAt, now);
    void venues.polymarket; // builds both
    served = await servePredictionVenues(venues, now);
    cost = `; embedded plan (seed ${config.seed}, origin ${new Date(paths.origin * 1000).toISOString()}): ${events.length} events drawn and served in ${Math.round(performance.now() - started)} ms`;
  }
  const urls = {
    polymarketGamma: config.polymarket?.gamma ?? served!.urls.polymarketGamma,
    polymarketClob: config.polymarket?.clob ?? served!.urls.polymarketClob,
    polymarketData: config.polymarket?.data ?? served!.urls.polymarketData,
    kalshi: config.kalshi ?? served!.urls.kalshi,
  };
  const venues: PredictionVenues = { ...predictionSource(urls), kind, ...(plan && { plan: { seed: plan.seed, origin: plan.origin } }) };
  // A configured URL is logged as /healthz shows it: a path or query may carry a key.
  const shown = (k: PredictionProvider) => venues[k].origins().map((o) => `${o.api} ${publicRpcUrl(kind[k] === 'embedded' ? 'embedded' : 'rpc', o.url)}`).join(', ');
  onProgress?.(`prediction venues: ${PREDICTION_PROVIDERS.map((k) => `${k} ${kind[k]} (${shown(k)})`).join(', ')}${cost}`);
  return { venues, close: async () => served?.close() };
}
