import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import type { PredictionEvent } from '../../world/prediction/events.js';
import { venueLagSeconds, venuePrice } from '../../world/prediction/trading.js';
import { MemoryStore } from '../../store/memory.js';
import type { SkillContext } from '../core/context.js';
import { snapshotStoreKey } from '../core/snapshots.js';
import { servePlan, type ServedPlan } from './markets-served.js';
import { LOOKBACK_HOURS, MIN_COLLATERAL_USD, PRICE_FLOOR, predictionYields } from './yields.js';
import { predictionYieldsSnapshotJob, predictionYieldsTool } from './yields-tool.js';

const SEED = 'yields-test';
const HOUR = 3_600;

describe('near-certain yields over the embedded venues', () => {
  let served: ServedPlan;
  let now = 0;

  const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
  /** The sides the plan prices at a 0.95-0.99 ask, under 48 h from their close, at `t`: venue:market:side. */
  const nearCertain = (events: readonly PredictionEvent[], t: number) => events.filter((e) => e.opensAt <= t).flatMap((e) => {
    const pmYes = r4(venuePrice(e, 'polymarket', t, priceAt, 0));
    const kYes = e.crossListing ? venuePrice(e, 'kalshi', t, priceAt, venueLagSeconds(SEED, e.id)) : 0;
    const k = (x: number) => Math.min(0.99, Math.max(0.01, x));
    const venues = [
      { key: `polymarket:${e.id}`, close: e.closesAt, yes: r4(pmYes + 0.01), no: r4(1 - (pmYes - 0.01)) },
      ...(e.crossListing ? [{ key: `kalshi:${e.id}`, close: e.closesAt + e.crossListing.closeShiftSeconds, yes: r4(k(kYes + 0.01)), no: r4(k(1 - kYes + 0.01)) }] : []),
    ];
    return venues.filter((v) => v.close > t && v.close - t < 48 * HOUR).flatMap((v) => (['yes', 'no'] as const).filter((s) => v[s] >= 0.95 && v[s] <= 0.99).map((s) => `${v.key}:${s}`));
  });

  beforeAll(async () => {
    served = await servePlan(SEED, ORIGIN, priceAt, ORIGIN);
    // A moment with several near-certain sides and trades buying them.
    for (let t = ORIGIN + 2 * 86_400; !now; t += HOUR) {
      const { events, trading } = served.plan.through(t);
      const bought = trading.trades.filter((x) => x.venue === 'polymarket' && x.time > t - LOOKBACK_HOURS * HOUR && x.time <= t && x.price >= PRICE_FLOOR && x.price * x.shares >= MIN_COLLATERAL_USD);
      if (nearCertain(events, t).length >= 3 && bought.length >= 3) now = t;
    }
    served.now = now;
  });
  afterAll(() => served?.close());

  it('lists exactly the sides at a 0.95-0.99 ask with under 48 h left, as annualised yield', async () => {
    const { events } = served.plan.through(now);
    const found = await predictionYields(served.source, now);
    const id = (market: string, venue: string) => (venue === 'kalshi' ? market.replace(/^SIB-/, '').toLowerCase() : events[Number(market) - 500_000]!.id);
    expect(found.positions.map((p) => `${p.venue}:${id(p.market, p.venue)}:${p.side}`).sort()).toEqual(nearCertain(events, now).sort());
    for (const p of found.positions) {
      expect(p.hoursToClose).toBeGreaterThan(0);
      expect(p.hoursToClose).toBeLessThan(48);
      expect(p.annualisedYieldPct).toBeCloseTo((1 / p.price - 1) * (365 * 24 / p.hoursToClose) * 100, -1);
      expect(p.risk).toMatch(/h left/);
      expect(p.settlesOn).toBe(/ above \$/.test(p.question) ? 'published price' : 'reported result');
    }
    const yields = found.positions.map((p) => p.annualisedYieldPct);
    expect(yields).toEqual([...yields].sort((a, b) => b - a));
  });

  it('lists the recent trades at or above the floor, the wallets buying them and their totals, as the plan made them', async () => {
    const { events, trading } = served.plan.through(now);
    const since = now - LOOKBACK_HOURS * HOUR;
    const inWindow = new Set(events.filter((e) => e.opensAt <= now && e.closesAt > since).map((e) => e.id));
    const bought = trading.trades.filter((x) => x.venue === 'polymarket' && inWindow.has(x.eventId) && x.time > since && x.time <= now && x.price >= PRICE_FLOOR && x.price * x.shares >= MIN_COLLATERAL_USD);
    const found = await predictionYields(served.source, now);
    expect(found.totals.trades).toBe(bought.length);
    expect(found.totals.collateralUsd).toBeCloseTo(bought.reduce((s, x) => s + x.price * x.shares, 0), 0);
    expect(found.totals.spreadUsd).toBeCloseTo(bought.reduce((s, x) => s + (1 - x.price) * x.shares, 0), 0);
    expect(new Set(found.wallets.map((w) => w.wallet.toLowerCase()))).toEqual(new Set(bought.map((x) => x.account.toLowerCase())));
    expect(found.wallets.reduce((s, w) => s + w.trades, 0)).toBe(bought.length);
    expect(found).toMatchObject({ priceFloor: PRICE_FLOOR, minCollateralUsd: MIN_COLLATERAL_USD, lookbackHours: LOOKBACK_HOURS });
  });

  it('the tool serves its snapshot in the spec\'s fields, cut to the limit', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now * 1000);
    try {
      const store = new MemoryStore();
      const ctx = { prediction: served.venues, store } as unknown as SkillContext;
      await store.set(snapshotStoreKey(predictionYieldsSnapshotJob.id), JSON.stringify({ data: await predictionYieldsSnapshotJob.build(ctx), fetchedAt: Date.now() }));
      const answer = await predictionYieldsTool.handler({ limit: 1 }, ctx) as Record<string, unknown> & { trades: unknown[]; positions: unknown[]; totals: { trades: number } };
      expect(answer).toMatchObject({ available: true, limit: 1, priceFloor: PRICE_FLOOR, minCollateralUsd: MIN_COLLATERAL_USD, lookbackHours: LOOKBACK_HOURS });
      expect([answer.trades.length, answer.positions.length]).toEqual([1, 1]);
      expect(answer.totals.trades).toBeGreaterThanOrEqual(3);
      expect(answer.truncated).toBeDefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
