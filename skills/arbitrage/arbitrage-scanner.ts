import { z } from 'zod';
import { ARBITRAGE_METHODOLOGY, findArbitrage, type Opportunity } from './engine.js';
import { round } from '../data/market.js';
import { indexProvenance } from '../data/provenance.js';
import { chainParam, limitParam } from '../core/params.js';
import { address, provenanceShape } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { usd } from '../core/summary.js';
import { admitMarket } from '../core/admission.js';
import { loadMarket } from '../data/load.js';

/** The input both arbitrage operations take: a chain, a row cap, a profit floor. */
export const arbitrageInput = z.strictObject({
  chain: chainParam('base'),
  limit: limitParam(1, 500, 50),
  minProfitUsd: z.number().min(0).max(1_000_000_000).default(0).describe('Smallest net profit in USD to report; default 0 (every profitable one).'),
});

const poolRef = z.object({ pair: address, dex: z.string() });
/** An arbitrage/v1 cycle as both arbitrage operations answer it. */
export const opportunityOutput = z.object({
  tokenIn: address, tokenOut: address, symbolIn: z.string().nullable(), symbolOut: z.string().nullable(),
  buyPool: poolRef.describe('Where tokenOut is bought with tokenIn.'),
  sellPool: poolRef.describe('Where it is sold back.'),
  priceGapPct: z.number(),
  amountIn: z.number().describe('Best input, in tokenIn units.'),
  amountInUsd: z.number().nullable(),
  grossProfitUsd: z.number().nullable(),
  gasUsd: z.number().nullable(),
  feeUsd: z.number(),
  netProfitUsd: z.number().nullable(),
});
export const opportunityList = {
  ...provenanceShape,
  limit: z.number().int(),
  minProfitUsd: z.number(),
  count: z.number().int(),
};

/** An opportunity with its USD figures rounded for the answer (cents; gas and fees to 1/100 cent). */
export function roundedOpportunity<O extends Opportunity>(o: O) {
  const money = (n: number | null, digits = 2) => (n === null ? null : round(n, digits));
  return { ...o, amountInUsd: money(o.amountInUsd), grossProfitUsd: money(o.grossProfitUsd), gasUsd: money(o.gasUsd, 4), feeUsd: round(o.feeUsd, 4), netProfitUsd: money(o.netProfitUsd) };
}

export const arbitrageScannerSkill = defineSkill({
  id: 'arbitrage-scanner',
  title: 'DEX arbitrage scanner',
  description: 'Price gaps between DEXes on a chain right now: for each pair quoted on two DEXes, the best-sized buy-low/sell-high cycle and its profit in USD net of gas.',
  tags: ['arbitrage', 'dex', 'defi'],
  examples: ['Any arbitrage between DEXes on base right now?', 'Find cross-DEX price gaps on arbitrum'],
  input: arbitrageInput,
  price: '0.60',
  httpPath: '/x402/data/arbitrage-scanner',
  httpAliases: ['/x402/data/arbitragescanner'],
  toolName: 'arbitrage_scanner',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 20, timeTargetSeconds: 30 },
  output: z.object({ ...opportunityList, pairsCompared: z.number().int(), opportunities: z.array(opportunityOutput).describe('Most profitable first.') }),
  summarize: (r) => {
    const best = r.opportunities[0] as { symbolIn: string | null; symbolOut: string | null; priceGapPct: number; buyPool: { dex: string }; sellPool: { dex: string }; netProfitUsd: number | null; amountInUsd: number | null } | undefined;
    return best
      ? `${r.count} cycle${r.count === 1 ? '' : 's'} pay after gas on ${r.chain} (${r.pairsCompared} pairs compared); best: ${best.symbolIn}→${best.symbolOut} bought on ${best.buyPool.dex}, sold on ${best.sellPool.dex}, gap ${best.priceGapPct}%, ${usd(best.netProfitUsd)} net on ${usd(best.amountInUsd)}.`
      : `No cross-DEX cycle pays after gas on ${r.chain} (${r.pairsCompared} pairs compared).`;
  },
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const all = await findArbitrage(market);
    const profitable = all.filter((o) => o.netProfitUsd !== null && o.netProfitUsd > 0 && o.netProfitUsd >= input.minProfitUsd);
    return {
      ...indexProvenance(chain, checkpoint, ARBITRAGE_METHODOLOGY, checkpoint.block),
      limit: input.limit,
      minProfitUsd: input.minProfitUsd,
      pairsCompared: new Set(all.map((o) => `${o.buyPool.pair}:${o.sellPool.pair}`)).size,
      count: Math.min(profitable.length, input.limit),
      opportunities: profitable.slice(0, input.limit).map(roundedOpportunity),
    };
  },
});
