/**
 * Quantile bands on a thin token: most candles repeat the last close (no trade), a few jump. The
 * bands must still say the price can move: strictly ordered at every step, with the last close
 * strictly inside, for every finance-native model and in the published (rounded) record.
 */
import { describe, expect, it } from 'vitest';
import { forecastInput, runForecast } from './engine.js';
import { volatilityForecast, type VolatilityKind } from './models/volatility.js';

/** 200 closes at 0.002 USD, moving only every 37th candle (+4% or -3%): 194 of 199 returns are exactly zero. */
function thinToken(): number[] {
  const closes: number[] = [];
  let price = 0.002;
  for (let i = 0; i < 200; i++) {
    if (i % 37 === 20) price *= i % 2 ? 1.04 : 0.97;
    closes.push(price);
  }
  return closes;
}

describe('bands on a thin token', () => {
  const closes = thinToken();
  const last = closes[closes.length - 1]!;

  it.each(['ewma', 'garch', 'gjr'] as VolatilityKind[])('%s: q10 < last < q90 and q10 < q50 < q90 at each of 12 steps', (kind) => {
    const { q10, q50, q90 } = volatilityForecast(kind, closes, 12).quantiles!;
    for (let h = 0; h < 12; h++) {
      expect(q10[h]!, `step ${h + 1}`).toBeLessThan(q50[h]!);
      expect(q50[h]!, `step ${h + 1}`).toBeLessThan(q90[h]!);
      expect(q10[h]!, `step ${h + 1}`).toBeLessThan(last);
      expect(q90[h]!, `step ${h + 1}`).toBeGreaterThan(last);
    }
  });

  it('the published record keeps them apart, and the band widens with the horizon', () => {
    const record = runForecast(forecastInput.parse({ inputs: closes, horizon: 12, model: 'modelB-small' }));
    const { q10, q50, q90 } = record.quantiles!;
    for (let h = 0; h < 12; h++) {
      expect(q10[h]!).toBeLessThan(q50[h]!);
      expect(q50[h]!).toBeLessThan(q90[h]!);
      expect(q10[h]!).toBeLessThan(last);
    }
    expect(q90[11]! - q10[11]!).toBeGreaterThan(q90[0]! - q10[0]!);
  });
});
