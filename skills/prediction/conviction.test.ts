import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import { CONVICTION_RULES, convictionScan, type ConvictionScan } from './conviction.js';
import { servePlan, type ServedPlan } from './markets-served.js';

const DAY = 86_400;
/** The scans stand at these times; the checks hold at each. */
const CLOCKS = [8, 16, 24].map((d) => ORIGIN + d * DAY + 3_600);

describe('the conviction scanner over the embedded venues', () => {
  let served: ServedPlan;
  const scans: ConvictionScan[] = [];
  beforeAll(async () => {
    served = await servePlan('conviction-test', ORIGIN, priceAt, CLOCKS.at(-1)!);
    for (const now of CLOCKS) {
      served.now = now;
      scans.push(await convictionScan(served.source.polymarket, { now }));
    }
  }, 60_000);
  afterAll(() => served?.close());

  /** Every market of every scan, with the scan's clock. */
  const marketsRead = () => scans.flatMap((scan) => scan.markets.map((m) => ({ NOW: scan.asOf, m })));
  /** The plan's event behind a Polymarket market id (the venue numbers them in plan order). */
  const eventOf = (id: string) => served.plan.through(CLOCKS.at(-1)!).events[Number(id) - 500_000]!;

  it('reads every open market, and each read holder\'s entry, size and time held as its trades make them', () => {
    const { events, trading } = served.plan.through(CLOCKS.at(-1)!);
    let read = 0;
    for (const scan of scans) expect(scan.markets.length).toBe(events.filter((e) => e.opensAt <= scan.asOf && e.closesAt > scan.asOf).length);
    for (const { NOW, m } of marketsRead()) {
      const event = eventOf(m.id);
      expect(m.question).toBe(event.title);
      for (const side of m.sides) {
        for (const h of side.holders.filter((x) => x.unread === null)) {
          const own = trading.trades.filter((t) => t.venue === 'polymarket' && t.eventId === event.id && t.time <= NOW && t.account.toLowerCase() === h.wallet && (t.outcome === 'yes') === (side.outcomeIndex === 0));
          const shares = own.reduce((s, t) => s + t.shares, 0);
          expect(h.shares).toBeCloseTo(shares, 3);
          expect(h.avgEntry!).toBeCloseTo(own.reduce((s, t) => s + t.price * t.shares, 0) / shares, 3);
          expect(h.firstBuyAt).toBe(Math.min(...own.map((t) => t.time)));
          expect(h.heldHours!).toBeCloseTo((NOW - h.firstBuyAt!) / 3_600, 0);
          read++;
        }
        for (const h of side.holders.filter((x) => x.unread !== null)) expect(h.shares).toBeLessThan(CONVICTION_RULES.minPositionUsd);
      }
    }
    expect(read).toBeGreaterThan(20);
  });

  it('finds every patient one-sided position of the conviction holders, and holds a side with conviction only at 80% or more', () => {
    const { trading } = served.plan.through(CLOCKS.at(-1)!);
    const role = new Map(trading.accounts.map((a) => [a.address.toLowerCase(), a.role]));
    let expected = 0;
    for (const { NOW, m } of marketsRead()) {
      const event = eventOf(m.id);
      for (const a of trading.accounts.filter((x) => x.role === 'conviction')) {
        const own = trading.trades.filter((t) => t.venue === 'polymarket' && t.eventId === event.id && t.account === a.address && t.time <= NOW);
        if (!own.length || own.some((t) => t.outcome !== own[0]!.outcome)) continue;
        const cost = own.reduce((s, t) => s + t.price * t.shares, 0);
        if (cost < CONVICTION_RULES.minPositionUsd || NOW - Math.min(...own.map((t) => t.time)) < CONVICTION_RULES.patientHours * 3_600) continue;
        expected++;
        const side = m.sides[own[0]!.outcome === 'yes' ? 0 : 1]!;
        expect(side.holders.find((h) => h.wallet === a.address.toLowerCase())?.conviction, `${a.address} in ${m.question}`).toBe(true);
      }
      for (const side of m.sides) {
        for (const h of side.holders) if (h.conviction) expect(h.marketShare!).toBeGreaterThanOrEqual(CONVICTION_RULES.convictionShare);
        const strong = side.holders.filter((h) => h.conviction);
        expect(side.convictionHolders).toBe(strong.length);
        expect(side.convictionUsd).toBeCloseTo(strong.reduce((s, h) => s + h.costUsd!, 0), 1);
      }
    }
    expect(expected).toBeGreaterThan(5);
    // Whales hold large positions too: where one bought both sides, neither side is held with conviction.
    const split = marketsRead().flatMap(({ m }) => m).flatMap((m) => m.sides.flatMap((s) => s.holders.filter((h) => h.marketShare !== null && h.marketShare < CONVICTION_RULES.convictionShare)));
    expect(split.every((h) => !h.conviction)).toBe(true);
    expect(split.length).toBeGreaterThan(0);
    expect(marketsRead().flatMap(({ m }) => m).flatMap((m) => m.sides.flatMap((s) => s.holders)).filter((h) => h.conviction).map((h) => role.get(h.wallet))).toContain('conviction');
  });

  it('ranks markets by the documented score, on the side where conviction holds most', () => {
    const scan = scans.at(-1)!;
    const scores = scan.markets.map((m) => m.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const top = scan.markets[0]!;
    const side = top.sides.find((s) => s.outcome === top.side)!;
    expect(side.convictionUsd).toBe(Math.max(...top.sides.map((s) => s.convictionUsd)));
    const expected = 50 * Math.min(1, Math.log10(side.convictionUsd / 1_000) / 2) + 25 * side.topShare! + 25 * Math.min(1, side.meanHeldHours! / 24 / 7);
    expect(top.score).toBeCloseTo(expected, 0);
    expect(scan.markets.filter((m) => m.side === null).every((m) => m.score === 0)).toBe(true);
  });

  it('narrows to the markets a query names', async () => {
    const scan = scans.at(-1)!;
    served.now = scan.asOf;
    const word = scan.markets[0]!.question.split(/\W+/).filter((x) => x.length > 5).at(-1)!;
    const narrowed = await convictionScan(served.source.polymarket, { now: scan.asOf, query: `conviction on ${word}` });
    expect(narrowed.markets.length).toBeGreaterThan(0);
    expect(narrowed.markets.length).toBeLessThan(scan.markets.length);
    expect(narrowed.markets.every((m) => m.question.toLowerCase().includes(word.toLowerCase()))).toBe(true);
  });
});
