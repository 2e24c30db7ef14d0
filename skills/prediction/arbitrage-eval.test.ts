import { describe, expect, it } from 'vitest';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import { evaluateArbitrage } from './arbitrage-eval.js';

describe('the arbitrage evaluation', () => {
  it('scores the engine against the planted gaps: every gap that clears the fees found, nothing on a drawn event outside one', async () => {
    const score = await evaluateArbitrage({ seed: 'arbitrage-eval-test', origin: ORIGIN, priceAt, from: ORIGIN, until: ORIGIN + 10 * 86_400, controlStepSeconds: 4 * 3_600 });
    expect(score.planted).toBeGreaterThan(5);
    expect(score.recallClearingFees).toBe(1);
    expect(score.precisionDrawn).toBe(1);
    expect(score.unplanted).toBe(score.unplantedCrypto);
    expect(score.found).toBe(score.truePositives + score.unplanted);
  });
});
