/**
 * The tool server's free tools (spec 4.7), each with its exact input schema (no additional
 * properties), read-only and idempotent, and the result envelope of spec 2.4: `available`,
 * `reason`, `fetchedAt`, `stale`, `limit`, `truncated`. Every result carries `limit`: the row cap
 * applied to its lists, or null for a tool that takes no `limit` (nothing is cut). Results are read from snapshots the
 * background jobs build; nothing is computed on the request path. A domain this deployment has
 * no engine for answers `available: false` with `domain_disabled`, as the spec allows.
 */
import { z } from 'zod';
import { DEX_CHAIN_NAMES } from '../../chain/chains.js';
import { snapshotKey, PRECOMPUTE_ASSETS, PRECOMPUTE_INTERVALS } from '../../skills/forecast/jobs.js';
import { ACCURACY_ROW_LIMIT } from '../../skills/forecast/ledger.js';
import type { SkillContext } from '../../skills/context.js';
import { evmAddressParam } from '../../skills/params.js';
import { MOVER_MIN_LIQUIDITY_USD, WHALE_PRINTS, launchpadRadar, marketSentiment, smartMoneyFlow, smartMoneyInflow, tokenSafety, topMovers, whalePrints } from './free-data.js';
import { readSnapshot, type SnapshotJob } from './snapshots.js';

/** Spec 8: free tool rows 1-25 (default 10); inflow, hype and launchpad radar 1-15 (default 8). */
export const FREE_ROWS = { min: 1, max: 25, default: 10 } as const;
export const NARROW_ROWS = { min: 1, max: 15, default: 8 } as const;
/** Spec 4.7: get_forecast_accuracy rows 1-50, default 10 (the HTTP leaderboard keeps its own default). */
export const ACCURACY_TOOL_ROWS = { min: ACCURACY_ROW_LIMIT.min, max: ACCURACY_ROW_LIMIT.max, default: 10 } as const;
const rows = (r: { min: number; max: number; default: number }) => z.number().int().min(r.min).max(r.max).default(r.default).describe(`Rows per list, ${r.min}-${r.max}; default ${r.default}.`);
const MINUTE = 60_000;

export const SNAPSHOT_JOBS = {
  movers: { id: 'top-movers', everyMs: 5 * MINUTE, build: topMovers },
  flow: { id: 'smart-money-flow', everyMs: 10 * MINUTE, build: smartMoneyFlow },
  prints: { id: 'whale-prints', everyMs: 5 * MINUTE, build: (ctx: SkillContext) => whalePrints(ctx) },
  safety: { id: 'token-safety', everyMs: 30 * MINUTE, build: tokenSafety },
  inflow: { id: 'smart-money-inflow', everyMs: 10 * MINUTE, build: smartMoneyInflow },
  launchpad: { id: 'launchpad-radar', everyMs: 5 * MINUTE, build: launchpadRadar },
  sentiment: { id: 'market-sentiment', everyMs: 15 * MINUTE, build: marketSentiment },
} satisfies Record<string, SnapshotJob>;

export type ToolResult = Record<string, unknown> & { available: boolean };

export interface FreeTool<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: S;
  read(ctx: SkillContext, input: z.output<S>): Promise<ToolResult>;
}

/** Every result carries `limit`: the call's (defaulted) `limit`, or null for a tool without one. */
function freeTool<S extends z.ZodObject>(tool: FreeTool<S>): FreeTool<S> {
  return {
    ...tool,
    async read(ctx, input) {
      const result = await tool.read(ctx, input);
      return 'limit' in result ? result : { ...result, limit: (input as { limit?: number }).limit ?? null };
    },
  };
}

/** The envelope over a stored snapshot, every list cut to `limit`. */
async function fromSnapshot(ctx: SkillContext, job: SnapshotJob, limit: number | null, pick: (data: Record<string, unknown>) => Record<string, unknown> = (d) => d): Promise<ToolResult> {
  const snapshot = await readSnapshot(ctx, job);
  if (!snapshot) return { available: false, reason: 'snapshot_not_warm', fetchedAt: null, stale: true, limit };
  return envelope(pick(snapshot.data), snapshot.fetchedAt, snapshot.stale, limit);
}

/** Spec 2.4's envelope; `limit: null` when the tool cuts nothing. */
export function envelope(body: Record<string, unknown>, fetchedAt: number | null, stale: boolean, limit: number | null): ToolResult {
  const originalLengths: Record<string, number> = {};
  const cut = limit === null ? body : (capLists(body, limit, '', originalLengths) as Record<string, unknown>);
  const truncated = Object.keys(originalLengths).length > 0;
  return {
    ...cut,
    available: (body.available as boolean | undefined) ?? true,
    fetchedAt,
    stale,
    limit,
    ...(truncated && { truncated: { limit, originalLengths } }),
  };
}

function capLists(value: unknown, limit: number, path: string, lengths: Record<string, number>): unknown {
  if (Array.isArray(value)) {
    if (value.length > limit) lengths[path] = value.length;
    return value.slice(0, limit).map((v, i) => capLists(v, limit, `${path}[${i}]`, lengths));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, capLists(v, limit, path ? `${path}.${k}` : k, lengths)]));
  }
  return value;
}

function disabled(name: string, title: string, description: string, needs: string, input: z.ZodObject = z.strictObject({})): FreeTool {
  return freeTool({
    name, title, description: `${description} Not available on this deployment (needs ${needs}).`, input,
    read: async (_ctx, args) => ({ available: false, reason: 'domain_disabled', fetchedAt: null, stale: false, limit: (args as { limit?: number }).limit ?? null }),
  });
}

const limitOnly = z.strictObject({ limit: rows(FREE_ROWS) });

export const FREE_TOOLS: readonly FreeTool<any>[] = [
  freeTool({
    name: 'get_price_forecast',
    title: 'Price forecast (majors)',
    description: 'Direction and drift of BTC, ETH, SOL or BNB at 4h (about 32 h ahead), 1d (about 7 days), 1w (about 4 weeks) or 1M (about 4 months), with whether the two models agree; precomputed every 4 hours.',
    input: z.strictObject({
      asset: z.enum(PRECOMPUTE_ASSETS).default('BTC').describe(`One of ${PRECOMPUTE_ASSETS.join(', ')}; default BTC.`),
      interval: z.enum(Object.keys(PRECOMPUTE_INTERVALS) as [keyof typeof PRECOMPUTE_INTERVALS]).default('1d').describe(`One of ${Object.keys(PRECOMPUTE_INTERVALS).join(', ')}; default 1d.`),
    }),
    async read(ctx, { asset, interval }) {
      const raw = await ctx.store.get(snapshotKey(asset, interval));
      if (!raw) return { available: false, reason: 'snapshot_not_warm', asset, interval, fetchedAt: null, stale: true };
      const s = JSON.parse(raw) as Record<string, unknown> & { fetchedAt: number };
      const stale = Date.now() - s.fetchedAt > 4 * 3_600_000;
      if (s.available === false) return { available: false, reason: String(s.reason), asset, interval, fetchedAt: s.fetchedAt, stale };
      return { available: true, asset, interval, direction: s.direction, driftPct: s.driftPct, consensus: s.consensus ?? null, source: s.source, chain: s.chain, fetchedAt: s.fetchedAt, stale };
    },
  }),
  freeTool({
    name: 'get_forecast_accuracy',
    title: 'Forecast accuracy ledger',
    description: 'The scored record of past forecasts per asset, interval and model (error, direction hit rate, samples) beside the random-walk and always-bullish baselines.',
    input: z.strictObject({
      asset: z.string().regex(/^[A-Za-z0-9]{1,20}$/, 'must be 1-20 letters or digits').optional().describe('Only this asset (BTC, ETH, SOL, BNB, ...).'),
      limit: rows(ACCURACY_TOOL_ROWS),
    }),
    async read(ctx, { asset, limit }) {
      if (!ctx.forecast) return { available: false, reason: 'domain_disabled', fetchedAt: null, stale: false, limit };
      const { totalBuckets, assetsScored, rows: all } = await ctx.forecast.ledger.rows(asset);
      return envelope({ object: 'forecast-accuracy', asset: asset?.toUpperCase() ?? null, totalBuckets, assetsScored, rows: all }, Date.now(), false, limit);
    },
  }),
  freeTool({
    name: 'get_market_sentiment',
    title: 'Market sentiment',
    description: 'Breadth of the indexed crypto markets (share of liquid tokens up over 24 h, as a fear-greed style index) and the altcoin season reading; sources this deployment lacks are marked unavailable.',
    input: z.strictObject({}),
    read: (ctx) => fromSnapshot(ctx, SNAPSHOT_JOBS.sentiment, null),
  }),
  freeTool({
    name: 'get_top_movers',
    title: 'Top movers',
    description: `Biggest 24 h gainers or losers among tokens with at least $${MOVER_MIN_LIQUIDITY_USD.toLocaleString('en-US')} liquidity, across all indexed chains and per chain.`,
    input: z.strictObject({ side: z.enum(['gainers', 'losers']).default('gainers').describe('gainers or losers; default gainers.'), limit: rows(FREE_ROWS) }),
    read: (ctx, { side, limit }) => fromSnapshot(ctx, SNAPSHOT_JOBS.movers, limit, (d) => {
      const cross = d.crossAsset as Record<string, unknown>;
      const perChain = Object.fromEntries(Object.entries(d.perChain as Record<string, Record<string, unknown>>).map(([c, v]) => [c, { source: v.source, cohortSize: v.cohortSize, [side]: v[side] }]));
      return { ...d, side, crossAsset: { [side]: cross[side], cohortSize: cross.cohortSize, universeSize: cross.universeSize }, perChain };
    }),
  }),
  freeTool({
    name: 'get_smart_money_flow',
    title: 'Smart-money flow',
    description: 'Whether proven wallets are accumulating or distributing over 24 h, their largest moves, and notable whale transfers with who was on each side.',
    input: limitOnly,
    read: (ctx, { limit }) => fromSnapshot(ctx, SNAPSHOT_JOBS.flow, limit),
  }),
  disabled('get_perp_whales', 'Perpetuals whales', 'Positions and funding of the largest perpetual-futures traders.', 'a perpetuals venue feed', limitOnly),
  freeTool({
    name: 'get_venuechain_whale_prints',
    title: 'Whale prints',
    description: `Swaps of at least $${WHALE_PRINTS.minUsd.toLocaleString('en-US')} on the ${WHALE_PRINTS.chain} venues over the last ${WHALE_PRINTS.windowMinutes / 60} h: token, side, venue and size.`,
    input: limitOnly,
    read: (ctx, { limit }) => fromSnapshot(ctx, SNAPSHOT_JOBS.prints, limit),
  }),
  disabled('get_prediction_whales', 'Prediction-market whales', 'Insider-like positioning in prediction markets.', 'prediction-market venues', limitOnly),
  disabled('get_prediction_catalysts', 'Prediction-market catalysts', 'Upcoming events that move prediction markets.', 'prediction-market venues', limitOnly),
  disabled('get_prediction_yields', 'Prediction-market yields', 'Near-certain prediction-market positions as yield.', 'prediction-market venues', limitOnly),
  disabled('get_bitcoin_cycle_position', 'Bitcoin cycle position', 'MVRV, NVT, realized cap and the Bitcoin cycle.', 'a Bitcoin node and indexer'),
  freeTool({
    name: 'check_token_safety',
    title: 'Token safety check',
    description: 'Honeypot and risk flags of a token from the cached scan of every indexed token (simulated buy and sell, owner powers, liquidity); `screened: false` means not in the dataset, not a clean result.',
    input: z.strictObject({
      contract: evmAddressParam('Token contract (0x + 40 hex).'),
      chain: z.enum(DEX_CHAIN_NAMES).default('base').describe(`One of ${DEX_CHAIN_NAMES.join(', ')}; default base.`),
    }),
    read: (ctx, { contract, chain }) => fromSnapshot(ctx, SNAPSHOT_JOBS.safety, null, (d) => {
      const row = (d.rows as Record<string, Record<string, unknown>>)[`${chain}:${contract.toLowerCase()}`];
      return row ? { contract, chain, screened: true, ...row } : { contract, chain, screened: false, honeypot: null, riskLevel: null, flags: [], result: null };
    }),
  }),
  disabled('get_congress_trades', 'Congress trades', 'Stock trades disclosed by members of Congress.', 'government disclosure feeds', limitOnly),
  disabled('get_government_contracts', 'Government contracts', 'Government contract awards and the tickers they move.', 'government contract feeds', limitOnly),
  disabled('get_analyst_accuracy', 'Analyst accuracy', 'Track records of market callers.', 'a graded-calls feed', limitOnly),
  freeTool({
    name: 'get_smart_money_inflow',
    title: 'Smart-money inflow (BSC)',
    description: 'Tokens on BNB Smart Chain that proven wallets bought on net over 24 h, with price, liquidity, volume and holder concentration.',
    input: z.strictObject({ limit: rows(NARROW_ROWS) }),
    read: (ctx, { limit }) => fromSnapshot(ctx, SNAPSHOT_JOBS.inflow, limit),
  }),
  disabled('get_social_hype', 'Social hype (BSC)', 'Social attention and sentiment of BSC tokens.', 'a social-media feed', z.strictObject({ limit: rows(NARROW_ROWS), sentiment: z.enum(['All', 'Positive', 'Negative', 'Neutral']).default('All').describe('All, Positive, Negative or Neutral; default All.') })),
  freeTool({
    name: 'get_launchpad_radar',
    title: 'Launchpad radar',
    description: 'Bonding-curve launches on the indexed EVM launchpads, closest to graduating at their current pace first (ETA = ETH still needed / net ETH raised per hour over the last 24 h), then curves without a pace (with the reason), graduated tokens last.',
    input: z.strictObject({ limit: rows(NARROW_ROWS) }),
    read: (ctx, { limit }) => fromSnapshot(ctx, SNAPSHOT_JOBS.launchpad, limit),
  }),
];

/** list_service_capabilities is built from the other tools, so it is added by the server. */
export const CAPABILITIES_TOOL = { name: 'list_service_capabilities', title: 'Service capabilities', description: 'Every free and paid tool of this server with its price, and how paid tools are billed.' } as const;
