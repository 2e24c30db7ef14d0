/**
 * The accuracy ledger's backfill: a fresh node has served no forecast yet, so its ledger would
 * be empty for days. At start, the majors are forecast at rolling origins over the indexed
 * history, each from the candles before its origin only, exactly as a live forecast at that
 * moment would have been, and scored at once against the candle closing at its due time. Rows
 * are published as `origin: "backfill"` beside the live ones.
 *
 * Origins sit on a grid of whole horizons in unix time, so windows never overlap (every call is
 * independent) and a restart, or another instance, derives the same events; each is claimed in
 * the store before it counts. One instance backfills at a time (a lease), and the work runs on
 * the forecast worker threads after start-up, never in front of it.
 */
import { randomUUID } from 'node:crypto';
import type { SkillContext } from '../core/context.js';
import { ledgerCalls, type SeriesPoint } from './chart.js';
import { locateMajor, PRECOMPUTE_ASSETS, PRECOMPUTE_INTERVALS } from './majors.js';
import { durationLabel, type AccuracyLedger, type ForecastEvent } from './ledger.js';
import type { ForecastService } from './service.js';
import { CONSENSUS, FORECAST_LIMITS } from './slots.js';

/** The most recent origins backfilled per asset and horizon: enough for a hit rate, cheap on 2 cores. */
export const BACKFILL_ORIGINS = 24;
const LEASE = 'forecast:backfill:lease';
const LEASE_MS = 15 * 60_000;

export interface BackfillOrigin {
  /** Candles before the origin: the forecast's inputs are these closes. */
  readonly context: number;
  readonly originTs: number;
  readonly dueTs: number;
  /** The close of the candle that ends at the due time. */
  readonly realized: number;
}

/**
 * The origins of one candle series (each candle `time` is its start): on the grid of whole
 * horizons, with at least the minimum inputs before them and their due candle closed by `headTs`.
 */
export function backfillOrigins(candles: readonly SeriesPoint[], candleSeconds: number, steps: number, headTs: number, limit = BACKFILL_ORIGINS): BackfillOrigin[] {
  const window = steps * candleSeconds;
  const out: BackfillOrigin[] = [];
  for (let context = FORECAST_LIMITS.minInputs; context + steps <= candles.length; context++) {
    const originTs = Date.parse(candles[context - 1]!.time) / 1000 + candleSeconds;
    const dueTs = originTs + window;
    const due = candles[context + steps - 1]!;
    if (originTs % window !== 0 || dueTs > headTs || Date.parse(due.time) / 1000 + candleSeconds !== dueTs) continue;
    out.push({ context, originTs, dueTs, realized: due.close });
  }
  return out.slice(-limit);
}

/** Backfills every major at every precompute horizon; returns the events scored now. */
export async function backfillLedger(ctx: SkillContext, service: ForecastService, ledger: AccuracyLedger): Promise<number> {
  const owner = randomUUID();
  if (!(await ctx.store.reserve(LEASE, owner, LEASE_MS))) return 0;
  let scored = 0;
  try {
    for (const asset of PRECOMPUTE_ASSETS) {
      const found = await locateMajor(ctx, asset);
      if (!found) continue;
      for (const { candleSeconds, steps } of Object.values(PRECOMPUTE_INTERVALS)) {
        const headTs = found.market.head.timestamp;
        const { candles } = await found.market.candlesOver(found.token, candleSeconds * (FORECAST_LIMITS.maxInputs + BACKFILL_ORIGINS * steps), candleSeconds);
        const interval = durationLabel(steps * candleSeconds);
        for (const origin of backfillOrigins(candles, candleSeconds, steps, headTs)) {
          const id = `${asset}|${found.chain}|${interval}|${origin.originTs}`;
          if (await ledger.backfilled(id)) continue;
          const inputs = candles.slice(Math.max(0, origin.context - FORECAST_LIMITS.maxInputs), origin.context).map((c) => c.close);
          const answer = await service.forecast({ model: CONSENSUS, inputs, horizon: steps });
          const event: ForecastEvent = {
            id, asset, chain: found.chain, token: found.token, interval, originTs: origin.originTs, dueTs: origin.dueTs,
            lastClose: answer.lastClose, calls: ledgerCalls(answer), origin: 'backfill',
          };
          if (await ledger.scoreBackfill(event, origin.realized)) scored++;
        }
      }
    }
  } finally {
    if ((await ctx.store.get(LEASE)) === owner) await ctx.store.delete(LEASE);
  }
  return scored;
}
