/**
 * The forecast record of a price series (docs/skills.md, "Chart forecast") as the chart forecast and the background
 * majors sell it: the consensus of the two models on the candle closes, points and bands with
 * their times, each model's drift, call and range and the consensus's (none when they disagree)
 * at several horizons, the verdict, and a commentary that lists
 * the factors for and against the call. Each one is recorded in the accuracy ledger.
 */
import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import { CONSENSUS_PAIR, CONSENSUS, FORECAST_LIMITS } from './slots.js';
import { commentary, type TrackRecord } from './commentary.js';
import { agreement, rangeAt } from './agreement.js';
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

const modelCall = z.object({ driftPct: z.number(), direction: z.string().describe('bullish, bearish or neutral against the model\'s noise.'), noisePct: z.number() });
const ranged = modelCall.extend({ q10: z.number().describe('The model\'s q10 there (its median less 1.2816 standard errors when it states no quantiles).'), q90: z.number() });
/** The consensus at a step: the shared call, or none when the models disagree. */
const consensusCall = z.object({
  driftPct: z.number().nullable().describe('The lead (finance-native) model\'s drift when the models agree; null when they disagree.'),
  direction: z.enum(['bullish', 'bearish', 'neutral']).nullable().describe('The models\' shared call; null when they disagree.'),
  noisePct: z.number().describe('The lead model\'s noise.'),
  verdict: z.enum(['CONSENSUS', 'DIVERGENCE']),
  statement: z.string().describe('"models agree: <call> (...)" or "models disagree (...); no direction", naming both models\' figures.'),
});

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
    models: z.array(ranged.extend({ model: z.string(), family: z.string(), points: z.array(z.object({ time: z.string(), price: z.number() })) })).describe('Each model\'s points and, at the horizon, its drift, call, noise and q10-q90.'),
    horizons: z.array(consensusCall.extend({ steps: z.number().int(), interval: z.string(), until: z.string(), models: z.record(z.string(), ranged) })),
    quantiles: z.object({ model: z.string(), q10: z.array(z.number()), q50: z.array(z.number()), q90: z.array(z.number()), times: z.array(z.string()) }).optional().describe('Quantile bands of the finance-native model, when it ran.'),
    ...consensusCall.shape,
    neutralBandPct: z.number(),
    signalMultiple: z.number(),
    sameCall: z.boolean(),
    bandsOverlap: z.boolean().describe('Whether the two models\' q10-q90 ranges at the horizon overlap.'),
    distancePct: z.number().describe('Points between the two models\' drifts (reported, not judged).'),
    rule: z.string().describe('When the models agree.'),
    commentary: z.looseObject({ confidence: z.string(), call: z.string().describe('The consensus\'s call; none when the models disagree.'), weighs: z.string().describe('The model call the factors weigh.'), supporting: z.array(z.string()), contradicting: z.array(z.string()), method: z.string() }),
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

  // Each step's call against the model's own noise at that step, with its q10-q90 range there.
  const at = (m: ForecastAnswer['models'][number], h: number) => {
    const d = (m.points[h - 1]! / last - 1) * 100;
    return { driftPct: percent(d), direction: direction(d, m.noisePct[h - 1]), noisePct: m.noisePct[h - 1]!, ...rangeAt(m, h) };
  };
  // The consensus at a step: the models' agreement there (skills/forecast/agreement.ts); no direction when they disagree.
  const consensusAt = (h: number) => {
    const [a, b] = answer.models.map((m) => ({ model: m.model, ...at(m, h) })) as [ReturnType<typeof at> & { model: string }, ReturnType<typeof at> & { model: string }];
    const agreed = agreement(a, b);
    const own = at(lead, h);
    return { driftPct: agreed.direction ? own.driftPct : null, direction: agreed.direction, noisePct: own.noisePct, verdict: agreed.verdict, statement: agreed.statement };
  };
  const horizons = reportedHorizons(steps).map((h) => ({
    steps: h, interval: durationLabel(h * candleSeconds), until: timeAt(h), ...consensusAt(h),
    models: Object.fromEntries(answer.models.map((m) => [m.model, at(m, h)])),
  }));
  const consensus = answer.consensus!;

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
    models: answer.models.map((m) => ({ model: m.model, family: m.family, ...at(m, steps), points: m.points.map((p, i) => ({ time: timeAt(i + 1), price: p })) })),
    horizons,
    quantiles: lead.quantiles && { model: lead.model, q10: lead.quantiles.q10, q50: lead.quantiles.q50, q90: lead.quantiles.q90, times: lead.points.map((_, i) => timeAt(i + 1)) },
    // The consensus's call: none (null) when the models disagree; each model's own is in `models`.
    driftPct: answer.driftPct,
    direction: answer.direction,
    noisePct: lead.noisePct[steps - 1]!,
    neutralBandPct: NEUTRAL_BAND_PCT,
    signalMultiple: SIGNAL_MULTIPLE,
    verdict: consensus.verdict,
    statement: consensus.statement,
    sameCall: consensus.sameCall,
    bandsOverlap: consensus.bandsOverlap,
    distancePct: consensus.distancePct,
    rule: consensus.rule,
    commentary: commentary({ lastClose: last, lead, consensus, history, track }),
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
