/**
 * The forecast inference API (spec 4.3 and 4.5: forecast-inference-api, $1.00, 20 a minute, 30 s)
 * as a registry skill. Its body is the forecast engine's own. It is served on its own API path,
 * not in the list of x402 data operations (OpenAPI's paid operations, the challenge lane), since
 * it has a second way to pay: holders of the service token call it under a daily quota (the
 * server plugs that in as a payment method of the payments core).
 */
import { SibylError } from './errors.js';
import { forecastInput } from './forecast/engine.js';
import { FORECAST_LIMITS } from './forecast/slots.js';
import { defineSkill } from './registry.js';

/** Where it is served: paid per call with x402, or free under a service-token quota. */
export const FORECAST_API_PATH = '/api/svc/v1/forecast';
/** The smallest body the endpoint accepts, for documents that show how to call it. */
export const FORECAST_API_EXAMPLE_BODY = { inputs: Array.from({ length: FORECAST_LIMITS.minInputs }, (_, i) => 100 + i) };

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
  admit: async (_input, ctx) => {
    if (!ctx.forecast) throw new SibylError('forecast_unavailable', 'forecasting is switched off on this deployment (FORECAST=off)');
  },
  handler: async (input, ctx) => ({ ...(await ctx.forecast!.service.forecast(input, ctx.signal)) }),
});
