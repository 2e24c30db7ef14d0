/** longshot-fader: the venue's calibration from its resolved markets, and the open longshots priced above it (longshot.ts). */
import { z } from 'zod';
import { limitParam } from '../core/params.js';
import { isoTime } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { fadeLongshots, LONGSHOT_BELOW, LONGSHOT_METHODOLOGY } from './longshot.js';
import { availability, predictionAnswerShape, predictionProvenance, predictionQueryParam, venueNow } from './markets.js';
import { predictionVenues } from './venues.js';

const bucket = z.object({
  fromCents: z.number(), toCents: z.number(), trades: z.number().int(), markets: z.number().int(),
  meanPrice: z.number().nullable(), hitRate: z.number().nullable().describe('Share of the bucket\'s trades whose side won.'),
  biasCents: z.number().nullable().describe('Mean price − hit rate, in cents: positive = overpriced.'),
  hitRateLow: z.number().nullable(), hitRateHigh: z.number().nullable().describe('Wilson 95% interval of the hit rate over the bucket\'s markets (the trades of one market share its outcome).'),
  caveat: z.string().nullable(),
});

export const predictionLongshotSkill = defineSkill({
  id: 'longshot-fader',
  title: 'Longshot fader',
  description: `Longshot outcomes (a side under ${LONGSHOT_BELOW * 100}¢) priced above their historical hit rate, to fade: the venue's calibration from its own resolved markets (per price bucket: trades, hit rate and bias, with a sample-size caveat), each open longshot with the calibration row it rests on and the edge of buying the other side, and the venue's Brier score 24 h before the close. Polymarket (Kalshi's adapter has no history to calibrate on).`,
  tags: ['prediction-markets', 'longshot', 'longshots', 'outcome-shares', 'bets', 'overpriced', 'fade', 'calibration', 'polymarket'],
  examples: ['Which longshots are overpriced?', 'How well calibrated are Polymarket prices?'],
  input: z.strictObject({
    query: predictionQueryParam,
    limit: limitParam(1, 100, 10),
  }),
  price: '0.75',
  toolName: 'longshot_fader',
  surfaces: ['a2a', 'agent'],
  needs: ['prediction'],
  output: z.object({
    ...predictionAnswerShape,
    calibration: z.object({
      venue: z.literal('polymarket'),
      resolvedMarkets: z.number().int(), trades: z.number().int(),
      buckets: z.array(bucket),
      brier: z.object({
        available: z.boolean(), reason: z.string().nullable(), score: z.number().nullable(),
        markets: z.number().int(), skipped: z.number().int().describe('Resolved markets without a price that long before the close.'),
        leadHours: z.number(), coinFlip: z.number(),
      }),
    }),
    kalshi: z.object({ available: z.literal(false), reason: z.string() }),
    openMarkets: z.number().int(),
    matched: z.number().int(),
    count: z.number().int(),
    longshots: z.array(z.object({
      question: z.string(), market: z.string().describe('Polymarket market id.'), closesAt: isoTime, hoursToClose: z.number(),
      longshotSide: z.enum(['yes', 'no']), longshotPrice: z.number().describe('The longshot side\'s mid.'),
      bucket: bucket.describe('The calibration row it rests on.'),
      biasCents: z.number().describe('Its price over the bucket\'s hit rate, in cents.'),
      beyondNoise: z.boolean().describe('Its price is above the top of the bucket\'s 95% interval too.'),
      fadeSide: z.enum(['yes', 'no']), fadeAsk: z.number(),
      fadeEdgePerDollar: z.number().describe('(1 − hit rate) − fade ask: expected profit per $1 payout; negative when the spread eats the bias.'),
      fadeReturnPct: z.number(),
    })),
  }),
  admit: async (_input, ctx) => void predictionVenues(ctx),
  async handler(input, ctx) {
    const venues = predictionVenues(ctx);
    const now = venueNow();
    const found = await fadeLongshots(venues, { query: input.query, limit: input.limit, now, signal: ctx.signal });
    const { available, reason, ...calibration } = found.calibration;
    return {
      ...predictionProvenance(venues, ['polymarket'], now, LONGSHOT_METHODOLOGY),
      ...availability(available ? null : reason ?? 'too few resolved markets'),
      calibration: { venue: 'polymarket' as const, ...calibration },
      kalshi: found.kalshi,
      query: found.query, terms: [...found.terms], queryRule: found.queryRule,
      openMarkets: found.openMarkets, matched: found.matched,
      count: found.longshots.length,
      longshots: found.longshots,
    };
  },
});
