/** conviction-scanner: open Polymarket markets where large, patient, one-sided positions concentrate (conviction.ts). */
import { z } from 'zod';
import { limitParam } from '../core/params.js';
import { isoTime } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { CONVICTION_METHODOLOGY, CONVICTION_RULES, CONVICTION_SCORE, convictionScan } from './conviction.js';
import { iso, availability, nothingMatched, predictionAnswerShape, predictionProvenance, predictionQueryParam, venueNow } from './markets.js';
import { predictionVenues } from './venues.js';

const R = CONVICTION_RULES;

const holder = z.object({
  wallet: z.string(), shares: z.number(),
  avgEntry: z.number().nullable(), costUsd: z.number().nullable(), valueUsd: z.number().nullable(), pnlUsd: z.number().nullable(),
  firstBuyAt: isoTime.nullable().describe('Its first buy of this side in the market.'), heldHours: z.number().nullable(), buys: z.number().int(),
  marketShare: z.number().nullable().describe('Share of its cost in the market on this side (0-1).'),
  portfolioShare: z.number().nullable().describe('Share of its cost across all its positions on this side of this market (0-1).'),
  conviction: z.boolean().describe(`At least ${R.convictionShare * 100}% of its cost in the market here, $${R.minPositionUsd.toLocaleString('en-US')} or more, held ${R.patientHours} h or more.`),
  unread: z.string().nullable().describe('Why its position was not read.'),
});

export const convictionScannerSkill = defineSkill({
  id: 'conviction-scanner',
  title: 'Conviction scanner',
  description: `Open Polymarket markets where large, patient positions concentrate: per side, the largest holders with their average entry, cost, value, time held (from their first buy) and how one-sided they are (conviction: ${R.convictionShare * 100}% or more of an account's exposure in the market on one side, $${R.minPositionUsd.toLocaleString('en-US')}+ held ${R.patientHours} h+), the top ${R.topHolders} holders' share of the side, and whether conviction concentrates; ranked by ${CONVICTION_SCORE}.`,
  tags: ['prediction-markets', 'conviction', 'bets', 'betting', 'polymarket', 'holders', 'positions'],
  examples: ['Where is conviction highest in prediction markets?', 'Which Polymarket markets have big patient holders?', 'Who holds the governor race market with conviction?'],
  input: z.strictObject({
    query: predictionQueryParam,
    limit: limitParam(1, 100, 10),
  }),
  price: '1.00',
  toolName: 'conviction_scanner',
  surfaces: ['a2a', 'agent'],
  needs: ['prediction'],
  output: z.object({
    ...predictionAnswerShape,
    openMarkets: z.number().int(), marketsScanned: z.number().int(), walletsRead: z.number().int(),
    concentrated: z.number().int().describe('Markets where conviction holders hold half a side\'s listed shares or more.'),
    count: z.number().int(),
    markets: z.array(z.object({
      id: z.string(), question: z.string(), conditionId: z.string(), slug: z.string(), closesAt: isoTime, volumeUsd: z.number(),
      side: z.string().nullable().describe('The side where conviction holders hold most; null when none holds with conviction.'),
      score: z.number(), scoreParts: z.object({ conviction: z.number(), concentration: z.number(), patience: z.number() }),
      sides: z.array(z.object({
        outcome: z.string(), outcomeIndex: z.number().int(), price: z.number().nullable(),
        holdersListed: z.number().int(), sharesListed: z.number(), topShare: z.number().nullable().describe(`The top ${R.topHolders} holders' share of the listed shares.`),
        convictionHolders: z.number().int(), convictionUsd: z.number(), convictionShares: z.number(),
        avgEntry: z.number().nullable().describe('Conviction holders\' share-weighted average entry.'), meanHeldHours: z.number().nullable(),
        concentrates: z.boolean(),
        holders: z.array(holder),
      })),
    })).describe('Highest score first.'),
  }),
  admit: async (_input, ctx) => void predictionVenues(ctx),
  async handler(input, ctx) {
    const venues = predictionVenues(ctx);
    const now = venueNow();
    const scan = await convictionScan(venues.polymarket, { query: input.query, now, signal: ctx.signal });
    const reason = nothingMatched(scan.markets.length, scan.query.terms, scan.openMarkets ? 'open market' : 'open Polymarket market');
    return {
      ...predictionProvenance(venues, ['polymarket'], now, CONVICTION_METHODOLOGY),
      ...availability(reason),
      query: scan.query.text, terms: scan.query.terms, queryRule: scan.query.rule,
      openMarkets: scan.openMarkets, marketsScanned: scan.markets.length, walletsRead: scan.walletsRead,
      concentrated: scan.markets.filter((m) => m.sides.some((s) => s.concentrates)).length,
      count: Math.min(scan.markets.length, input.limit),
      markets: scan.markets.slice(0, input.limit).map((m) => ({
        ...m, scoreParts: { ...m.scoreParts },
        sides: m.sides.map((s) => ({ ...s, holders: s.holders.map((h) => ({ ...h, firstBuyAt: h.firstBuyAt === null ? null : iso(h.firstBuyAt) })) })),
      })),
    };
  },
});
