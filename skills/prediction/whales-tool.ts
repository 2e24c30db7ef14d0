/** The free prediction-whales tool (get_prediction_whales), read from its snapshot: one insider scan and its report (whales.ts). */
import { z } from 'zod';
import type { SkillContext } from '../core/context.js';
import { defineFreeTool, disabledResult, freeOutput, fromSnapshot, list } from '../core/free.js';
import { FREE_ROWS, rowsParam } from '../core/params.js';
import { MINUTE_MS, type SnapshotJob } from '../core/snapshots.js';
import { FUNDING_CHAIN } from './funding.js';
import { scanWithFunding } from './insiders-skill.js';
import { freePredictionProvenanceShape, NO_PREDICTION_VENUES, predictionProvenance, venueNow } from './markets.js';
import { WHALES_METHODOLOGY, whaleReport } from './whales.js';

export async function predictionWhalesSnapshot(ctx: SkillContext): Promise<Record<string, unknown>> {
  const venues = ctx.prediction;
  if (!venues) return { available: false, reason: 'domain_disabled', detail: NO_PREDICTION_VENUES };
  const now = venueNow();
  const { scan, funding } = await scanWithFunding(ctx, { now });
  // Without the chain no wallet can be judged fresh: no flags to give, rather than none found.
  if (funding.unreadable) return { available: false, reason: 'chain_unavailable', detail: `the wallets' funding on ${FUNDING_CHAIN} cannot be read: ${funding.unreadable}` };
  return { ...predictionProvenance(venues, ['polymarket'], now, WHALES_METHODOLOGY), funding, ...whaleReport(scan, funding, venues.polymarket.origins()) };
}

export const predictionWhalesSnapshotJob: SnapshotJob = { id: 'prediction-whales', everyMs: 10 * MINUTE_MS, build: predictionWhalesSnapshot };

export const predictionWhalesTool = defineFreeTool({
  id: 'prediction-whales', toolName: 'get_prediction_whales', title: 'Prediction-market whales',
  snapshot: predictionWhalesSnapshotJob,
  description: 'Insider-like positioning of large bettors on Polymarket: the largest positions ($5,000+ on one side) and their trades of the last 24 h, the positions flagged as informed (a wallet fresh on chain, first funded on Polygon shortly before, buying one side large before the price moved its way), the markets they gather in and wallets that go together.',
  tags: ['prediction-markets', 'whales', 'bettors', 'betting', 'insider', 'polymarket'],
  needs: ['prediction', 'prediction-funding'],
  // A question about who bets big, or bets as if they knew, is answered from it.
  agent: true,
  input: z.strictObject({ limit: rowsParam(FREE_ROWS) }),
  output: freeOutput({
    ...freePredictionProvenanceShape,
    funding: z.looseObject({}).optional().describe('The chain read for the wallets\' first funding.'),
    alertCount: z.number().int().optional(),
    highRiskCount: z.number().int().optional().describe('Alerts whose price already moved toward the side bought.'),
    insiderScanReport: z.looseObject({
      alerts: list().describe('Flagged positions, highest score first: wallet, question, side, level, risk, score, positionUsd, tradedAt, fundedAt, fundedUsd, fundedBy, hoursFundedBeforeTrade, priorTrades, priceBefore, maxRise, minutesToMove, resolved, won, reasons.'),
      walletsScanned: z.number().int(), walletsFlagged: z.number().int(), marketsAnalyzed: z.number().int(), positionsExamined: z.number().int(),
      marketAnomalies: list().describe('Markets holding flags, by USD flagged.'),
      walletClusters: list().describe('Wallets funded by one sender (basis funder), or flagged on one side of a market within hours (basis same-side-same-window).'),
      whaleTransfers: list().describe('The large positions\' trades of the last 24 h, largest first.'),
      dataSourcesUsed: z.array(z.string()),
    }).optional(),
  }),
  read: ({ limit }, ctx) => (ctx.prediction ? fromSnapshot(ctx, predictionWhalesSnapshotJob, limit) : Promise.resolve(disabledResult(limit))),
});
