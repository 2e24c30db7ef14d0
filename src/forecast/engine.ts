/**
 * The forecast engine (spec 4.3; issue 4, not served yet): the model registry, one forecast
 * per model, drift and direction, the consensus verdict between the general and the
 * finance-native model, and an EIP-191 attestation over a canonical encoding of the answer.
 */
import { z } from 'zod';
import { hashMessage, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { etsForecast } from './models/ets.js';
import type { ModelForecast } from './models/types.js';
import { volatilityForecast } from './models/volatility.js';

/** A move inside ±this % is neutral (and a "scratch" in the accuracy ledger). */
export const NEUTRAL_BAND_PCT = 0.5;
/** The two models agree when they call the same direction and their drifts are this close (percentage points). */
export const CONSENSUS_MAX_DISTANCE_PCT = 2;

export interface ModelSlot {
  readonly id: string;
  readonly family: 'general' | 'finance-native';
  readonly method: string;
  readonly quantiles: boolean;
  readonly run: (closes: readonly number[], horizon: number) => ModelForecast;
}

export const MODEL_SLOTS: readonly ModelSlot[] = [
  { id: 'modelA-2.5', family: 'general', method: 'AutoETS on log closes (@bsull/augurs)', quantiles: false, run: etsForecast },
  { id: 'modelB-mini', family: 'finance-native', method: 'EWMA volatility (lambda 0.94), filtered historical simulation', quantiles: true, run: (c, h) => volatilityForecast('ewma', c, h) },
  { id: 'modelB-small', family: 'finance-native', method: 'GARCH(1,1), filtered historical simulation', quantiles: true, run: (c, h) => volatilityForecast('garch', c, h) },
  { id: 'modelB-base', family: 'finance-native', method: 'GJR-GARCH(1,1,1), filtered historical simulation', quantiles: true, run: (c, h) => volatilityForecast('gjr', c, h) },
];
/** The pair `consensus` runs. */
export const CONSENSUS_PAIR = ['modelA-2.5', 'modelB-small'] as const;
export const MODEL_IDS = ['consensus', ...MODEL_SLOTS.map((m) => m.id)] as [string, ...string[]];

export const forecastInput = z.strictObject({
  model: z.enum(MODEL_IDS).default('consensus').describe(`One of ${MODEL_IDS.join(', ')}; default consensus.`),
  inputs: z.array(z.number().finite().positive()).min(16).max(1024).describe('16-1024 positive closes, oldest first.'),
  horizon: z.number().int().min(1).max(256).default(8).describe('Steps ahead, 1-256 (one step is one candle); default 8.'),
});
export type ForecastInput = z.output<typeof forecastInput>;

export type Direction = 'bullish' | 'bearish' | 'neutral';

export function direction(driftPct: number): Direction {
  return driftPct > NEUTRAL_BAND_PCT ? 'bullish' : driftPct < -NEUTRAL_BAND_PCT ? 'bearish' : 'neutral';
}

const round = (n: number, d = 6) => Math.round(n * 10 ** d) / 10 ** d;

export function runForecast(input: ForecastInput) {
  const last = input.inputs[input.inputs.length - 1]!;
  const ids = input.model === 'consensus' ? [...CONSENSUS_PAIR] : [input.model];
  const models = ids.map((id) => {
    const slot = MODEL_SLOTS.find((m) => m.id === id)!;
    const f = slot.run(input.inputs, input.horizon);
    const driftPct = (f.points[f.points.length - 1]! / last - 1) * 100;
    return {
      model: id,
      family: slot.family,
      points: f.points.map((p) => round(p)),
      driftPct: round(driftPct, 4),
      direction: direction(driftPct),
      ...(f.quantiles && { quantiles: { q10: f.quantiles.q10.map((p) => round(p)), q50: f.quantiles.q50.map((p) => round(p)), q90: f.quantiles.q90.map((p) => round(p)) } }),
    };
  });
  const consensus = input.model === 'consensus'
    ? (() => {
        const [a, b] = models as [(typeof models)[number], (typeof models)[number]];
        const distancePct = round(Math.abs(a.driftPct - b.driftPct), 4);
        return { verdict: a.direction === b.direction && distancePct <= CONSENSUS_MAX_DISTANCE_PCT ? 'CONSENSUS' as const : 'DIVERGENCE' as const, distancePct, maxDistancePct: CONSENSUS_MAX_DISTANCE_PCT };
      })()
    : undefined;
  const lead = models.find((m) => m.quantiles) ?? models[0]!;
  return {
    model: input.model,
    horizon: input.horizon,
    lastClose: last,
    driftPct: lead.driftPct,
    direction: lead.direction,
    neutralBandPct: NEUTRAL_BAND_PCT,
    models,
    ...(lead.quantiles && { quantiles: lead.quantiles }),
    ...(consensus && { consensus }),
  };
}

/** JSON with object keys sorted at every level: the bytes an attestation signs. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** EIP-191 personal-message signature over the canonical encoding of `payload`. */
export async function attest(payload: unknown, key: Hex) {
  const account = privateKeyToAccount(key);
  const message = canonicalJson(payload);
  return { scheme: 'eip191' as const, signer: account.address, messageHash: hashMessage(message), signature: await account.signMessage({ message }), encoding: 'canonical JSON (keys sorted), UTF-8' };
}
