/**
 * Forecast inference (spec 4.3): `POST /api/svc/v1/forecast` for service-token holders under
 * their daily quota (402 with the paid chart forecast's requirements for everyone else),
 * `GET /api/svc/v1/models` and `GET /api/svc/v1/forecast/accuracy`.
 */
import type { Express, Request, Response } from 'express';
import { z } from 'zod';
import { SibylError } from '../errors.js';
import { ACCESS_TIERS, QuotaRequired, type ForecastAccess } from '../forecast/access.js';
import type { ExtraCatalogService } from '../cards/catalog.js';
import { withinTarget, type RateLimiter } from './limits.js';
import { ACCURACY_ROW_LIMIT } from '../forecast/ledger.js';
import { forecastInput } from '../forecast/engine.js';
import { FORECAST_LIMITS } from '../forecast/slots.js';
import { formatUsd } from '../payments/money.js';
import type { Paywall } from '../payments/paywall.js';
import type { SkillContext } from '../skills/context.js';
import type { Registry } from '../skills/registry.js';
import { parseBody } from './validation.js';

export interface ForecastRouteDeps {
  registry: Registry;
  paywall: Paywall;
  context: SkillContext;
  limiter: RateLimiter;
  access?: ForecastAccess;
  publicUrl: (req: Request) => string;
}

const FORECAST_PATH = '/api/svc/v1/forecast';

/** The forecast inference API in the marketplace catalogue (spec 4.5): bought with a service-token quota, not per call. */
export const FORECAST_API_SERVICE: ExtraCatalogService = {
  id: 'forecast-inference-api',
  title: 'Forecast inference API',
  description: 'Two-model forecasts of any series of 16-1024 positive numbers (horizon 1-256), with quantiles, consensus verdict and attestation, for service-token holders under a daily quota; everyone else is pointed to the paid chart forecast.',
  tags: ['forecast', 'inference', 'api'],
  entry: { id: 'forecast-inference-api', rateLimitPerMinute: 20, timeTargetSeconds: 30 },
  priceUsd: '0.00',
  purchase: (serverUrl) => [{
    method: 'service-token-quota', protocol: 'http', httpMethod: 'POST', url: `${serverUrl}${FORECAST_PATH}`, path: FORECAST_PATH,
    priceUsd: '0.00', headers: ['X-Wallet', 'X-Timestamp', 'X-Signature'],
    tiers: ACCESS_TIERS.map((t) => ({ tier: t.tier, minTokens: t.minTokens, forecastsPerDay: t.dailyQuota })),
  }],
};

/** The paid alternative every refusal points to: the chart forecast on the paid HTTP path. */
function paidChartForecast(deps: ForecastRouteDeps, req: Request) {
  const chart = deps.registry.byId('tokenchart')!;
  const body = { tokenAddress: 'ETH', forecast: true };
  const amount = chart.quote(chart.input.parse(body));
  const url = `${deps.publicUrl(req)}${chart.httpPath!}`;
  return { amount, url, body, description: chart.description };
}

function refuse(res: Response, deps: ForecastRouteDeps, req: Request, err: QuotaRequired): void {
  const paid = paidChartForecast(deps, req);
  const challenge = deps.paywall.challenge(paid.amount, { url: paid.url, description: paid.description, mimeType: 'application/json' });
  res.status(402).set(challenge.headers).json({
    ...(challenge.body as Record<string, unknown>),
    // x402's own `error` is a string; the code and reason sit beside it, as the paywall's do.
    error: err.message,
    code: 'payment_required',
    reason: err.reason,
    message: err.message,
    paidAlternative: { method: 'POST', url: paid.url, exampleBody: paid.body, price: formatUsd(paid.amount), note: 'the chart forecast is paid per call with x402; its tokenAddress takes a contract address or a symbol such as BTC, ETH, SOL, BNB' },
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
    let admission;
    try {
      admission = await deps.access.admit(
        { wallet: req.get('x-wallet'), signature: req.get('x-signature'), timestamp: req.get('x-timestamp') },
        (req as Request & { rawBody?: Buffer }).rawBody ?? new Uint8Array(),
      );
    } catch (err) {
      if (err instanceof QuotaRequired) return refuse(res, deps, req, err);
      throw err;
    }
    let answer;
    try {
      const limits = { ...FORECAST_API_SERVICE.entry, id: FORECAST_API_SERVICE.id };
      await deps.limiter.take(limits, admission.wallet);
      answer = await withinTarget(limits, () => forecast.service.forecast(input));
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
    res.json({ ...answer, quota: { wallet: admission.wallet, tier: admission.tier, limit: admission.limit, remaining: admission.limit - admission.used, resetAt: admission.resetAt } });
  });

  app.get('/api/svc/v1/models', (_req, res) => {
    if (!forecast) throw new SibylError('forecast_unavailable', 'forecasting is switched off on this deployment (FORECAST=off)');
    res.json({ ...forecast.service.catalogue(), limits: FORECAST_LIMITS });
  });

  app.get('/api/svc/v1/forecast/accuracy', async (req, res) => {
    const query = parseBody(accuracyQuery, { ...req.query });
    if (!forecast) throw new SibylError('forecast_unavailable', 'forecasting is switched off on this deployment (FORECAST=off)');
    const { totalBuckets, assetsScored, rows } = await forecast.ledger.rows(query.asset);
    res.json({
      object: 'forecast-accuracy',
      asset: query.asset?.toUpperCase() ?? null,
      totalBuckets,
      assetsScored,
      pending: await forecast.ledger.pendingCount(),
      limit: query.limit,
      rows: rows.slice(0, query.limit),
      ...(rows.length > query.limit && { truncated: { limit: query.limit, originalLengths: { rows: rows.length } } }),
      method: 'each forecast is scored at its last step against the indexed price then; random-walk (no change) and always-bullish rows are the baselines; moves within the neutral band are scratches, excluded from hit rates',
    });
  });
}
