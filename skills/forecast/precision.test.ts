/** Forecast prices keep significant digits at any magnitude: a token at 1e-9 USD is not 0. */
import { afterAll, describe, expect, it } from 'vitest';
import { forecastInput, runForecast } from './engine.js';
import { forecastSeries } from './chart.js';
import { AccuracyLedger, withBaselines } from './ledger.js';
import { MemoryStore } from '../../store/memory.js';
import { price } from './precision.js';
import { ForecastService } from './service.js';
import { Rng } from '../../lib/random.js';

/** A seeded walk around 1.3e-9 USD with 2% steps. */
function nanoToken(n: number): number[] {
  const rng = new Rng('nano-token');
  const closes = [1.3e-9];
  for (let i = 1; i < n; i++) closes.push(closes[i - 1]! * Math.exp(0.02 * rng.normal()));
  return closes;
}

const closes = nanoToken(96);
const last = closes[closes.length - 1]!;
/** Every value is a price near the last close: positive and within a factor of two of it. */
const nearLast = (values: readonly number[]) => values.every((p) => p > last / 2 && p < last * 2);

describe('price precision', () => {
  it('keeps 8 significant digits from 1e-12 to 1e6', () => {
    expect(price(1.23456789123e-9)).toBe(1.2345679e-9);
    expect(price(9.87654321e-12)).toBe(9.8765432e-12);
    expect(price(95123.456789)).toBe(95123.457);
    expect(price(0.5)).toBe(0.5);
  });

  it('the forecast record of a 1e-9 series has its points and bands at 1e-9, and its drift agrees with them', () => {
    const record = runForecast(forecastInput.parse({ inputs: closes, horizon: 8 }));
    for (const m of record.models) {
      expect(nearLast(m.points)).toBe(true);
      expect(m.driftPct).toBeCloseTo((m.points[7]! / last - 1) * 100, 3);
    }
    const { q10, q50, q90 } = record.quantiles!;
    expect(nearLast([...q10, ...q50, ...q90])).toBe(true);
    for (let h = 0; h < 8; h++) expect(q10[h]!).toBeLessThan(q90[h]!);
  });

  it('the accuracy ledger states a 1e-9 forecast\'s error in price units, not as 0', async () => {
    const ledger = new AccuracyLedger(new MemoryStore());
    const calls = withBaselines({ 'modelB-small': { point: 1.1e-9, direction: 'bullish' } }, 1e-9);
    await ledger.scoreBackfill({ id: 'nano', asset: 'NANO', chain: 'base', token: '0xnano', interval: '4h', originTs: 0, dueTs: 14_400, lastClose: 1e-9, calls }, 1.25e-9);
    const rows = (await ledger.rows('NANO')).rows;
    // |1.1e-9 - 1.25e-9| = 1.5e-10; the random walk's |1e-9 - 1.25e-9| = 2.5e-10.
    expect(rows.find((r) => r.model === 'modelB-small')!.rmse).toBeCloseTo(1.5e-10, 18);
    expect(rows.find((r) => r.model === 'random-walk')!.rmse).toBeCloseTo(2.5e-10, 18);
  });

  describe('the chart forecast record', () => {
    const service = new ForecastService({ threads: 1, backends: {}, backendTimeoutMs: 10_000, signingKey: undefined, tokenAddress: '0x0000000000000000000000000000000000000000', jobs: false, precomputeIntervalMs: 1e9 });
    afterAll(() => service.close());

    it('has timed points, bands and horizons at 1e-9', async () => {
      const t0 = Date.UTC(2026, 0, 1) / 1000;
      const series = closes.map((close, i) => ({ time: new Date((t0 + i * 3600) * 1000).toISOString(), close, volumeUsd: 10 }));
      const record = await forecastSeries(service, undefined, { asset: 'NANO', chain: 'base', token: '0xnano' }, series, 3600, 12, t0 + closes.length * 3600);
      expect(record.lastClose).toBe(last);
      for (const m of record.models) expect(nearLast(m.points.map((p) => p.price))).toBe(true);
      expect(nearLast([...record.quantiles!.q10, ...record.quantiles!.q90])).toBe(true);
      for (const h of record.horizons) {
        const lead = record.models.find((m) => m.model === record.quantiles!.model)!;
        expect(h.driftPct).toBeCloseTo((lead.points[h.steps - 1]!.price / last - 1) * 100, 3);
      }
    });
  });
});
