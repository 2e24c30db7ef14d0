/**
 * Forecast inference (spec 4.3): `POST /api/svc/v1/forecast` for service-token holders under
 * their daily quota, and for everyone else paid per call with x402 on this same path at the
 * catalogue's price (its 402 also names the cheaper chart forecast); `GET /api/svc/v1/models`
 * and `GET /api/svc/v1/forecast/accuracy`.
 */
import type { Express, Request, Response } from 'express';
import { z } from 'zod';
import { SibylError } from '../skills/errors.js';
import { ACCESS_TIERS, QuotaRequired, type ForecastAccess } from '../skills/forecast/access.js';
import type { ExtraCatalogService } from '../cards/catalog.js';
import { withinTarget, type RateLimiter } from './limits.js';
import { ACCURACY_ROW_LIMIT } from '../skills/forecast/ledger.js';
import { forecastInput, type ForecastInput } from '../skills/forecast/engine.js';
import { FORECAST_LIMITS } from '../skills/forecast/slots.js';
import { FREE_USD, formatUsd, usdToAtomic } from '../skills/money.js';
import type { Paywall } from './payments/paywall.js';
import type { SkillContext } from '../skills/context.js';
import { FORECAST_INFERENCE_API } from '../skills/forecast-inference.js';
import type { Registry } from '../skills/registry.js';
import { servePaid, type PaidOperation } from './paid-routes.js';
import { parseBody } from './validation.js';

// What the forecast routes answer: OpenAPI publishes these, and the routes are typed by them.
const quantiles = z.object({ q10: z.array(z.number()), q50: z.array(z.number()), q90: z.array(z.number()) });
/** `POST /api/svc/v1/forecast`: skills/forecast/engine.ts `assembleForecast` plus what served it; `quota` under a service-token quota. */
export const forecastAnswer = z.object({
  model: z.string(),
  horizon: z.number().int(),
  lastClose: z.number(),
  driftPct: z.number(),
  direction: z.string().describe('up, down or neutral against the model\'s noise.'),
  noisePct: z.number(),
  neutralBandPct: z.number(),
  signalMultiple: z.number(),
  models: z.array(z.object({
    model: z.string(), family: z.string(), points: z.array(z.number()), driftPct: z.number(), direction: z.string(), noisePct: z.array(z.number()),
    quantiles: quantiles.optional(),
  })),
  quantiles: quantiles.optional().describe('The finance-native model\'s q10/q50/q90, when it ran.'),
  consensus: z.object({ verdict: z.string(), distancePct: z.number(), maxDistancePct: z.number() }).optional(),
  servedBy: z.record(z.string(), z.string()),
  inputsHash: z.string().describe('keccak256 of the canonical JSON of the inputs.'),
  generatedAt: z.string(),
  attestation: z.unknown().optional().describe('EIP-191 signature over the record, when a signing key is configured.'),
  quota: z.object({ wallet: z.string(), tier: z.string(), limit: z.number().int(), remaining: z.number().int(), resetAt: z.number() }).optional(),
});
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
export { accuracyQuery };

export interface ForecastRouteDeps {
  registry: Registry;
  paywall: Paywall;
  context: SkillContext;
  limiter: RateLimiter;
  access?: ForecastAccess;
  publicUrl: (req: Request) => string;
}

export const FORECAST_PATH = '/api/svc/v1/forecast';
const LIMITS = { ...FORECAST_INFERENCE_API.catalog, id: FORECAST_INFERENCE_API.id };
/** The smallest body the endpoint accepts, for documents that show how to call it. */
const EXAMPLE_BODY = { inputs: Array.from({ length: FORECAST_LIMITS.minInputs }, (_, i) => 100 + i) };

/** The forecast inference API in the marketplace catalogue (spec 4.5): paid per call with x402, or free under a service-token quota. */
export const FORECAST_API_SERVICE: ExtraCatalogService = {
  id: FORECAST_INFERENCE_API.id,
  title: FORECAST_INFERENCE_API.title,
  description: FORECAST_INFERENCE_API.description,
  tags: FORECAST_INFERENCE_API.tags,
  entry: FORECAST_INFERENCE_API.catalog,
  priceUsd: FORECAST_INFERENCE_API.price,
  purchase: (serverUrl, rail) => [{
    method: 'x402', protocol: 'http', httpMethod: 'POST', url: `${serverUrl}${FORECAST_PATH}`, path: FORECAST_PATH,
    priceUsd: FORECAST_INFERENCE_API.price, exampleBody: EXAMPLE_BODY, ...rail,
  }, {
    method: 'service-token-quota', protocol: 'http', httpMethod: 'POST', url: `${serverUrl}${FORECAST_PATH}`, path: FORECAST_PATH,
    priceUsd: FREE_USD, headers: ['X-Wallet', 'X-Timestamp', 'X-Signature'],
    tiers: ACCESS_TIERS.map((t) => ({ tier: t.tier, minTokens: t.minTokens, forecastsPerDay: t.dailyQuota })),
  }],
};

/** A forecast paid per call with x402, under the service's catalogue limits. */
function paidForecast(deps: ForecastRouteDeps, input: ForecastInput): PaidOperation {
  const service = deps.context.forecast!.service;
  return {
    amount: usdToAtomic(FORECAST_INFERENCE_API.price),
    description: FORECAST_INFERENCE_API.description,
    limits: LIMITS,
    run: async (signal) => ({ ...(await service.forecast(input, signal)) }),
  };
}

/** The cheaper way every refusal also names: the chart forecast on its paid HTTP path. */
function paidChartForecast(deps: ForecastRouteDeps, req: Request) {
  const chart = deps.registry.byId('tokenchart')!;
  const body = { tokenAddress: 'ETH', forecast: true };
  const amount = chart.quote(chart.input.parse(body));
  return { method: 'POST', url: `${deps.publicUrl(req)}${chart.httpPath!}`, exampleBody: body, price: formatUsd(amount), note: 'the chart forecast (a token\'s own candles, 12 ahead, with commentary) is cheaper, paid per call with x402; its tokenAddress takes a contract address or a symbol such as BTC, ETH, SOL, BNB' };
}

/** No quota: a 402 payable here, at this endpoint's price, that also names the chart forecast. */
function refuse(res: Response, deps: ForecastRouteDeps, req: Request, operation: PaidOperation, err: QuotaRequired): void {
  const challenge = deps.paywall.challenge(operation.amount, { url: `${deps.publicUrl(req)}${FORECAST_PATH}`, description: operation.description, mimeType: 'application/json' });
  res.status(402).set(challenge.headers).json({
    ...(challenge.body as Record<string, unknown>),
    // x402's own `error` is a string; the code and reason sit beside it, as the paywall's do.
    error: err.message,
    code: 'payment_required',
    reason: err.reason,
    message: `${err.message}; or pay ${formatUsd(operation.amount)} for this forecast with x402 (the requirements above)`,
    paidAlternative: paidChartForecast(deps, req),
  });
}

const accuracyQuery = z.strictObject({
  asset: z.string().regex(/^[A-Za-z0-9]{1,20}$/).optional(),
  limit: z.coerce.number().int().min(ACCURACY_ROW_LIMIT.min).max(ACCURACY_ROW_LIMIT.max).default(ACCURACY_ROW_LIMIT.default),
});

export function mountForecastRoutes(app: Express, deps: ForecastRouteDeps): void {
  const forecast = deps.context.forecast;

  app.post(FORECAST_PATH, async (req, res) => {
    const schema = forecast?.service.input ?? forecastInput;
    const input = parseBody(schema, req.body);
    if (!forecast || !deps.access) throw new SibylError('forecast_unavailable', 'forecasting is switched off on this deployment (FORECAST=off)');
    const operation = paidForecast(deps, input);
    // A payment is paid for whatever access headers come with it (a 402 answered to them already used their signature).
    if (req.get('x-payment') ?? req.get('payment-signature')) return servePaid(operation, req, res, deps);
    let admission;
    try {
      admission = await deps.access.admit(
        { wallet: req.get('x-wallet'), signature: req.get('x-signature'), timestamp: req.get('x-timestamp') },
        (req as Request & { rawBody?: Buffer }).rawBody ?? new Uint8Array(),
      );
    } catch (err) {
      if (err instanceof QuotaRequired) return refuse(res, deps, req, operation, err);
      throw err;
    }
    let answer;
    try {
      await deps.limiter.take(LIMITS, admission.wallet);
      answer = await withinTarget(LIMITS, (signal) => forecast.service.forecast(input, signal));
    } catch (err) {
      await deps.access.refund(admission);
      throw err;
    }
    res.set({
      'X-Quota-Tier': admission.tier,
      'X-Quota-Limit': String(admission.limit),
      'X-Quota-Remaining': String(admission.limit - admission.used),
      'X-Quota-Reset': String(admission.resetAt),
    });
    res.json({ ...answer, quota: { wallet: admission.wallet, tier: admission.tier, limit: admission.limit, remaining: admission.limit - admission.used, resetAt: admission.resetAt } } satisfies z.input<typeof forecastAnswer>);
  });

  app.get('/api/svc/v1/models', (_req, res) => {
    if (!forecast) throw new SibylError('forecast_unavailable', 'forecasting is switched off on this deployment (FORECAST=off)');
    res.json({ ...forecast.service.catalogue(), limits: FORECAST_LIMITS } satisfies z.input<typeof modelsAnswer>);
  });

  app.get('/api/svc/v1/forecast/accuracy', async (req, res) => {
    const query = parseBody(accuracyQuery, { ...req.query });
    if (!forecast) throw new SibylError('forecast_unavailable', 'forecasting is switched off on this deployment (FORECAST=off)');
    const { totalBuckets, assetsScored, rows } = await forecast.ledger.rows(query.asset);
    res.json({
      object: 'forecast-accuracy' as const,
      asset: query.asset?.toUpperCase() ?? null,
      totalBuckets,
      assetsScored,
      pending: await forecast.ledger.pendingCount(),
      limit: query.limit,
      rows: rows.slice(0, query.limit),
      ...(rows.length > query.limit && { truncated: { limit: query.limit, originalLengths: { rows: rows.length } } }),
      method: 'each forecast is scored at its last step against the indexed price then; origin live: forecasts served or precomputed, scored when due; origin backfill: forecasts made at start at rolling origins over the indexed history, each from the candles before its origin only; random-walk (no change) and always-bullish rows are the baselines; moves within the neutral band are scratches, excluded from hit rates',
    } satisfies z.input<typeof accuracyAnswer>);
  });
}
