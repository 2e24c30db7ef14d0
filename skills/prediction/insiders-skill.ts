/** insider-scan: Polymarket positions that look informed, each with its evidence from the venue and the chain (insiders.ts). */
import { z } from 'zod';
import { zeroAddress } from 'viem';
import { round } from '../data/market.js';
import { admitChain } from '../core/admission.js';
import { limitParam } from '../core/params.js';
import { isoTime } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import type { SkillContext } from '../core/context.js';
import { FUNDING_CHAIN, IndexedFunding, type FundingProvenance } from './funding.js';
import { INSIDER_METHODOLOGY, INSIDER_RULES, insiderScan, type InsiderCandidate, type InsiderScan, type PositionTrade } from './insiders.js';
import { iso, availability, nothingMatched, predictionAnswerShape, predictionProvenance, predictionQueryParam, venueNow } from './markets.js';
import { predictionVenues } from './venues.js';

const trade = z.object({
  time: isoTime, side: z.enum(['BUY', 'SELL']), outcome: z.string(), price: z.number(), shares: z.number(), usd: z.number(), tx: z.string(),
});

/** An examined position as the answers give it (insiders.ts `InsiderCandidate`). */
export const insiderRowShape = z.object({
  question: z.string(), conditionId: z.string(), slug: z.string(), closesAt: isoTime, closed: z.boolean(), marketVolumeUsd: z.number(),
  wallet: z.string(),
  side: z.string().describe('The outcome bought.'),
  level: z.enum(['high', 'watch']).nullable().describe('high: the price rose toward the side within the window; watch: the window is still open; null: not flagged.'),
  score: z.number().describe('0-100 (methodology).'),
  scoreParts: z.object({ size: z.number(), freshness: z.number(), timing: z.number(), oneSided: z.number() }),
  position: z.object({ usd: z.number(), shares: z.number(), avgPrice: z.number(), sideShare: z.number().describe('Share of its USD in the market on this side (0-1).') }),
  signalTrade: trade.describe('The trade that made the position large.'),
  trades: z.array(trade).describe('Its trades in the market, oldest first.'),
  account: z.object({
    fundingStatus: z.enum(['funded', 'none', 'unreadable']).describe('funded: its first funding was read on chain; none: the chain shows none; unreadable: the chain could not be read.'),
    fundingNote: z.string().nullable(),
    firstFunding: z.object({
      time: isoTime, block: z.number().int(), tx: z.string(), amountUsd: z.number(), from: z.string(), minted: z.boolean().describe('Sent by the zero address: minted to it.'),
      censored: z.boolean().describe('In the first day of the chain history read: it may be older.'),
    }).nullable(),
    ageAtTradeHours: z.number().nullable().describe('From the first funding read on chain to the signal trade.'),
    ageKnown: z.boolean().describe('Funded, not censored, not after its first venue trade: the age is known, not only bounded.'),
    fundedAfterFirstTrade: z.boolean(),
    priorTrades: z.number().int().describe('Its venue trades before the signal trade.'),
    venueTrades: z.number().int(), marketsTraded: z.number().int(), firstVenueTradeAt: isoTime.nullable(),
  }),
  impact: z.object({
    priceBefore: z.number(), priceHourBefore: z.number(), tradePrice: z.number(),
    maxRise: z.number().describe('The side\'s highest rise above priceBefore within the window (price points, 0-1).'),
    peakAt: isoTime.nullable(), minutesToMove: z.number().nullable().describe(`Minutes until it first rose ${INSIDER_RULES.minMove * 100} points.`),
    riseIn5m: z.number(), windowOpen: z.boolean(),
  }).nullable().describe('null: the venue gave no price history for the side.'),
  outcome: z.object({ resolved: z.boolean(), winner: z.string().nullable(), won: z.boolean().nullable() }),
  reasons: z.array(z.string()),
});

export const fundingProvenanceShape = z.object({
  chain: z.string(), chainId: z.number().int(), token: z.string(),
  source: z.string().nullable().describe('index:<chain>@<block>, or null when the chain could not be read.'),
  from: isoTime.nullable(), through: isoTime.nullable(), methodology: z.string(), unreadable: z.string().optional(),
});

export const insiderScanSkill = defineSkill({
  id: 'insider-scan',
  title: 'Prediction-market insider scan',
  description: `Polymarket markets with unusual, well-timed positioning: accounts taking large one-sided positions (at least $${INSIDER_RULES.minPositionUsd.toLocaleString('en-US')}) shortly before the price moves their way, from accounts fresh on chain. Each flag gives the trades (size, price, time), the account's first funding on Polygon read from the chain (time, amount, sender), its prior trades on the venue, the price before and after (how far and how soon it moved toward the side bought), the outcome once resolved, and a documented 0-100 score. Whales buying after news and patient conviction holders are examined, not flagged.`,
  tags: ['prediction-markets', 'polymarket', 'insider', 'inside-information', 'informed', 'betting', 'odds', 'bettors', 'wallets', 'polygon'],
  examples: ['Which prediction markets show insider trading?', 'Fresh wallets betting big before the news on Polymarket', 'Insider activity on the governor race market'],
  input: z.strictObject({
    query: predictionQueryParam,
    limit: limitParam(1, 100, 10),
  }),
  price: '1.50',
  toolName: 'insider_scan',
  surfaces: ['a2a', 'agent'],
  needs: ['prediction', 'prediction-funding'],
  output: z.object({
    ...predictionAnswerShape,
    funding: fundingProvenanceShape.describe('The chain read for the accounts\' first funding.'),
    marketsScanned: z.number().int(), positionsExamined: z.number().int(), walletsScanned: z.number().int(),
    flagged: z.number().int(), highRisk: z.number().int().describe('Flags whose price already moved (level high).'),
    count: z.number().int(),
    alerts: z.array(insiderRowShape).describe('Flagged positions, highest score first.'),
  }),
  admit: async (_input, ctx) => {
    predictionVenues(ctx);
    admitChain(ctx, FUNDING_CHAIN);
  },
  async handler(input, ctx) {
    const venues = predictionVenues(ctx);
    const now = venueNow();
    const { scan, funding } = await scanWithFunding(ctx, { query: input.query, now });
    const reason = funding.unreadable
      ? `the accounts' funding on ${FUNDING_CHAIN} cannot be read (${funding.unreadable}); no account can be judged fresh`
      : scan.query.terms.length ? nothingMatched(scan.markets.length, scan.query.terms, 'market') : null;
    return {
      ...predictionProvenance(venues, ['polymarket'], now, INSIDER_METHODOLOGY),
      ...availability(reason),
      funding,
      query: scan.query.text, terms: scan.query.terms, queryRule: scan.query.rule,
      marketsScanned: scan.markets.length, positionsExamined: scan.candidates.length, walletsScanned: scan.walletsScanned,
      flagged: scan.alerts.length, highRisk: scan.alerts.filter((a) => a.level === 'high').length,
      count: Math.min(scan.alerts.length, input.limit),
      alerts: scan.alerts.slice(0, input.limit).map(insiderRow),
    };
  },
});

/** The scan over this deployment's venues, accounts' funding read from its Polygon index. */
export async function scanWithFunding(ctx: SkillContext, options: { query?: string | undefined; now: number }): Promise<{ scan: InsiderScan; funding: FundingProvenance }> {
  const funding = new IndexedFunding(ctx.store, ctx.chains);
  const scan = await insiderScan(predictionVenues(ctx).polymarket, funding, { ...options, signal: ctx.signal });
  return { scan, funding: await funding.provenance() };
}

export function insiderRow(c: InsiderCandidate): z.input<typeof insiderRowShape> {
  const f = c.account.funding;
  const tradeRow = (t: PositionTrade) => ({ time: iso(t.time), side: t.side, outcome: t.outcome, price: t.price, shares: t.shares, usd: t.usd, tx: t.tx });
  return {
    question: c.market.question, conditionId: c.market.conditionId, slug: c.market.slug, closesAt: c.market.endDate, closed: c.market.closed, marketVolumeUsd: c.market.volumeUsd,
    wallet: c.account.address, side: c.side.outcome, level: c.level, score: c.score, scoreParts: c.scoreParts,
    position: c.position, signalTrade: tradeRow(c.signalTrade), trades: c.trades.map(tradeRow),
    account: {
      fundingStatus: f.status, fundingNote: f.status === 'funded' ? null : f.reason,
      firstFunding: f.status !== 'funded' ? null : {
        time: iso(f.funding.time), block: f.funding.block, tx: f.funding.tx, amountUsd: f.funding.amountUsd, from: f.funding.from,
        minted: f.funding.from.toLowerCase() === zeroAddress, censored: f.funding.censored,
      },
      ageAtTradeHours: c.account.ageAtTradeSeconds === null ? null : round(c.account.ageAtTradeSeconds / 3_600, 2),
      ageKnown: c.account.ageKnown, fundedAfterFirstTrade: c.account.fundedAfterFirstTrade,
      priorTrades: c.account.priorTrades, venueTrades: c.account.venueTrades, marketsTraded: c.account.marketsTraded,
      firstVenueTradeAt: c.account.firstVenueTradeAt === null ? null : iso(c.account.firstVenueTradeAt),
    },
    impact: c.impact && { ...c.impact, peakAt: c.impact.peakAt === null ? null : iso(c.impact.peakAt) },
    outcome: c.outcome,
    reasons: [...c.reasons],
  };
}
