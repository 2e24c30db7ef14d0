/**
 * The forecast record of a price series (spec 2.3) as the chart forecast and the background
 * majors sell it: the consensus of the two models on the candle closes, points and bands with
 * their times, drift and direction at several horizons, the verdict, and a commentary that lists
 * the factors for and against the call. Each one is recorded in the accuracy ledger.
 */
import { randomUUID } from 'node:crypto';
import { CONSENSUS_PAIR, CONSENSUS, FORECAST_LIMITS } from './slots.js';
import { direction, NEUTRAL_BAND_PCT, type Direction } from './engine.js';
import { ALWAYS_BULLISH, durationLabel, withBaselines, type AccuracyLedger, type ForecastCall } from './ledger.js';
import type { ForecastService } from './service.js';
import { SibylError } from '../errors.js';

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

const round = (n: number, d = 4) => Math.round(n * 10 ** d) / 10 ** d;

/** The horizons (in candles) a chart forecast reports drift and direction at. */
export function reportedHorizons(steps: number): number[] {
  return [...new Set([1, Math.max(1, Math.round(steps / 3)), steps])];
}

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
  const lead = answer.models.find((m) => m.quantiles) ?? answer.models[0]!;

  const horizons = reportedHorizons(steps).map((h) => {
    const perModel = Object.fromEntries(answer.models.map((m) => {
      const d = (m.points[h - 1]! / last - 1) * 100;
      return [m.model, { driftPct: round(d), direction: direction(d) }];
    }));
    const leadDrift = (lead.points[h - 1]! / last - 1) * 100;
    return { steps: h, interval: durationLabel(h * candleSeconds), until: timeAt(h), driftPct: round(leadDrift), direction: direction(leadDrift), models: perModel };
  });

  const interval = durationLabel(steps * candleSeconds);
  const calls: Record<string, ForecastCall> = Object.fromEntries(answer.models.map((m) => [m.model, { point: m.points[steps - 1]!, direction: m.direction }]));
  calls[CONSENSUS] = { point: lead.points[steps - 1]!, direction: answer.consensus?.verdict === 'CONSENSUS' ? lead.direction : 'neutral' };
  const track = ledger ? await trackRecord(ledger, subject.asset, subject.chain, interval) : undefined;
  if (ledger) {
    await ledger.record({ id: randomUUID(), ...subject, interval, originTs, dueTs: originTs + steps * candleSeconds, lastClose: last, calls: withBaselines(calls, last) });
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
    neutralBandPct: NEUTRAL_BAND_PCT,
    verdict: answer.consensus!.verdict,
    distancePct: answer.consensus!.distancePct,
    maxDistancePct: answer.consensus!.maxDistancePct,
    commentary: commentary(answer, lead, history, track),
    servedBy: answer.servedBy,
    generatedAt: answer.generatedAt,
    ...('attestation' in answer && { attestation: answer.attestation }),
  };
}

type Answer = Awaited<ReturnType<ForecastService['forecast']>>;
type Track = { model: number | null; modelCalls: number; base: number | null } | undefined;

/** The consensus bucket of this asset, chain and horizon beside always bullish's: two reads. */
async function trackRecord(ledger: AccuracyLedger, asset: string, chain: string, interval: string): Promise<Track> {
  const [mine, base] = await Promise.all([CONSENSUS, ALWAYS_BULLISH].map((model) => ledger.row({ asset, chain, interval, model })));
  if (!mine || !mine.direction_samples) return undefined;
  return { model: mine.direction_hit_rate, modelCalls: mine.direction_samples, base: base?.direction_hit_rate ?? null };
}

/** Confidence from named factors, each one stated as supporting or contradicting the call. */
function commentary(answer: Answer, lead: Answer['models'][number], history: readonly SeriesPoint[], track: Track) {
  const call: Direction = lead.direction;
  const supporting: string[] = [];
  const contradicting: string[] = [];
  const sign = call === 'bullish' ? 1 : call === 'bearish' ? -1 : 0;
  if (sign === 0) contradicting.push(`the finance-native model's drift (${lead.driftPct}%) is inside the ±${NEUTRAL_BAND_PCT}% neutral band: no directional call`);

  const verdict = answer.consensus!;
  (verdict.verdict === 'CONSENSUS' ? supporting : contradicting).push(
    `${verdict.verdict}: the models' drifts are ${verdict.distancePct} points apart (agreement needs the same direction within ${verdict.maxDistancePct})`,
  );

  const closes = history.map((c) => c.close);
  const lookback = Math.min(closes.length - 1, Math.max(4, Math.round(closes.length / 4)));
  const momentumPct = round((closes[closes.length - 1]! / closes[closes.length - 1 - lookback]! - 1) * 100, 2);
  if (sign !== 0 && Math.abs(momentumPct) > NEUTRAL_BAND_PCT) {
    (Math.sign(momentumPct) === sign ? supporting : contradicting).push(`price moved ${momentumPct}% over the last ${lookback} candles`);
  }

  if (lead.quantiles) {
    const n = lead.quantiles.q10.length - 1;
    const widthPct = round(((lead.quantiles.q90[n]! - lead.quantiles.q10[n]!) / answer.lastClose) * 100, 2);
    const drift = Math.abs(lead.driftPct);
    (drift * 4 < widthPct ? contradicting : supporting).push(`the q10-q90 band spans ${widthPct}% of the price against a drift of ${round(drift, 2)}%`);
  }

  const volumes = history.map((c) => c.volumeUsd);
  const recent = volumes.slice(-lookback).reduce((a, b) => a + b, 0) / lookback;
  const average = volumes.reduce((a, b) => a + b, 0) / volumes.length;
  if (average > 0 && sign !== 0) {
    const ratio = round(recent / average, 2);
    if (ratio >= 1.25) supporting.push(`recent volume is ${ratio}x the series average`);
    else if (ratio <= 0.75) contradicting.push(`recent volume is ${ratio}x the series average`);
  }

  if (track && track.model !== null) {
    const beats = track.base === null || track.model > track.base;
    (beats ? supporting : contradicting).push(`this forecast's past hit rate here is ${track.model} over ${track.modelCalls} scored calls, against ${track.base ?? 'no'} for always bullish`);
  }

  const confidence = sign === 0 || verdict.verdict === 'DIVERGENCE' ? 'low' : supporting.length > contradicting.length + 1 ? 'high' : supporting.length > contradicting.length ? 'medium' : 'low';
  return { confidence, call, supporting, contradicting, method: 'factors: model agreement, momentum over the last quarter of the series, band width against drift, volume trend, scored track record' };
}
