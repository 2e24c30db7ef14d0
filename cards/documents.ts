/**
 * Schemas of the free documents Sibyl serves (discovery, health): OpenAPI publishes them, and
 * the builders that Sibyl owns here are typed by them, so the document cannot drift from what is served.
 * Objects whose contents another standard owns (the A2A agent card, MCP tool entries) are
 * loose: their key fields are named, the rest is that standard's.
 */
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../skills/core/errors.js';
import { PREDICTION_PROVIDERS, VENUE_KINDS } from '../skills/prediction/venues.js';
import { PAYMENT_ASSET_SYMBOL } from '../payments/terms.js';

const jsonSchema = z.record(z.string(), z.unknown()).describe('A JSON Schema.');
const usdString = z.string().describe('USD, e.g. "0.40", or "0.25-0.65" when the body selects the price.');

/** `GET /api/a2a/skills` (cards/a2a-skills.ts). */
export const a2aSkillListDocument = z.object({
  count: z.number().int(),
  payment: z.object({ protocol: z.literal('x402'), network: z.string(), asset: z.string() }),
  skills: z.array(z.object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    examples: z.array(z.string()),
    priceUsd: usdString,
    currency: z.literal(PAYMENT_ASSET_SYMBOL),
    endpoint: z.string().describe('POST here with { "params": {...} }.'),
    body: z.string(),
    params: jsonSchema.describe('JSON Schema of params.'),
    output: jsonSchema.describe('JSON Schema of the answer.'),
    inputModes: z.array(z.string()),
    outputModes: z.array(z.string()),
  })),
});

/** `GET /.well-known/agent-card.json` (cards/agent-card.ts; the A2A AgentCard). */
export const agentCardDocument = z.looseObject({
  name: z.string(),
  description: z.string(),
  version: z.string(),
  supportedInterfaces: z.array(z.looseObject({ url: z.string(), protocolBinding: z.string() })),
  skills: z.array(z.looseObject({ id: z.string(), name: z.string(), description: z.string(), tags: z.array(z.string()) })),
});

/** `GET /api/mcp/tools` (server/mcp). */
export const mcpToolListDocument = z.object({
  count: z.number().int(),
  tools: z.array(z.looseObject({ name: z.string(), description: z.string(), inputSchema: jsonSchema })),
});

/** `GET /api/marketplace/catalog` (cards/catalog.ts): every service and every way to buy it. */
export const catalogDocument = z.looseObject({
  version: z.string(),
  serviceCount: z.number().int(),
  services: z.array(z.looseObject({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    available: z.boolean(),
    priceUsd: usdString,
    purchase: z.array(z.looseObject({ method: z.string(), url: z.string(), path: z.string(), priceUsd: usdString })).describe('Each way to buy it, at the price that way charges.'),
    rateLimitPerMinute: z.number().int(),
    responseTimeTargetSeconds: z.number(),
  })),
  minPriceUsd: z.string().optional(),
  maxPriceUsd: z.string().optional(),
});

/** `GET /openapi.json`. */
export const openApiDocument = z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) });

/** A part's state: up, slow (answering late, or a probe or two failed: still ready) or down. */
const partState = {
  state: z.enum(['up', 'slow', 'down']),
  ok: z.boolean().describe('The part answers (state is not down).'),
  required: z.boolean().describe('Sibyl sells nothing without this part: while it is down, /readyz answers 503.'),
  error: z.string().nullable().optional().describe('Why the part is down.'),
  note: z.string().optional().describe('Why the part is slow.'),
};
const probedState = {
  ...partState,
  latencyMs: z.number().nullable().describe("The last answer's time, or how long the probe running has waited (past 500 ms)."),
};

/**
 * `GET /healthz` (always 200 while the process serves: liveness with the parts' states) and
 * `GET /readyz` (server/health.ts): 200 while ready (no part needed to sell is down), 503 otherwise.
 */
export const healthDocument = z.object({
  status: z.enum(['ok', 'degraded']).describe('ok: every part up; degraded: a part slow or down.'),
  ready: z.boolean().describe('No part needed to sell is down (/readyz answers 200 exactly then).'),
  store: z.looseObject({ kind: z.string(), ...probedState }),
  chains: z.array(z.looseObject({
    name: z.string(), chainId: z.number().int(), source: z.string(), rpcUrl: z.string(),
    headBlock: z.string().nullable(), indexedBlock: z.string().nullable(), indexLagBlocks: z.number().int().nullable(), ...probedState,
    indexer: z.object({
      ...partState,
      lastPassAgeSeconds: z.number().int().nullable().describe('Seconds since a pass of the indexer last ended well.'),
      failuresInRow: z.number().int(),
    }).optional().describe("The chain's indexer: down after several failed passes in a row (answers go stale)."),
  })),
  payments: z.object({ network: z.string(), asset: z.string(), payTo: z.string(), facilitator: z.enum(['local', 'remote']) }),
  settlements: z.object({
    unrecorded: z.number().int().describe('Settlement records the store has not taken yet.'),
    pending: z.number().int().nullable(),
    oldestPendingSeconds: z.number().nullable(),
    lost: z.number().int().nullable().describe('Settlements answered and once on chain that the chain lost after their authorization expired: the money never arrived (kept a month).'),
  }),
  bitcoin: z.looseObject({
    source: z.enum(['embedded', 'esplora']), esploraUrl: z.string(), tipHeight: z.number().int().nullable(),
    indexedHeight: z.number().int().nullable().describe('The last block the Bitcoin index has read.'), indexLagBlocks: z.number().int().nullable(), ...probedState,
  }).optional().describe('The Bitcoin chain, when this deployment has one.'),
  prediction: z.array(z.looseObject({
    name: z.enum(PREDICTION_PROVIDERS),
    source: z.enum(VENUE_KINDS).describe('embedded: the venue this process serves on loopback; configured: the real service (POLYMARKET_*_URL, KALSHI_API_URL).'),
    urls: z.array(z.string()).describe("The venue's API base URLs (a configured one's reduced to scheme, host and port)."),
    ...probedState,
  })).optional().describe('The prediction venues, unless PREDICTION is off: each probed by listing one market.'),
  world: z.object({
    ...partState,
    liveBlockMs: z.number().int().describe('WORLD_LIVE_BLOCK_MS (0: no live blocks).'),
    lastBlockAgeSeconds: z.number().int().nullable().describe('Seconds since the embedded chain that moved least recently made a block.'),
  }).optional().describe('The embedded world, when this process runs one: slow when its live blocks stalled.'),
  load: z.object({
    eventLoopDelayMs: z.number().describe('p99 event-loop delay over the last seconds.'),
    probeBudgetMs: z.number().describe('How long a probe waits for an answer now: it grows with the event-loop delay.'),
  }),
});

/**
 * Every 4xx/5xx answer (skills/core/errors.ts `ErrorBody`); a `no_answer` also carries the unsold
 * answer's own fields beside `error` (`UnsoldBody`), so the object is open.
 */
export const errorDocument = z.looseObject({
  available: z.literal(false).optional().describe('no_answer: the answer produced nothing (the rest of its fields are beside this one).'),
  reason: z.string().optional().describe('no_answer: why the answer is nothing, in its own words.'),
  charged: z.literal(false).optional().describe('no_answer: nothing was charged (no settlement, no PAYMENT-RESPONSE).'),
  error: z.object({
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    reason: z.string().optional(),
    fields: z.array(z.object({ field: z.string(), rule: z.string() })).optional().describe('invalid_body: each field and the rule it broke.'),
    suggestions: z.array(z.object({ skill: z.string(), title: z.string(), example: z.string() })).optional().describe('no_skill_fits: the closest skills, each with an example question.'),
    missing: z.object({ skill: z.string(), title: z.string(), domain: z.string().nullable(), needs: z.string() }).optional().describe('no_skill_fits with reason domain_disabled: the capability the question is about, which this deployment lacks.'),
  }),
});

/** The x402 v2 PaymentRequired a 402 answers (also base64 in PAYMENT-REQUIRED); v1 clients read the body. */
export const paymentRequiredDocument = z.looseObject({
  x402Version: z.number().int(),
  error: z.string().optional().describe('Why payment is required or was refused.'),
  resource: z.looseObject({ url: z.string(), description: z.string().optional(), mimeType: z.string().optional() }).optional(),
  accepts: z.array(z.looseObject({
    scheme: z.literal('exact'),
    network: z.string().describe('CAIP-2, eip155:8453.'),
    amount: z.string().describe('Atomic USDC.'),
    asset: z.string(),
    payTo: z.string(),
    maxTimeoutSeconds: z.number().int(),
    extra: z.looseObject({ name: z.string(), version: z.string() }).optional(),
  })),
});
