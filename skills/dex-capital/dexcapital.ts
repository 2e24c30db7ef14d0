import { DEX_CAPITAL_METHODOLOGY, dexCapital, type PoolCapital } from './engine.js';
import { round } from '../data/market.js';
import { describeCoverage } from '../data/coverage.js';
import { indexProvenance } from '../data/provenance.js';
import { chainListInput } from '../core/params.js';
import { z } from 'zod';
import { address, periodAnswerShape, usdOrNull } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitMarket } from '../core/admission.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../data/load.js';

const money = (n: number | null) => (n === null ? null : round(n, 2));
const poolView = (p: PoolCapital) => ({ ...p, tvlUsd: money(p.tvlUsd), tvlStartUsd: money(p.tvlStartUsd), addedUsd: money(p.addedUsd), removedUsd: money(p.removedUsd), volumeUsd: money(p.volumeUsd) });

const poolCapital = z.object({
  pool: address, dex: z.string(), pair: z.string().describe('The pool\'s token symbols.'),
  tvlUsd: z.number().nullable(), tvlStartUsd: z.number().nullable(),
  addedUsd: z.number().nullable(), removedUsd: z.number().nullable(), volumeUsd: z.number().nullable(),
  swaps: z.number().int(),
});

export const dexCapitalSkill = defineSkill({
  id: 'dexcapital',
  title: 'DEX capital',
  description: 'Capital across the DEXes of a chain: TVL now and at the start of the period, liquidity added and removed, net flow, traded volume and the pools that hold the most, per DEX.',
  tags: ['defi', 'dex', 'liquidity', 'tvl'],
  examples: ['Which DEX on base holds the most liquidity?', 'Is capital leaving the DEXes on bsc this week?'],
  input: chainListInput,
  price: '1.00',
  httpPath: '/x402/data/dexcapital',
  toolName: 'dex_capital',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  output: z.object({
    ...periodAnswerShape,
    limit: z.number().int(),
    totals: z.object({ tvlUsd: usdOrNull, tvlStartUsd: usdOrNull, netFlowUsd: usdOrNull, volumeUsd: usdOrNull, pools: z.number().int() }),
    dexes: z.array(z.object({
      dex: z.string(), pools: z.number().int(), unpricedPools: z.number().int(),
      tvlUsd: usdOrNull, tvlStartUsd: usdOrNull,
      tvlChangePct: usdOrNull, shareOfTvlPct: usdOrNull,
      addedUsd: usdOrNull, removedUsd: usdOrNull, netFlowUsd: usdOrNull, volumeUsd: usdOrNull,
      swaps: z.number().int(),
      topPools: z.array(poolCapital),
    })),
  }),
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
    const { dexes, pools } = await dexCapital(market, fromBlock);
    const tvl = dexes.reduce((s, d) => s + d.tvlUsd, 0);
    return {
      ...indexProvenance(chain, checkpoint, DEX_CAPITAL_METHODOLOGY, fromBlock),
      timeperiod: input.timeperiod,
      coverage: describeCoverage(periodCoverage(market, checkpoint, input.timeperiod)),
      limit: input.limit,
      totals: {
        tvlUsd: money(tvl),
        tvlStartUsd: money(dexes.reduce((s, d) => s + d.tvlStartUsd, 0)),
        netFlowUsd: money(dexes.reduce((s, d) => s + d.netFlowUsd, 0)),
        volumeUsd: money(dexes.reduce((s, d) => s + d.volumeUsd, 0)),
        pools: pools.length,
      },
      dexes: dexes.map((d) => ({
        ...d,
        tvlUsd: money(d.tvlUsd),
        tvlStartUsd: money(d.tvlStartUsd),
        tvlChangePct: d.tvlStartUsd > 0 ? round(((d.tvlUsd - d.tvlStartUsd) / d.tvlStartUsd) * 100, 4) : null,
        shareOfTvlPct: tvl > 0 ? round((d.tvlUsd / tvl) * 100, 4) : null,
        addedUsd: money(d.addedUsd),
        removedUsd: money(d.removedUsd),
        netFlowUsd: money(d.netFlowUsd),
        volumeUsd: money(d.volumeUsd),
        topPools: d.topPools.slice(0, input.limit).map(poolView),
      })),
    };
  },
});
