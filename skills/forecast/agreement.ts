/**
 * When the two models of a consensus forecast agree (docs/skills.md, "Forecasts"). Agreement is
 * about what a buyer acts on: the call and the range of likely outcomes. The models agree when
 * (1) they make the same call, each median drift judged against that model's own noise and the
 * ±0.5% flat band (skills/forecast/signal.ts), so a flat model and a bullish one disagree; and
 * (2) their q10-q90 ranges at that step overlap, so two bullish calls whose likely outcomes have
 * nothing in common disagree on what "bullish" means. How far apart the medians are is reported,
 * not judged: with overlapping ranges +5% and +10% are the same call. When they disagree the
 * consensus takes no side: no direction, no drift, and its statement says "models disagree".
 */
import { percent, price } from './precision.js';
import { NEUTRAL_BAND_PCT, Z90, type Direction } from './signal.js';

export type Verdict = 'CONSENSUS' | 'DIVERGENCE';

/** The rule in words, published with every verdict. */
export const AGREEMENT_RULE = `CONSENSUS when both models make the same call (bullish, bearish or neutral: each median drift against its own noise and the ±${NEUTRAL_BAND_PCT}% flat band) and their q10-q90 ranges at the horizon overlap (a model without quantiles: its median ±${percent(Z90, 4)} standard errors); otherwise DIVERGENCE, and the consensus gives no direction`;

/** One model's call at a step: its median drift and direction, and its q10-q90 range (prices). */
export interface StepCall {
  readonly model: string;
  readonly driftPct: number;
  readonly direction: Direction;
  readonly q10: number;
  readonly q90: number;
}

/** What a model's published entry holds (engine.ts `assembleForecast`, the service's answer). */
export interface PublishedModel {
  readonly model: string;
  readonly points: readonly number[];
  readonly noisePct: readonly number[];
  readonly quantiles?: { readonly q10: readonly number[]; readonly q90: readonly number[] } | undefined;
}

/** The q10-q90 range at `step` (1-based): the model's own quantiles, else its median ±Z90 standard errors of the log move. */
export function rangeAt(m: PublishedModel, step: number): { q10: number; q90: number } {
  if (m.quantiles) return { q10: m.quantiles.q10[step - 1]!, q90: m.quantiles.q90[step - 1]! };
  const point = m.points[step - 1]!;
  const spread = Math.exp((Z90 * m.noisePct[step - 1]!) / 100);
  return { q10: price(point / spread), q90: price(point * spread) };
}

const signed = (n: number) => `${n > 0 ? '+' : ''}${n}%`;

/** The verdict between two models' calls at the same step, with its reasons and what the consensus says. */
export function agreement(a: StepCall, b: StepCall) {
  const sameCall = a.direction === b.direction;
  // Inclusive: ranges that touch share an outcome. Prices compare as published (8 significant digits).
  const bandsOverlap = Math.max(price(a.q10), price(b.q10)) <= Math.min(price(a.q90), price(b.q90));
  const verdict: Verdict = sameCall && bandsOverlap ? 'CONSENSUS' : 'DIVERGENCE';
  const figures = `${a.model} ${a.direction} ${signed(a.driftPct)}, ${b.model} ${b.direction} ${signed(b.driftPct)}`;
  const why = !sameCall ? 'different calls' : 'their q10-q90 ranges do not overlap';
  return {
    verdict,
    /** The consensus's call: the shared one, or none. */
    direction: verdict === 'CONSENSUS' ? a.direction : null,
    statement: verdict === 'CONSENSUS' ? `models agree: ${a.direction} (${figures})` : `models disagree (${why}: ${figures}); no direction`,
    sameCall,
    bandsOverlap,
    distancePct: percent(Math.abs(a.driftPct - b.driftPct)),
    rule: AGREEMENT_RULE,
  };
}

export type Agreement = ReturnType<typeof agreement>;
