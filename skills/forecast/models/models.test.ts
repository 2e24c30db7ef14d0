/**
 * The forecast models on series whose truth is known: a simulated GARCH process (the bands must
 * cover what really happened about 80% of the time) and a steady exponential trend (the general
 * model must continue it). Answers must be reproducible.
 */
import { describe, expect, it } from 'vitest';
import { etsForecast } from './ets.js';
import { volatilityForecast, type VolatilityKind } from './volatility.js';
import { Rng } from '../../../lib/random.js';

/** Closes from a GARCH(1,1) with Student-t-like shocks (a normal scaled by a random variance). */
function garchCloses(n: number, seed: string): number[] {
  const rng = new Rng(seed);
  const [omega, alpha, beta] = [2e-6, 0.08, 0.9];
  let v = omega / (1 - alpha - beta);
  const closes = [100];
  for (let i = 1; i < n; i++) {
    const mix = rng.chance(0.1) ? 2.5 : 0.8; // fat tails
    const shock = Math.sqrt(v) * rng.normal() * mix / Math.sqrt(0.1 * 6.25 + 0.9 * 0.64);
    closes.push(closes[i - 1]! * Math.exp(shock));
    v = omega + alpha * shock * shock + beta * v;
  }
  return closes;
}

describe('finance-native volatility models', () => {
  const series = garchCloses(1_400, 'forecast-test');

  it.each(['ewma', 'garch', 'gjr'] as VolatilityKind[])('%s: the same inputs give the same bands, ordered and widening with the horizon', (kind) => {
    const closes = series.slice(0, 512);
    const a = volatilityForecast(kind, closes, 20);
    const b = volatilityForecast(kind, closes, 20);
    expect(a).toEqual(b);
    const q = a.quantiles!;
    for (let h = 0; h < 20; h++) {
      expect(q.q10[h]!).toBeLessThan(q.q50[h]!);
      expect(q.q50[h]!).toBeLessThan(q.q90[h]!);
    }
    expect(q.q90[19]! - q.q10[19]!).toBeGreaterThan(q.q90[0]! - q.q10[0]!);
    expect(a.points).toEqual(q.q50);
  });

  it.each(['garch', 'gjr'] as VolatilityKind[])('%s: q10-q90 covers the realized next close 73-87% of the time over 300 origins', (kind) => {
    let inside = 0;
    const origins = 300;
    for (let o = 0; o < origins; o++) {
      const end = 600 + o * 2;
      const f = volatilityForecast(kind, series.slice(end - 512, end), 1);
      const actual = series[end]!;
      if (actual >= f.quantiles!.q10[0]! && actual <= f.quantiles!.q90[0]!) inside++;
    }
    expect(inside / origins).toBeGreaterThan(0.73);
    expect(inside / origins).toBeLessThan(0.87);
  });
});

describe('the general model (AutoETS on log closes)', () => {
  it('continues a steady 1% a step trend', () => {
    const closes = Array.from({ length: 200 }, (_, i) => 100 * 1.01 ** i);
    const f = etsForecast(closes, 10);
    expect(f.points).toHaveLength(10);
    for (let h = 0; h < 10; h++) expect(f.points[h]! / (100 * 1.01 ** (200 + h))).toBeCloseTo(1, 2);
  });

  it('answers positive prices on a noisy series', () => {
    const f = etsForecast(garchCloses(300, 'ets'), 50);
    expect(f.points.every((p) => p > 0 && Number.isFinite(p))).toBe(true);
  });
});
