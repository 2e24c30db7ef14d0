/**
 * The finance-native family (`modelB-*`): volatility models on log returns with filtered
 * historical simulation. Returns are standardised by the fitted conditional volatility; future
 * paths redraw those standardised residuals (so fat tails and skew are the data's own), feed
 * them through the volatility recursion, and read q10/q50/q90 of the compounded price per step.
 * The median path is the point forecast. Seeded, so the same inputs give the same answer.
 *
 * Residuals are redrawn in blocks (serial dependence kept) with a small kernel (no atoms), and
 * every step's variance has a floor from the series' own scale: see residuals.ts.
 *
 * - `ewma`: RiskMetrics variance, lambda 0.94, zero drift.
 * - `garch`: GARCH(1,1) fitted by Gaussian quasi-likelihood over a coarse-to-fine grid.
 * - `gjr`: GJR-GARCH(1,1,1), the asymmetric variant in which losses raise volatility more.
 */
import { Rng } from '../../../lib/random.js';
import { residualSampler } from './residuals.js';
import type { ModelForecast } from './types.js';

export type VolatilityKind = 'ewma' | 'garch' | 'gjr';

interface Params {
  omega: number;
  alpha: number;
  gamma: number; // extra weight of negative shocks (GJR)
  beta: number;
}

const EWMA_LAMBDA = 0.94;
/** A step's variance is never below this share of the series' own mean squared return. */
const VARIANCE_FLOOR_SHARE = 0.1;
export const FHS_PATHS = 1_000;

function logReturns(closes: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < closes.length; i++) out.push(Math.log(closes[i]! / closes[i - 1]!));
  return out;
}

/** Conditional variances along the sample, and the next one. */
function filter(r: readonly number[], p: Params, mean: number): { variances: number[]; next: number } {
  const sample = r.reduce((s, x) => s + (x - mean) ** 2, 0) / Math.max(1, r.length);
  let v = sample || 1e-8;
  const variances: number[] = [];
  for (const x of r) {
    variances.push(v);
    const e = x - mean;
    v = p.omega + (p.alpha + (e < 0 ? p.gamma : 0)) * e * e + p.beta * v;
    if (!(v > 0)) v = 1e-12;
  }
  return { variances, next: v };
}

function negLogLik(r: readonly number[], p: Params, mean: number): number {
  const { variances } = filter(r, p, mean);
  let nll = 0;
  for (let i = 0; i < r.length; i++) nll += Math.log(variances[i]!) + (r[i]! - mean) ** 2 / variances[i]!;
  return nll;
}

/** Grid search over persistence and the shock share, then a finer pass around the best. */
function fit(r: readonly number[], mean: number, asymmetric: boolean): Params {
  const variance = r.reduce((s, x) => s + (x - mean) ** 2, 0) / Math.max(1, r.length) || 1e-8;
  let best: Params = { omega: variance * 0.05, alpha: 0.05, gamma: 0, beta: 0.9 };
  let bestScore = negLogLik(r, best, mean);
  const tryParams = (persistence: number, share: number, asym: number) => {
    if (persistence >= 0.999 || persistence <= 0) return;
    const shock = persistence * share;
    const gamma = asymmetric ? shock * asym : 0;
    const alpha = shock - gamma / 2;
    const beta = persistence - shock;
    if (alpha < 0 || beta < 0) return;
    const p = { omega: variance * (1 - persistence), alpha, gamma, beta };
    const score = negLogLik(r, p, mean);
    if (score < bestScore) {
      bestScore = score;
      best = p;
    }
  };
  const asyms = asymmetric ? [0, 0.3, 0.6, 0.9] : [0];
  for (const persistence of [0.5, 0.8, 0.9, 0.95, 0.97, 0.985, 0.995]) {
    for (const share of [0.02, 0.05, 0.1, 0.15, 0.25]) for (const a of asyms) tryParams(persistence, share, a);
  }
  const p0 = best.alpha + best.gamma / 2 + best.beta;
  const s0 = (best.alpha + best.gamma / 2) / p0;
  for (const dp of [-0.02, -0.01, 0, 0.005, 0.01]) for (const ds of [0.7, 0.85, 1, 1.2, 1.4]) for (const a of asymmetric ? [0, 0.5, 1] : [0]) tryParams(p0 + dp, s0 * ds, a);
  return best;
}

export function volatilityForecast(kind: VolatilityKind, closes: readonly number[], horizon: number, seed = 'sibyl'): ModelForecast {
  const r = logReturns(closes);
  const mean = 0; // no drift: a drift estimated from the sample is noise at these horizons
  const params: Params = kind === 'ewma' ? { omega: 0, alpha: 1 - EWMA_LAMBDA, gamma: 0, beta: EWMA_LAMBDA } : fit(r, mean, kind === 'gjr');
  const floor = varianceFloor(r);
  const { variances, next } = filter(r, params, mean);
  const z = r.map((x, i) => (x - mean) / Math.sqrt(Math.max(variances[i]!, floor)));
  const rng = new Rng(`${seed}:${kind}:${closes.length}:${horizon}:${closes[closes.length - 1]}`);
  const draws = residualSampler(z, rng, meanBlockLength(z.length));
  const last = closes[closes.length - 1]!;
  // paths[step][path]: cumulative log return after step+1 steps.
  const paths = Array.from({ length: horizon }, () => new Float64Array(FHS_PATHS));
  for (let k = 0; k < FHS_PATHS; k++) {
    let v = Math.max(next, floor);
    let cum = 0;
    draws.start();
    for (let h = 0; h < horizon; h++) {
      const shock = Math.sqrt(v) * draws.next();
      cum += mean + shock;
      paths[h]![k] = cum;
      v = Math.max(floor, params.omega + (params.alpha + (shock < 0 ? params.gamma : 0)) * shock * shock + params.beta * v);
    }
  }
  const q10: number[] = [];
  const q50: number[] = [];
  const q90: number[] = [];
  for (const step of paths) {
    step.sort();
    const at = (q: number) => last * Math.exp(step[Math.min(step.length - 1, Math.floor(q * step.length))]!);
    q10.push(at(0.1));
    q50.push(at(0.5));
    q90.push(at(0.9));
  }
  return { points: q50, quantiles: { q10, q50, q90 } };
}

/**
 * The least variance a step may have: a share of the series' own variance, so a long calm
 * stretch (EWMA decays towards zero) or a thin token's run of equal closes never claims certainty.
 */
function varianceFloor(r: readonly number[]): number {
  const variance = r.reduce((s, x) => s + x * x, 0) / Math.max(1, r.length);
  return VARIANCE_FLOOR_SHARE * variance;
}

/** The usual n^(1/3) rate for the bootstrap's mean block length (8 residuals of 511). */
function meanBlockLength(n: number): number {
  return Math.max(1, Math.round(Math.cbrt(n)));
}
