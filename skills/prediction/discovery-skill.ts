/** prediction-market-discovery: open prediction markets on both venues, matched to a query and ranked (discovery.ts). */
import { z } from 'zod';
import { limitParam } from '../core/params.js';
import { isoTime } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { DISCOVERY_METHODOLOGY, DISCOVERY_SCORE, discoverMarkets } from './discovery.js';
import { availability, nothingMatched, predictionAnswerShape, predictionProvenance, predictionQueryParam, venueNow } from './markets.js';
import { PREDICTION_PROVIDERS, predictionVenues } from './venues.js';

const quote = { yes: z.number().nullable().describe('Mid of the best bid and ask (0-1).'), bid: z.number().nullable(), ask: z.number().nullable() };

export const predictionDiscoverySkill = defineSkill({
  id: 'prediction-market-discovery',
  title: 'Prediction-market discovery',
  description: `Open prediction markets on Polymarket and Kalshi (a market listed on both appears once, with both venues' prices), matched to a free-text query and ranked by trading, depth and time to resolution (${DISCOVERY_SCORE}): yes price, volume, 24h volume, liquidity, close time and trades; a market nobody traded yet is listed with trades 0.`,
  tags: ['prediction-markets', 'polymarket', 'kalshi', 'event-contracts', 'betting', 'odds', 'favourite', 'favorite', 'implied-probability', 'election', 'referendum', 'rate-cut'],
  examples: ['Hottest prediction markets right now', 'Prediction markets on the central bank rate decision', 'Which BTC price markets are open on Kalshi?', 'What are the odds of a Fed rate cut?'],
  input: z.strictObject({
    query: predictionQueryParam,
    limit: limitParam(1, 100, 10),
  }),
  price: '0.50',
  toolName: 'prediction_market_discovery',
  surfaces: ['a2a', 'agent'],
  needs: ['prediction'],
  output: z.object({
    ...predictionAnswerShape,
    venue: z.string().nullable().describe('The venue the query named, if any.'),
    openEvents: z.number().int().describe('Events open on either venue.'),
    matched: z.number().int().describe('Of those, how many the query matched.'),
    count: z.number().int(),
    markets: z.array(z.object({
      question: z.string(),
      status: z.literal('open'),
      polymarket: z.object({
        id: z.string(), conditionId: z.string(), slug: z.string(), status: z.enum(['open', 'closed']), ...quote,
        volumeUsd: z.number(), volume24hUsd: z.number(), liquidityUsd: z.number(), closesAt: isoTime,
      }).nullable(),
      kalshi: z.object({
        ticker: z.string(), eventTicker: z.string(), status: z.string(), ...quote,
        volumeContracts: z.number(), openInterest: z.number(), closesAt: isoTime, ruleDifference: z.string().describe('How its rule differs from the other venue\'s (its subtitle).'),
      }).nullable(),
      yes: z.number().nullable().describe('The yes mid on Polymarket while open there, else on Kalshi.'),
      volumeUsd: z.number().describe('Polymarket USD traded plus Kalshi contracts at $1 each.'),
      volume24hUsd: z.number().nullable(),
      liquidityUsd: z.number().nullable(),
      closesAt: isoTime.describe('The earliest close among the venues it is open on.'),
      hoursToClose: z.number(),
      trades: z.number().int().nullable().describe('Polymarket trades (Data API); null when not listed there.'),
      traded: z.boolean(),
      note: z.string().nullable(),
      score: z.number(),
    })),
  }),
  admit: async (_input, ctx) => void predictionVenues(ctx),
  async handler(input, ctx) {
    const venues = predictionVenues(ctx);
    const now = venueNow();
    const found = await discoverMarkets(venues, { query: input.query, limit: input.limit, now, signal: ctx.signal });
    return {
      ...predictionProvenance(venues, PREDICTION_PROVIDERS, now, DISCOVERY_METHODOLOGY),
      ...availability(nothingMatched(found.rows.length, found.terms)),
      query: found.query, terms: [...found.terms], venue: found.venue, queryRule: found.queryRule,
      openEvents: found.openEvents, matched: found.matched,
      count: found.rows.length,
      markets: found.rows,
    };
  },
});
