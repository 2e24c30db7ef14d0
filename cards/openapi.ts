/**
 * OpenAPI 3.1 projected from the registry: one POST per paid skill, its request schema from
 * the skill's zod input, the payment requirement record and fixed-price record (payments/terms.ts),
 * and the advertised minimum and maximum prices computed across operations. The account routes
 * of the tool server's paid tools (sign-in with Ethereum, credits and their x402 top-up) are
 * listed too, their request bodies from the routes' own schemas.
 */
import { z } from 'zod';
import { AGENT_CARD_URL_PATH } from './agent-card.js';
import { ERROR_CODES } from '../skills/core/errors.js';
import { CREDIT_TOP_UP_USD, USDC_DECIMALS, atomicToUsdString, usdToAtomic } from '../skills/core/money.js';
import { fixedPriceRecord, PAYMENT_ASSET_SYMBOL, requirementRecord, X402_NETWORK, type PaymentTerms } from '../payments/terms.js';
import { httpPaths, priceVariants, type PriceList, type Registry, type Skill } from '../skills/core/registry.js';
import { MCP_SCOPE, SCOPE_MEANINGS, SIGN_IN, creditsAnswer, nonceAnswer, signInAnswer, signInBody, topUpAnswer, topUpBody, topUpPendingAnswer } from '../payments/accounts.js';
import { MCP_PATH } from './mcp-tools.js';
import { accuracyAnswer, accuracyQuery, forecastAnswer, FORECAST_API_PATH as FORECAST_PATH, forecastInferenceSkill as FORECAST_INFERENCE_API, modelsAnswer, quotaState } from '../skills/forecast/inference.js';
import { forecastInput } from '../skills/forecast/engine.js';
import { A2A_SKILLS_PATH } from './a2a-skills.js';
import { a2aSkillListDocument, agentCardDocument, catalogDocument, errorDocument, healthDocument, mcpToolListDocument, openApiDocument, paymentRequiredDocument } from './documents.js';
import { ROUTES } from './routes.js';

/** What the forecast API charges a call without quota (its skill's only price). */
const forecastApiPrice = priceVariants(FORECAST_INFERENCE_API.price)[0]!.price;

/** A zod schema as an OpenAPI 3.1 schema object (JSON Schema 2020-12 without `$schema`). */
function schemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** Shared schemas under components/schemas; skill answers are added as `<SkillId>Answer`. (A function: its modules import each other.) */
const sharedSchemas = () => ({
  Error: errorDocument, PaymentRequired: paymentRequiredDocument,
  SignInNonce: nonceAnswer, SignIn: signInAnswer, Credits: creditsAnswer, CreditTopUp: topUpAnswer, CreditTopUpPending: topUpPendingAnswer,
  Forecast: forecastAnswer.extend({ quota: quotaState.optional().describe('Under a service-token quota: what is left of it.') }), ForecastModels: modelsAnswer, ForecastAccuracy: accuracyAnswer,
  AgentCard: agentCardDocument, A2aSkillList: a2aSkillListDocument, McpToolList: mcpToolListDocument,
  MarketplaceCatalog: catalogDocument, OpenApi: openApiDocument, Health: healthDocument,
}) satisfies Record<string, z.ZodType>;
const answerName = (id: string) => `${id.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase())}Answer`;

/** Error statuses with every code each may carry (skills/core/errors.ts), projected, never typed. */
function errorResponses(statuses: readonly number[]) {
  return Object.fromEntries(statuses.map((status) => {
    const codes = Object.entries(ERROR_CODES).filter(([, c]) => c.status === status).map(([code]) => code);
    return [String(status), { description: `Error: ${codes.join(', ')}. Nothing is charged.`, content: json(ref('Error')) }];
  }));
}
const paymentRequired = (description: string) => ({ description, content: json(ref('PaymentRequired')) });
/** What a paid data operation can answer besides its 200 and 402 (409: its payment being answered elsewhere; 422: an answer of nothing, never settled). */
const PAID_ERROR_STATUSES = [400, 404, 409, 413, 415, 422, 429, 500, 503, 504] as const;

const json = (schema: unknown) => ({ 'application/json': { schema } });
const errorResponse = (description: string) => ({ description, content: json(ref('Error')) });
/**
 * The account routes of the paid MCP tools: a single-use nonce, sign-in with Ethereum (EIP-4361)
 * for a bearer token, the balance and ledger, and a top-up paid with x402.
 */
/** The account routes' paths (the pages and llms.txt name them). */
export const accountRoutePaths = (): string[] => Object.keys(accountPaths());

function accountPaths() {
  const bearer = [{ bearer: [] }, { oauth2: [MCP_SCOPE] }];
  const unauthorized = errorResponse('No valid bearer token (`unauthorized`); `WWW-Authenticate` points to the protected-resource metadata.');
  return {
    [ROUTES.signInNonce]: {
      get: {
        operationId: 'sign-in-nonce',
        summary: 'A single-use nonce for sign-in with Ethereum',
        description: `The nonce (valid ${SIGN_IN.nonceTtlMs / 60_000} min, spent once) and the domain, URI and chain id the EIP-4361 message must name: this server's configured origin (PUBLIC_URL, else http://HOST:PORT), never a request header.`,
        tags: ['accounts'],
        responses: {
          '200': {
            description: 'The nonce and what the message must name.',
            content: json(ref('SignInNonce')),
          },
        },
      },
    },
    [ROUTES.signIn]: {
      post: {
        operationId: 'sign-in',
        summary: 'Sign in with Ethereum for a bearer token',
        description: `An EIP-4361 message for this server's domain and origin, chain 8453 and a nonce from GET /api/auth/nonce, and its signature (EOA or contract wallet). Answers a bearer token valid ${SIGN_IN.tokenTtlMs / 3_600_000} h for the paid MCP tools and the credit routes.`,
        tags: ['accounts'],
        requestBody: { required: true, content: json(schemaOf(signInBody, 'input')) },
        responses: {
          '200': {
            description: 'Signed in.',
            content: json(ref('SignIn')),
          },
          '400': errorResponse('Invalid body.'),
          '401': errorResponse('`sign_in_invalid`: wrong domain, URI origin or chain, unknown or used nonce, expired, or not signed by its address.'),
        },
      },
    },
    [ROUTES.credits]: {
      get: {
        operationId: 'credits',
        summary: 'The credit balance and its ledger',
        tags: ['accounts'],
        security: bearer,
        responses: {
          '200': {
            description: 'The balance and the newest movements first.',
            content: json(ref('Credits')),
          },
          '401': unauthorized,
        },
      },
    },
    [ROUTES.creditsTopUp]: {
      post: {
        operationId: 'credits-topup',
        summary: 'Top up credits, paid with x402',
        description: `Adds amountUsd (${CREDIT_TOP_UP_USD.min}-${CREDIT_TOP_UP_USD.max}) to the signed-in account's credits. Unpaid, the answer is the 402 challenge for that amount; paid (X-PAYMENT or PAYMENT-SIGNATURE) it is credited once the payment settled.`,
        tags: ['accounts'],
        security: bearer,
        requestBody: { required: true, content: json(schemaOf(topUpBody, 'input')) },
        responses: {
          '200': {
            description: 'Settled and credited.',
            content: json(ref('CreditTopUp')),
          },
          '202': {
            description: 'Paid, settlement still pending: credited once, when reconciliation finds it settled.',
            content: json(ref('CreditTopUpPending')),
          },
          '400': errorResponse('Invalid body or malformed payment header.'),
          '401': unauthorized,
          '402': paymentRequired('Payment required or refused: x402 v2 PaymentRequired for the amount (also base64 in PAYMENT-REQUIRED).'),
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

/** Forecast inference (docs/skills.md, "Forecasts"): free under a service-token quota, else paid per call with x402 at its catalogue price. */
function forecastPaths(terms: PaymentTerms) {
  const query = z.toJSONSchema(accuracyQuery, { io: 'input' }) as { properties: Record<string, Record<string, unknown>>; required?: string[] };
  return {
    [FORECAST_PATH]: {
      post: {
        operationId: FORECAST_INFERENCE_API.id,
        summary: FORECAST_INFERENCE_API.title,
        description: `${FORECAST_INFERENCE_API.description} Quota access signs with the X-Wallet, X-Timestamp and X-Signature headers.`,
        tags: [...FORECAST_INFERENCE_API.tags],
        parameters: ['X-Wallet', 'X-Timestamp', 'X-Signature'].map((name) => ({ name, in: 'header', required: false, schema: { type: 'string' }, description: 'Service-token quota access (EIP-191 signature over the documented message).' })),
        requestBody: { required: true, content: json(schemaOf(forecastInput, 'input')) },
        responses: {
          '200': { description: 'The forecast; `quota` when served under a service-token quota.', content: json(ref('Forecast')) },
          '402': paymentRequired(`No quota: payable here at $${forecastApiPrice} with x402; the body also names the cheaper chart forecast (paidAlternative).`),
          ...errorResponses([400, 401, 409, 429, 500, 503, 504]),
        },
        // Not a registry operation: paid at this price only without a quota, so it carries its terms here rather than as x-payment-requirement.
        'x-payment': { protocol: 'x402', mode: 'fixed-without-quota', requirement: requirementRecord(terms, forecastApiPrice), price: fixedPriceRecord(forecastApiPrice) },
      },
    },
    [ROUTES.forecastModels]: {
      get: { operationId: 'forecast-models', summary: 'Forecast models and what serves each', tags: ['forecast'], responses: { '200': { description: 'The model catalogue.', content: json(ref('ForecastModels')) }, ...errorResponses([503]) } },
    },
    [ROUTES.forecastAccuracy]: {
      get: {
        operationId: 'forecast-accuracy',
        summary: 'Forecast accuracy ledger',
        tags: ['forecast'],
        parameters: Object.entries(query.properties).map(([name, schema]) => ({ name, in: 'query', required: query.required?.includes(name) ?? false, schema })),
        responses: { '200': { description: 'Scored forecasts per asset, chain, interval and model, with the baselines.', content: json(ref('ForecastAccuracy')) }, ...errorResponses([400, 503]) },
      },
    },
  };
}

/** The free discovery documents and the health report. */
function discoveryPaths() {
  const doc = (operationId: string, summary: string, schema: string, extra: Record<string, unknown> = {}) => ({
    get: { operationId, summary, tags: ['discovery'], responses: { '200': { description: summary, content: json(ref(schema)) }, ...extra } },
  });
  return {
    [AGENT_CARD_URL_PATH]: doc('agent-card', 'The A2A agent card', 'AgentCard'),
    [A2A_SKILLS_PATH]: doc('a2a-skills', 'The A2A skills with prices, params and answer schemas', 'A2aSkillList'),
    [ROUTES.mcpTools]: doc('mcp-tools', 'The MCP tools as JSON', 'McpToolList'),
    [ROUTES.marketplaceCatalog]: doc('marketplace-catalog', 'The marketplace catalogue: every service and every way to buy it', 'MarketplaceCatalog'),
    [ROUTES.openapi]: doc('openapi', 'This document', 'OpenApi'),
    [ROUTES.health]: doc('health', 'Health: each part (store, chains, indexers, Bitcoin, world) up, slow or down, and payments; 200 whenever the process serves', 'Health'),
    [ROUTES.readiness]: doc('readiness', 'Readiness: the same report, 503 while a part needed to sell is down', 'Health', { '503': { description: 'Not ready (a part needed to sell is down): the same report, ready false.', content: json(ref('Health')) } }),
    [ROUTES.liveness]: {
      get: {
        operationId: 'liveness', summary: 'Liveness: the process serves HTTP (asks no part)', tags: ['discovery'],
        responses: { '200': { description: 'Alive.', content: json({ type: 'object', required: ['status', 'uptimeSeconds'], properties: { status: { const: 'alive' }, uptimeSeconds: { type: 'integer', minimum: 0 } } }) } },
      },
    },
  };
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
          requestBody: { required: true, content: json(schemaOf(skill.input, 'input')) },
          responses: {
            '200': { description: 'The answer, with provenance; the settlement receipt is in PAYMENT-RESPONSE / X-PAYMENT-RESPONSE.', content: json(ref(answerName(skill.id))) },
            '402': paymentRequired('Payment required or refused: x402 v2 PaymentRequired (also base64 in PAYMENT-REQUIRED).'),
            ...errorResponses(PAID_ERROR_STATUSES),
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
              schema: schemaOf(c.input, 'input'),
              answer: ref(answerName(c.id)),
            })),
          }),
        },
      };
    });
  }
  // Every skill's answer, working or not, so capability bodies and agent-only skills are described too.
  const answers = Object.fromEntries(registry.published().map((s) => [answerName(s.id), answerSchema(s)]));
  const shared = Object.fromEntries(Object.entries(sharedSchemas()).map(([name, schema]) => [name, schemaOf(schema)]));
  return {
    openapi: '3.1.0',
    info: { title: 'Sibyl', version, description: 'Pay-per-request blockchain intelligence. Paid operations settle per call in USDC with x402 v2.' },
    servers: [{ url: serverUrl }],
    paths: { ...paths, ...accountPaths(), ...forecastPaths(terms), ...discoveryPaths() },
    components: {
      schemas: { ...shared, ...answers },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token from POST /api/auth/siwe (sign-in with Ethereum), or an OAuth access token (the oauth2 scheme).' },
        oauth2: {
          type: 'oauth2',
          description: `OAuth 2.1 (authorization code with PKCE S256, dynamic client registration at ${serverUrl}/oauth/register, resource ${serverUrl}${MCP_PATH}); the login is sign-in with Ethereum. Metadata: ${serverUrl}/.well-known/oauth-authorization-server.`,
          flows: { authorizationCode: { authorizationUrl: `${serverUrl}/oauth/authorize`, tokenUrl: `${serverUrl}/oauth/token`, refreshUrl: `${serverUrl}/oauth/token`, scopes: SCOPE_MEANINGS } },
        },
      },
    },
    'x-x402': {
      version: '2.0',
      networks: [X402_NETWORK],
      asset: { symbol: PAYMENT_ASSET_SYMBOL, address: terms.asset, decimals: USDC_DECIMALS },
      payTo: terms.payTo,
      ...(bounds && { minPriceUsd: atomicToUsdString(bounds.min), maxPriceUsd: atomicToUsdString(bounds.max) }),
    },
  };
}
