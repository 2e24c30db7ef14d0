/** The free catalysts tool (get_prediction_catalysts), read from its snapshot (catalysts.ts). */
import { z } from 'zod';
import type { SkillContext } from '../core/context.js';
import { defineFreeTool, disabledResult, freeOutput, fromSnapshot, list } from '../core/free.js';
import { FREE_ROWS, rowsParam } from '../core/params.js';
import { MINUTE_MS, type SnapshotJob } from '../core/snapshots.js';
import { CATALYSTS_METHODOLOGY, predictionCatalysts } from './catalysts.js';
import { freePredictionProvenanceShape, NO_PREDICTION_VENUES, predictionProvenance, venueNow } from './markets.js';
import { PREDICTION_PROVIDERS } from './venues.js';

export async function predictionCatalystsSnapshot(ctx: SkillContext): Promise<Record<string, unknown>> {
  const venues = ctx.prediction;
  if (!venues) return { available: false, reason: 'domain_disabled', detail: NO_PREDICTION_VENUES };
  const now = venueNow();
  const found = await predictionCatalysts(venues, now, ctx.signal);
  return { ...predictionProvenance(venues, PREDICTION_PROVIDERS, now, CATALYSTS_METHODOLOGY), openEvents: found.openEvents, matches: found.matches, moves: found.moves };
}

export const predictionCatalystsSnapshotJob: SnapshotJob = { id: 'prediction-catalysts', everyMs: 5 * MINUTE_MS, build: predictionCatalystsSnapshot };


export const predictionCatalystsTool = defineFreeTool({
  id: 'prediction-catalysts', toolName: 'get_prediction_catalysts', title: 'Prediction-market catalysts',
  snapshot: predictionCatalystsSnapshotJob,
  description: 'Upcoming prediction-market resolutions on Polymarket and Kalshi (open markets closing soonest) with the yes price, 24 h move and volume, and the markets that moved most over the last day.',
  tags: ['prediction-markets', 'catalysts', 'event-contracts', 'odds', 'resolution', 'resolve', 'polymarket', 'kalshi'],
  examples: ['Which prediction markets resolve soonest?', 'Which contracts settle this week?', 'What upcoming events could swing the odds?'],
  needs: ['prediction'],
  // A question in plain language ("which event contracts settle this week?") is answered from it.
  agent: true,
  input: z.strictObject({ limit: rowsParam(FREE_ROWS) }),
  output: freeOutput({
    ...freePredictionProvenanceShape,
    openEvents: z.number().int().optional(),
    matches: list().describe('Open markets, the soonest resolution first: question, each venue\'s market and yes price, yes, change24h, volumeUsd, volume24hUsd, closesAt, hoursToClose.'),
    moves: list().describe('Open markets whose yes price moved most over 24 h (Polymarket\'s change), the largest first; same fields.'),
  }),
  read: ({ limit }, ctx) => (ctx.prediction ? fromSnapshot(ctx, predictionCatalystsSnapshotJob, limit) : Promise.resolve(disabledResult(limit))),
});
