/**
 * How the finance-native models redraw a series' own standardised residuals for filtered
 * historical simulation.
 *
 * - A stationary block bootstrap (Politis and Romano, 1994): a path keeps reading consecutive
 *   residuals and jumps to a random one with probability 1/meanBlock at each step, so the serial
 *   dependence left in the residuals (daily index returns partly revert) carries into multi-step
 *   sums instead of being averaged away by independent draws.
 * - A smoothed bootstrap: each draw gets a small Gaussian kernel (Silverman's bandwidth) and is
 *   shrunk back to the residuals' own variance. A thin series whose residuals are mostly exactly
 *   zero then still has a continuous distribution, so quantiles never sit on one atom.
 */
import type { Rng } from '../../../lib/random.js';

export interface ResidualSampler {
  /** Starts a new path at a random residual. */
  start(): void;
  /** The path's next draw. */
  next(): number;
}

/** Kernel offsets are read from a table of seeded normal deviates: one uniform per draw, not a Box-Muller pair. */
const KERNEL_TABLE = 1_024;

export function residualSampler(z: readonly number[], rng: Rng, meanBlock: number): ResidualSampler {
  const n = z.length;
  const mean = z.reduce((s, x) => s + x, 0) / n;
  const variance = z.reduce((s, x) => s + (x - mean) ** 2, 0) / n;
  // Silverman's rule on the standard deviation (the IQR of a mostly-zero series is zero).
  const bandwidth = 1.06 * Math.sqrt(variance) * n ** -0.2;
  const shrink = variance > 0 ? 1 / Math.sqrt(1 + bandwidth ** 2 / variance) : 1;
  const jump = 1 / Math.max(1, meanBlock);
  const kernel = Float64Array.from({ length: KERNEL_TABLE }, () => rng.normal());
  let at = 0;
  return {
    start() {
      at = Math.floor(rng.next() * n);
    },
    next() {
      // Below `jump`, the same uniform rescaled is the new start: uniform over the residuals.
      const u = rng.next();
      at = u < jump ? Math.floor((u / jump) * n) : (at + 1) % n;
      return mean + (z[at]! - mean + bandwidth * kernel[Math.floor(rng.next() * KERNEL_TABLE)]!) * shrink;
    },
  };
}
