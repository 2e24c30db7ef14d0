/**
 * Consensus means agreement (found before: a "consensus" forecast was called bullish +11.8% while the
 * other model was flat). The two models agree only when they make the same call (bullish, bearish
 * or neutral, each against its own noise and the ±0.5% flat band) and their q10-q90 ranges at the
 * horizon overlap; otherwise the verdict is DIVERGENCE, the record says "models disagree" and
 * gives no direction, and each model's figures are still there. Forecasts here are built by hand
 * (prices, bands), so each expectation follows from the documented rule, not from a model run.
 */
import { describe, expect, it } from 'vitest';
import { assembleForecast, forecastInput } from './engine.js';
import type { ModelForecast } from './models/types.js';
import { NEUTRAL_BAND_PCT, Z90 } from './signal.js';
import { CONSENSUS_PAIR } from './slots.js';
import { forecastRecord, forecastSeries } from './chart.js';
import type { ForecastService } from './service.js';
import { chartSummary } from '../charts/tokenchart.js';

const LAST = 100;
const HORIZON = 4;
/** 32 closes ending at LAST. */
const inputs = Array.from({ length: 32 }, (_, i) => (i === 31 ? LAST : LAST * (1 + 0.001 * Math.sin(i))));
const [GENERAL, FINANCE] = CONSENSUS_PAIR;

/** The general model's answer: a median path ending at `endPct` from the last close, with a log standard error of `sePct` % at the end. */
function general(endPct: number, sePct: number): ModelForecast {
  const end = LAST * (1 + endPct / 100);
  return {
    points: Array.from({ length: HORIZON }, (_, i) => LAST + ((i + 1) / HORIZON) * (end - LAST)),
    stdErr: Array.from({ length: HORIZON }, (_, i) => (sePct / 100) * Math.sqrt((i + 1) / HORIZON)),
  };
}

/** The finance-native model's answer: median at `endPct`, q10-q90 from `q10Pct` to `q90Pct` at the end. */
function finance(endPct: number, q10Pct: number, q90Pct: number): ModelForecast {
  const at = (pct: number) => Array.from({ length: HORIZON }, (_, i) => LAST * (1 + ((i + 1) / HORIZON) * (pct / 100)));
  return { points: at(endPct), quantiles: { q10: at(q10Pct), q50: at(endPct), q90: at(q90Pct) } };
}

function run(a: ModelForecast, b: ModelForecast) {
  return assembleForecast(forecastInput.parse({ inputs, horizon: HORIZON }), new Map([[GENERAL, a], [FINANCE, b]]));
}

describe('consensus verdict', () => {
  it('the issue\'s case: the finance model +11.8% with a band wholly above, the general model flat: DIVERGENCE, no direction, both models\' figures', () => {
    const out = run(general(0.1, 0.4), finance(11.8, 9, 14.5));
    expect(out.models.map((m) => [m.model, m.direction])).toEqual([[GENERAL, 'neutral'], [FINANCE, 'bullish']]);
    expect(out.consensus!.verdict).toBe('DIVERGENCE');
    // The consensus takes no side: no direction, no drift; the verdict says so in words.
    expect(out.direction).toBeNull();
    expect(out.driftPct).toBeNull();
    expect(out.consensus!.statement).toMatch(/^models disagree/);
    expect(out.consensus!.statement).not.toMatch(/consensus/i);
    // Both models' figures are in the record.
    expect(out.models.find((m) => m.model === FINANCE)!.driftPct).toBeCloseTo(11.8, 6);
    expect(out.models.find((m) => m.model === GENERAL)!.driftPct).toBeCloseTo(0.1, 6);
  });

  it('opposite calls disagree', () => {
    const out = run(general(-6, 1), finance(6, 3, 9));
    expect(out.models.map((m) => m.direction)).toEqual(['bearish', 'bullish']);
    expect(out.consensus).toMatchObject({ verdict: 'DIVERGENCE', sameCall: false });
    expect(out.direction).toBeNull();
  });

  it('the same call with overlapping bands agrees, however far apart the medians (+5% and +10%): the call is the consensus\'s', () => {
    // General: 5% ± Z90·3% reaches up to ~+9.0%; finance: 6%..14%: they share outcomes.
    const out = run(general(5, 3), finance(10, 6, 14));
    expect(out.models.map((m) => m.direction)).toEqual(['bullish', 'bullish']);
    expect(out.consensus).toMatchObject({ verdict: 'CONSENSUS', sameCall: true, bandsOverlap: true, distancePct: 5 });
    expect(out.direction).toBe('bullish');
    expect(out.driftPct).toBeCloseTo(10, 6);
    expect(out.consensus!.statement).toMatch(/^models agree: bullish/);
  });

  it('the same call with q10-q90 ranges that do not meet disagrees, however close the medians (+1% and +2%)', () => {
    // General: +1% ± Z90·0.2% tops out near +1.26%; finance: +1.6%..+2.4%.
    const out = run(general(1, 0.2), finance(2, 1.6, 2.4));
    expect(out.models.map((m) => m.direction)).toEqual(['bullish', 'bullish']);
    expect(out.consensus).toMatchObject({ verdict: 'DIVERGENCE', sameCall: true, bandsOverlap: false });
    expect(out.direction).toBeNull();
  });

  it('ranges that just touch overlap; a hair apart they do not', () => {
    // The general model's q90 at the horizon is 101·e^(Z90·se): make the finance q10 exactly that, then a hair above it.
    const se = 0.3;
    const top = (101 * Math.exp((Z90 * se) / 100) / LAST - 1) * 100;
    expect(run(general(1, se), finance(2, top, 3)).consensus).toMatchObject({ bandsOverlap: true, verdict: 'CONSENSUS' });
    expect(run(general(1, se), finance(2, top + 0.01, 3)).consensus).toMatchObject({ bandsOverlap: false, verdict: 'DIVERGENCE' });
  });

  it('both flat is agreement that nothing stands out: CONSENSUS, neutral', () => {
    const out = run(general(0.2, 1), finance(-0.3, -2, 1.5));
    expect(out.consensus).toMatchObject({ verdict: 'CONSENSUS', sameCall: true, bandsOverlap: true });
    expect(out.direction).toBe('neutral');
  });

  it('at the flat band\'s edge: +0.5% is flat and disagrees with a bullish +0.51%', () => {
    const out = run(general(NEUTRAL_BAND_PCT, 0.05), finance(NEUTRAL_BAND_PCT + 0.01, 0.51, 0.52));
    expect(out.models.map((m) => m.direction)).toEqual(['neutral', 'bullish']);
    expect(out.consensus!.verdict).toBe('DIVERGENCE');
  });

  it('a single model keeps its own direction (no consensus is asked for)', () => {
    const out = assembleForecast(forecastInput.parse({ inputs, horizon: HORIZON, model: FINANCE }), new Map([[FINANCE, finance(11.8, 9, 14.5)]]));
    expect(out.consensus).toBeUndefined();
    expect(out.direction).toBe('bullish');
  });
});

describe('the chart forecast and its summary (tokenchart with forecast, the majors\' snapshots)', () => {
  /** A service that answers with the hand-built models, as ForecastService does. */
  const serving = (a: ModelForecast, b: ModelForecast) => ({
    forecast: async (input: ReturnType<typeof forecastInput.parse>) => ({ ...assembleForecast(input, new Map([[GENERAL, a], [FINANCE, b]])), servedBy: {}, generatedAt: '2025-01-01T00:00:00.000Z' }),
  }) as unknown as ForecastService;
  const history = inputs.map((close, i) => ({ time: new Date(i * 3_600_000).toISOString(), close, volumeUsd: 1_000 }));
  const subject = { asset: 'ETH', chain: 'base', token: '0x0000000000000000000000000000000000000001' };

  it('models that disagree: no direction at the horizon or at any step, both models\' figures, a commentary with no call, a summary that says so', async () => {
    const record = await forecastSeries(serving(general(0.1, 0.4), finance(11.8, 9, 14.5)), undefined, subject, history, 3_600, HORIZON, 31 * 3_600);
    expect(forecastRecord.parse(record)).toBeTruthy();
    expect(record).toMatchObject({ verdict: 'DIVERGENCE', direction: null, driftPct: null, sameCall: false });
    expect(record.statement).toMatch(/^models disagree/);
    expect(record.horizons.at(-1)).toMatchObject({ steps: HORIZON, verdict: 'DIVERGENCE', direction: null, driftPct: null });
    expect(record.models.map((m) => [m.model, m.direction, m.driftPct])).toEqual([[GENERAL, 'neutral', 0.1], [FINANCE, 'bullish', 11.8]]);
    expect(record.commentary.call).toBe('none');
    const summary = chartSummary({ token: { symbol: 'ETH' }, priceUsd: LAST, changePct: 0, timeperiod: '1d', coverage: { complete: true, from: 0 }, forecast: record });
    expect(summary).toContain(`models disagree, no direction (${GENERAL} neutral +0.1%, ${FINANCE} bullish +11.8%)`);
  });

  it('models that agree: the shared call and the lead model\'s drift, each model\'s figures beside', async () => {
    const record = await forecastSeries(serving(general(5, 3), finance(10, 6, 14)), undefined, subject, history, 3_600, HORIZON, 31 * 3_600);
    expect(record).toMatchObject({ verdict: 'CONSENSUS', direction: 'bullish', driftPct: 10 });
    expect(record.commentary.call).toBe('bullish');
    const summary = chartSummary({ token: { symbol: 'ETH' }, priceUsd: LAST, changePct: 0, timeperiod: '1d', coverage: { complete: true, from: 0 }, forecast: record });
    expect(summary).toContain(`models agree: bullish (drift +10%; ${GENERAL} bullish +5%, ${FINANCE} bullish +10%)`);
  });
});
