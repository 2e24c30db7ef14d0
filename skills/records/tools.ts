/**
 * The public-records tools: get_congress_trades and get_government_contracts (free, from their
 * snapshots of the feeds, priced by the stock chain's tokens), and the report agent's lookup of one
 * ticker's congressional trades ("Which members of Congress traded NVDA?"), run on the question.
 */
import { z } from 'zod';
import type { SkillContext } from '../core/context.js';
import { defineFreeTool, disabledResult, freeOutput, fromSnapshot, list } from '../core/free.js';
import { FREE_USD } from '../core/money.js';
import { FREE_ROWS, rowsParam, tokenParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { MINUTE_MS, type SnapshotJob } from '../core/snapshots.js';
import { congressTrades, FILING_DEADLINE_DAYS } from './congress.js';
import { governmentContracts } from './contracts.js';
import { cachedReader } from './prices.js';
import { stockTokenPrices } from './stock-prices.js';
import { NO_RECORDS, recordsFeeds, recordsProvenance } from './venue.js';

const provenance = {
  source: z.string().optional().describe('The feeds read and how (embedded: served by this process over its world; configured: the real service).'),
  origins: z.record(z.string(), z.string()).optional(),
  methodology: z.string().optional(),
};
const signals = list().describe('Per ticker: totalUsd, score 0-1, band, headline, lawmakerCount, earliestTxAt, rationale, lawmakers.');

async function congressAnswer(ctx: SkillContext, options: { limit: number; ticker?: string }) {
  const feeds = recordsFeeds(ctx);
  const result = await congressTrades(feeds, cachedReader(await stockTokenPrices(ctx)), { ...options, now: Math.floor(Date.now() / 1000) });
  return { ...recordsProvenance(feeds, ['congress']), ...result };
}

export const congressTradesSnapshotJob: SnapshotJob = {
  id: 'congress-trades', everyMs: 10 * MINUTE_MS,
  build: async (ctx) => (ctx.records ? congressAnswer(ctx, { limit: FREE_ROWS.max }) : { available: false, reason: 'domain_disabled', detail: NO_RECORDS }),
};

const congressShape = {
  ...provenance,
  count: z.number().int().optional().describe('Trades disclosed in the window.'),
  actionableLongs: z.number().int().optional(), shorts: z.number().int().optional(),
  sources: list().describe('Each feed read (rows, rejected rows, when) and the prices.'),
  sectorAggregates: list().describe('Per sector: totalUsd, count.'),
  longSignals: signals, shortSignals: signals,
  trades: list().describe(`Each disclosed trade: member, chamber, ticker, side, owner, amount band and estimate, transaction and disclosure dates, filingDelayDays, late (> ${FILING_DEADLINE_DAYS} days), the stock since the trade and over the member's record horizon against SPY.`),
  lateFilings: z.number().int().optional(),
  lawmakers: list().describe('Each member\'s record: trades, measured, mean excess return, hit rate, z-score, late filings.'),
};

export const congressTradesTool = defineFreeTool({
  id: 'congress-trades', toolName: 'get_congress_trades', title: 'Congress trades',
  snapshot: congressTradesSnapshotJob,
  description: `Stock trades disclosed by members of Congress (House and Senate stock-watcher reports): who, ticker, side, amount band, transaction and disclosure dates, the filing delay (late beyond the STOCK Act's ${FILING_DEADLINE_DAYS} days), each trade's return since against the index (SPY), members' records, and the tickers several members bought or sold (signals with a 0-1 score).`,
  tags: ['congress', 'congressional', 'lawmakers', 'senators', 'disclosures', 'stock-act', 'politicians'],
  needs: ['records'],
  input: z.strictObject({ limit: rowsParam(FREE_ROWS) }),
  output: freeOutput(congressShape),
  read: ({ limit }, ctx) => (ctx.records ? fromSnapshot(ctx, congressTradesSnapshotJob, limit) : Promise.resolve(disabledResult(limit))),
});

/** The report agent's form: one ticker's trades read on the question (the free tool's snapshot lists the latest of all). */
export const congressLookupSkill = defineSkill({
  id: 'congress-trades-lookup', title: 'Congress trades by ticker',
  description: `Which members of Congress traded a stock (or all of them): each disclosed trade with member, side, amount band, dates, filing delay (late beyond ${FILING_DEADLINE_DAYS} days) and the stock's move since against SPY; the members' records.`,
  tags: ['congress', 'congressional', 'lawmakers', 'senators', 'representatives', 'house', 'disclosures', 'disclose', 'stock-act', 'politicians', 'members', 'stock-trades', 'filings'],
  examples: ['Which members of Congress traded NVDA?', 'What stocks are senators buying?'],
  input: z.strictObject({ ticker: tokenParam('A listed company\'s ticker (NVDA).').optional(), limit: rowsParam(FREE_ROWS) }),
  price: FREE_USD,
  surfaces: ['agent'],
  needs: ['records'],
  output: z.looseObject({ ...congressShape, available: z.boolean(), reason: z.string().optional(), ticker: z.string().nullable() }),
  summarize: (r) => {
    const trades = r.trades as { member: string; side: string; amount: string; transactionDate: string; filingDelayDays: number; late: boolean; ticker: string | null }[];
    if (!trades.length) return `No disclosed congressional trade${r.ticker ? ` of ${r.ticker}` : ''} in the window.`;
    const rows = trades.map((t) => `${t.member} ${t.side} ${t.ticker ?? ''} ${t.amount} on ${t.transactionDate.slice(0, 10)} (filed after ${t.filingDelayDays} days${t.late ? ', late' : ''})`);
    return `${trades.length} disclosed congressional trade${trades.length === 1 ? '' : 's'}${r.ticker ? ` of ${r.ticker}` : ''}: ${rows.join('; ')}.`;
  },
  async handler(input, ctx) {
    const answer = await congressAnswer(ctx, { limit: input.limit, ...(input.ticker && { ticker: input.ticker.toUpperCase() }) });
    // The engine's rows are read-only; the answer is plain JSON.
    return { ...(answer as unknown as Record<string, unknown> & { ticker: string | null }), available: answer.trades.length > 0, ...(!answer.trades.length && { reason: `no disclosed trade${input.ticker ? ` of ${input.ticker.toUpperCase()}` : ''} in the last ${answer.window.lookbackDays} days` }) };
  },
});

export const governmentContractsSnapshotJob: SnapshotJob = {
  id: 'government-contracts', everyMs: 10 * MINUTE_MS,
  build: async (ctx) => {
    if (!ctx.records) return { available: false, reason: 'domain_disabled', detail: NO_RECORDS };
    const { truncated, ...result } = await governmentContracts(ctx.records, cachedReader(await stockTokenPrices(ctx)), { limit: FREE_ROWS.max, now: Math.floor(Date.now() / 1000) });
    // `truncated` is the envelope's (lists cut to the caller's limit); the feed's own cut is named apart.
    return { ...recordsProvenance(ctx.records, ['usaspending']), ...result, awardsTruncated: truncated };
  },
};

export const governmentContractsTool = defineFreeTool({
  id: 'government-contracts', toolName: 'get_government_contracts', title: 'Government contracts',
  snapshot: governmentContractsSnapshotJob,
  description: 'Federal contract awards to listed companies (USAspending): recipient, ticker, agency, amount, date, the award against the company\'s usual one (surpriseRatio), and the stock token\'s move after the award against SPY; scored long signals, de-obligations as shorts, sectors, and large recipients no ticker covers.',
  tags: ['government', 'contracts', 'awards', 'federal', 'federal-contracts', 'contract-awards', 'usaspending', 'agency', 'procurement', 'defense'],
  examples: ['Which government contracts moved defense stocks?', 'Which companies won federal contract awards this week?'],
  needs: ['records'],
  agent: true,
  input: z.strictObject({ limit: rowsParam(FREE_ROWS) }),
  output: freeOutput({
    ...provenance,
    count: z.number().int().optional(), actionableLongs: z.number().int().optional(), shorts: z.number().int().optional(),
    topTicker: z.string().nullable().optional(), topScore: z.number().nullable().optional(), topSector: z.string().nullable().optional(),
    sources: list(), sectorAggregates: list().describe('Per sector: totalUsd, awardCount, topTickers.'),
    longSignals: list().describe('Per company: primaryTicker, tickers, totalUsd, score, band, headline, awardedAt, sector, direction, surpriseRatio, hasFms, fundamentalsConfluence, rationale.'),
    shortSignals: list(), watchlistExpansion: list(),
    awards: list().describe('The window\'s awards, best score first, each with the stock\'s move after it against SPY.'),
    awardsTruncated: z.boolean().optional().describe('The feed held more awards in the window than were read (the oldest were left).'),
  }),
  summarize: (r) => {
    const longs = (r.longSignals ?? []) as { primaryTicker: string; headline: string }[];
    if (!r.available || !longs.length) return `No contract award to a listed company scored in the window${r.reason ? ` (${r.reason})` : ''}.`;
    return `${r.count} awards to listed companies; top: ${longs.slice(0, 5).map((l) => l.headline).join('; ')}.`;
  },
  read: ({ limit }, ctx) => (ctx.records ? fromSnapshot(ctx, governmentContractsSnapshotJob, limit) : Promise.resolve(disabledResult(limit))),
});
