/**
 * OpenAPI 3.1 projected from the registry: one POST per paid skill, its request schema from
 * the skill's zod input, the payment requirement record and fixed-price record of spec 2.1,
 * and the advertised minimum and maximum prices computed across operations.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';
import { atomicToUsdString, usdToAtomic } from '../payments/money.js';
import { fixedPriceRecord, requirementRecord, X402_NETWORK, type PaymentTerms } from '../payments/terms.js';
import { httpPaths, priceVariants, type PriceList, type Registry, type Skill } from '../skills/registry.js';

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CODES) },
        message: { type: 'string' },
        reason: { type: 'string' },
        fields: { type: 'array', items: { type: 'object', required: ['field', 'rule'], properties: { field: { type: 'string' }, rule: { type: 'string' } } } },
      },
    },
  },
} as const;

/** Every price a skill can charge from a price list, as "0.40" strings, the default first. */
export function priceOptions(skill: Skill, list: PriceList = 'http'): string[] {
  if (list === 'catalog' && skill.catalogPrice) return [atomicToUsdString(usdToAtomic(skill.catalogPrice))];
  return [...new Set(priceVariants(skill.price).map((v) => atomicToUsdString(usdToAtomic(v.price))))];
}

export function buildOpenApi(registry: Registry, terms: PaymentTerms, serverUrl: string, version: string) {
  const bounds = registry.httpPriceBounds();
  const paths: Record<string, unknown> = {};
  for (const skill of registry.list('http')) {
    const prices = priceOptions(skill);
    httpPaths(skill).forEach((path, i) => {
      paths[path] = {
        post: {
          operationId: i === 0 ? skill.id : `${skill.id}-${i}`,
          summary: skill.title,
          description: i === 0 ? skill.description : `${skill.description} (Also served at ${skill.httpPath}.)`,
          tags: [...skill.tags],
          requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(skill.input, { io: 'input' }) } } },
          responses: {
            '200': { description: 'The answer, with provenance; the settlement receipt is in PAYMENT-RESPONSE / X-PAYMENT-RESPONSE.' },
            '400': { description: 'Invalid body or malformed payment header.', content: { 'application/json': { schema: errorSchema } } },
            '402': { description: 'Payment required or refused: x402 v2 PaymentRequired (also base64 in PAYMENT-REQUIRED).' },
            '404': { description: 'Token unknown or unpriceable; nothing charged.', content: { 'application/json': { schema: errorSchema } } },
            '503': { description: 'Chain or source unavailable; nothing charged.', content: { 'application/json': { schema: errorSchema } } },
          },
          'x-payment-requirement': requirementRecord(terms, prices[0]!),
          'x-price': fixedPriceRecord(prices[0]!),
          ...(prices.length > 1 && {
            // Other prices and the body fields that select them.
            'x-price-variants': priceVariants(skill.price).map((v) => ({ ...fixedPriceRecord(atomicToUsdString(usdToAtomic(v.price))), when: v.when })),
          }),
          ...(skill.capabilityField && {
            // Typed capability bodies: `{ <field>: id, ...that skill's fields }`, at that skill's price.
            'x-capability-bodies': registry.capabilitiesOf(skill).map((c) => ({
              [skill.capabilityField!]: c.id,
              summary: c.title,
              prices: priceOptions(c, 'catalog'),
              schema: z.toJSONSchema(c.input, { io: 'input' }),
            })),
          }),
        },
      };
    });
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Sibyl', version, description: 'Pay-per-request blockchain intelligence. Paid operations settle per call in USDC with x402 v2.' },
    servers: [{ url: serverUrl }],
    paths,
    'x-x402': {
      version: '2.0',
      networks: [X402_NETWORK],
      asset: { symbol: 'USDC', address: terms.asset, decimals: 6 },
      payTo: terms.payTo,
      ...(bounds && { minPriceUsd: atomicToUsdString(bounds.min), maxPriceUsd: atomicToUsdString(bounds.max) }),
    },
  };
}
