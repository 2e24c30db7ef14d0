import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import { venueLagSeconds, venuePrice } from '../../world/prediction/trading.js';
import type { SkillContext } from '../core/context.js';
import { servePlan, type ServedPlan } from './markets-served.js';
import { analyzeSpreads, walkAsks } from './spread.js';
import { predictionSpreadSkill } from './spread-skill.js';

const NOW = ORIGIN + 6 * 86_400 + 7_200;
const SEED = 'spread-test';

describe('spread analysis over the embedded venues', () => {
  let served: ServedPlan;
  beforeAll(async () => {
    served = await servePlan(SEED, ORIGIN, priceAt, NOW);
  });
  afterAll(() => served?.close());

  /** The plan's yes price on a venue at NOW, for the market a row names. */
  const truth = (venue: 'polymarket' | 'kalshi', market: string) => {
    const { events } = served.plan.through(NOW);
    const event = venue === 'polymarket' ? events[Number(market) - 500_000]! : events.find((e) => `SIB-${e.id.toUpperCase()}` === market)!;
    return { event, yes: venuePrice(event, venue, NOW, priceAt, venue === 'kalshi' ? venueLagSeconds(SEED, event.id) : 0) };
  };

  it('reads each open market\'s yes book on each venue: best bid and ask a cent around the venue\'s price, Kalshi\'s asks from its no bids', async () => {
    const found = await analyzeSpreads(served.source, { limit: 100, sizeUsd: 1000, now: NOW });
    const { events } = served.plan.through(NOW);
    const openPm = events.filter((e) => e.opensAt <= NOW && e.closesAt > NOW).length;
    const openK = events.filter((e) => e.opensAt <= NOW && e.crossListing && e.closesAt + e.crossListing.closeShiftSeconds > NOW).length;
    expect(found.rows.filter((r) => r.venue === 'polymarket').length).toBe(openPm);
    expect(found.rows.filter((r) => r.venue === 'kalshi').length).toBe(openK);
    expect(openK).toBeGreaterThan(0);
    const inner = found.rows.filter((r) => truth(r.venue, r.market).yes > 0.07 && truth(r.venue, r.market).yes < 0.93);
    expect(inner.length).toBeGreaterThan(2);
    for (const r of inner) {
      const { yes } = truth(r.venue, r.market);
      expect(r.mid!).toBeCloseTo(yes, 3);
      expect(r.bestAsk!).toBeCloseTo(yes + 0.01, 3);
      expect(r.spreadCents).toBeCloseTo(2, 6);
      // The embedded books rest 4,000 (Polymarket) or 3,000 (Kalshi) shares at the first level, that over k at the k-th.
      const first = r.venue === 'polymarket' ? 4_000 : 3_000;
      expect(r.depth[0]).toMatchObject({ withinCents: 1, bidShares: first, askShares: first });
      expect(r.depth[1]!.askShares).toBeCloseTo(r.venue === 'polymarket' ? 4000 + 2000 + 1333 + 1000 + 800 : 3000 + 1500 + 1000 + 750 + 600, 0);
      if (r.bestAsk! * first >= 1000) {
        expect(r.fill).toMatchObject({ filled: true, levels: 1, slippageCents: 0 });
        expect(r.fill.averagePrice!).toBeCloseTo(r.bestAsk!, 6);
      } else {
        expect(r.fill.levels).toBeGreaterThan(1);
        expect(r.fill.slippageCents!).toBeGreaterThan(0);
      }
    }
    const spreads = found.rows.map((r) => r.spreadCents ?? Infinity);
    expect(spreads).toEqual([...spreads].sort((a, b) => a - b));
  });

  it('walks the asks past the first level, and says when the book cannot fill the size', async () => {
    const row = (await analyzeSpreads(served.source, { limit: 100, sizeUsd: 1000, now: NOW })).rows.find((r) => r.venue === 'polymarket' && r.mid! > 0.2 && r.mid! < 0.8)!;
    const first = row.bestAsk! * 4_000;
    const two = (await analyzeSpreads(served.source, { query: row.question, limit: 100, sizeUsd: first + 100, now: NOW })).rows.find((r) => r.market === row.market)!;
    const second = row.bestAsk! + 0.01;
    expect(two.fill).toMatchObject({ filled: true, levels: 2 });
    expect(two.fill.averagePrice!).toBeCloseTo((first + 100) / (4_000 + 100 / second), 6);
    expect(two.fill.slippageCents!).toBeGreaterThan(0);
    const all = (await analyzeSpreads(served.source, { query: row.question, limit: 100, sizeUsd: 1_000_000, now: NOW })).rows.find((r) => r.market === row.market)!;
    const held = [1, 2, 3, 4, 5].map((k) => (row.mid! + k * 0.01) * Math.round(4_000 / k)).reduce((s, x) => s + x, 0);
    expect(all.fill.filled).toBe(false);
    expect(all.fill.spentUsd).toBeCloseTo(held, 0);
    expect(all.fill.note).toMatch(/cannot fill \$1000000/);
    expect(walkAsks([], 10, null)).toMatchObject({ filled: false, shares: 0, averagePrice: null, note: 'no asks: nothing to buy' });
  });

  it('the skill answers with the venues\' provenance, and sizeUsd is bounded', async () => {
    expect(predictionSpreadSkill.input.safeParse({ sizeUsd: 0.5 }).success).toBe(false);
    expect(predictionSpreadSkill.input.safeParse({ sizeUsd: 1_000_001 }).success).toBe(false);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW * 1000);
    try {
      const answer = await predictionSpreadSkill.handler(predictionSpreadSkill.input.parse({ limit: 2 }), { prediction: served.venues } as unknown as SkillContext);
      expect(answer.count).toBe(2);
      expect(answer.sizeUsd).toBe(1000);
      expect(answer.asOf.timestamp).toBe(new Date(NOW * 1000).toISOString());
    } finally {
      vi.useRealTimers();
    }
  });
});
