import { describe, expect, it } from 'vitest';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import { evaluateArbitrage } from './arbitrage-eval.js';

describe('the arbitrage evaluation', () => {
  it('scores the engine against the planted gaps, crypto ones included: every gap that clears the fees found, nothing outside one but pairs the labels\' threshold leaves out', async () => {
    const score = await evaluateArbitrage({ seed: 'arbitrage-eval-test', origin: ORIGIN, priceAt, from: ORIGIN, until: ORIGIN + 10 * 86_400, controlStepSeconds: 4 * 3_600 });
    expect(score.planted).toBeGreaterThan(5);
    expect(score.recallClearingFees).toBe(1);
    expect(score.precisionDrawn).toBe(1);
    // The crypto markets' lagging prices are labelled too: what is found there lies in a gap.
    expect(score.precisionCrypto!).toBeGreaterThan(0.9);
    expect(score.precision!).toBeGreaterThan(0.9);
    // Found outside a gap: only pairs within the labels' threshold that still clear two ticks and a 1¢ fee.
    expect(score.unplanted).toBe(score.unplantedWithinThreshold);
    expect(score.found).toBe(score.truePositives + score.unplanted);
    // The pairs a detectors' table scores say the same.
    const planted = new Set(score.pairs.planted);
    expect(score.pairs.found.length).toBe(score.found);
    expect(planted.size).toBe(score.planted);
    expect(score.pairs.found.filter((p) => planted.has(p)).length).toBe(score.truePositives);
  });
});
