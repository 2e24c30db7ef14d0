/** The free market tools: 24 h top movers (get_top_movers) and market sentiment (get_market_sentiment), read from their snapshots. */
import { z } from 'zod';
import { defineFreeTool, freeOutput, fromSnapshot, list, record } from '../core/free.js';
import { MOVER_MIN_LIQUIDITY_USD, topMovers, marketSentiment } from './engine.js';
import { FREE_ROWS, rowsParam } from '../core/params.js';
import { MINUTE_MS, type SnapshotJob } from '../core/snapshots.js';

export const moversSnapshot: SnapshotJob = { id: 'top-movers', everyMs: 5 * MINUTE_MS, build: topMovers };
export const sentimentSnapshot: SnapshotJob = { id: 'market-sentiment', everyMs: 15 * MINUTE_MS, build: marketSentiment };

const SIDES = ['gainers', 'losers'] as const;
const side = z.enum(SIDES);

export const topMoversTool = defineFreeTool({
  id: 'top-movers', toolName: 'get_top_movers', title: 'Top movers',
  snapshot: moversSnapshot,
  description: `Biggest 24 h gainers or losers among tokens with at least $${MOVER_MIN_LIQUIDITY_USD.toLocaleString('en-US')} liquidity, across all indexed chains and per chain: only tokens that rose (or fell) and traded in the window, with how many qualified.`,
  tags: ['movers', 'gainers', 'losers'], input: z.strictObject({ side: side.default('gainers').describe(`${SIDES.join(' or ')}; default gainers.`), limit: rowsParam(FREE_ROWS) }),
  output: freeOutput({
    side: side.optional(),
    source: z.string().optional(),
    idSource: z.string().optional(),
    perChainUnavailable: list(),
    crossAsset: z.looseObject({ cohortSize: z.number(), universeSize: z.number() }).optional(),
    perChain: z.record(z.string(), z.looseObject({})).optional(),
    errors: list(),
  }),
  read: ({ side, limit }, ctx) => fromSnapshot(ctx, moversSnapshot, limit, (d) => {
    const cross = d.crossAsset as Record<string, unknown>;
    // How many tokens qualified for the side asked (rose, or fell, and traded): fewer rows than the limit is the honest answer.
    const qualified = (v: Record<string, unknown>) => (v.qualified as Record<string, number> | undefined)?.[side];
    const perChain = Object.fromEntries(Object.entries(d.perChain as Record<string, Record<string, unknown>>).map(([c, v]) => [c, { source: v.source, cohortSize: v.cohortSize, qualified: qualified(v), [side]: v[side] }]));
    return { ...d, side, crossAsset: { [side]: cross[side], qualified: qualified(cross), cohortSize: cross.cohortSize, universeSize: cross.universeSize }, perChain };
  }),
});

export const marketSentimentTool = defineFreeTool({
  id: 'market-sentiment', toolName: 'get_market_sentiment', title: 'Market sentiment',
  snapshot: sentimentSnapshot,
  description: 'Breadth of the indexed crypto markets (share of liquid tokens up over 24 h, as a fear-greed style index) and the altcoin season reading; sources this deployment lacks are marked unavailable.',
  tags: ['sentiment', 'fear-greed', 'altcoin-season'], input: z.strictObject({}),
  output: freeOutput({ crypto: record(), cmc: record(), tradfi: record(), altcoinSeason: record() }),
  read: (_input, ctx) => fromSnapshot(ctx, sentimentSnapshot, null),
});
