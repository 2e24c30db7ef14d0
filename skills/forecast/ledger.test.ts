/** The accuracy ledger: scoring at the due price, scratches, independence, baselines, the row fields the leaderboard publishes. */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../store/memory.js';
import { AccuracyLedger, ALWAYS_BULLISH, durationLabel, RANDOM_WALK, withBaselines, type ForecastEvent } from './ledger.js';

const event = (originTs: number, lastClose: number, point: number, dir: 'bullish' | 'bearish' | 'neutral', id = `${originTs}`): ForecastEvent => ({
  id, asset: 'ETH', chain: 'base', token: '0xeth', interval: '4h', originTs, dueTs: originTs + 4 * 3600, lastClose,
  calls: withBaselines({ 'modelB-small': { point, direction: dir } }, lastClose),
});

describe('accuracy ledger', () => {
  it('scores due events only once their price is known, with baselines and independence', async () => {
    const ledger = new AccuracyLedger(new MemoryStore());
    const t0 = 1_700_000_000;
    // 1: bullish call, price rises 2% (hit, independent). 2: overlaps 1 (origin before 1's due), bearish, price rises (miss).
    // 3: after 1's due, bullish, price moves 0.2% (scratch). 4: not due yet.
    await ledger.record(event(t0, 100, 101, 'bullish'));
    await ledger.record(event(t0 + 3600, 100, 99, 'bearish'));
    await ledger.record(event(t0 + 5 * 3600, 100, 103, 'bullish'));
    await ledger.record(event(t0 + 50 * 3600, 100, 103, 'bullish'));
    const realized: Record<number, number | null> = { [t0 + 4 * 3600]: 102, [t0 + 5 * 3600]: 102, [t0 + 9 * 3600]: 100.2 };
    // The third's price is not indexed yet on the first pass: it waits.
    expect(await ledger.scoreDue(async (e) => (e.originTs === t0 + 5 * 3600 ? null : realized[e.dueTs] ?? null), t0 + 10 * 3600)).toBe(2);
    expect(await ledger.pendingCount()).toBe(2);
    expect(await ledger.scoreDue(async (e) => realized[e.dueTs] ?? null, t0 + 10 * 3600)).toBe(1);
    expect(await ledger.pendingCount()).toBe(1);

    const { rows, totalBuckets, assetsScored } = await ledger.rows('eth');
    expect(totalBuckets).toBe(3);
    expect(assetsScored).toEqual(['ETH']);
    expect(rows.map((r) => r.model)).toEqual(['modelB-small', RANDOM_WALK, ALWAYS_BULLISH]);
    const model = rows[0]!;
    expect(model).toMatchObject({
      asset: 'ETH', interval: '4h', samples: 3, scratch_samples: 1, independent_samples: 2,
      // Independent calls: #1 (hit) and #3 (scratch) → one decisive independent call.
      sample_basis: 'independent', direction_samples: 1, direction_hit_rate: 1,
      overlapping_direction_samples: 2, overlapping_hit_rate: 0.5,
      first_sample_ts: (t0 + 4 * 3600) * 1000, last_sample_ts: (t0 + 9 * 3600) * 1000,
    });
    // |101-102|/102, |99-102|/102, |103-100.2|/100.2 → mean in %.
    const mape = ((1 / 102 + 3 / 102 + 2.8 / 100.2) / 3) * 100;
    expect(model.mape_pct).toBeCloseTo(mape, 3);
    expect(model.rmse).toBeCloseTo(Math.sqrt((1 + 9 + 2.8 ** 2) / 3), 5);
    // The random walk never calls a direction; always bullish hits every decisive rise.
    expect(rows[1]).toMatchObject({ direction_samples: 0, direction_hit_rate: null, overlapping_direction_samples: 0 });
    expect(rows[1]!.mape_pct).toBeCloseTo(((2 / 102 + 2 / 102 + 0.2 / 100.2) / 3) * 100, 3);
    expect(rows[2]).toMatchObject({ direction_hit_rate: 1, mape_pct: null, rmse: null, overlapping_direction_samples: 2 });
    expect((await ledger.rows('BTC')).rows).toEqual([]);
  });

  it('labels horizons as durations', () => {
    expect([3600 * 4, 86_400, 604_800, 2_592_000, 1800 * 12, 90].map(durationLabel)).toEqual(['4h', '1d', '1w', '1M', '6h', '90s']);
  });
});
