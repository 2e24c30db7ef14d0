/**
 * The ledger's backfill: origins on a grid of whole horizons over closed candles, each scored
 * once across instances, in rows of their own (`origin: "backfill"`) beside the live ones.
 */
import { describe, expect, it } from 'vitest';
import { backfillOrigins } from './backfill.js';
import { AccuracyLedger, RANDOM_WALK, withBaselines, type ForecastEvent } from './ledger.js';
import { MemoryStore } from '../../store/memory.js';

const T0 = Date.UTC(2026, 0, 1) / 1000; // a UTC midnight: on every grid below
const HOUR = 3_600;

describe('backfill origins', () => {
  // 60 hourly candles; candle i closes at i + 1; the head is inside the last one (not closed yet).
  const candles = Array.from({ length: 60 }, (_, i) => ({ time: new Date((T0 + i * HOUR) * 1000).toISOString(), close: i + 1, volumeUsd: 0 }));
  const head = T0 + 59 * HOUR + HOUR / 2;

  it('sit every 4 hours for a 4-hour horizon, after 16 candles, due at a closed candle, realized at its close', () => {
    const origins = backfillOrigins(candles, HOUR, 4, head, 100);
    // Context c candles: origin at T0 + c h; on the grid when c is a multiple of 4; due c + 4 ≤ 59 (candle 59 is open).
    const contexts = [16, 20, 24, 28, 32, 36, 40, 44, 48, 52];
    expect(origins.map((o) => o.context)).toEqual(contexts);
    expect(origins.map((o) => o.originTs)).toEqual(contexts.map((c) => T0 + c * HOUR));
    expect(origins.map((o) => o.dueTs)).toEqual(contexts.map((c) => T0 + (c + 4) * HOUR));
    // The candle that ends at the due time is candle c + 3, whose close is c + 4.
    expect(origins.map((o) => o.realized)).toEqual(contexts.map((c) => c + 4));
  });

  it('keep the most recent ones up to the limit', () => {
    expect(backfillOrigins(candles, HOUR, 4, head, 3).map((o) => o.context)).toEqual([44, 48, 52]);
    // A 6-candle horizon of 4-hour candles needs 16 + 6 candles: none in 60 hours.
    expect(backfillOrigins(candles.filter((_, i) => i % 4 === 0), 4 * HOUR, 6, head)).toEqual([]);
  });
});

describe('backfill rows in the ledger', () => {
  const event = (originTs: number, id = `ETH|base|4h|${originTs}`): ForecastEvent => ({
    id, asset: 'ETH', chain: 'base', token: '0xeth', interval: '4h', originTs, dueTs: originTs + 4 * HOUR, lastClose: 100,
    calls: withBaselines({ 'modelB-small': { point: 101, direction: 'bullish' } }, 100),
  });

  it('count an event once across instances and restarts, apart from the live rows', async () => {
    const store = new MemoryStore();
    const [a, b] = [new AccuracyLedger(store), new AccuracyLedger(store)];
    expect(await a.scoreBackfill(event(T0), 102)).toBe(true);
    expect(await b.scoreBackfill(event(T0), 102)).toBe(false);
    expect(await a.scoreBackfill(event(T0), 102)).toBe(false);
    expect(await b.backfilled(event(T0).id)).toBe(true);
    expect(await b.scoreBackfill(event(T0 + 4 * HOUR), 99)).toBe(true);

    // A live forecast of the same asset and horizon, scored when due.
    await a.record(event(T0 + 8 * HOUR, 'live-1'));
    expect(await a.scoreDue(async () => 103, T0 + 12 * HOUR)).toBe(1);

    const { rows } = await b.rows('ETH');
    const model = (origin: string) => rows.find((r) => r.model === 'modelB-small' && r.origin === origin)!;
    // Backfill: 101 against 102 (hit) and 101 against 99 (miss), both independent.
    expect(model('backfill')).toMatchObject({ samples: 2, direction_samples: 2, direction_hit_rate: 0.5, independent_samples: 2, sample_basis: 'independent' });
    expect(model('backfill').mape_pct).toBeCloseTo(((1 / 102 + 2 / 99) / 2) * 100, 4);
    expect(model('live')).toMatchObject({ samples: 1, direction_hit_rate: 1 });
    // Live rows first, then backfill; each with its baselines.
    expect(rows.map((r) => r.origin)).toEqual(['live', 'live', 'live', 'backfill', 'backfill', 'backfill']);
    expect(rows.filter((r) => r.model === RANDOM_WALK).map((r) => r.samples)).toEqual([1, 2]);
  });
});
