/**
 * The forecast engine (docs/skills.md, "Forecasts"): the request schema, drift, noise and direction per model, the
 * consensus verdict between the general and the finance-native model (skills/forecast/agreement.ts), and an EIP-191
 * attestation over a canonical encoding of the answer. Pure: backends run the models.
 */
import { z } from 'zod';
import { hashMessage, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { runInProcess } from './models/index.js';
import type { ModelForecast } from './models/types.js';
import { agreement, rangeAt, type PublishedModel } from './agreement.js';
import { percent, price } from './precision.js';
import { direction, NEUTRAL_BAND_PCT, noisePcts, SIGNAL_MULTIPLE, type Direction } from './signal.js';
import { CONSENSUS, CONSENSUS_PAIR, FORECAST_LIMITS, MODEL_SLOTS, slot } from './slots.js';

/** The request body, for the model ids this deployment serves (`consensus` first). */
export function forecastInputSchema(modelIds: readonly string[]) {
  const { minInputs, maxInputs, minHorizon, maxHorizon, defaultHorizon } = FORECAST_LIMITS;
  return z.strictObject({
    model: z.enum(modelIds as [string, ...string[]]).default(CONSENSUS).describe(`One of ${modelIds.join(', ')}; default ${CONSENSUS}.`),
    inputs: z.array(z.number().finite().positive()).min(minInputs).max(maxInputs).describe(`${minInputs}-${maxInputs} positive closes, oldest first.`),
    horizon: z.number().int().min(minHorizon).max(maxHorizon).default(defaultHorizon).describe(`Steps ahead, ${minHorizon}-${maxHorizon} (one step is one candle); default ${defaultHorizon}.`),
  });
}

/** The ids served with no backend configured: consensus and every in-process slot. */
export const IN_PROCESS_MODEL_IDS = [CONSENSUS, ...MODEL_SLOTS.filter((m) => m.inProcess).map((m) => m.id)];
export const forecastInput = forecastInputSchema(IN_PROCESS_MODEL_IDS);
export type ForecastInput = z.output<typeof forecastInput>;

/** The models a request runs. */
export function modelsFor(model: string): string[] {
  return model === CONSENSUS ? [...CONSENSUS_PAIR] : [model];
}

/** A published model's call at `step` (1-based), with its q10-q90 range there: what agreement compares. */
export function stepCall(m: PublishedModel & { readonly direction: Direction; readonly driftPct: number }, step = m.points.length) {
  return { model: m.model, driftPct: m.driftPct, direction: m.direction, ...rangeAt(m, step) };
}

/** The response record from each model's answer (see docs/skills.md, "Forecasts", for every field). */
export function assembleForecast(input: ForecastInput, results: ReadonlyMap<string, ModelForecast>) {
  const last = input.inputs[input.inputs.length - 1]!;
  const models = modelsFor(input.model).map((id) => {
    const f = results.get(id)!;
    const driftPct = (f.points[f.points.length - 1]! / last - 1) * 100;
    const noise = noisePcts(f, input.inputs);
    return {
      model: id,
      family: slot(id)!.family,
      points: f.points.map(price),
      driftPct: percent(driftPct),
      direction: direction(driftPct, noise[noise.length - 1]),
      noisePct: noise.map((n) => percent(n)),
      ...(f.quantiles && { quantiles: { q10: f.quantiles.q10.map(price), q50: f.quantiles.q50.map(price), q90: f.quantiles.q90.map(price) } }),
    };
  }).map((m) => ({ ...m, range: rangeAt(m, m.points.length) }));
  const consensus = input.model === CONSENSUS
    ? (() => {
        const [a, b] = models as [(typeof models)[number], (typeof models)[number]];
        const { direction: _call, ...verdict } = agreement(stepCall(a), stepCall(b));
        return verdict;
      })()
    : undefined;
  const lead = models.find((m) => m.quantiles) ?? models[0]!;
  // A consensus that is not one takes no side: no direction, no drift (each model's stay in `models`).
  const decided = !consensus || consensus.verdict === 'CONSENSUS';
  return {
    model: input.model,
    horizon: input.horizon,
    lastClose: last,
    driftPct: decided ? lead.driftPct : null,
    direction: decided ? lead.direction : null,
    noisePct: lead.noisePct[lead.noisePct.length - 1]!,
    neutralBandPct: NEUTRAL_BAND_PCT,
    signalMultiple: SIGNAL_MULTIPLE,
    models,
    ...(lead.quantiles && { quantiles: lead.quantiles }),
    ...(consensus && { consensus }),
  };
}

export type ForecastRecord = ReturnType<typeof assembleForecast>;

/** The forecast computed on this thread with the in-process models (tests, the backtest). */
export function runForecast(input: ForecastInput): ForecastRecord {
  const results = new Map(modelsFor(input.model).map((id) => [id, runInProcess(slot(id)!.inProcess!, input.inputs, input.horizon)]));
  return assembleForecast(input, results);
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
