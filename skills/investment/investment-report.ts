import { z } from 'zod';
import { CHAIN_NAMES, type ChainName } from '../../chain/chains.js';
import { SibylError } from '../core/errors.js';
import { INVESTMENT_METHODOLOGY, investmentIdeas } from './engine.js';
import { describeCoverage } from '../data/coverage.js';
import { indexProvenance } from '../data/provenance.js';
import { SCREEN_RULES, mergeSummaries } from '../data/screening.js';
import { limitParam, periodParam } from '../core/params.js';
import { PERIOD_NAMES } from '../data/periods.js';
import { chainGap, coverage, intString, isoTime, rowScreenShape, screenSummary } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitAnyMarket } from '../core/admission.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../data/load.js';
import { ChainUnavailableError } from '../../chain/runtime.js';

const chainsParam = z
  .array(z.enum(CHAIN_NAMES as unknown as readonly [ChainName, ...ChainName[]]))
  .min(1)
  .max(CHAIN_NAMES.length)
  .refine((list) => new Set(list).size === list.length, 'must not repeat a chain')
  .describe(`Chains to cover: 1-${CHAIN_NAMES.length} distinct values of ${CHAIN_NAMES.join(', ')}.`);

/** The top of the gainers' or losers' ranking among the liquid tokens, or why none qualifies. */
const mover = z.object({
  available: z.boolean().describe('false when no token qualifies (reason says which rule none met).'),
  reason: z.string().optional(),
  criterion: z.string().describe('What the token must show: the gainers\' or losers\' ranking rule, with the report\'s liquidity floor.'),
  qualified: z.number().int().describe('Tokens that meet the criterion, before the screen.'),
  token: z.string().optional(),
  symbol: z.string().nullable().optional(),
  changePct: z.number().optional(),
  changeSince: isoTime.nullable().optional(),
  ...z.object(rowScreenShape).partial().shape,
});

export const investmentReportSkill = defineSkill({
  id: 'investment-report',
  title: 'Investment report',
  description: `Ranked token ideas across the requested chains from momentum, smart-money net buying and turnover over the period, each with the figures behind it and its risks, plus a market overview per chain. Tokens that fail the screen (${SCREEN_RULES}) are never ideas; they are listed apart with their risks. Research, not advice.`,
  tags: ['research', 'opportunities', 'portfolio', 'smart-money', 'market'],
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
  output: z.object({
    source: z.string().describe('Sources of the chains answered, joined by commas.'),
    chains: z.array(z.enum(CHAIN_NAMES)),
    timeperiod: z.enum(PERIOD_NAMES),
    limit: z.number().int(),
    asOf: z.object({ timestamp: isoTime }),
    methodology: z.string(),
    disclaimer: z.string(),
    screen: screenSummary,
    ideas: z.array(z.object({
      chain: z.string(),
      token: z.string(),
      symbol: z.string().nullable(),
      score: z.number().describe('0-1: weighted percentile ranks.'),
      signals: z.object({
        changePct: z.number().nullable(), changeSince: isoTime.nullable(), turnover: z.number(),
        smartMoneyNetUsd: z.number(), smartWallets: z.number().int(), liquidityUsd: z.number(), volumeUsd: z.number(), priceUsd: z.number(),
      }),
      thesis: z.array(z.string()),
      screened: z.boolean(),
      risks: z.array(z.string()).describe('The screen\'s findings first.'),
    })).describe('Best score first, across chains.'),
    excludedByScreen: z.array(z.object({ chain: z.string(), token: z.string(), symbol: z.string().nullable(), liquidityUsd: z.number(), changePct: z.number().nullable(), ...rowScreenShape })),
    perChain: z.array(z.object({
      available: z.boolean(),
      chain: z.string(),
      reason: z.string().optional().describe('With available: false, why the chain cannot be read.'),
      source: z.enum(['embedded', 'rpc']).optional(),
      chainId: z.number().int().optional(),
      asOf: z.object({ block: intString, timestamp: isoTime }).optional(),
      blockRange: z.object({ from: intString, to: intString }).optional(),
      methodology: z.string().optional(),
      coverage: coverage.optional(),
      overview: z.object({
        tokensPriced: z.number().int(), candidates: z.number().int(), liquidityUsd: z.number(), volumeUsd: z.number(), smartWallets: z.number().int(),
        topGainer: mover, topLoser: mover,
      }).optional(),
      screen: screenSummary.optional(),
      ideaCount: z.number().int().optional(),
      excludedCount: z.number().int().optional(),
    })),
    errors: z.array(chainGap).describe('Chains it could not read.'),
  }),
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
