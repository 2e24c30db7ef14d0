/**
 * The forecast inference API (docs/skills.md, "Forecasts"; catalogue: forecast-inference-api, $1.00, 20 a minute, 30 s)
 * as a registry skill. Its body is the forecast engine's own. It is served on its own API path,
 * not in the list of x402 data operations (OpenAPI's paid operations, the challenge lane), since
 * it has a second way to pay: holders of the service token call it under a daily quota (the
 * server plugs that in as a payment method of the payments core).
 */
import { z } from 'zod';
import { SibylError } from '../core/errors.js';
import { ACCURACY_ROW_LIMIT } from './ledger.js';
import { forecastInput } from './engine.js';
import { FORECAST_LIMITS } from './slots.js';
import { defineSkill } from '../core/registry.js';

/** Where it is served: paid per call with x402, or free under a service-token quota. */
export const FORECAST_API_PATH = '/api/svc/v1/forecast';
/** The smallest body the endpoint accepts, for documents that show how to call it. */
export const FORECAST_API_EXAMPLE_BODY = { inputs: Array.from({ length: FORECAST_LIMITS.minInputs }, (_, i) => 100 + i) };

// What the forecast API answers: the skill's output, and the two documents beside it (OpenAPI publishes them; the routes are typed by them).
const quantiles = z.object({ q10: z.array(z.number()), q50: z.array(z.number()), q90: z.array(z.number()) });
/** `POST /api/svc/v1/forecast`: the engine's record (skills/forecast/engine.ts `assembleForecast`) and what served it. */
export const forecastAnswer = z.object({
  model: z.string(),
  horizon: z.number().int(),
  lastClose: z.number(),
  driftPct: z.number().nullable().describe('The finance-native model\'s drift when it ran; for consensus, null when the models disagree.'),
  direction: z.enum(['bullish', 'bearish', 'neutral']).nullable().describe('bullish, bearish or neutral against the model\'s noise; for consensus, the shared call, null when the models disagree.'),
  noisePct: z.number(),
  neutralBandPct: z.number(),
  signalMultiple: z.number(),
  models: z.array(z.object({
    model: z.string(), family: z.string(), points: z.array(z.number()), driftPct: z.number(), direction: z.string(), noisePct: z.array(z.number()),
    quantiles: quantiles.optional(),
    range: z.object({ q10: z.number(), q90: z.number() }).describe('q10-q90 at the horizon: the model\'s quantiles, else its median ±1.2816 standard errors.'),
  })),
  quantiles: quantiles.optional().describe('The finance-native model\'s q10/q50/q90, when it ran.'),
  consensus: z.object({
    verdict: z.enum(['CONSENSUS', 'DIVERGENCE']),
    statement: z.string().describe('"models agree: <call> (...)" or "models disagree (...); no direction", naming both models\' figures.'),
    sameCall: z.boolean(), bandsOverlap: z.boolean(),
    distancePct: z.number().describe('Points between the drifts (reported, not judged).'),
    rule: z.string(),
  }).optional(),
  servedBy: z.record(z.string(), z.string()),
  inputsHash: z.string().describe('keccak256 of the canonical JSON of the inputs.'),
  generatedAt: z.string(),
  attestation: z.unknown().optional().describe('EIP-191 signature over the record, when a signing key is configured.'),
});
/** What a call under a service-token quota adds to the record. */
export const quotaState = z.object({ wallet: z.string(), tier: z.string(), limit: z.number().int(), remaining: z.number().int(), resetAt: z.number() });
/** `GET /api/svc/v1/models`: every model id and what serves it here. */
export const modelsAnswer = z.looseObject({
  object: z.string().describe('model-catalogue'),
  default: z.string(),
  models: z.array(z.looseObject({ id: z.string(), family: z.string(), available: z.boolean(), servedBy: z.string().nullable(), backend: z.string().nullable(), quantiles: z.boolean() })),
  limits: z.record(z.string(), z.number()),
});
/** `GET /api/svc/v1/forecast/accuracy`: the ledger's scored buckets. */
export const accuracyAnswer = z.object({
  object: z.literal('forecast-accuracy'),
  asset: z.string().nullable(),
  totalBuckets: z.number().int(),
  assetsScored: z.array(z.string()),
  pending: z.number().int(),
  limit: z.number().int(),
  rows: z.array(z.looseObject({ asset: z.string(), chain: z.string(), interval: z.string(), model: z.string(), origin: z.string(), samples: z.number().int(), mape_pct: z.number().nullable(), direction_hit_rate: z.number().nullable() })),
  truncated: z.object({ limit: z.number().int(), originalLengths: z.object({ rows: z.number().int() }) }).optional(),
  method: z.string(),
});
/** The accuracy leaderboard's query. */
export const accuracyQuery = z.strictObject({
  asset: z.string().regex(/^[A-Za-z0-9]{1,20}$/).optional(),
  limit: z.coerce.number().int().min(ACCURACY_ROW_LIMIT.min).max(ACCURACY_ROW_LIMIT.max).default(ACCURACY_ROW_LIMIT.default),
});

export const forecastInferenceSkill = defineSkill({
  id: 'forecast-inference-api',
  title: 'Forecast inference API',
  description: 'Two-model forecasts of any series of 16-1024 positive numbers (horizon 1-256), with quantiles, consensus verdict and attestation: free for service-token holders under a daily quota, paid per call with x402 by everyone else.',
  tags: ['forecast', 'inference', 'api'],
  examples: [],
  // The deployment's served model ids narrow `model` (ForecastService.input); this is the in-process default.
  input: forecastInput,
  /** What a call without quota pays on the endpoint itself. */
  price: '1.00',
  // Its own path (above), outside the data operations' list: no registry surface projects it.
  surfaces: [],
  catalog: { rateLimitPerMinute: 20, timeTargetSeconds: 30 },
  output: forecastAnswer,
  admit: async (_input, ctx) => {
    if (!ctx.forecast) throw new SibylError('forecast_unavailable', 'forecasting is switched off on this deployment (FORECAST=off)');
  },
  handler: async (input, ctx) => ({ ...(await ctx.forecast!.service.forecast(input, ctx.signal)) }),
});
