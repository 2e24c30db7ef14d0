import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import { beliefAt } from '../../world/prediction/events.js';
import { venuePrice } from '../../world/prediction/trading.js';
import type { SkillContext } from '../core/context.js';
import { BRIER_LEAD_SECONDS, bucketize, bucketOf, fadeLongshots, LONGSHOT_BELOW, MIN_RESOLVED_MARKETS } from './longshot.js';
import { predictionLongshotSkill } from './longshot-skill.js';
import { servePlan, type ServedPlan } from './markets-served.js';

const NOW = ORIGIN + 9 * 86_400 + 1_800;

describe('longshot fader over the embedded venues', () => {
  let served: ServedPlan;
  beforeAll(async () => {
    served = await servePlan('longshot-test', ORIGIN, priceAt, NOW);
  });
  afterAll(() => served?.close());

  it('buckets prices and counts hits as given', () => {
    const buckets = bucketize([
      { market: 'a', price: 0.03, won: false }, { market: 'a', price: 0.04, won: false }, { market: 'b', price: 0.02, won: true },
      { market: 'c', price: 0.97, won: true }, { market: 'c', price: 1, won: true },
    ]);
    expect(buckets[0]).toMatchObject({ fromCents: 0, toCents: 5, trades: 3, markets: 2, meanPrice: 0.03, hitRate: 0.3333, biasCents: -30.33 });
    // Two markets: the interval is wide, and it holds the hit rate.
    expect(buckets[0]!.hitRateLow!).toBeLessThan(0.3333);
    expect(buckets[0]!.hitRateHigh!).toBeGreaterThan(0.8);
    expect(buckets[0]!.caveat).toMatch(/few markets: 2 outcomes behind 3 trades/);
    expect(buckets.at(-1)).toMatchObject({ fromCents: 95, toCents: 100, trades: 2, hitRate: 1 });
    expect(bucketOf(buckets, 0.05)!.fromCents).toBe(5);
    expect(bucketOf(buckets, 1)!.fromCents).toBe(95);
  });

  it('calibrates on the venue\'s resolved markets: each bucket\'s trades and hit rate are the plan\'s, its Brier score the plan\'s prices a day before the close', async () => {
    const state = served.plan.through(NOW);
    const resolved = state.events.filter((e) => e.closesAt <= NOW);
    expect(resolved.length).toBeGreaterThanOrEqual(MIN_RESOLVED_MARKETS);
    const { calibration } = await fadeLongshots(served.source, { limit: 10, now: NOW });
    expect(calibration.available).toBe(true);
    expect(calibration.resolvedMarkets).toBe(resolved.length);
    const outcome = new Map(resolved.map((e) => [e.id, e.outcome]));
    const bets = state.trading.trades
      .filter((t) => t.venue === 'polymarket' && outcome.has(t.eventId))
      .map((t) => ({ market: t.eventId, price: t.price, won: (t.outcome === 'yes') === outcome.get(t.eventId) }));
    expect(calibration.trades).toBe(bets.length);
    expect(calibration.buckets).toEqual(bucketize(bets));
    // The world overpays longshots: its cheapest bucket's sides cost more than the fair chance they had when bought. (Whether
    // they won less often than that is up to the dozen or so markets behind it: the public belief is calibrated, so one upset
    // outweighs the few cents planted; the world's own test holds it over thousands of events.)
    const cheapest = state.trading.trades.filter((t) => t.venue === 'polymarket' && outcome.has(t.eventId) && bucketOf(calibration.buckets, t.price) === calibration.buckets[0]);
    expect(cheapest.length).toBe(calibration.buckets[0]!.trades);
    const fair = (t: (typeof cheapest)[number]) => {
      const yes = beliefAt(resolved.find((e) => e.id === t.eventId)!, t.time, priceAt);
      return t.outcome === 'yes' ? yes : 1 - yes;
    };
    expect(cheapest.reduce((sum, t) => sum + t.price - fair(t), 0) / cheapest.length).toBeGreaterThan(0.005);

    const brier = resolved.reduce((s, e) => s + (venuePrice(e, 'polymarket', e.closesAt - BRIER_LEAD_SECONDS, priceAt, 0) - (e.outcome ? 1 : 0)) ** 2, 0) / resolved.length;
    expect(calibration.brier).toMatchObject({ available: true, markets: resolved.length, skipped: 0, leadHours: 24 });
    expect(calibration.brier.score!).toBeCloseTo(brier, 2);
  });

  it('lists open longshots priced above their bucket\'s hit rate, with the edge of fading them', async () => {
    const { longshots, calibration, openMarkets } = await fadeLongshots(served.source, { limit: 100, now: NOW });
    const { events } = served.plan.through(NOW);
    expect(openMarkets).toBe(events.filter((e) => e.opensAt <= NOW && e.closesAt > NOW).length);
    const expected = events.filter((e) => e.opensAt <= NOW && e.closesAt > NOW).flatMap((e) => {
      const yes = Math.round(venuePrice(e, 'polymarket', NOW, priceAt, 0) * 1e4) / 1e4;
      const price = yes < LONGSHOT_BELOW ? yes : 1 - yes < LONGSHOT_BELOW ? 1 - yes : null;
      const b = price === null ? undefined : bucketOf(calibration.buckets, price);
      return price !== null && b && b.trades >= 20 && price > b.hitRate! ? [e.title] : [];
    });
    expect(longshots.map((l) => l.question).sort()).toEqual(expected.sort());
    for (const l of longshots) {
      expect(l.longshotPrice).toBeLessThan(LONGSHOT_BELOW);
      expect(l.biasCents).toBeCloseTo((l.longshotPrice - l.bucket.hitRate!) * 100, 1);
      expect(l.fadeSide).not.toBe(l.longshotSide);
      expect(l.beyondNoise).toBe(l.longshotPrice > l.bucket.hitRateHigh!);
      expect(l.fadeEdgePerDollar).toBeCloseTo(1 - l.bucket.hitRate! - l.fadeAsk, 4);
    }
  });

  it('says it cannot calibrate on too few resolved markets; Kalshi is never calibrated', async () => {
    const early = ORIGIN - 12 * 86_400;
    served.now = early;
    try {
      const found = await fadeLongshots(served.source, { limit: 10, now: early });
      expect(found.calibration.available).toBe(false);
      expect(found.calibration.reason).toMatch(/resolved Polymarket markets; calibration needs 20 at least/);
      expect(found.longshots).toEqual([]);
      expect(found.kalshi.available).toBe(false);
    } finally {
      served.now = NOW;
    }
  });

  it('the skill answers with the venue\'s provenance', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW * 1000);
    try {
      const answer = await predictionLongshotSkill.handler(predictionLongshotSkill.input.parse({}), { prediction: served.venues } as unknown as SkillContext);
      expect(answer.available).toBe(true);
      expect(answer.source).toBe('polymarket (embedded)');
      expect(answer.calibration.buckets.length).toBe(12);
    } finally {
      vi.useRealTimers();
    }
  });
});
