import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import { venuePrice } from '../../world/prediction/trading.js';
import { MemoryStore } from '../../store/memory.js';
import type { SkillContext } from '../core/context.js';
import { snapshotStoreKey } from '../core/snapshots.js';
import { BIG_MOVE, predictionCatalysts } from './catalysts.js';
import { predictionCatalystsSnapshotJob, predictionCatalystsTool } from './catalysts-tool.js';
import { servePlan, type ServedPlan } from './markets-served.js';

const NOW = ORIGIN + 7 * 86_400 + 5_400;

describe('prediction catalysts over the embedded venues', () => {
  let served: ServedPlan;
  beforeAll(async () => {
    served = await servePlan('catalysts-test', ORIGIN, priceAt, NOW);
  });
  afterAll(() => served?.close());

  it('lists every open event, the soonest close first, and the big 24 h moves as the plan priced them', async () => {
    const { events } = served.plan.through(NOW);
    const open = events.filter((e) => e.opensAt <= NOW && (e.closesAt > NOW || (e.crossListing && e.closesAt + e.crossListing.closeShiftSeconds > NOW)));
    const found = await predictionCatalysts(served.source, NOW);
    expect(found.openEvents).toBe(open.length);
    expect(found.matches.length).toBe(open.length);
    const firstClose = (e: (typeof open)[number]) => Math.min(...[e.closesAt, e.crossListing ? e.closesAt + e.crossListing.closeShiftSeconds : Infinity].filter((t) => t > NOW));
    expect(found.matches.map((m) => m.closesAt)).toEqual(open.map(firstClose).sort((a, b) => a - b).map((t) => new Date(t * 1000).toISOString()));

    const move = (e: (typeof open)[number]) => {
      const p = (t: number) => Math.round(venuePrice(e, 'polymarket', t, priceAt, 0) * 1e4) / 1e4;
      return Math.round((p(NOW) - p(Math.max(e.opensAt, NOW - 86_400))) * 1e4) / 1e4;
    };
    const big = open.filter((e) => e.closesAt > NOW && Math.abs(move(e)) >= BIG_MOVE);
    expect(big.length).toBeGreaterThan(0);
    expect(found.moves.map((m) => m.change24h)).toEqual(big.map(move).sort((a, b) => Math.abs(b) - Math.abs(a)));
  });

  it('the tool reads its snapshot, cut to the limit, and has nothing where the venues are off', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW * 1000);
    try {
      const store = new MemoryStore();
      const ctx = { prediction: served.venues, store } as unknown as SkillContext;
      const cold = await predictionCatalystsTool.handler({ limit: 2 }, ctx);
      expect(cold).toMatchObject({ available: false, reason: 'snapshot_not_warm' });
      await store.set(snapshotStoreKey(predictionCatalystsSnapshotJob.id), JSON.stringify({ data: await predictionCatalystsSnapshotJob.build(ctx), fetchedAt: Date.now() }));
      const warm = await predictionCatalystsTool.handler({ limit: 2 }, ctx) as Record<string, unknown> & { matches: unknown[] };
      expect(warm).toMatchObject({ available: true, stale: false, limit: 2, source: 'polymarket (embedded), kalshi (embedded)', asOf: { timestamp: new Date(NOW * 1000).toISOString() } });
      expect(warm.matches.length).toBe(2);
      const off = await predictionCatalystsTool.handler({ limit: 2 }, { store } as unknown as SkillContext);
      expect(off).toMatchObject({ available: false, reason: 'domain_disabled' });
      expect(await predictionCatalystsSnapshotJob.build({ store } as unknown as SkillContext)).toMatchObject({ available: false, reason: 'domain_disabled' });
    } finally {
      vi.useRealTimers();
    }
  });
});
