/** The free flow tools: smart-money flow, whale prints and the BSC smart-money inflow, read from their snapshots. */
import { z } from 'zod';
import { defineFreeTool, freeOutput, fromSnapshot, list, record } from '../core/free.js';
import { WHALE_PRINTS, whalePrints } from './prints.js';
import { FREE_ROWS, NARROW_ROWS, rowsParam } from '../core/params.js';
import { MINUTE_MS, type SnapshotJob } from '../core/snapshots.js';
import { smartMoneyFlow, smartMoneyInflow } from '../smart-money/flow.js';

export const smartMoneyFlowSnapshot: SnapshotJob = { id: 'smart-money-flow', everyMs: 10 * MINUTE_MS, build: smartMoneyFlow };
export const whalePrintsSnapshot: SnapshotJob = { id: 'whale-prints', everyMs: 5 * MINUTE_MS, build: (ctx) => whalePrints(ctx) };
export const smartMoneyInflowSnapshot: SnapshotJob = { id: 'smart-money-inflow', everyMs: 10 * MINUTE_MS, build: smartMoneyInflow };

export const smartMoneyFlowTool = defineFreeTool({
  id: 'smart-money-flow', toolName: 'get_smart_money_flow', title: 'Smart-money flow',
  snapshot: smartMoneyFlowSnapshot,
  description: 'Whether proven wallets are accumulating or distributing over 24 h, their largest moves, and notable whale transfers with who was on each side.',
  tags: ['smart-money', 'flow', 'whales'], input: z.strictObject({ limit: rowsParam(FREE_ROWS) }),
  output: freeOutput({
    overallSignal: z.enum(['accumulating', 'distributing', 'neutral']).optional(),
    droppedRoutineCustody: z.number().int().optional(),
    notableTransfers: list(),
    smartMoneyMoves: list(),
  }),
  read: ({ limit }, ctx) => fromSnapshot(ctx, smartMoneyFlowSnapshot, limit),
});

export const whalePrintsTool = defineFreeTool({
  id: 'whale-prints', toolName: 'get_venuechain_whale_prints', title: 'Whale prints',
  snapshot: whalePrintsSnapshot,
  description: `Swaps of at least $${WHALE_PRINTS.minUsd.toLocaleString('en-US')} on the ${WHALE_PRINTS.chain} venues over the last ${WHALE_PRINTS.windowMinutes / 60} h: token, side, venue and size.`,
  tags: ['whales', 'prints', 'swaps'], input: z.strictObject({ limit: rowsParam(FREE_ROWS) }),
  output: freeOutput({ prints: record() }),
  read: ({ limit }, ctx) => fromSnapshot(ctx, whalePrintsSnapshot, limit),
});

export const smartMoneyInflowTool = defineFreeTool({
  id: 'smart-money-inflow', toolName: 'get_smart_money_inflow', title: 'Smart-money inflow (BSC)',
  snapshot: smartMoneyInflowSnapshot,
  description: 'Tokens on BNB Smart Chain that proven wallets bought on net over 24 h, with price, liquidity, volume and holder concentration.',
  tags: ['smart-money', 'inflow', 'bsc'], input: z.strictObject({ limit: rowsParam(NARROW_ROWS) }),
  output: freeOutput({ object: z.literal('smart-money-inflow').optional(), chain: z.string().optional(), period: z.string().optional(), rows: list() }),
  read: ({ limit }, ctx) => fromSnapshot(ctx, smartMoneyInflowSnapshot, limit),
});
