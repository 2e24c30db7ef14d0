import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import { matchQuery, readEvents, readMarkets, joinVenues } from './markets.js';
import { servePlan, type ServedPlan } from './markets-served.js';

describe('joining the two venues\' markets into events', () => {
  const served: ServedPlan[] = [];
  beforeAll(async () => {
    for (const seed of ['join-a', 'join-b', 'join-c']) served.push(await servePlan(seed, ORIGIN, priceAt, ORIGIN));
  });
  afterAll(() => Promise.all(served.map((s) => s.close())));

  it('joins every Kalshi market to its own event\'s Polymarket market, titles repeating or not, every day of a month', async () => {
    let ambiguous = 0;
    for (const s of served) {
      for (let t = ORIGIN; t < ORIGIN + 30 * 86_400; t += 86_400 + 3_600) {
        s.now = t;
        const { events } = s.plan.through(t);
        const { events: joined, kalshi, polymarket } = await readEvents(s.source);
        const pairs = joined.filter((e) => e.polymarket && e.kalshi);
        expect(pairs.length).toBe(kalshi.length);
        for (const e of pairs) expect(e.kalshi!.ticker, `${s.plan.seed} at ${t}`).toBe(`SIB-${events[Number(e.polymarket!.id) - 500_000]!.id.toUpperCase()}`);
        // Without the listing times, some of these joins would rest on the close and price alone.
        const blind = joinVenues(polymarket, kalshi).filter((e) => e.polymarket && e.kalshi && e.kalshi.ticker !== `SIB-${events[Number(e.polymarket.id) - 500_000]!.id.toUpperCase()}`);
        ambiguous += blind.length;
      }
    }
    expect(ambiguous).toBeGreaterThan(0);
  });

  it('matches queries word by word, ignoring words that only say "prediction market"', async () => {
    const s = served[0]!;
    s.now = ORIGIN + 5 * 86_400;
    const { polymarket, kalshi } = await readMarkets(s.source);
    const events = joinVenues(polymarket, kalshi);
    expect(matchQuery('hottest prediction markets right now', events)).toMatchObject({ terms: [], matched: events });
    const cup = matchQuery('Will the Rovers win the CUP?', events);
    expect(cup.terms).toEqual(['rover', 'win', 'cup']);
    expect(cup.matched.every((e) => /rovers|win|cup/i.test(e.question))).toBe(true);
    expect(matchQuery(undefined, events).query).toBeNull();
  });
});
