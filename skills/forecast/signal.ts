/**
 * When a forecast's drift is a directional call. A drift is only a call when it stands out of
 * the model's own noise at that step: beyond SIGNAL_MULTIPLE standard errors of the move the
 * model itself forecasts (its q10-q90 band, its prediction interval), and beyond the ±0.5%
 * neutral band. A zero-mean random walk therefore comes out neutral, however its last few
 * steps happened to fall, while a clear trend is still called.
 */
import type { ModelForecast } from './models/types.js';

/** A move inside ±this % is neutral (and a "scratch" in the accuracy ledger). */
export const NEUTRAL_BAND_PCT = 0.5;
/** How many of its own standard errors a drift must reach to be a call (one-sided ~84%). */
export const SIGNAL_MULTIPLE = 1;
/** The standard normal's 90th percentile: q10-q90 spans twice this many standard errors. */
export const Z90 = 1.2815515655446004;

export type Direction = 'bullish' | 'bearish' | 'neutral';

/** The call for a drift (in %) given the model's noise at that step (one standard error, in %). */
export function direction(driftPct: number, noisePct = 0): Direction {
  const bar = Math.max(NEUTRAL_BAND_PCT, SIGNAL_MULTIPLE * noisePct);
  return driftPct > bar ? 'bullish' : driftPct < -bar ? 'bearish' : 'neutral';
}

/**
 * One standard error of the log move to each step, ×100: from the model's quantiles (a q10-q90
 * band spans 2·Z90 of them), else its own interval, else, for a model that states no
 * uncertainty, the series' random-walk noise (its log-return deviation times √step).
 */
export function noisePcts(forecast: ModelForecast, inputs: readonly number[]): number[] {
  const { quantiles, stdErr } = forecast;
  if (quantiles) return quantiles.q10.map((q10, i) => (100 * Math.log(quantiles.q90[i]! / q10)) / (2 * Z90));
  if (stdErr) return stdErr.map((s) => 100 * s);
  const r = inputs.slice(1).map((c, i) => Math.log(c / inputs[i]!));
  const mean = r.reduce((a, b) => a + b, 0) / r.length;
  const sd = Math.sqrt(r.reduce((a, x) => a + (x - mean) ** 2, 0) / r.length);
  return forecast.points.map((_, i) => 100 * sd * Math.sqrt(i + 1));
}
