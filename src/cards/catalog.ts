/**
 * The marketplace catalogue projected from the registry: for each service, every way to buy
 * it with the price that way charges, plus rate limit and response-time target where the
 * registry states them. Minimum and maximum prices are computed.
 */
import { atomicToUsdString } from '../payments/money.js';
import { X402_NETWORK, type PaymentTerms } from '../payments/terms.js';
import { httpPaths, type Registry } from '../skills/registry.js';
import { priceOptions } from './openapi.js';

export const CATALOG_VERSION = '1.3.0';

export function buildCatalog(registry: Registry, terms: PaymentTerms, serverUrl: string) {
  const services = registry.list('http').map((skill) => ({
    id: skill.id,
    title: skill.title,
    description: skill.description,
    tags: [...skill.tags],
    purchase: httpPaths(skill).map((path) => ({
      method: 'x402',
      httpMethod: 'POST',
      url: `${serverUrl}${path}`,
      path,
      priceUsd: priceOptions(skill).join('-'),
      network: X402_NETWORK,
      asset: terms.asset,
      payTo: terms.payTo,
    })),
    rateLimitPerMinute: skill.rateLimitPerMinute ?? null,
    responseTimeTargetSeconds: skill.timeTargetSeconds ?? null,
  }));
  const bounds = registry.httpPriceBounds();
  return {
    version: CATALOG_VERSION,
    serviceCount: services.length,
    services,
    ...(bounds && { minPriceUsd: atomicToUsdString(bounds.min), maxPriceUsd: atomicToUsdString(bounds.max) }),
  };
}
