import { z } from 'zod';
import { CHAIN_NAMES, type ChainName } from '../../chain/chains.js';
import { SibylError } from '../errors.js';
import { INVESTMENT_METHODOLOGY, investmentIdeas } from '../intel/investment.js';
import { describeCoverage } from '../intel/coverage.js';
import { indexProvenance } from '../intel/provenance.js';
import { SCREEN_RULES, mergeSummaries } from '../intel/screening.js';
import { limitParam, periodParam } from '../params.js';
import { defineSkill } from '../registry.js';
import { admitAnyMarket } from '../admission.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../market/load.js';
import { ChainUnavailableError } from '../../chain/runtime.js';

const chainsParam = z
  .array(z.enum(CHAIN_NAMES as unknown as readonly [ChainName, ...ChainName[]]))
  .min(1)
  .max(CHAIN_NAMES.length)
  .refine((list) => new Set(list).size === list.length, 'must not repeat a chain')
  .describe(`Chains to cover: 1-${CHAIN_NAMES.length} distinct values of ${CHAIN_NAMES.join(', ')}.`);

export const investmentReportSkill = defineSkill({
  id: 'investment-report',
  title: 'Investment report',
  description: `Ranked token ideas across the requested chains from momentum, smart-money net buying and turnover over the period, each with the figures behind it and its risks, plus a market overview per chain. Tokens that fail the screen (${SCREEN_RULES}) are never ideas; they are listed apart with their risks. Research, not advice.`,
  tags: ['research', 'portfolio', 'smart-money', 'market'],
  examples: ['Where are the opportunities on base and ethereum this week?', 'Investment report for arbitrum, bsc and polygon over 24h'],
  input: z.strictObject({
    chains: chainsParam,
    limit: limitParam(1, 500, 50),
    timeperiod: periodParam('24h'),
  }),
  price: '1.15',
  httpPath: '/x402/data/investment-report',
  toolName: 'investment_report',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  admit: (input, ctx) => admitAnyMarket(ctx, input.chains),
  async handler(input, ctx) {
    const sections = await Promise.all(input.chains.map(async (name) => {
      try {
        const { chain, market, checkpoint } = await loadMarket(ctx, name);
        const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
        const { overview, ideas, excluded, screen } = await investmentIdeas(market, checkpoint, input.timeperiod, fromBlock, ctx.store);
        const coverage = describeCoverage(periodCoverage(market, checkpoint, input.timeperiod));
        return { available: true as const, ...indexProvenance(chain, checkpoint, INVESTMENT_METHODOLOGY, fromBlock), coverage, overview, ideas, excluded, screen };
      } catch (err) {
        // A chain this deployment does not index is a gap in the report, not a failure of it.
        if (err instanceof ChainUnavailableError || (err instanceof SibylError && err.code === 'upstream_unavailable')) {
          return { available: false as const, chain: name, reason: err.message };
        }
        throw err;
      }
    }));
    const answered = sections.filter((s) => s.available);
    if (!answered.length) throw new SibylError('chain_unavailable', `none of ${input.chains.join(', ')} is indexed here; nothing was charged`);
    const ideas = answered
      .flatMap((s) => s.ideas.map((idea) => ({ chain: s.chain, ...idea })))
      .sort((a, b) => b.score - a.score)
      .slice(0, input.limit);
    return {
      source: [...new Set(answered.map((s) => s.source))].join(','),
      chains: input.chains,
      timeperiod: input.timeperiod,
      limit: input.limit,
      asOf: { timestamp: new Date(Math.max(...answered.map((s) => Date.parse(s.asOf.timestamp)))).toISOString() },
      methodology: INVESTMENT_METHODOLOGY,
      disclaimer: 'Figures from on-chain data only; research, not financial advice.',
      screen: mergeSummaries('excluded', answered.map((s) => s.screen)),
      ideas,
      excludedByScreen: answered.flatMap((s) => s.excluded.map((e) => ({ chain: s.chain, ...e }))),
      perChain: sections.map((s) => (s.available ? { ...s, ideas: undefined, excluded: undefined, ideaCount: s.ideas.length, excludedCount: s.excluded.length } : s)),
      errors: sections.filter((s) => !s.available).map((s) => ({ chain: s.chain, reason: s.reason })),
    };
  },
});
