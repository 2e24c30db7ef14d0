/**
 * The market callers' feed the analyst-accuracy tool reads: a real feed at CALLS_FEED_URL, or the
 * world's served on loopback. Calls are graded with the world's reference paths (the prices every
 * embedded chain's pools follow; stocks split-adjusted from the stock paths).
 */
import { callerPrices } from '../world/callers/prices.js';
import { CallersPlan } from '../world/callers/plan.js';
import { serveCallsFeed } from '../world/callers/server.js';
import { defaultCurveGenesis } from '../world/curve/embedded.js';
import { ReferencePaths } from '../world/reference.js';
import { StockPaths } from '../world/stocks/underlyings.js';
import { callsSource } from '../skills/callers/source.js';
import type { CallsFeed } from '../skills/callers/venue.js';
import type { Config } from './config.js';
import { publicRpcUrl } from './health.js';

export interface CallsRuntime {
  readonly feed: CallsFeed;
  close(): Promise<void>;
}

export async function startCalls(config: NonNullable<Config['calls']>, reference: ReferencePaths | undefined, onProgress?: (msg: string) => void): Promise<CallsRuntime> {
  const paths = reference ?? new ReferencePaths(config.seed, defaultCurveGenesis());
  const read = callerPrices(paths, new StockPaths(config.seed, paths.origin));
  const prices = { read, from: `the world's reference paths (seed ${config.seed}): the prices the embedded chains' pools follow; stocks split-adjusted` };
  if (config.url) {
    onProgress?.(`calls feed: configured (${publicRpcUrl('rpc', config.url)})`);
    return { feed: { ...callsSource(config.url), kind: 'configured', prices }, close: async () => {} };
  }
  const started = performance.now();
  const plan = new CallersPlan(config.seed, paths.origin, read);
  const served = await serveCallsFeed(plan, () => Date.now() / 1000);
  onProgress?.(`calls feed: embedded (${served.url}): ${plan.callers.length} callers, served in ${Math.round(performance.now() - started)} ms`);
  return { feed: { ...callsSource(served.url), kind: 'embedded', prices }, close: () => served.close() };
}
