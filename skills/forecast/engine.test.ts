/** The forecast engine: input limits at their edges, drift and direction, consensus, attestation. */
import { describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { recoverMessageAddress, verifyMessage } from 'viem';
import { attest, canonicalJson, forecastInput, runForecast } from './engine.js';
import { direction, NEUTRAL_BAND_PCT, Z90 } from './signal.js';

const trend = (n: number, step: number) => Array.from({ length: n }, (_, i) => 100 * (1 + step) ** i);

describe('forecast input', () => {
  const ok = trend(16, 0.01);
  it.each([
    [{ inputs: trend(15, 0.01) }, 'inputs'],
    [{ inputs: trend(1025, 0.001) }, 'inputs'],
    [{ inputs: ok, horizon: 0 }, 'horizon'],
    [{ inputs: ok, horizon: 257 }, 'horizon'],
    [{ inputs: ok, horizon: 2.5 }, 'horizon'],
    [{ inputs: [...ok.slice(1), -1] }, 'inputs'],
    [{ inputs: [...ok.slice(1), 0] }, 'inputs'],
    [{ inputs: [...ok.slice(1), Number.NaN] }, 'inputs'],
    [{ inputs: [...ok.slice(1), '5'] }, 'inputs'],
    [{ inputs: ok, model: 'modelC' }, 'model'],
    [{}, 'inputs'],
  ])('%j is refused naming %s', (body, field) => {
    const r = forecastInput.safeParse(body);
    expect(r.success).toBe(false);
    expect(r.error!.issues.some((i) => i.path[0] === field)).toBe(true);
  });

  it('16 and 1024 inputs, horizon 1 and 256 are accepted; defaults are consensus and 8', () => {
    expect(forecastInput.parse({ inputs: ok })).toMatchObject({ model: 'consensus', horizon: 8 });
    expect(forecastInput.safeParse({ inputs: trend(1024, 0.0001), horizon: 256 }).success).toBe(true);
    expect(forecastInput.safeParse({ inputs: ok, horizon: 1, model: 'modelB-base' }).success).toBe(true);
  });
});

describe('forecasts', () => {
  it('a steady uptrend: the general model is bullish by its drift, and the record is self-consistent', () => {
    const out = runForecast(forecastInput.parse({ inputs: trend(200, 0.01), horizon: 10, model: 'modelA-2.5' }));
    const m = out.models[0]!;
    expect(m.points).toHaveLength(10);
    expect(m.driftPct).toBeCloseTo((m.points[9]! / out.lastClose - 1) * 100, 3);
    expect(m.driftPct).toBeGreaterThan(9); // ~1.01^10
    expect(m.direction).toBe('bullish');
  });

  it('consensus runs both models; its verdict follows their calls and q10-q90 ranges (skills/forecast/agreement.test.ts holds the edges)', () => {
    const out = runForecast(forecastInput.parse({ inputs: trend(300, 0.002).map((p, i) => p * (1 + 0.01 * Math.sin(i))), horizon: 8 }));
    expect(out.models.map((m) => m.model)).toEqual(['modelA-2.5', 'modelB-small']);
    const [a, b] = out.models as [any, any];
    // The general model's range is its median ±Z90 of its own standard errors; the finance model's, its q10/q90.
    const spread = Math.exp((Z90 * a.noisePct[7]) / 100);
    const overlap = Math.max(a.points[7] / spread, b.quantiles.q10[7]) <= Math.min(a.points[7] * spread, b.quantiles.q90[7]) * (1 + 1e-7);
    const agree = a.direction === b.direction && overlap;
    expect(out.consensus!.verdict).toBe(agree ? 'CONSENSUS' : 'DIVERGENCE');
    expect(out.direction).toBe(agree ? b.direction : null);
    expect(out.consensus!.distancePct).toBeCloseTo(Math.abs(a.driftPct - b.driftPct), 3);
    expect(out.quantiles!.q10[7]!).toBeLessThan(out.quantiles!.q90[7]!);
  });

  it('direction uses the documented neutral band', () => {
    expect(direction(NEUTRAL_BAND_PCT + 0.01)).toBe('bullish');
    expect(direction(NEUTRAL_BAND_PCT)).toBe('neutral');
    expect(direction(-NEUTRAL_BAND_PCT - 0.01)).toBe('bearish');
  });
});

describe('attestation', () => {
  it('is an EIP-191 signature by the configured key over the canonical encoding, verifiable with viem', async () => {
    const key = generatePrivateKey();
    const record = runForecast(forecastInput.parse({ inputs: trend(64, 0.003), horizon: 4, model: 'modelB-mini' }));
    const a = await attest(record, key);
    expect(a.signer).toBe(privateKeyToAccount(key).address);
    const message = canonicalJson(record);
    expect(await verifyMessage({ address: a.signer, message, signature: a.signature })).toBe(true);
    expect(await recoverMessageAddress({ message, signature: a.signature })).toBe(a.signer);
    // The encoding does not depend on key order, and a changed figure breaks the signature.
    expect(canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] })).toBe('{"a":[2,{"c":4,"d":3}],"b":1}');
    expect(await verifyMessage({ address: a.signer, message: canonicalJson({ ...record, driftPct: record.driftPct! + 1 }), signature: a.signature })).toBe(false);
  });
});
