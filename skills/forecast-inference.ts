/**
 * The forecast inference API's catalogue entry (spec 4.5: forecast-inference-api, $1.00, 20 a
 * minute, 30 s). It is not a registry skill: its body is the forecast engine's own, and holders
 * of the service token call it under a daily quota. Its price and limits are still declared
 * here, with every other, once: the route (server/forecast-routes.ts) charges them to
 * callers without a quota, and the catalogue lists them.
 */
import type { UsdPrice } from './money.js';
import type { CatalogEntry } from './registry.js';

export const FORECAST_INFERENCE_API = {
  id: 'forecast-inference-api',
  title: 'Forecast inference API',
  description: 'Two-model forecasts of any series of 16-1024 positive numbers (horizon 1-256), with quantiles, consensus verdict and attestation: free for service-token holders under a daily quota, paid per call with x402 by everyone else.',
  tags: ['forecast', 'inference', 'api'],
  /** What a call without quota pays on the endpoint itself. */
  price: '1.00' as UsdPrice,
  catalog: { id: 'forecast-inference-api', rateLimitPerMinute: 20, timeTargetSeconds: 30 } satisfies CatalogEntry,
} as const;
