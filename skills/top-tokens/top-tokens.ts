/**
 * Chain-wide rankings from the index: by liquidity (top-tokens), by traded volume (topvolume) and
 * by price change (top-gainers). A ranking lists only tokens that are what its name says
 * (data/rankings.ts RANKING_RULES: gainers rose and traded in the window...) and says how many
 * qualified; none qualifying is `available: false` with the reason. Every listed token goes
 * through the screen: the liquidity and volume rankings keep failing tokens and flag them;
 * gainers leave them out (an unsellable or taxed token's gain cannot be taken) and list them
 * apart with their risks.
 */
import { describeCoverage } from '../data/coverage.js';
import { MARKET_METHODOLOGY } from '../data/market.js';
import { SCREEN_RULES, SCREEN_VERSION, screenList, type ScreenSummary } from '../data/screening.js';
import { RANKING_RULES, qualifying, tokenRows, type RankedBy } from '../data/rankings.js';
import { indexProvenance } from '../data/provenance.js';
import type { SkillContext } from '../core/context.js';
import { chainListInput } from '../core/params.js';
import { z } from 'zod';
import { coverage, provenanceShape, screenSummary, screenedTokenRow } from '../core/outputs.js';
import { PERIOD_NAMES } from '../data/periods.js';
import { defineSkill } from '../core/registry.js';
import { pct, usd } from '../core/summary.js';
import { admitMarket } from '../core/admission.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../data/load.js';
import type { ChainName } from '../../chain/chains.js';
import type { Period } from '../data/periods.js';

/** Which way a price-change ranking runs. */
export const MOVER_SIDES = ['gainers', 'losers'] as const;
type MoverSide = (typeof MOVER_SIDES)[number];

/** The three rankings' answer; gainers also list what the screen left out. */
export const rankingsOutput = z.object({
  ...provenanceShape,
  screen: screenSummary,
  timeperiod: z.enum(PERIOD_NAMES),
  coverage,
  sortedBy: z.enum(['liquidityUsd', 'volumeUsd', 'changePct']),
  side: z.enum(MOVER_SIDES).optional().describe('Movers only: gainers (largest rise first) or losers (largest fall first).'),
  available: z.boolean().describe('false when no token qualifies (reason says which rule none met).'),
  reason: z.string().optional(),
  criterion: z.string().describe('What a token must show to be listed: e.g. gainers "rose over the window and traded in it".'),
  limit: z.number().int(),
  count: z.number().int().describe('Tokens listed: at most limit, fewer when fewer qualify (or the screen leaves some out).'),
  qualified: z.number().int().describe('Tokens that meet the criterion, before the screen and the limit.'),
  totalTokens: z.number().int().describe('Priced tokens of the chain, qualifying or not.'),
  tokens: z.array(screenedTokenRow),
  excludedByScreen: z.array(screenedTokenRow).optional().describe('Gainers only: tokens failing the screen, with their risks.'),
});

export type RankedRow = { symbol: string | null; token: string; priceUsd: number; changePct: number | null; liquidityUsd: number; volumeUsd: number; flagged: boolean; risks: string[] };

/** The ranking's answer in a sentence: what leads it, flagged tokens named with their risks. */
export function rankingSummary(r: { chain: string; timeperiod: string; sortedBy: string; side?: string; count: number; qualified: number; reason?: string; tokens: RankedRow[]; excludedByScreen?: RankedRow[] }): string {
  const by = { liquidityUsd: 'liquidity', volumeUsd: 'volume', changePct: r.side === 'losers' ? 'fall' : 'rise' }[r.sortedBy] ?? r.sortedBy;
  const row = (t: RankedRow) => `${t.symbol ?? t.token} ${r.sortedBy === 'changePct' ? pct(t.changePct) : usd(r.sortedBy === 'volumeUsd' ? t.volumeUsd : t.liquidityUsd)}${t.flagged ? ` (flagged: ${t.risks.join('; ')})` : ''}`;
  const left = r.excludedByScreen?.length ? ` ${r.excludedByScreen.length} token${r.excludedByScreen.length === 1 ? '' : 's'} left out by the screen: ${r.excludedByScreen.slice(0, 3).map((t) => `${t.symbol ?? t.token} (${t.risks.join('; ')})`).join(', ')}.` : '';
  if (!r.tokens.length) return `${r.reason ?? `No token on ${r.chain} to rank by ${by} over ${r.timeperiod}`}.${left}`;
  return `Top by ${by} on ${r.chain} over ${r.timeperiod} (${r.qualified} qualified): ${r.tokens.slice(0, 3).map(row).join(', ')}.${left}`;
}

export async function rankings(ctx: SkillContext, input: { chain: ChainName; limit: number; timeperiod: Period }, sortBy: 'liquidityUsd' | 'volumeUsd' | 'changePct', side?: MoverSide) {
  const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
  const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
  const rows = await tokenRows(market, checkpoint, input.timeperiod, fromBlock);
  const by: RankedBy = sortBy === 'changePct' ? (side ?? 'gainers') : sortBy === 'volumeUsd' ? 'volume' : 'liquidity';
  const ranked = qualifying(rows, by);
  // A gain a trap token shows cannot be taken: gainers leave failing tokens out. A fall is news
  // either way (a rug is a loser): losers keep them, flagged.
  const policy: ScreenSummary['policy'] = sortBy === 'changePct' && side !== 'losers' ? 'excluded' : 'flagged';
  const { listed, excluded, screen } = await screenList(ctx.store, ranked, (r) => ({ market, token: r.token }), input.limit, policy);
  const { criterion } = RANKING_RULES[by];
  const none = !listed.length && {
    reason: ranked.length
      ? `every token on ${chain.name} that ${criterion} over ${input.timeperiod} fails the screen`
      : `no priced token on ${chain.name} ${criterion} over ${input.timeperiod}`,
  };
  return {
    ...indexProvenance(chain, checkpoint, `${MARKET_METHODOLOGY}; ${SCREEN_VERSION}`, fromBlock),
    screen,
    timeperiod: input.timeperiod,
    // What changePct (each row's changeSince) and volume cover when the history is shorter than the period.
    coverage: describeCoverage(periodCoverage(market, checkpoint, input.timeperiod)),
    sortedBy: sortBy,
    ...(side && { side }),
    available: !none,
    ...none,
    criterion,
    limit: input.limit,
    count: listed.length,
    qualified: ranked.length,
    totalTokens: rows.length,
    tokens: listed,
    ...(policy === 'excluded' && { excludedByScreen: excluded }),
  };
}

export const topTokensSkill = defineSkill({
  id: 'top-tokens',
  title: 'Top tokens',
  description: `Tokens of a chain ranked by USD liquidity across their DEX pools, with price, change and volume over the period; each carries the screen's risks, \`flagged\` when it fails it (${SCREEN_RULES}).`,
  tags: ['market', 'rankings', 'tokens'],
  examples: ['What are the biggest tokens on base?', 'Top 10 tokens on bsc by liquidity this week'],
  input: chainListInput,
  price: '0.55',
  httpPath: '/x402/data/top-tokens',
  toolName: 'top_tokens',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  output: rankingsOutput,
  summarize: rankingSummary,
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  handler: (input, ctx) => rankings(ctx, input, 'liquidityUsd'),
});

export const topVolumeSkill = defineSkill({
  id: 'topvolume',
  title: 'Top tokens by volume',
  description: `Tokens of a chain that traded over the period, ranked by USD traded volume, with price, change and liquidity; each carries the screen's risks, \`flagged\` when it fails it (${SCREEN_RULES}).`,
  tags: ['market', 'volume', 'volume-leaders', 'most-traded', 'busiest', 'rankings'],
  examples: ['Which tokens traded the most on base in the last 24h?', 'Top volume on arbitrum over 7d'],
  input: chainListInput,
  price: '0.55',
  httpPath: '/x402/data/topvolume',
  toolName: 'top_volume',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  output: rankingsOutput,
  summarize: rankingSummary,
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  handler: (input, ctx) => rankings(ctx, input, 'volumeUsd'),
});

export const topGainersSkill = defineSkill({
  id: 'top-gainers',
  title: 'Top gainers and losers',
  description: `Tokens of a chain ranked by USD price change over the period: gainers (largest rise first, the default; only tokens that rose and traded in the window) or losers (largest fall first; only tokens that fell and traded), with price, liquidity and volume, and how many qualified. Gainers leave out tokens that fail the screen (${SCREEN_RULES}) and list them apart with their risks; losers keep them, flagged.`,
  tags: ['market', 'gainers', 'losers', 'movers', 'rankings', 'price-change'],
  examples: ['Biggest gainers on arbitrum today', 'Which tokens pumped most on base over the last 12 hours?', 'Biggest losers on bsc this week: what dumped?'],
  input: chainListInput.extend({
    side: z.enum(MOVER_SIDES).default('gainers').describe('gainers (largest rise first, what pumped) or losers (largest fall first, what dumped).'),
  }),
  price: '0.35',
  toolName: 'top_gainers',
  surfaces: ['a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 60, timeTargetSeconds: 15 },
  output: rankingsOutput,
  summarize: rankingSummary,
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  handler: (input, ctx) => rankings(ctx, input, 'changePct', input.side),
});
