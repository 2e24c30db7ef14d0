/**
 * A drift is a call only when it stands out of the model's own noise: a zero-mean random walk is
 * neutral (its drift is noise by construction), a clear trend is still called.
 */
import { describe, expect, it } from 'vitest';
import { forecastInput, runForecast } from './engine.js';
import { direction, NEUTRAL_BAND_PCT, noisePcts, SIGNAL_MULTIPLE, Z90 } from './signal.js';
import { Rng } from '../../lib/random.js';

/** Closes of a geometric walk: log steps of `mu` plus `sd` times a seeded standard normal. */
function walk(seed: string, n: number, mu: number, sd: number): number[] {
  const rng = new Rng(seed);
  const closes = [100];
  for (let i = 1; i < n; i++) closes.push(closes[i - 1]! * Math.exp(mu + sd * rng.normal()));
  return closes;
}

describe('the direction rule', () => {
  it('a drift must pass both the neutral band and its own noise', () => {
    expect(direction(NEUTRAL_BAND_PCT + 0.01)).toBe('bullish');
    expect(direction(NEUTRAL_BAND_PCT)).toBe('neutral');
    expect(direction(-NEUTRAL_BAND_PCT - 0.01)).toBe('bearish');
    // 3% of drift against 4% of noise: inside one standard error.
    expect(direction(3, 4 / SIGNAL_MULTIPLE)).toBe('neutral');
    expect(direction(-3, 4 / SIGNAL_MULTIPLE)).toBe('neutral');
    expect(direction(5, 4 / SIGNAL_MULTIPLE)).toBe('bullish');
    expect(direction(-5, 4 / SIGNAL_MULTIPLE)).toBe('bearish');
  });

  it('noise comes from the model: its q10-q90 band, its own interval, else the series\' random-walk deviation', () => {
    // A log-normal band of ±Z90 standard errors of 2% each: the noise is 2%.
    const q = { q10: [100 * Math.exp(-Z90 * 0.02)], q50: [100], q90: [100 * Math.exp(Z90 * 0.02)] };
    expect(noisePcts({ points: [100], quantiles: q }, [100, 100])[0]).toBeCloseTo(2, 9);
    expect(noisePcts({ points: [100, 100], stdErr: [0.01, 0.03] }, [100, 100])).toEqual([1, 3]);
    // Closes alternating ±1% in log: deviation 1% a step, √4 = 2 after four steps.
    const closes = Array.from({ length: 17 }, (_, i) => 100 * Math.exp(i % 2 ? 0.01 : 0));
    const noise = noisePcts({ points: [1, 1, 1, 1] }, closes);
    expect(noise[0]).toBeCloseTo(1, 6);
    expect(noise[3]).toBeCloseTo(2, 6);
  });
});

describe('forecasts of known processes', () => {
  it('a seeded zero-mean random walk is neutral in at least 80 of 100 seeds', () => {
    let neutral = 0;
    let generalNeutral = 0;
    for (let seed = 0; seed < 100; seed++) {
      const out = runForecast(forecastInput.parse({ inputs: walk(`random-walk-${seed}`, 128, 0, 0.01), horizon: 12 }));
      if (out.direction === 'neutral') neutral++;
      if (out.models[0]!.direction === 'neutral') generalNeutral++;
    }
    expect(neutral).toBeGreaterThanOrEqual(80);
    expect(generalNeutral).toBeGreaterThanOrEqual(80);
  });

  it.each([
    ['bullish', 0.01],
    ['bearish', -0.01],
  ] as const)('a clear trend (1%% a step against 0.3%% noise) is %s for both models and their consensus', (call, mu) => {
    const out = runForecast(forecastInput.parse({ inputs: walk(`trend-${mu}`, 128, mu, 0.003), horizon: 12 }));
    expect(out.models.map((m) => m.direction)).toEqual([call, call]);
    expect(out.direction).toBe(call);
    expect(out.consensus!.verdict).toBe('CONSENSUS');
    for (const m of out.models) expect(Math.abs(m.driftPct)).toBeGreaterThan(SIGNAL_MULTIPLE * m.noisePct[11]!);
  });
});
