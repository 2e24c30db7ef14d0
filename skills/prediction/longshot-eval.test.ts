import { describe, expect, it } from 'vitest';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import { evaluateCalibration } from './longshot-eval.js';

describe('the calibration evaluation', () => {
  it('sets the venue\'s Brier score and longshot bias beside the world\'s truth', async () => {
    const score = await evaluateCalibration({ seed: 'longshot-eval-test', origin: ORIGIN, priceAt, at: ORIGIN + 20 * 86_400 });
    expect(score.available).toBe(true);
    expect(score.resolvedMarkets).toBeGreaterThan(50);
    // A day before the close the venue knows more than the chance drawn at the opening, and beats a coin flip.
    expect(score.brier.venue!).toBeLessThan(score.brier.truth);
    expect(score.brier.truth).toBeLessThan(score.brier.coinFlip);
    // The world overpays longshots by up to 3 cents, and the venue's resolved markets show it.
    expect(score.longshots.plantedPremiumCents!).toBeGreaterThan(0);
    expect(score.longshots.plantedPremiumCents!).toBeLessThanOrEqual(3);
    expect(score.longshots.measuredBiasCents!).toBeGreaterThan(0);
    expect(score.buckets.length).toBe(12);
  });
});
