/**
 * The catalogue's ways to buy the forecast inference API besides the registry's (none project
 * it): x402 on its own path, or the service-token quota. The catalogue and the pages list them.
 */
import type { OwnWays } from './catalog.js';
import { priceOptions } from './openapi.js';
import { ACCESS_TIERS } from '../skills/forecast/access.js';
import { FREE_USD } from '../skills/core/money.js';
import { FORECAST_API_EXAMPLE_BODY, FORECAST_API_PATH, forecastInferenceSkill } from '../skills/forecast/inference.js';

export const forecastApiWays: OwnWays = (serverUrl, rail) => [{
  method: 'x402', protocol: 'http', httpMethod: 'POST', url: `${serverUrl}${FORECAST_API_PATH}`, path: FORECAST_API_PATH,
  priceUsd: priceOptions(forecastInferenceSkill)[0]!, exampleBody: FORECAST_API_EXAMPLE_BODY, ...rail,
}, {
  method: 'service-token-quota', protocol: 'http', httpMethod: 'POST', url: `${serverUrl}${FORECAST_API_PATH}`, path: FORECAST_API_PATH,
  priceUsd: FREE_USD, headers: ['X-Wallet', 'X-Timestamp', 'X-Signature'],
  tiers: ACCESS_TIERS.map((t) => ({ tier: t.tier, minTokens: t.minTokens, forecastsPerDay: t.dailyQuota })),
}];
