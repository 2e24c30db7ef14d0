import { describe, expect, it } from 'vitest';
import { analystAccuracy, coinFlipZ, DECAY_HALF_LIFE_DAYS, normalCdf, rankCallers, RELIABILITY_GATE_CALLS, SIGNIFICANT_Z } from './accuracy.js';
import { gradeCalls, type PriceReader } from './grading.js';
import type { CallerRead, CallRead, CallsSource } from './source.js';

const DAY = 86_400;
const T0 = 1_800_000_000;

/** Prices from a table: each asset's price at whole days after T0 (day index -> USD); anything else is unknown. */
function table(rows: Record<string, Record<number, number>>): PriceReader {
  return (asset, time) => rows[asset]?.[(time - T0) / DAY] ?? null;
}

let seq = 0;
function call(over: Partial<CallRead> & Pick<CallRead, 'caller' | 'asset' | 'direction'>): CallRead {
  return { id: `c${++seq}`, assetClass: ['SPY', 'AAPL'].includes(over.asset) ? 'equity' : 'crypto', horizon: '1d', madeAt: T0, priceAtCall: 1, ...over };
}

describe('grading a call', () => {
  const prices = table({ ETH: { 0: 100, 1: 105, 7: 90 }, BTC: { 0: 1_000, 1: 1_020, 7: 1_080 }, AAPL: { 0: 200, 1: 202 }, SPY: { 0: 500, 1: 510 } });

  it('hits when the asset beats its benchmark in the called direction, over the horizon', async () => {
    const book = await gradeCalls([
      call({ caller: 'a', asset: 'ETH', direction: 'long' }), // +5% vs BTC +2%: hit, +3% excess
      call({ caller: 'a', asset: 'ETH', direction: 'short' }), // the same move shorted: miss
      call({ caller: 'a', asset: 'ETH', direction: 'long', horizon: '7d' }), // -10% vs +8%: miss
      call({ caller: 'a', asset: 'ETH', direction: 'short', horizon: '7d' }), // hit, +18% excess
      call({ caller: 'a', asset: 'AAPL', direction: 'long' }), // +1% vs SPY +2%: up, but a miss
      call({ caller: 'a', asset: 'BTC', direction: 'long' }), // the benchmark itself, against cash: +2%, hit
    ], T0 + 30 * DAY, prices);
    expect(book.graded.map((g) => g.hit)).toEqual([true, false, false, true, false, true]);
    expect(book.graded.map((g) => g.benchmark)).toEqual(['BTC', 'BTC', 'BTC', 'BTC', 'SPY', 'cash']);
    expect(book.graded[0]!.excessReturn).toBeCloseTo(0.03, 10);
    expect(book.graded[0]!.callReturn).toBeCloseTo(0.05, 10);
    expect(book.graded[3]!.excessReturn).toBeCloseTo(0.18, 10);
    expect(book.graded[3]!.callReturn).toBeCloseTo(0.1, 10);
    expect(book.graded[4]!.excessReturn).toBeCloseTo(-0.01, 10);
    expect(book.graded[5]!.excessReturn).toBeCloseTo(0.02, 10);
  });

  it('is pending until its horizon has elapsed, and graded from then', async () => {
    const c = call({ caller: 'a', asset: 'ETH', direction: 'long', horizon: '7d' });
    const before = await gradeCalls([c], T0 + 7 * DAY - 1, prices);
    expect(before.pending).toEqual([c]);
    expect(before.graded).toEqual([]);
    const at = await gradeCalls([c], T0 + 7 * DAY, prices);
    expect(at.pending).toEqual([]);
    expect(at.graded[0]).toMatchObject({ closedAt: T0 + 7 * DAY, closedBy: 'horizon', hit: false });
  });

  it('a hold closes the caller\'s open calls on that asset, and only those, once it is made', async () => {
    const long = call({ caller: 'a', asset: 'ETH', direction: 'long', horizon: '7d' });
    const otherCaller = call({ caller: 'b', asset: 'ETH', direction: 'long', horizon: '7d' });
    const otherAsset = call({ caller: 'a', asset: 'BTC', direction: 'long', horizon: '7d' });
    const hold = call({ caller: 'a', asset: 'ETH', direction: 'hold', madeAt: T0 + DAY });
    const calls = [long, otherCaller, otherAsset, hold];
    // Before the hold is made, nothing is closed.
    expect((await gradeCalls(calls, T0 + DAY - 1, prices)).pending).toEqual([long, otherCaller, otherAsset]);
    const book = await gradeCalls(calls, T0 + 2 * DAY, prices);
    expect(book.holds).toEqual([hold]);
    expect(book.graded).toHaveLength(1);
    // Closed at the hold, on the prices then: +5% against BTC's +2%, a hit the full week would have missed.
    expect(book.graded[0]).toMatchObject({ call: long, closedAt: T0 + DAY, closedBy: 'hold', hit: true });
    expect(book.pending).toEqual([otherCaller, otherAsset]);
  });

  it('a call the reader cannot price is unpriced, neither graded nor pending', async () => {
    const book = await gradeCalls([call({ caller: 'a', asset: 'SOL', direction: 'long' }), call({ caller: 'a', asset: 'ETH', direction: 'long', horizon: '30d', madeAt: T0 - 30 * DAY })], T0 + 5 * DAY, prices);
    expect(book.unpriced).toHaveLength(2);
    expect(book.graded).toHaveLength(0);
  });
});

describe('ranking callers', () => {
  /** `n` one-day calls on ETH by `caller`, made two days apart from day `from`, `hits` of them right (spread evenly). */
  function record(caller: string, n: number, hits: number, from = 0) {
    const rows: Record<number, number> = {};
    const calls: CallRead[] = [];
    for (let i = 0; i < n; i++) {
      const d = from + 2 * i;
      const right = Math.floor(((i + 1) * hits) / n) > Math.floor((i * hits) / n);
      calls.push(call({ caller, asset: 'ETH', direction: right ? 'long' : 'short', madeAt: T0 + d * DAY }));
      rows[d] = 100;
      rows[d + 1] = 110;
    }
    return { calls, rows };
  }
  const flatBtc = (days: number) => Object.fromEntries(Array.from({ length: days }, (_, d) => [d, 1_000]));
  const callers: CallerRead[] = [{ id: 'lucky', sourceType: 'x', label: '@lucky' }, { id: 'steady', sourceType: 'newsletter', label: 'Steady Weekly' }];

  it('three lucky calls never top a hundred good ones (by the gate, and by the score alone)', async () => {
    // Each caller calls its own days of a path that rises 10% every other day: its longs hit, its shorts miss.
    const steady = record('steady', 100, 60);
    const lucky = record('lucky', 3, 3, 190);
    const prices = table({ ETH: { ...steady.rows, ...lucky.rows }, BTC: flatBtc(200) });
    const { rows } = await rankCallers(callers, [...steady.calls, ...lucky.calls], T0 + 200 * DAY, prices);
    expect(rows.map((r) => r.source_id)).toEqual(['steady', 'lucky']);
    const [s, l] = rows;
    expect(s).toMatchObject({ graded_calls: 100, hits: 60, misses: 40, hit_rate: 0.6, past_gate: true, beats_coin_flip: true });
    expect(l).toMatchObject({ graded_calls: 3, hits: 3, hit_rate: 1, past_gate: false, weight: 0 });
    // Without the gate the z-test still orders them so: 2 sqrt(100) * 0.1 = 2 > 2 sqrt(3) * 0.5 = 1.73 (undecayed; the
    // steady record's older calls weigh less, and it still leads).
    expect(coinFlipZ(0.6, 100)).toBeGreaterThan(coinFlipZ(1, 3));
    expect(s!.z_score!).toBeGreaterThan(l!.z_score!);
    expect(s!.weight).toBeCloseTo(normalCdf(s!.z_score!), 4);
  });

  it(`ranks only callers with ${RELIABILITY_GATE_CALLS}+ graded calls; a long bad record sinks below a short middling one`, async () => {
    const nine = record('nine', RELIABILITY_GATE_CALLS - 1, RELIABILITY_GATE_CALLS - 1);
    const ten = record('ten', RELIABILITY_GATE_CALLS, 5, 100);
    const bad = record('bad', 60, 18, 200);
    const prices = table({ ETH: { ...nine.rows, ...ten.rows, ...bad.rows }, BTC: flatBtc(330) });
    const { rows } = await rankCallers([], [...nine.calls, ...ten.calls, ...bad.calls], T0 + 330 * DAY, prices);
    expect(rows.map((r) => [r.source_id, r.past_gate])).toEqual([['ten', true], ['bad', true], ['nine', false]]);
    expect(rows[2]!.weight).toBe(0);
    expect(rows[2]!.source_type).toBe('unknown');
    expect(rows[1]!.z_score!).toBeLessThan(-SIGNIFICANT_Z);
  });

  it(`older calls weigh less: half after ${DECAY_HALF_LIFE_DAYS} days`, async () => {
    const r = record('a', 1, 1);
    const prices = table({ ETH: r.rows, BTC: flatBtc(2) });
    const { rows } = await rankCallers([], r.calls, T0 + DAY + DECAY_HALF_LIFE_DAYS * DAY, prices);
    expect(rows[0]!.decayed_samples).toBeCloseTo(0.5, 3);
  });

  it('keeps a record per horizon beside the whole', async () => {
    const prices = table({ ETH: { 0: 100, 1: 105, 7: 90 }, BTC: { 0: 1_000, 1: 1_020, 7: 1_080 } });
    const calls = [
      call({ caller: 'a', asset: 'ETH', direction: 'long' }),
      call({ caller: 'a', asset: 'ETH', direction: 'short', horizon: '7d' }),
      call({ caller: 'a', asset: 'ETH', direction: 'long', horizon: '30d' }),
    ];
    const { rows } = await rankCallers([], calls, T0 + 7 * DAY, prices);
    const row = rows[0]!;
    expect(row).toMatchObject({ graded_calls: 2, hits: 2, misses: 0, pending: 1 });
    expect(row.horizons['1d']).toMatchObject({ graded_calls: 1, hits: 1, hit_rate: 1, avg_return_pct: 5, avg_benchmark_return_pct: 2, avg_excess_return_pct: 3 });
    expect(row.horizons['7d']).toMatchObject({ graded_calls: 1, hits: 1, avg_return_pct: 10, avg_benchmark_return_pct: -8, avg_excess_return_pct: 18 });
    expect(row.horizons['30d']).toMatchObject({ graded_calls: 0, pending: 1, hit_rate: null, avg_return_pct: null });
    expect(row.avg_excess_return_pct).toBeCloseTo(10.5, 6);
  });
});

describe('the leaderboard answer', () => {
  it('has the spec\'s shape, limited, and names where its figures come from', async () => {
    const calls = Array.from({ length: 30 }, (_, i) => call({ caller: `c${i % 15}`, asset: 'ETH', direction: i % 2 ? 'long' : 'short', horizon: i < 20 ? '1d' : '30d' }));
    const source: CallsSource = {
      url: 'http://feed.test',
      callers: async () => Array.from({ length: 15 }, (_, i) => ({ id: `c${i}`, sourceType: 'youtube', label: `Channel ${i}` })),
      calls: async () => ({ calls, asOf: T0 + 2 * DAY, truncated: false }),
    };
    const board = await analystAccuracy(source, table({ ETH: { 0: 100, 1: 101 }, BTC: { 0: 1_000, 1: 1_000 } }), { now: T0 + 2 * DAY, limit: 4, pricesFrom: 'a test table' });
    expect(board).toMatchObject({ object: 'source-leaderboard', reliability_gate_calls: RELIABILITY_GATE_CALLS, sources_tracked: 15, sources_past_gate: 0, pending_calls: 10, calls_read: 30, graded_calls: 20, sources: { calls: 'http://feed.test/v1/calls', prices: 'a test table' } });
    expect(board.rows).toHaveLength(4);
    for (const r of board.rows) {
      expect(Object.keys(r)).toEqual(expect.arrayContaining(['source_type', 'source_id', 'source_label', 'graded_calls', 'hits', 'misses', 'pending', 'weight', 'decayed_samples', 'hit_rate']));
      expect(r.hit_rate).toBeGreaterThanOrEqual(0);
      expect(r.hit_rate).toBeLessThanOrEqual(1);
      expect(r.source_type).toBe('youtube');
    }
  });
});
