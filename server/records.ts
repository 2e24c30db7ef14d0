/**
 * The public-records feeds the records skills read: per feed, the real service at its configured
 * URL (CONGRESS_TRADES_URL: the stock-watcher files' host; USASPENDING_URL), or the feed served on
 * loopback over the world's records plan (drawn from the world's seed and origin over the stock
 * paths the stock chain's feeds follow, so the trades and awards name the moves on chain).
 */
import { defaultCurveGenesis } from '../world/curve/embedded.js';
import { RecordsPlan } from '../world/records/plan.js';
import { serveRecordVenues } from '../world/records/server.js';
import { StockPaths } from '../world/stocks/underlyings.js';
import { recordsSource } from '../skills/records/source.js';
import type { RecordsFeeds } from '../skills/records/venue.js';
import type { Config } from './config.js';
import { publicRpcUrl } from './health.js';

export interface RecordsRuntime {
  readonly feeds: RecordsFeeds;
  close(): Promise<void>;
}

export async function startRecords(config: NonNullable<Config['records']>, origin: number | undefined, onProgress?: (msg: string) => void): Promise<RecordsRuntime> {
  const kind = { congress: config.congress ? 'configured' as const : 'embedded' as const, usaspending: config.usaspending ? 'configured' as const : 'embedded' as const };
  let served: Awaited<ReturnType<typeof serveRecordVenues>> | undefined;
  let cost = '';
  if (!config.congress || !config.usaspending) {
    const started = performance.now();
    const from = origin ?? defaultCurveGenesis();
    const plan = new RecordsPlan(config.seed, from, new StockPaths(config.seed, from));
    const now = () => Date.now() / 1000;
    const state = plan.through(now());
    served = await serveRecordVenues(plan, now);
    cost = `; embedded plan (seed ${config.seed}): ${state.trades.length} disclosed trades, ${state.awards.length} awards, served in ${Math.round(performance.now() - started)} ms`;
  }
  const urls = { congress: config.congress ?? served!.urls.congress, usaspending: config.usaspending ?? served!.urls.usaspending };
  const feeds: RecordsFeeds = { ...recordsSource(urls), kind };
  const shown = (k: keyof typeof urls) => `${k} ${kind[k]} (${publicRpcUrl(kind[k] === 'embedded' ? 'embedded' : 'rpc', urls[k])})`;
  onProgress?.(`records feeds: ${shown('congress')}, ${shown('usaspending')}${cost}`);
  return { feeds, close: async () => served?.close() };
}
