import { LIQUIDITY_METHODOLOGY, liquidityShifts } from './flows.js';
import { round } from '../data/market.js';
import { describeCoverage } from '../data/coverage.js';
import { indexProvenance } from '../data/provenance.js';
import { chainListInput } from '../core/params.js';
import { z } from 'zod';
import { address, isoTime, periodAnswerShape } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitMarket } from '../core/admission.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../data/load.js';

export const liquidityShiftsSkill = defineSkill({
  id: 'liquidityshifts',
  title: 'Liquidity shifts',
  description: 'Where liquidity moved on a chain over a period (which pools it entered and left): USD added to and removed (pulled) from each pool, net change, and the largest single adds and withdrawals.',
  tags: ['liquidity', 'liquidity-tracking', 'defi', 'pools', 'withdrawals'],
  examples: ['Where is liquidity moving on base today?', 'Which pools lost liquidity on ethereum this week?'],
  input: chainListInput,
  price: '0.75',
  httpPath: '/x402/data/liquidityshifts',
  toolName: 'liquidity_shifts',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  output: z.object({
    ...periodAnswerShape,
    limit: z.number().int(),
    poolCount: z.number().int(),
    eventCount: z.number().int().describe('Mint and Burn events in the period.'),
    totals: z.object({ addedUsd: z.number(), removedUsd: z.number() }),
    pools: z.array(z.object({
      pool: address, token0: address, token1: address,
      addedUsd: z.number(), removedUsd: z.number(), netUsd: z.number(),
      events: z.number().int(),
      unpriced: z.number().int().describe('Events that could not be valued.'),
    })).describe('Largest shift first.'),
    largestEvents: z.array(z.object({ kind: z.enum(['added', 'removed']), pool: address, usd: z.number().nullable(), block: z.number().int(), time: isoTime, tx: z.string() })),
  }),
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
    const shifts = await liquidityShifts(market, fromBlock);
    const money = (n: number) => round(n, 2);
    return {
      ...indexProvenance(chain, checkpoint, LIQUIDITY_METHODOLOGY, fromBlock),
      timeperiod: input.timeperiod,
      coverage: describeCoverage(periodCoverage(market, checkpoint, input.timeperiod)),
      limit: input.limit,
      poolCount: shifts.pools.length,
      eventCount: shifts.eventCount,
      totals: {
        addedUsd: money(shifts.pools.reduce((s, p) => s + p.addedUsd, 0)),
        removedUsd: money(shifts.pools.reduce((s, p) => s + p.removedUsd, 0)),
      },
      pools: shifts.pools.slice(0, input.limit).map((p) => ({ ...p, addedUsd: money(p.addedUsd), removedUsd: money(p.removedUsd), netUsd: money(p.netUsd) })),
      largestEvents: shifts.largestEvents.map((e) => ({ ...e, usd: e.usd === null ? null : money(e.usd) })),
    };
  },
});
