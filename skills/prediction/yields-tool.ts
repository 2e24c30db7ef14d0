/** The free near-certain-yield tool (get_prediction_yields), read from its snapshot (yields.ts). */
import { z } from 'zod';
import type { SkillContext } from '../core/context.js';
import { defineFreeTool, disabledResult, freeOutput, fromSnapshot, list } from '../core/free.js';
import { FREE_ROWS, rowsParam } from '../core/params.js';
import { MINUTE_MS, type SnapshotJob } from '../core/snapshots.js';
import { freePredictionProvenanceShape, NO_PREDICTION_VENUES, predictionProvenance, venueNow } from './markets.js';
import { PREDICTION_PROVIDERS } from './venues.js';
import { predictionYields, YIELD_MAX_HOURS, YIELD_PRICES, YIELDS_METHODOLOGY } from './yields.js';

export async function predictionYieldsSnapshot(ctx: SkillContext): Promise<Record<string, unknown>> {
  const venues = ctx.prediction;
  if (!venues) return { available: false, reason: 'domain_disabled', detail: NO_PREDICTION_VENUES };
  const now = venueNow();
  return { ...predictionProvenance(venues, PREDICTION_PROVIDERS, now, YIELDS_METHODOLOGY), ...(await predictionYields(venues, now, ctx.signal)) };
}

export const predictionYieldsSnapshotJob: SnapshotJob = { id: 'prediction-yields', everyMs: 5 * MINUTE_MS, build: predictionYieldsSnapshot };


export const predictionYieldsTool = defineFreeTool({
  id: 'prediction-yields', toolName: 'get_prediction_yields', title: 'Prediction-market yields',
  snapshot: predictionYieldsSnapshotJob,
  description: `Near-certain prediction-market outcomes held to resolution as yield: open markets on Polymarket and Kalshi where a side's ask is ${YIELD_PRICES.min}-${YIELD_PRICES.max} with under ${YIELD_MAX_HOURS} h left, as annualised yield (1/p − 1)·365/days, with what could still go wrong (what settles it, the other venue's rule, the time left); and the recent trades at or above the price floor with the wallets buying them.`,
  tags: ['prediction-markets', 'near-certain', 'outcomes', 'resolution', 'settle', 'yield', 'polymarket', 'kalshi'],
  examples: ['Earn a yield on outcomes that are all but decided', 'Which almost-certain contracts pay the best annualised return by expiry?'],
  needs: ['prediction'],
  // A question in plain language ("where can I earn yield on near-certain outcomes?") is answered from it.
  agent: true,
  input: z.strictObject({ limit: rowsParam(FREE_ROWS) }),
  output: freeOutput({
    ...freePredictionProvenanceShape,
    positions: list().describe('Near-certain sides, the highest annualised yield first: question, venue, market, side, price, closesAt, hoursToClose, returnPct, annualisedYieldPct, settlesOn, risk.'),
    trades: list().describe('Recent trades at or above priceFloor and minCollateralUsd over lookbackHours, newest first.'),
    wallets: list().describe('Who bought them: trades, markets, collateralUsd, spreadUsd; the most collateral first.'),
    totals: z.object({ trades: z.number().int(), collateralUsd: z.number(), spreadUsd: z.number() }).optional().describe('Over every such trade (before the lists are cut).'),
    priceFloor: z.number().min(0).max(1).optional(),
    minCollateralUsd: z.number().optional(),
    lookbackHours: z.number().optional(),
  }),
  read: ({ limit }, ctx) => (ctx.prediction ? fromSnapshot(ctx, predictionYieldsSnapshotJob, limit) : Promise.resolve(disabledResult(limit))),
});
