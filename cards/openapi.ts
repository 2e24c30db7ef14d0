/**
 * OpenAPI 3.1 projected from the registry: one POST per paid skill, its request schema from
 * the skill's zod input, the payment requirement record and fixed-price record of spec 2.1,
 * and the advertised minimum and maximum prices computed across operations. The account routes
 * of the tool server's paid tools (sign-in with Ethereum, credits and their x402 top-up) are
 * listed too, their request bodies from the routes' own schemas.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../skills/errors.js';
import { CREDIT_TOP_UP_USD, atomicToUsdString, usdToAtomic } from '../skills/money.js';
import { fixedPriceRecord, requirementRecord, X402_NETWORK, type PaymentTerms } from '../server/payments/terms.js';
import { httpPaths, priceVariants, type PriceList, type Registry, type Skill } from '../skills/registry.js';
import { SIGN_IN, signInBody, topUpBody } from '../server/auth.js';

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

const json = (schema: unknown) => ({ 'application/json': { schema } });
const errorResponse = (description: string) => ({ description, content: json(errorSchema) });
const atomic = { type: 'string', pattern: '^-?\\d+$', description: 'Atomic USDC (6 decimals), as a decimal string.' } as const;
const usd = { type: 'string', description: 'USD, "$" and two or more decimals.' } as const;
const settlementReceipt = {
  type: 'object',
  description: 'The x402 settlement receipt (also in PAYMENT-RESPONSE / X-PAYMENT-RESPONSE).',
  properties: { success: { type: 'boolean' }, transaction: { type: 'string' }, network: { type: 'string' }, payer: { type: 'string' } },
  additionalProperties: true,
} as const;
/** A credited balance, or null while the credit is queued (the store did not take it yet). */
const balanceFields = {
  balance: { anyOf: [atomic, { type: 'null' }] },
  balanceUsd: { anyOf: [usd, { type: 'null' }] },
  creditQueued: { type: 'boolean', description: 'Present (true) when the credit is kept and retried because the store did not take it yet.' },
} as const;

/**
 * The account routes of the paid MCP tools: a single-use nonce, sign-in with Ethereum (EIP-4361)
 * for a bearer token, the balance and ledger, and a top-up paid with x402.
 */
function accountPaths() {
  const bearer = [{ bearer: [] }];
  const unauthorized = errorResponse('No valid bearer token (`unauthorized`); `WWW-Authenticate` points to the protected-resource metadata.');
  return {
    '/api/auth/nonce': {
      get: {
        operationId: 'sign-in-nonce',
        summary: 'A single-use nonce for sign-in with Ethereum',
        description: `The nonce (valid ${SIGN_IN.nonceTtlMs / 60_000} min, spent once) and the domain, URI and chain id the EIP-4361 message must name: this server's configured origin (PUBLIC_URL, else http://HOST:PORT), never a request header.`,
        tags: ['accounts'],
        responses: {
          '200': {
            description: 'The nonce and what the message must name.',
            content: json({
              type: 'object', required: ['nonce', 'domain', 'uri', 'chainId', 'expiresInSeconds'],
              properties: { nonce: { type: 'string' }, domain: { type: 'string' }, uri: { type: 'string', format: 'uri' }, chainId: { type: 'integer' }, expiresInSeconds: { type: 'integer' } },
            }),
          },
        },
      },
    },
    '/api/auth/siwe': {
      post: {
        operationId: 'sign-in',
        summary: 'Sign in with Ethereum for a bearer token',
        description: `An EIP-4361 message for this server's domain and origin, chain 8453 and a nonce from GET /api/auth/nonce, and its signature (EOA or contract wallet). Answers a bearer token valid ${SIGN_IN.tokenTtlMs / 3_600_000} h for the paid MCP tools and the credit routes.`,
        tags: ['accounts'],
        requestBody: { required: true, content: json(z.toJSONSchema(signInBody, { io: 'input' })) },
        responses: {
          '200': {
            description: 'Signed in.',
            content: json({
              type: 'object', required: ['accessToken', 'tokenType', 'expiresAt', 'address'],
              properties: { accessToken: { type: 'string' }, tokenType: { const: 'Bearer' }, expiresAt: { type: 'integer', description: 'Unix seconds.' }, address: { type: 'string' } },
            }),
          },
          '400': errorResponse('Invalid body.'),
          '401': errorResponse('`sign_in_invalid`: wrong domain, URI origin or chain, unknown or used nonce, expired, or not signed by its address.'),
        },
      },
    },
    '/api/credits': {
      get: {
        operationId: 'credits',
        summary: 'The credit balance and its ledger',
        tags: ['accounts'],
        security: bearer,
        responses: {
          '200': {
            description: 'The balance and the newest movements first.',
            content: json({
              type: 'object', required: ['account', 'balance', 'balanceUsd', 'movements'],
              properties: {
                account: { type: 'string' }, balance: atomic, balanceUsd: usd,
                movements: { type: 'array', items: { type: 'object', required: ['at', 'kind', 'amount', 'balanceAfter', 'ref'], properties: { at: { type: 'string', format: 'date-time' }, kind: { enum: ['topup', 'debit', 'refund'] }, amount: atomic, balanceAfter: atomic, ref: { type: 'string' } } } },
              },
            }),
          },
          '401': unauthorized,
        },
      },
    },
    '/api/credits/topup': {
      post: {
        operationId: 'credits-topup',
        summary: 'Top up credits, paid with x402',
        description: `Adds amountUsd (${CREDIT_TOP_UP_USD.min}-${CREDIT_TOP_UP_USD.max}) to the signed-in account's credits. Unpaid, the answer is the 402 challenge for that amount; paid (X-PAYMENT or PAYMENT-SIGNATURE) it is credited once the payment settled.`,
        tags: ['accounts'],
        security: bearer,
        requestBody: { required: true, content: json(z.toJSONSchema(topUpBody, { io: 'input' })) },
        responses: {
          '200': {
            description: 'Settled and credited.',
            content: json({ type: 'object', required: ['account', 'toppedUp', 'balance', 'balanceUsd', 'payment'], properties: { account: { type: 'string' }, toppedUp: atomic, ...balanceFields, payment: settlementReceipt } }),
          },
          '202': {
            description: 'Paid, settlement still pending: credited once, when reconciliation finds it settled.',
            content: json({ type: 'object', required: ['account', 'status', 'pendingTopUp', 'payment'], properties: { account: { type: 'string' }, status: { const: 'settlement_pending' }, pendingTopUp: atomic, ...balanceFields, payment: settlementReceipt } }),
          },
          '400': errorResponse('Invalid body or malformed payment header.'),
          '401': unauthorized,
          '402': { description: 'Payment required or refused: x402 v2 PaymentRequired for the amount (also base64 in PAYMENT-REQUIRED).' },
        },
        'x-payment': { protocol: 'x402', mode: 'amount', currency: 'USD', amountField: 'amountUsd', network: X402_NETWORK },
      },
    },
  };
}

/** The JSON Schema of a skill's answer, as OpenAPI and the A2A skill list publish it. */
export function answerSchema(skill: Pick<Skill, 'output'>): Record<string, unknown> {
  const { $schema: _, ...schema } = z.toJSONSchema(skill.output, { io: 'output' });
  return schema;
}

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
    paths: { ...paths, ...accountPaths() },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token from POST /api/auth/siwe (sign-in with Ethereum).' } } },
    'x-x402': {
      version: '2.0',
      networks: [X402_NETWORK],
      asset: { symbol: 'USDC', address: terms.asset, decimals: 6 },
      payTo: terms.payTo,
      ...(bounds && { minPriceUsd: atomicToUsdString(bounds.min), maxPriceUsd: atomicToUsdString(bounds.max) }),
    },
  };
}
