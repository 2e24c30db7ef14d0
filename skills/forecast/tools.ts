/** The free forecast tools: the majors' precomputed direction (get_price_forecast) and the accuracy ledger (get_forecast_accuracy). */
import { z } from 'zod';
import { defineFreeTool, disabledResult, envelope, freeOutput, list } from '../core/free.js';
import { ACCURACY_ROW_LIMIT } from './ledger.js';
import { PRECOMPUTE_ASSETS, PRECOMPUTE_INTERVALS, snapshotKey } from './jobs.js';
import { rowsParam } from '../core/params.js';

/** get_forecast_accuracy rows 1-50, default 10 (the HTTP leaderboard keeps its own default). */
export const ACCURACY_TOOL_ROWS = { min: ACCURACY_ROW_LIMIT.min, max: ACCURACY_ROW_LIMIT.max, default: 10 } as const;
const INTERVALS = Object.keys(PRECOMPUTE_INTERVALS) as [keyof typeof PRECOMPUTE_INTERVALS, ...(keyof typeof PRECOMPUTE_INTERVALS)[]];
/** The majors are precomputed every 4 hours: an older snapshot is stale. */
export const PRECOMPUTE_FRESH_MS = 4 * 3_600_000;

export const priceForecastTool = defineFreeTool({
  id: 'price-forecast', toolName: 'get_price_forecast', title: 'Price forecast (majors)',
  description: 'Direction and drift of BTC, ETH, SOL or BNB at 4h (about 32 h ahead), 1d (about 7 days), 1w (about 4 weeks) or 1M (about 4 months), with both models\' calls and whether they agree (no direction when they disagree); precomputed every 4 hours.',
  tags: ['forecast', 'majors', 'direction'], input: z.strictObject({
    asset: z.enum(PRECOMPUTE_ASSETS).default('BTC').describe(`One of ${PRECOMPUTE_ASSETS.join(', ')}; default BTC.`),
    interval: z.enum(INTERVALS).default('1d').describe(`One of ${INTERVALS.join(', ')}; default 1d.`),
  }),
  output: freeOutput({
    asset: z.enum(PRECOMPUTE_ASSETS),
    interval: z.enum(INTERVALS),
    direction: z.enum(['bullish', 'bearish', 'neutral']).nullable().optional().describe('The models\' shared call; null when they disagree.'),
    driftPct: z.number().nullable().optional().describe('The finance-native model\'s drift when the models agree; null when they disagree.'),
    consensus: z.boolean().nullable().optional().describe('true: models agree; false: they disagree (no direction); null: not recorded.'),
    statement: z.string().optional().describe('"models agree: <call> (...)" or "models disagree (...); no direction".'),
    models: z.array(z.looseObject({ model: z.string(), direction: z.string(), driftPct: z.number() })).optional().describe('Each model\'s call, drift and q10-q90 at the horizon.'),
    source: z.string().optional(),
  }),
  async read({ asset, interval }, ctx) {
    const raw = await ctx.store.get(snapshotKey(asset, interval));
    if (!raw) return { available: false, reason: 'snapshot_not_warm', asset, interval, fetchedAt: null, stale: true };
    const s = JSON.parse(raw) as Record<string, unknown> & { fetchedAt: number };
    const stale = Date.now() - s.fetchedAt > PRECOMPUTE_FRESH_MS;
    if (s.available === false) return { available: false, reason: String(s.reason), asset, interval, fetchedAt: s.fetchedAt, stale };
    // Models that disagree give no direction (a snapshot stored before this rule still carries the lead model's).
    const split = s.consensus === false;
    return {
      available: true, asset, interval, direction: split ? null : s.direction, driftPct: split ? null : s.driftPct, consensus: s.consensus ?? null,
      statement: s.statement, models: s.models, source: s.source, chain: s.chain, fetchedAt: s.fetchedAt, stale,
    };
  },
});

export const forecastAccuracyTool = defineFreeTool({
  id: 'forecast-accuracy', toolName: 'get_forecast_accuracy', title: 'Forecast accuracy ledger',
  description: 'The scored record of past forecasts per asset, interval and model (error, direction hit rate, samples) beside the random-walk and always-bullish baselines.',
  tags: ['forecast', 'accuracy', 'ledger'], input: z.strictObject({
    asset: z.string().regex(/^[A-Za-z0-9]{1,20}$/, 'must be 1-20 letters or digits').optional().describe('Only this asset (BTC, ETH, SOL, BNB, ...).'),
    limit: rowsParam(ACCURACY_TOOL_ROWS),
  }),
  output: freeOutput({
    object: z.literal('forecast-accuracy').optional(),
    asset: z.string().nullable().optional(),
    totalBuckets: z.number().optional(),
    assetsScored: z.array(z.string()).optional(),
    rows: list(),
  }),
  async read({ asset, limit }, ctx) {
    if (!ctx.forecast) return disabledResult(limit);
    const { totalBuckets, assetsScored, rows } = await ctx.forecast.ledger.rows(asset);
    return envelope({ object: 'forecast-accuracy', asset: asset?.toUpperCase() ?? null, totalBuckets, assetsScored, rows }, Date.now(), false, limit);
  },
});
