/** spread-analysis: bid-ask spreads, depth and the cost of a fill on open prediction markets (spread.ts). */
import { z } from 'zod';
import { limitParam } from '../core/params.js';
import { isoTime } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { availability, nothingMatched, predictionAnswerShape, predictionProvenance, predictionQueryParam, venueNow } from './markets.js';
import { analyzeSpreads, SPREAD_METHODOLOGY } from './spread.js';
import { PREDICTION_PROVIDERS, predictionVenues } from './venues.js';

export const predictionSpreadSkill = defineSkill({
  id: 'spread-analysis',
  title: 'Spread analysis',
  description: 'Bid-ask spreads and order-book depth of open prediction markets on Polymarket and Kalshi, matched to a query: best bid and ask of yes, the spread in cents and percent, depth within 1¢ and 5¢ of the mid, and the average price and slippage of buying sizeUsd of yes by walking the book (said when the book cannot fill it). Kalshi books hold bids only: a yes ask is 1 − the best no bid.',
  tags: ['prediction-markets', 'bid-ask', 'spread', 'depth', 'order-book', 'slippage', 'polymarket', 'kalshi'],
  examples: ['Which prediction markets have tight spreads?', 'What would $5,000 of yes cost on the rate-cut market?'],
  input: z.strictObject({
    query: predictionQueryParam,
    limit: limitParam(1, 100, 10),
    sizeUsd: z.number().min(1).max(1_000_000).default(1000).describe('USD of yes to buy when walking the book, 1-1,000,000; default 1000.'),
  }),
  price: '0.75',
  toolName: 'spread_analysis',
  surfaces: ['a2a', 'agent'],
  needs: ['prediction'],
  output: z.object({
    ...predictionAnswerShape,
    sizeUsd: z.number(),
    openMarkets: z.number().int().describe('Events open on either venue.'),
    matched: z.number().int().describe('Of those, how many the query matched.'),
    booksRead: z.number().int(),
    count: z.number().int(),
    books: z.array(z.object({
      question: z.string(),
      venue: z.enum(PREDICTION_PROVIDERS),
      market: z.string().describe('Polymarket market id or Kalshi ticker.'),
      closesAt: isoTime, hoursToClose: z.number(),
      bestBid: z.number().nullable(), bestAsk: z.number().nullable(), mid: z.number().nullable(),
      spreadCents: z.number().nullable(), spreadPct: z.number().nullable().describe('Spread over the mid, in percent.'),
      depth: z.array(z.object({ withinCents: z.number(), bidShares: z.number(), askShares: z.number(), bidUsd: z.number(), askUsd: z.number() })),
      fill: z.object({
        sizeUsd: z.number(), filled: z.boolean(), spentUsd: z.number(), shares: z.number(),
        averagePrice: z.number().nullable(), worstPrice: z.number().nullable(), levels: z.number().int(),
        slippageCents: z.number().nullable().describe('Average price over the best ask, in cents.'),
        slippagePct: z.number().nullable().describe('Average price over the mid, in percent.'),
        note: z.string().nullable(),
      }),
      note: z.string().nullable(),
    })),
  }),
  admit: async (_input, ctx) => void predictionVenues(ctx),
  async handler(input, ctx) {
    const venues = predictionVenues(ctx);
    const now = venueNow();
    const found = await analyzeSpreads(venues, { query: input.query, limit: input.limit, sizeUsd: input.sizeUsd, now, signal: ctx.signal });
    return {
      ...predictionProvenance(venues, PREDICTION_PROVIDERS, now, SPREAD_METHODOLOGY),
      ...availability(nothingMatched(found.rows.length, found.terms)),
      query: found.query, terms: [...found.terms], queryRule: found.queryRule, sizeUsd: input.sizeUsd,
      openMarkets: found.openMarkets, matched: found.matched, booksRead: found.booksRead,
      count: found.rows.length,
      books: found.rows.map((r) => ({ ...r, depth: [...r.depth] })),
    };
  },
});
