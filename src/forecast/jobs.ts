/**
 * Background forecast work any instance may run: forecasts of the majors at fixed horizons
 * (snapshots for the free forecast tool, and ledger events), and scoring of due ledger events
 * against the index. Leases in the store keep two instances from doing the same round.
 */
import type { ChainName } from '../chain/chains.js';
import { resolveToken } from '../intel/resolve.js';
import { loadMarket } from '../skills/market/load.js';
import type { SkillContext } from '../skills/context.js';
import { forecastSeries } from './chart.js';
import type { AccuracyLedger } from './ledger.js';
import type { ForecastService } from './service.js';
import { FORECAST_LIMITS } from './slots.js';

export const PRECOMPUTE_ASSETS = ['BTC', 'ETH', 'SOL', 'BNB'] as const;
/** Each horizon is cut into candles small enough for 16+ of them in two weeks of history. */
export const PRECOMPUTE_INTERVALS = {
  '4h': { candleSeconds: 3_600, steps: 4 },
  '1d': { candleSeconds: 14_400, steps: 6 },
  '1w': { candleSeconds: 28_800, steps: 21 },
  '1M': { candleSeconds: 43_200, steps: 60 },
} as const;
export type PrecomputeInterval = keyof typeof PRECOMPUTE_INTERVALS;

export const snapshotKey = (asset: string, interval: string) => `forecast:snapshot:${asset}:${interval}`;

/** The indexed chain and token standing for `asset` with the deepest priced pool. */
async function locate(ctx: SkillContext, asset: string) {
  let best: { chain: ChainName; token: string; depth: number; market: Awaited<ReturnType<typeof loadMarket>>['market'] } | undefined;
  for (const chain of ctx.chains.list()) {
    try {
      const { market } = await loadMarket(ctx, chain.name);
      const token = resolveToken(market, asset);
      const depth = market.mainPool(token)?.quoteUsd ?? -1;
      if (!best || depth > best.depth) best = { chain: chain.name, token, depth, market };
    } catch {
      // not indexed, or no such token there
    }
  }
  return best;
}

/** Forecasts every major at every interval; each answer becomes a snapshot and a ledger event. */
export async function precomputeMajors(ctx: SkillContext, service: ForecastService, ledger: AccuracyLedger): Promise<number> {
  let done = 0;
  for (const asset of PRECOMPUTE_ASSETS) {
    const found = await locate(ctx, asset);
    for (const [interval, { candleSeconds, steps }] of Object.entries(PRECOMPUTE_INTERVALS)) {
      const fetchedAt = Date.now();
      let snapshot: Record<string, unknown>;
      try {
        if (!found) throw new Error(`no indexed chain prices ${asset}`);
        const { candles } = await found.market.candlesOver(found.token, candleSeconds * FORECAST_LIMITS.maxInputs, candleSeconds);
        const record = await forecastSeries(service, ledger, { asset, chain: found.chain, token: found.token }, candles, candleSeconds, steps, found.market.head.timestamp);
        snapshot = {
          available: true, asset, interval, direction: record.direction, driftPct: record.driftPct,
          consensus: record.verdict === 'CONSENSUS', verdict: record.verdict, chain: found.chain, token: found.token,
          source: `index:${found.chain}@${found.market.head.block}`, candleSeconds, steps, inputs: record.inputs, fetchedAt,
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

/** Starts both loops; the returned function stops them. */
export function startForecastJobs(ctx: SkillContext, service: ForecastService, ledger: AccuracyLedger, options: { precomputeMs: number; scoreMs?: number; log: (msg: string, err?: unknown) => void }): () => void {
  const precompute = async () => {
    // One round per period across instances.
    if (!(await ctx.store.reserve(`forecast:precompute:${Math.floor(Date.now() / options.precomputeMs)}`, '1', options.precomputeMs))) return;
    await precomputeMajors(ctx, service, ledger);
  };
  const run = (job: () => Promise<unknown>, name: string) => () => void job().catch((err) => options.log(`forecast ${name} failed`, err));
  const first = setTimeout(run(precompute, 'precompute'), 0);
  const timers = [setInterval(run(precompute, 'precompute'), options.precomputeMs), setInterval(run(() => scoreDue(ctx, ledger), 'scoring'), options.scoreMs ?? 60_000)];
  for (const t of [first, ...timers]) t.unref();
  return () => {
    clearTimeout(first);
    timers.forEach(clearInterval);
  };
}
