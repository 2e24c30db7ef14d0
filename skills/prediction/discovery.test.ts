import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import type { SkillContext } from '../core/context.js';
import { discoverMarkets } from './discovery.js';
import { predictionDiscoverySkill } from './discovery-skill.js';
import { servePlan, type ServedPlan } from './markets-served.js';

const NOW = ORIGIN + 5 * 86_400 + 3_600;

describe('prediction-market discovery over the embedded venues', () => {
  let served: ServedPlan;
  beforeAll(async () => {
    served = await servePlan('discovery-test', ORIGIN, priceAt, NOW);
  });
  afterAll(() => served?.close());
  afterEach(() => {
    served.now = NOW;
    vi.useRealTimers();
  });

  /** The plan's event behind a Polymarket market id (the venue numbers them in plan order). */
  const eventOf = (id: string) => served.plan.through(served.now).events[Number(id) - 500_000]!;

  it('lists every event open on either venue once, a cross-listed one with both venues\' markets', async () => {
    const state = served.plan.through(NOW);
    const open = state.events.filter((e) => e.opensAt <= NOW && (e.closesAt > NOW || (e.crossListing && e.closesAt + e.crossListing.closeShiftSeconds > NOW)));
    const found = await discoverMarkets(served.source, { limit: 100, now: NOW });
    expect(found.openEvents).toBe(open.length);
    expect(found.rows.length).toBe(open.length);
    for (const row of found.rows) {
      const event = eventOf(row.polymarket!.id);
      expect(row.question).toBe(event.title);
      // The Kalshi market joined is this event's, and only a cross-listed event has one.
      expect(row.kalshi?.ticker ?? null).toBe(event.crossListing ? `SIB-${event.id.toUpperCase()}` : null);
    }
  });

  it('gives each venue\'s volume and trades as the plan\'s trades sum them, ranked by its score', async () => {
    const { trading } = served.plan.through(NOW);
    const found = await discoverMarkets(served.source, { limit: 100, now: NOW });
    for (const row of found.rows) {
      const event = eventOf(row.polymarket!.id);
      const pm = trading.trades.filter((t) => t.venue === 'polymarket' && t.eventId === event.id && t.time <= NOW);
      expect(row.polymarket!.volumeUsd).toBeCloseTo(pm.reduce((s, t) => s + t.price * t.shares, 0), 0);
      expect(row.polymarket!.volume24hUsd).toBeCloseTo(pm.filter((t) => t.time > NOW - 86_400).reduce((s, t) => s + t.price * t.shares, 0), 0);
      expect(row.trades).toBe(pm.length);
      if (row.kalshi) {
        const k = trading.trades.filter((t) => t.venue === 'kalshi' && t.eventId === event.id && t.time <= NOW);
        expect(row.kalshi.volumeContracts).toBeCloseTo(k.reduce((s, t) => s + t.shares, 0), 0);
      }
    }
    const scores = found.rows.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(found.rows.every((r) => r.hoursToClose > 0)).toBe(true);
  });

  it('keeps a market nobody traded yet, with trades 0 and a note', async () => {
    const fresh = served.plan.through(NOW).events.find((e) => e.opensAt > ORIGIN + 86_400 && e.opensAt < NOW)!;
    served.now = fresh.opensAt + 60;
    const found = await discoverMarkets(served.source, { limit: 100, now: served.now });
    const row = found.rows.find((r) => r.polymarket && eventOf(r.polymarket.id).id === fresh.id)!;
    expect(row).toBeDefined();
    expect(row.trades).toBe(0);
    expect(row.traded).toBe(false);
    expect(row.note).toMatch(/no trades yet/);
  });

  it('matches the query word by word and says how many matched; a venue\'s name keeps its markets', async () => {
    const all = await discoverMarkets(served.source, { limit: 100, now: NOW });
    const word = all.rows.map((r) => r.question.toLowerCase().match(/[a-z]{5,}/g)?.find((w) => !['above'].includes(w))).find(Boolean)!;
    const found = await discoverMarkets(served.source, { query: `hottest ${word} markets`, limit: 100, now: NOW });
    expect(found.terms).toEqual([word]);
    expect(found.matched).toBe(all.rows.filter((r) => r.question.toLowerCase().includes(word)).length);
    expect(found.rows.every((r) => r.question.toLowerCase().includes(word))).toBe(true);
    const onKalshi = await discoverMarkets(served.source, { query: 'kalshi', limit: 100, now: NOW });
    expect(onKalshi.rows.length).toBe(all.rows.filter((r) => r.kalshi).length);
    expect(onKalshi.rows.every((r) => r.kalshi)).toBe(true);
    const none = await discoverMarkets(served.source, { query: 'zanzibar', limit: 10, now: NOW });
    expect([none.matched, none.rows.length]).toEqual([0, 0]);
  });

  it('the skill: refuses control characters and overlong queries, trims, and answers with the venues\' provenance', async () => {
    const input = predictionDiscoverySkill.input;
    expect(input.safeParse({ query: 'rates\u0007cut' }).success).toBe(false);
    expect(input.safeParse({ query: 'x'.repeat(501) }).success).toBe(false);
    expect(input.parse({ query: '  rate cut  ' })).toEqual({ query: 'rate cut', limit: 10 });
    const off = {} as SkillContext;
    await expect(predictionDiscoverySkill.admit!({ limit: 10 }, off)).rejects.toMatchObject({ code: 'domain_disabled' });

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW * 1000);
    const ctx = { prediction: served.venues } as unknown as SkillContext;
    const answer = await predictionDiscoverySkill.handler(input.parse({ limit: 3 }), ctx);
    expect(answer.count).toBe(3);
    expect(answer.asOf.timestamp).toBe(new Date(NOW * 1000).toISOString());
    expect(answer.source).toBe('polymarket (embedded), kalshi (embedded)');
    expect(Object.keys(answer.origins)).toEqual(['polymarket gamma', 'polymarket clob', 'polymarket data', 'kalshi trade-api/v2']);
  });
});
