/**
 * Background forecast work any instance may run: forecasts of the majors at fixed horizons
 * (snapshots for the free forecast tool, and ledger events), the ledger's backfill over the
 * indexed history (after the first round), and scoring of due ledger events against the index.
 * Leases in the store keep two instances from doing the same round.
 */
import type { ChainName } from '../../chain/chains.js';
import { indexedToHead } from '../../indexer/reader.js';
import { loadMarket } from '../data/load.js';
import type { SkillContext } from '../core/context.js';
import { backfillLedger } from './backfill.js';
import { forecastSeries } from './chart.js';
import type { AccuracyLedger } from './ledger.js';
import { locateMajor, PRECOMPUTE_ASSETS, PRECOMPUTE_INTERVALS } from './majors.js';
import type { ForecastService } from './service.js';
import { FORECAST_LIMITS } from './slots.js';

export { PRECOMPUTE_ASSETS, PRECOMPUTE_INTERVALS, locateMajor, type PrecomputeInterval } from './majors.js';

export const snapshotKey = (asset: string, interval: string) => `forecast:snapshot:${asset}:${interval}`;

/** Forecasts every major at every interval; each answer becomes a snapshot and a ledger event. */
export async function precomputeMajors(ctx: SkillContext, service: ForecastService, ledger: AccuracyLedger): Promise<number> {
  let done = 0;
  for (const asset of PRECOMPUTE_ASSETS) {
    const found = await locateMajor(ctx, asset);
    for (const [interval, { candleSeconds, steps }] of Object.entries(PRECOMPUTE_INTERVALS)) {
      const fetchedAt = Date.now();
      let snapshot: Record<string, unknown>;
      try {
        if (!found) throw new Error(`no indexed chain prices ${asset}`);
        const { candles } = await found.market.candlesOver(found.token, candleSeconds * FORECAST_LIMITS.maxInputs, candleSeconds);
        const record = await forecastSeries(service, ledger, { asset, chain: found.chain, token: found.token }, candles, candleSeconds, steps, found.market.head.timestamp);
        snapshot = {
          // The consensus's call (null when the models disagree) and each model's own figures.
          available: true, asset, interval, direction: record.direction, driftPct: record.driftPct,
          consensus: record.verdict === 'CONSENSUS', verdict: record.verdict, statement: record.statement,
          models: record.models.map(({ model, family, direction, driftPct, q10, q90 }) => ({ model, family, direction, driftPct, q10, q90 })),
          chain: found.chain, token: found.token,
          source: `index:${found.chain}@${found.market.head.block}`, candleSeconds, steps, inputs: record.inputs, fetchedAt,
          // The whole record (band, commentary): the forecast page draws this very forecast, not another run.
          block: found.market.head.block, record,
        };
        done++;
      } catch (err) {
        snapshot = { available: false, reason: (err as Error).message, asset, interval, fetchedAt };
      }
      await ctx.store.set(snapshotKey(asset, interval), JSON.stringify(snapshot));
    }
  }
  return done;
}

/** A precomputed major's forecast as stored: its record, block and when it was made; null when there is none (or it failed). */
export async function readPrecomputed(ctx: SkillContext, asset: string, interval: string): Promise<{ record: Awaited<ReturnType<typeof forecastSeries>>; block: number; fetchedAt: number } | null> {
  const raw = await ctx.store.get(snapshotKey(asset, interval));
  if (!raw) return null;
  const s = JSON.parse(raw) as { available?: boolean; record?: Awaited<ReturnType<typeof forecastSeries>>; block?: number; fetchedAt: number };
  return s.available && s.record && s.block !== undefined ? { record: s.record, block: s.block, fetchedAt: s.fetchedAt } : null;
}

/** Scores the ledger's due events at the price the index holds for their due time. */
export function scoreDue(ctx: SkillContext, ledger: AccuracyLedger): Promise<number> {
  return ledger.scoreDue(async (event) => {
    try {
      const { market } = await loadMarket(ctx, event.chain as ChainName);
      return await market.priceAt(event.token, event.dueTs);
    } catch {
      return null;
    }
  });
}

/** Resolves once every chain's index has reached (about) its head, polling; gives up after 10 minutes. */
async function indexesReady(ctx: SkillContext, stopped: () => boolean): Promise<void> {
  const deadline = Date.now() + 600_000;
  // Live blocks keep coming while a pass runs: within a couple of blocks of head is indexed.
  const ready = async () => (await Promise.all(ctx.chains.list().map((chain) => indexedToHead(ctx.store, chain, 2)))).every(Boolean);
  while (!stopped() && Date.now() < deadline && !(await ready().catch(() => false))) await new Promise((r) => setTimeout(r, 500));
}

/** Starts both loops; the returned function stops them. */
export function startForecastJobs(ctx: SkillContext, service: ForecastService, ledger: AccuracyLedger, options: { precomputeMs: number; scoreMs?: number; log: (msg: string, err?: unknown) => void }): () => void {
  const precompute = async () => {
    // One round per period across instances.
    if (!(await ctx.store.reserve(`forecast:precompute:${Math.floor(Date.now() / options.precomputeMs)}`, '1', options.precomputeMs))) return;
    await precomputeMajors(ctx, service, ledger);
  };
  let stopped = false;
  const run = (job: () => Promise<unknown>, name: string) => () => void job().catch((err) => options.log(`forecast ${name} failed`, err));
  // The first round also backfills the ledger, after the snapshots the free tool serves. It waits
  // for every chain's first index pass (a chain read by URL is indexed in the background), or it
  // would find no major to forecast and leave the ledger empty until the next round.
  const firstRound = async () => {
    await indexesReady(ctx, () => stopped);
    if (stopped) return;
    await precompute().catch((err) => options.log('forecast precompute failed', err));
    await backfillLedger(ctx, service, ledger);
  };
  const first = setTimeout(run(firstRound, 'backfill'), 0);
  const timers = [setInterval(run(precompute, 'precompute'), options.precomputeMs), setInterval(run(() => scoreDue(ctx, ledger), 'scoring'), options.scoreMs ?? 60_000)];
  for (const t of [first, ...timers]) t.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    timers.forEach(clearInterval);
  };
}
