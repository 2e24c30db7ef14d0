/**
 * The forecast record of a price series (docs/skills.md, "Chart forecast") as the chart forecast and the background
 * majors sell it: the consensus of the two models on the candle closes, points and bands with
 * their times, drift and direction at several horizons, the verdict, and a commentary that lists
 * the factors for and against the call. Each one is recorded in the accuracy ledger.
 */
import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import { CONSENSUS_PAIR, CONSENSUS, FORECAST_LIMITS } from './slots.js';
import { commentary, type TrackRecord } from './commentary.js';
import { percent } from './precision.js';
import { direction, NEUTRAL_BAND_PCT, SIGNAL_MULTIPLE } from './signal.js';
import { ALWAYS_BULLISH, durationLabel, withBaselines, type AccuracyLedger, type ForecastCall, type Origin } from './ledger.js';
import type { ForecastAnswer, ForecastService } from './service.js';
import { SibylError } from '../core/errors.js';

export interface SeriesPoint {
  readonly time: string;
  readonly close: number;
  readonly volumeUsd: number;
}

export interface ForecastSubject {
  readonly asset: string;
  readonly chain: string;
  readonly token: string;
}

/** The horizons (in candles) a chart forecast reports drift and direction at. */
export function reportedHorizons(steps: number): number[] {
  return [...new Set([1, Math.max(1, Math.round(steps / 3)), steps])];
}

const modelCall = z.object({ driftPct: z.number(), direction: z.string().describe('up, down or neutral against the model\'s noise.'), noisePct: z.number() });

/** The forecast record forecastSeries builds: published as tokenchart's `forecast`. */
export const forecastRecord = z
  .object({
    model: z.string().describe('The consensus slot.'),
    pair: z.array(z.string()).describe('The two models compared.'),
    candleSeconds: z.number().int(),
    horizonSteps: z.number().int(),
    interval: z.string().describe('The horizon as a duration, e.g. 6h.'),
    lastClose: z.number(),
    inputs: z.number().int().describe('Closes the models read.'),
    models: z.array(z.object({ model: z.string(), family: z.string(), points: z.array(z.object({ time: z.string(), price: z.number() })) })),
    horizons: z.array(modelCall.extend({ steps: z.number().int(), interval: z.string(), until: z.string(), models: z.record(z.string(), modelCall) })),
    quantiles: z.object({ model: z.string(), q10: z.array(z.number()), q50: z.array(z.number()), q90: z.array(z.number()), times: z.array(z.string()) }).optional().describe('Quantile bands of the finance-native model, when it ran.'),
    ...modelCall.shape,
    neutralBandPct: z.number(),
    signalMultiple: z.number(),
    verdict: z.string().describe('Whether the two models agree.'),
    distancePct: z.number(),
    maxDistancePct: z.number(),
    commentary: z.looseObject({ confidence: z.string(), call: z.string(), supporting: z.array(z.string()), contradicting: z.array(z.string()), method: z.string() }),
    servedBy: z.record(z.string(), z.string()).describe('What served each model slot.'),
    generatedAt: z.string(),
    attestation: z.unknown().optional(),
  })
  .describe('Two-model forecast with quantile bands, verdict and commentary.');

export async function forecastSeries(
  service: ForecastService,
  ledger: AccuracyLedger | undefined,
  subject: ForecastSubject,
  series: readonly SeriesPoint[],
  candleSeconds: number,
  steps: number,
  /** Unix time of the last close (the index head): step k is k candles after it. */
  originTs: number,
) {
  const history = series.slice(-FORECAST_LIMITS.maxInputs);
  if (history.length < FORECAST_LIMITS.minInputs) {
    throw new SibylError('forecast_unavailable', `a forecast needs at least ${FORECAST_LIMITS.minInputs} candles; ${subject.asset} has ${history.length} at ${durationLabel(candleSeconds)}; nothing was charged`);
  }
  const inputs = history.map((c) => c.close);
  const answer = await service.forecast({ model: CONSENSUS, inputs, horizon: steps });
  const timeAt = (step: number) => new Date((originTs + step * candleSeconds) * 1000).toISOString();
  const last = answer.lastClose;
  const lead = leadModel(answer);

  // Each step's call against the model's own noise at that step.
  const at = (m: ForecastAnswer['models'][number], h: number) => {
    const d = (m.points[h - 1]! / last - 1) * 100;
    return { driftPct: percent(d), direction: direction(d, m.noisePct[h - 1]), noisePct: m.noisePct[h - 1]! };
  };
  const horizons = reportedHorizons(steps).map((h) => ({
    steps: h, interval: durationLabel(h * candleSeconds), until: timeAt(h), ...at(lead, h),
    models: Object.fromEntries(answer.models.map((m) => [m.model, at(m, h)])),
  }));

  const interval = durationLabel(steps * candleSeconds);
  const track = ledger ? await trackRecord(ledger, subject.asset, subject.chain, interval) : undefined;
  if (ledger) {
    await ledger.record({ id: randomUUID(), ...subject, interval, originTs, dueTs: originTs + steps * candleSeconds, lastClose: last, calls: ledgerCalls(answer) });
  }

  return {
    model: CONSENSUS,
    pair: [...CONSENSUS_PAIR],
    candleSeconds,
    horizonSteps: steps,
    interval,
    lastClose: last,
    inputs: inputs.length,
    models: answer.models.map((m) => ({ model: m.model, family: m.family, points: m.points.map((p, i) => ({ time: timeAt(i + 1), price: p })) })),
    horizons,
    quantiles: lead.quantiles && { model: lead.model, q10: lead.quantiles.q10, q50: lead.quantiles.q50, q90: lead.quantiles.q90, times: lead.points.map((_, i) => timeAt(i + 1)) },
    driftPct: lead.driftPct,
    direction: lead.direction,
    noisePct: lead.noisePct[steps - 1]!,
    neutralBandPct: NEUTRAL_BAND_PCT,
    signalMultiple: SIGNAL_MULTIPLE,
    verdict: answer.consensus!.verdict,
    distancePct: answer.consensus!.distancePct,
    maxDistancePct: answer.consensus!.maxDistancePct,
    commentary: commentary({ lastClose: last, lead, consensus: answer.consensus!, history, track }),
    servedBy: answer.servedBy,
    generatedAt: answer.generatedAt,
    ...('attestation' in answer && { attestation: answer.attestation }),
  };
}

/** The model a forecast's call is taken from: the finance-native one when it ran. */
function leadModel(answer: ForecastAnswer) {
  return answer.models.find((m) => m.quantiles) ?? answer.models[0]!;
}

/** What the ledger scores of a consensus forecast: each model's call, the consensus (neutral on divergence) and the baselines. */
export function ledgerCalls(answer: ForecastAnswer): Record<string, ForecastCall> {
  const lead = leadModel(answer);
  const calls: Record<string, ForecastCall> = Object.fromEntries(answer.models.map((m) => [m.model, { point: m.points[m.points.length - 1]!, direction: m.direction }]));
  calls[CONSENSUS] = { point: lead.points[lead.points.length - 1]!, direction: answer.consensus?.verdict === 'CONSENSUS' ? lead.direction : 'neutral' };
  return withBaselines(calls, answer.lastClose);
}

/** The consensus's scored hit rate for this asset, chain and horizon beside always bullish's: live calls when any were decisive, else the backfill's. */
async function trackRecord(ledger: AccuracyLedger, asset: string, chain: string, interval: string): Promise<TrackRecord | undefined> {
  for (const origin of ['live', 'backfill'] as Origin[]) {
    const [mine, base] = await Promise.all([CONSENSUS, ALWAYS_BULLISH].map((model) => ledger.row({ asset, chain, interval, model, origin })));
    if (mine?.direction_samples && mine.direction_hit_rate !== null) return { hitRate: mine.direction_hit_rate, calls: mine.direction_samples, baseRate: base?.direction_hit_rate ?? null, origin };
  }
  return undefined;
}
