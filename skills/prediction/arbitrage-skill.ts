/** cross-platform-arbitrage: the same event priced apart on Polymarket and Kalshi, fee-adjusted (arbitrage.ts). */
import { z } from 'zod';
import { limitParam } from '../core/params.js';
import { isoTime } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { ARBITRAGE_METHODOLOGY, findArbitrage, KALSHI_TAKER_RATE, NEAR_MISS } from './arbitrage.js';
import { availability, nothingMatched, predictionAnswerShape, predictionProvenance, predictionQueryParam, venueNow } from './markets.js';
import { PREDICTION_PROVIDERS, predictionVenues } from './venues.js';

const leg = z.object({
  venue: z.enum(PREDICTION_PROVIDERS), side: z.enum(['yes', 'no']), market: z.string().describe('Polymarket market id or Kalshi ticker.'),
  ask: z.number(), feePerContract: z.number(), sizeAtAsk: z.number().describe('Shares (contracts) resting at that ask.'),
});
const row = z.object({
  question: z.string(),
  direction: z.string(),
  legs: z.array(leg).describe('The two legs: one pays $1 at resolution, whichever way it goes (if both venues resolve it alike).'),
  cost: z.number().describe('Both asks plus the Kalshi fee, per $1 payout.'),
  edgePerDollar: z.number().describe('1 − cost.'),
  returnPct: z.number().describe('Edge over cost, in percent, to resolution.'),
  contracts: z.number().describe('Pairs both books hold while each still costs under $1.'),
  costUsd: z.number(),
  profitUsd: z.number(),
  risk: z.object({
    ruleDifference: z.string(), polymarketClosesAt: isoTime, kalshiClosesAt: isoTime,
    closeDifferenceHours: z.number().describe('Kalshi\'s close minus Polymarket\'s.'), hoursToFirstClose: z.number(), note: z.string(),
  }),
});

export const predictionArbitrageSkill = defineSkill({
  id: 'cross-platform-arbitrage',
  title: 'Cross-platform arbitrage',
  description: `The same event on Polymarket and Kalshi bought yes on one and no on the other at the asks, Kalshi's taker fee (${KALSHI_TAKER_RATE} × P × (1 − P) per contract, rounded up to the cent) included: an opportunity when the pair costs under $1, with the edge per $1 payout, the size the books hold at a profit, and the risk (how the resolution rules differ, how far apart the closes are). Near misses (under $${1 + NEAR_MISS}) are listed apart.`,
  tags: ['prediction-markets', 'arbitrage', 'odds', 'betting', 'polymarket', 'kalshi', 'cross-venue'],
  examples: ['Prediction-market arbitrage across venues', 'Is the rate-cut market priced differently on Kalshi and Polymarket?', 'Is the same outcome cheaper on one venue, fees included?'],
  input: z.strictObject({
    query: predictionQueryParam,
    limit: limitParam(1, 100, 10),
  }),
  price: '1.00',
  toolName: 'cross_platform_arbitrage',
  surfaces: ['a2a', 'agent'],
  needs: ['prediction'],
  output: z.object({
    ...predictionAnswerShape,
    crossListed: z.number().int().describe('Events listed on both venues.'),
    compared: z.number().int().describe('Of those, open on both and matched by the query: each priced both ways.'),
    count: z.number().int(),
    opportunities: z.array(row),
    nearMisses: z.array(row),
  }),
  admit: async (_input, ctx) => void predictionVenues(ctx),
  async handler(input, ctx) {
    const venues = predictionVenues(ctx);
    const now = venueNow();
    const found = await findArbitrage(venues, { query: input.query, limit: input.limit, now, signal: ctx.signal });
    const plain = (r: (typeof found.opportunities)[number]) => ({ ...r, legs: [...r.legs] });
    return {
      ...predictionProvenance(venues, PREDICTION_PROVIDERS, now, ARBITRAGE_METHODOLOGY),
      // No event open on both venues (that the query names) is nothing compared: not sold. None under $1 among those compared is an answer.
      ...availability(nothingMatched(found.compared, found.terms, 'market open on both venues')),
      query: found.query, terms: [...found.terms], queryRule: found.queryRule,
      crossListed: found.crossListed, compared: found.compared,
      count: found.opportunities.length,
      opportunities: found.opportunities.map(plain),
      nearMisses: found.nearMisses.map(plain),
    };
  },
});
