/**
 * Forecast inference (docs/skills.md, "Forecasts"): `POST /api/svc/v1/forecast` sells the registry skill
 * forecast-inference-api through the payments core, paid by the service-token quota (its payment
 * method) or per call with x402 on this same path at the skill's price (its 402 also names the
 * cheaper chart forecast); `GET /api/svc/v1/models` and `GET /api/svc/v1/forecast/accuracy`.
 */
import type { Express, Request, Response } from 'express';
import { z } from 'zod';
import { SibylError } from '../skills/core/errors.js';
import { QuotaRequired, type ForecastAccess } from '../skills/forecast/access.js';
import { FORECAST_LIMITS } from '../skills/forecast/slots.js';
import { formatUsd } from '../skills/core/money.js';
import { accuracyAnswer, accuracyQuery, FORECAST_API_PATH, forecastAnswer, forecastInferenceSkill, modelsAnswer, quotaState } from '../skills/forecast/inference.js';
import { skillOperation, type PaidOperation } from '../payments/operation.js';
import { quotaMethod } from '../payments/quota-method.js';
import { servePaid, type PaidRouteDeps } from './paid-routes.js';
import { parseBody } from '../skills/core/validation.js';
import type { SkillId } from '../skills/catalog/index.js';
import { ROUTES } from '../cards/routes.js';

export interface ForecastRouteDeps extends PaidRouteDeps {
  access?: ForecastAccess | undefined;
}

const skill = forecastInferenceSkill;


/** The cheaper way every refusal also names: the chart forecast on its paid HTTP path. */
function paidChartForecast(deps: ForecastRouteDeps, req: Request) {
  const chart = deps.registry.byId('tokenchart' satisfies SkillId)!;
  const body = { tokenAddress: 'ETH', forecast: true };
  const amount = chart.quote(chart.input.parse(body));
  return { method: 'POST', url: `${deps.publicUrl(req)}${chart.httpPath!}`, exampleBody: body, price: formatUsd(amount), note: 'the chart forecast (a token\'s own candles, 12 ahead, with commentary) is cheaper, paid per call with x402; its tokenAddress takes a contract address or a symbol such as BTC, ETH, SOL, BNB' };
}

/** No quota: a 402 payable here, at this endpoint's price, that also names the chart forecast. */
function refuse(res: Response, deps: ForecastRouteDeps, req: Request, operation: PaidOperation, err: QuotaRequired): void {
  const challenge = deps.paywall.challenge(operation.amount, { url: `${deps.publicUrl(req)}${FORECAST_API_PATH}`, description: operation.description, mimeType: 'application/json' });
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

export function mountForecastRoutes(app: Express, deps: ForecastRouteDeps): void {
  const forecast = deps.context.forecast;

  app.post(FORECAST_API_PATH, async (req, res) => {
    // The deployment's served models narrow the skill's schema.
    const input = parseBody(forecast?.service.input ?? skill.input, req.body);
    const operation = skillOperation(skill, input, deps.context);
    // A payment is paid for whatever access headers come with it (a 402 answered to them already used their signature).
    if (req.get('x-payment') ?? req.get('payment-signature')) return servePaid(operation, req, res, deps);
    // Forecasting off: refused before any quota is taken.
    await operation.admit?.();
    if (!deps.access) throw new SibylError('forecast_unavailable', 'forecasting is switched off on this deployment (FORECAST=off)');
    const resource = { url: `${deps.publicUrl(req)}${FORECAST_API_PATH}`, description: operation.description, mimeType: 'application/json' };
    const proof = { wallet: req.get('x-wallet'), signature: req.get('x-signature'), timestamp: req.get('x-timestamp'), rawBody: (req as Request & { rawBody?: Buffer }).rawBody ?? new Uint8Array() };
    let paid;
    try {
      paid = await deps.payments.charge(operation, quotaMethod(deps.access), proof, resource);
    } catch (err) {
      if (err instanceof QuotaRequired) return refuse(res, deps, req, operation, err);
      throw err;
    }
    const { answer, receipt: admission } = paid;
    const quota: z.input<typeof quotaState> = { wallet: admission.wallet, tier: admission.tier, limit: admission.limit, remaining: admission.limit - admission.used, resetAt: admission.resetAt };
    res.set({ 'X-Quota-Tier': quota.tier, 'X-Quota-Limit': String(quota.limit), 'X-Quota-Remaining': String(quota.remaining), 'X-Quota-Reset': String(quota.resetAt) });
    res.json({ ...(answer as z.input<typeof forecastAnswer>), quota });
  });

  app.get(ROUTES.forecastModels, (_req, res) => {
    if (!forecast) throw new SibylError('forecast_unavailable', 'forecasting is switched off on this deployment (FORECAST=off)');
    res.json({ ...forecast.service.catalogue(), limits: FORECAST_LIMITS } satisfies z.input<typeof modelsAnswer>);
  });

  app.get(ROUTES.forecastAccuracy, async (req, res) => {
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
