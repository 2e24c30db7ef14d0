/** Where liquidity earned most on a chain: realised LP fee yields of its pools, and the market's altcoin season reading. */
import { z } from 'zod';
import { ALTSEASON_METHODOLOGY, ALTSEASON_RULES, altcoinSeason, altseasonSources } from '../altseason/engine.js';
import { indexProvenance } from '../data/provenance.js';
import { YIELD_METHODOLOGY, poolYields } from './engine.js';
import { TRADEABLE_LIQUIDITY_USD } from '../data/market.js';
import { EVM_CHAINS, chainParam, limitParam, periodParam } from '../core/params.js';
import { periodAnswerShape } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitMarket } from '../core/admission.js';
import { pct, periodSpan, usd } from '../core/summary.js';
import { describeCoverage } from '../data/coverage.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../data/load.js';

export const yieldAnalysisSkill = defineSkill({
  id: 'defi-yield-analysis',
  title: 'DeFi yield analysis',
  description: 'Where liquidity providers earned the best yield on a chain: each DEX pool\'s realised fee APR over the period, the impermanent loss its price move cost, and the net return; optionally only pools with a stablecoin side.',
  tags: ['yield', 'apr', 'apy', 'liquidity-providers', 'farming', 'stablecoin', 'earn', 'defi'],
  examples: ['Best APR for providing liquidity on base this week', 'Highest yielding stablecoin pools on arbitrum'],
  input: z.strictObject({
    chain: chainParam('base', EVM_CHAINS),
    timeperiod: periodParam('7d'),
    stablecoinsOnly: z.boolean().default(false).describe('Only pools with at least one USD stablecoin side; default false.'),
    limit: limitParam(1, 100, 10),
  }),
  price: '0.75',
  toolName: 'defi_yield_analysis',
  surfaces: ['a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 10, timeTargetSeconds: 60 },
  output: z.object({
    ...periodAnswerShape,
    poolsCompared: z.number().int(),
    limit: z.number().int(),
    pools: z.array(z.object({
      pool: z.string(), dex: z.string(), pair: z.string().describe('Token symbols, token0/token1.'),
      stableSides: z.number().int().describe('Sides that are USD stablecoins.'),
      liquidityUsd: z.number(), volumeUsd: z.number(), feesUsd: z.number(),
      feeAprPct: z.number().describe('Realised LP fees over the period, annualised.'),
      impermanentLossPct: z.number().nullable(),
      netPeriodReturnPct: z.number().nullable(),
    })).describe('Best fee APR first.'),
  }),
  summarize: (r) => {
    const best = r.pools[0];
    if (!best) return `No pool with at least $${TRADEABLE_LIQUIDITY_USD.toLocaleString('en-US')} liquidity qualifies ${periodSpan(r)}.`;
    return `${r.poolsCompared} pools compared ${periodSpan(r)}; best: ${best.pair} on ${best.dex}, fee APR ${pct(best.feeAprPct)} on ${usd(best.liquidityUsd)} liquidity ` +
      `(impermanent loss ${pct(best.impermanentLossPct)}, net ${pct(best.netPeriodReturnPct)} over the period). Realised, not promised.`;
  },
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
    const coverage = periodCoverage(market, checkpoint, input.timeperiod);
    const all = await poolYields(market, fromBlock, coverage);
    const pools = input.stablecoinsOnly ? all.filter((p) => p.stableSides > 0) : all;
    return { ...indexProvenance(chain, checkpoint, YIELD_METHODOLOGY, fromBlock), timeperiod: input.timeperiod, coverage: describeCoverage(coverage), poolsCompared: pools.length, limit: input.limit, pools: pools.slice(0, input.limit) };
  },
});

export const altcoinSeasonSkill = defineSkill({
  id: 'altcoin-season-index',
  title: 'Altcoin season index',
  description: `Is it altcoin season? The share (0-100) of a chain's altcoins that beat BTC over the period: 75 and above is altcoin season, 25 and below bitcoin season. Altcoins are ${ALTSEASON_RULES}.`,
  tags: ['altcoin-season', 'altseason', 'market-regime', 'bitcoin-dominance', 'sentiment'],
  examples: ['Are altcoins outperforming bitcoin on base this month?', 'Altseason index over the last 7 days'],
  input: z.strictObject({ chain: chainParam('base', EVM_CHAINS), timeperiod: periodParam('30d') }),
  price: '0.25',
  toolName: 'altcoin_season_index',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...periodAnswerShape,
    available: z.boolean(),
    reason: z.string().optional().describe('With available: false, why (no benchmark price, or no token counts as an altcoin).'),
    index: z.number().int().optional().describe('0-100: share of the constituents (tokens that count as altcoins by `rules`) that beat the benchmark.'),
    season: z.enum(['altcoin season', 'bitcoin season', 'neither']).optional(),
    benchmark: z.object({ token: z.string(), symbol: z.string().nullable(), changePct: z.number() }).optional(),
    tokensCompared: z.number().int().optional(),
    tokens: z.array(z.object({ token: z.string(), symbol: z.string().nullable(), changePct: z.number(), beatBenchmark: z.boolean() })).optional().describe('The constituents.'),
    rules: z.string().optional().describe('What counts as an altcoin.'),
    excluded: z.object({
      stablecoinsAndMajors: z.number().int(), fixedIncome: z.number().int(), launchpad: z.number().int().describe('Launched on a bonding-curve venue.'),
      listedInWindow: z.number().int(), belowLiquidity: z.number().int().describe('Under the liquidity floor at the window\'s opening.'), thinlyTraded: z.number().int(),
      failedScreen: z.array(z.object({ token: z.string(), symbol: z.string().nullable(), risks: z.array(z.string()) })),
    }).optional().describe('Tokens left out, by rule.'),
  }),
  summarize: (r) =>
    `Altcoin season index ${r.index}/100 (${r.season}): ${(r.tokens as { beatBenchmark: boolean }[]).filter((t) => t.beatBenchmark).length} of ${r.tokensCompared} altcoins ` +
    `beat ${r.benchmark.symbol} (${pct(r.benchmark.changePct)}) ${periodSpan(r)}; left out: ${r.excluded.launchpad} launchpad, ${r.excluded.belowLiquidity} under the liquidity floor, ${r.excluded.thinlyTraded} thinly traded, ${r.excluded.listedInWindow} listed in the window, ${r.excluded.failedScreen.length} failing the screen.`,
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
    const coverage = periodCoverage(market, checkpoint, input.timeperiod);
    const result = await altcoinSeason(market, fromBlock, coverage.periodFrom, altseasonSources(market, ctx.store));
    // Every change (the benchmark's too) is measured over `coverage` when the history is shorter than the period.
    return { ...indexProvenance(chain, checkpoint, ALTSEASON_METHODOLOGY, fromBlock), timeperiod: input.timeperiod, coverage: describeCoverage(coverage), ...result };
  },
});
