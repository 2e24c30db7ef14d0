/** The base launchpad (`creator` venue): recent launches and launchpad volume. */
import { z } from 'zod';
import { LAUNCHPAD_METHODOLOGY, launches, type Launch } from './engine.js';
import { describeCoverage } from '../data/coverage.js';
import { indexProvenance } from '../data/provenance.js';
import { SCREEN_RULES, SCREEN_VERSION, screenList } from '../data/screening.js';
import { limitParam, onlyChainParam, periodParam } from '../core/params.js';
import { address, coverage, isoTime, provenanceShape, rowScreenShape, screenSummary, usdOrNull } from '../core/outputs.js';
import { PERIOD_NAMES } from '../data/periods.js';
import { defineSkill } from '../core/registry.js';
import { admitMarket } from '../core/admission.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../data/load.js';
import type { SkillContext } from '../core/context.js';

/** limit 1-25 (default 15), timeperiod without 14d (default 24h), base only. */
export const creatorInput = z.strictObject({
  chain: onlyChainParam('base'),
  limit: limitParam(1, 25, 15),
  timeperiod: periodParam('24h', ['1h', '4h', '12h', '24h', '7d', '30d']),
});

/** launchpad/engine.ts `Launch` as listed, with the screen's verdict. */
const launchRow = z.object({
  token: address, venue: address, creator: address, name: z.string(), symbol: z.string(),
  launchedBlock: z.number().int(), launchedAt: isoTime, launchTx: z.string(),
  progressPct: z.number().describe('Progress to graduation, percent.'),
  raisedEth: z.number(), raisedUsd: usdOrNull,
  lastPriceEth: z.number().nullable(), lastPriceUsd: usdOrNull, lastTradeAt: isoTime.nullable(),
  graduated: z.object({ pair: address, block: z.number().int(), at: isoTime }).nullable(),
  toGraduate: z.object({
    ethNeeded: z.number().nullable(), netEthInflow: z.number(), ethPerHour: z.number(), paceWindowHours: z.number(),
    etaHours: z.number().nullable(), estimatedGraduationAt: isoTime.nullable(), noPaceReason: z.string().nullable(),
  }).nullable().describe('On the curve: ETH still needed and the recent pace; null once graduated.'),
  period: z.object({ buys: z.number().int(), sells: z.number().int(), traders: z.number().int(), curveVolumeEth: z.number(), curveVolumeUsd: z.number(), dexVolumeUsd: z.number(), volumeUsd: z.number() }),
  dex: z.object({ pair: address, swaps: z.number().int(), buys: z.number().int(), sells: z.number().int(), volumeEth: z.number(), volumeUsd: z.number() }).nullable().describe('The graduated pair\'s swaps over the period.'),
  lifetime: z.object({ buys: z.number().int(), sells: z.number().int(), traders: z.number().int() }),
  ...rowScreenShape,
});

const creatorOutput = z.object({
  ...provenanceShape,
  screen: screenSummary,
  venues: z.array(z.string()),
  timeperiod: z.enum(PERIOD_NAMES),
  coverage,
  limit: z.number().int(),
  sortedBy: z.string(),
  total: z.number().int(),
  count: z.number().int(),
  tokens: z.array(launchRow),
});

async function creatorRows(ctx: SkillContext, input: z.output<typeof creatorInput>, pick: (all: Launch[], fromBlock: number) => Launch[], sortedBy: string) {
  const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
  const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
  const all = await launches(market, fromBlock);
  const rows = pick(all, fromBlock);
  // A token still on its curve has no pool to simulate a sell through: it is listed screened: false, saying so.
  const { listed, screen } = await screenList(ctx.store, rows, (l) => ({ market, token: l.token }), input.limit, 'flagged');
  return {
    ...indexProvenance(chain, checkpoint, `${LAUNCHPAD_METHODOLOGY}; ${SCREEN_VERSION}`, fromBlock),
    screen,
    venues: [...new Set(all.map((l) => l.venue.toLowerCase()))],
    timeperiod: input.timeperiod,
    coverage: describeCoverage(periodCoverage(market, checkpoint, input.timeperiod)),
    limit: input.limit,
    sortedBy,
    total: rows.length,
    count: listed.length,
    tokens: listed,
  };
}

export const creatorLaunchesSkill = defineSkill({
  id: 'creator-launches',
  title: 'Launchpad launches',
  description: `Tokens launched on the base bonding-curve launchpad in the period, newest first: creator, curve progress to graduation, ETH raised, buys, sells and traders, graduation and current price, and the screen's risks (${SCREEN_RULES} flag a token; one still on its curve cannot have its sell simulated and says so).`,
  tags: ['launchpad', 'new-tokens', 'base'],
  examples: ['What launched on the base launchpad in the last hour?', 'New creator tokens on base today'],
  input: creatorInput,
  price: '0.75',
  catalogPrice: '0.40',
  httpPath: '/x402/data/creator-launches',
  toolName: 'creator_launches',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  output: creatorOutput,
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  handler: (input, ctx) => creatorRows(ctx, input, (all, fromBlock) => all.filter((l) => l.launchedBlock >= fromBlock).sort((a, b) => b.launchedBlock - a.launchedBlock), 'launchedBlock'),
});

export const creatorVolumeSkill = defineSkill({
  id: 'creator-volume',
  title: 'Launchpad volume',
  description: 'Base launchpad tokens ranked by USD traded in the period: curve trades, plus DEX swaps once graduated, with progress, raised ETH and traders.',
  tags: ['launchpad', 'volume', 'base'],
  examples: ['Which launchpad tokens on base traded the most today?', 'Top creator tokens by volume this week'],
  input: creatorInput,
  price: '0.75',
  httpPath: '/x402/data/creator-volume',
  toolName: 'creator_volume',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  output: creatorOutput,
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  handler: (input, ctx) => creatorRows(ctx, input, (all) => all.filter((l) => l.period.volumeUsd > 0).sort((a, b) => b.period.volumeUsd - a.period.volumeUsd), 'period.volumeUsd'),
});
