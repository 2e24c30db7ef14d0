/** The free flow tools: smart-money flow, whale prints and the BSC smart-money inflow, read from their snapshots. */
import { z } from 'zod';
import { defineFreeTool, freeOutput, fromSnapshot, list, record } from '../core/free.js';
import { WHALE_PRINTS } from './prints.js';
import { FREE_ROWS, NARROW_ROWS, rowsParam } from '../core/params.js';
import { SNAPSHOT_JOBS } from '../catalog/snapshots.js';

export const smartMoneyFlowTool = defineFreeTool({
  id: 'smart-money-flow', toolName: 'get_smart_money_flow', title: 'Smart-money flow',
  description: 'Whether proven wallets are accumulating or distributing over 24 h, their largest moves, and notable whale transfers with who was on each side.',
  tags: ['smart-money', 'flow', 'whales'], input: z.strictObject({ limit: rowsParam(FREE_ROWS) }),
  output: freeOutput({
    overallSignal: z.enum(['accumulating', 'distributing', 'neutral']).optional(),
    droppedRoutineCustody: z.number().int().optional(),
    notableTransfers: list(),
    smartMoneyMoves: list(),
  }),
  read: ({ limit }, ctx) => fromSnapshot(ctx, SNAPSHOT_JOBS.flow, limit),
});

export const whalePrintsTool = defineFreeTool({
  id: 'whale-prints', toolName: 'get_venuechain_whale_prints', title: 'Whale prints',
  description: `Swaps of at least $${WHALE_PRINTS.minUsd.toLocaleString('en-US')} on the ${WHALE_PRINTS.chain} venues over the last ${WHALE_PRINTS.windowMinutes / 60} h: token, side, venue and size.`,
  tags: ['whales', 'prints', 'swaps'], input: z.strictObject({ limit: rowsParam(FREE_ROWS) }),
  output: freeOutput({ prints: record() }),
  read: ({ limit }, ctx) => fromSnapshot(ctx, SNAPSHOT_JOBS.prints, limit),
});

export const smartMoneyInflowTool = defineFreeTool({
  id: 'smart-money-inflow', toolName: 'get_smart_money_inflow', title: 'Smart-money inflow (BSC)',
  description: 'Tokens on BNB Smart Chain that proven wallets bought on net over 24 h, with price, liquidity, volume and holder concentration.',
  tags: ['smart-money', 'inflow', 'bsc'], input: z.strictObject({ limit: rowsParam(NARROW_ROWS) }),
  output: freeOutput({ object: z.literal('smart-money-inflow').optional(), chain: z.string().optional(), period: z.string().optional(), rows: list() }),
  read: ({ limit }, ctx) => fromSnapshot(ctx, SNAPSHOT_JOBS.inflow, limit),
});
