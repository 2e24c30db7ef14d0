import { round } from '../data/market.js';
import { FLASHLOAN_METHODOLOGY, flashLoanOpportunities } from './engine.js';
import { indexProvenance } from '../data/provenance.js';
import { z } from 'zod';
import { address } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitMarket } from '../core/admission.js';
import { loadMarket } from '../data/load.js';
import { arbitrageInput, opportunityList, opportunityOutput, roundedOpportunity } from '../arbitrage/arbitrage-scanner.js';

export const flashloanOpportunitiesSkill = defineSkill({
  id: 'flashloan-opportunities',
  title: 'Flash-loan opportunities',
  description: 'Cross-DEX arbitrage cycles that a flash loan can finance right now: the lender, its fee, and the profit in USD net of the fee and gas.',
  tags: ['flashloan', 'arbitrage', 'defi'],
  examples: ['Are there flash-loan arbitrage opportunities on base?'],
  input: arbitrageInput,
  price: '1.00',
  httpPath: '/x402/flashloan/opportunities',
  toolName: 'flashloan_opportunities',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 10, timeTargetSeconds: 60 },
  output: z.object({
    ...opportunityList,
    lenders: z.array(address).describe('ERC-3156 lenders probed on chain.'),
    opportunities: z.array(opportunityOutput.extend({ lender: address, flashFeeUsd: z.number().nullable() })),
  }),
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const { lenders, opportunities } = await flashLoanOpportunities(market);
    const profitable = opportunities.filter((o) => o.netProfitUsd !== null && o.netProfitUsd > 0 && o.netProfitUsd >= input.minProfitUsd);
    return {
      ...indexProvenance(chain, checkpoint, FLASHLOAN_METHODOLOGY, checkpoint.block),
      lenders,
      limit: input.limit,
      minProfitUsd: input.minProfitUsd,
      count: Math.min(profitable.length, input.limit),
      opportunities: profitable.slice(0, input.limit).map((o) => ({
        ...roundedOpportunity(o),
        flashFeeUsd: o.flashFeeUsd === null ? null : round(o.flashFeeUsd, 4),
      })),
    };
  },
});
