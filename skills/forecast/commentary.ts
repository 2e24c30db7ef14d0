/**
 * The chart forecast's commentary: named factors, each filed as supporting or contradicting by
 * what it means for the lead model's call (bullish, bearish or neutral); the commentary's own
 * `call` is the consensus's, `none` when the models disagree. A band that straddles the last close
 * is a reason to doubt a directional call and a reason to believe a neutral one; a band wholly on
 * the call's side is a reason to believe it.
 */
import { percent } from './precision.js';
import { NEUTRAL_BAND_PCT, SIGNAL_MULTIPLE, type Direction } from './signal.js';

export interface CommentaryInput {
  readonly lastClose: number;
  /** The model the call is taken from (the finance-native one when it ran). */
  readonly lead: {
    readonly model: string;
    readonly driftPct: number;
    readonly direction: Direction;
    readonly noisePct: readonly number[];
    readonly quantiles?: { readonly q10: readonly number[]; readonly q90: readonly number[] } | undefined;
  };
  /** The models' agreement (skills/forecast/agreement.ts): its verdict and the statement that names both models' calls. */
  readonly consensus: { readonly verdict: 'CONSENSUS' | 'DIVERGENCE'; readonly statement: string };
  /** The series forecast, oldest first. */
  readonly history: readonly { readonly close: number; readonly volumeUsd: number }[];
  /** The scored record of this forecast for the asset and horizon, when there is one. */
  readonly track?: TrackRecord | undefined;
}

export interface TrackRecord {
  readonly hitRate: number;
  readonly calls: number;
  /** Always bullish's hit rate on the same outcomes: the base rate. */
  readonly baseRate: number | null;
  readonly origin: 'live' | 'backfill';
}

export const COMMENTARY_METHOD = 'factors: call strength against the model\'s own noise, model agreement, momentum over the last quarter of the series, where the q10-q90 band lies against the last close, volume behind the recent move, scored track record';

export function commentary(input: CommentaryInput) {
  const { lead, consensus, lastClose } = input;
  const call = lead.direction;
  const sign = call === 'bullish' ? 1 : call === 'bearish' ? -1 : 0;
  const supporting: string[] = [];
  const contradicting: string[] = [];
  const file = (supports: boolean, text: string) => (supports ? supporting : contradicting).push(text);

  // Call strength: how far the drift stands out of the model's own noise.
  const noise = lead.noisePct[lead.noisePct.length - 1] ?? 0;
  const strength = noise > 0 ? percent(Math.abs(lead.driftPct) / noise, 2) : null;
  if (sign === 0) {
    file(false, `the ${lead.model} drift of ${lead.driftPct}% is within ${SIGNAL_MULTIPLE} standard error of its own forecast (${percent(noise, 2)}%) or the ±${NEUTRAL_BAND_PCT}% band: no directional call`);
  } else {
    file(true, `the ${lead.model} drift of ${lead.driftPct}% is ${strength ?? 'many'} standard errors of its own forecast (${percent(noise, 2)}%)`);
  }

  file(consensus.verdict === 'CONSENSUS', `${consensus.verdict}: ${consensus.statement}`);

  const closes = input.history.map((c) => c.close);
  const lookback = Math.min(closes.length - 1, Math.max(4, Math.round(closes.length / 4)));
  const momentumPct = percent((closes[closes.length - 1]! / closes[closes.length - 1 - lookback]! - 1) * 100, 2);
  const momentum = Math.abs(momentumPct) > NEUTRAL_BAND_PCT ? Math.sign(momentumPct) : 0;
  if (sign !== 0 && momentum !== 0) file(momentum === sign, `price moved ${momentumPct}% over the last ${lookback} candles`);

  if (lead.quantiles) {
    const n = lead.quantiles.q10.length - 1;
    const q10 = lead.quantiles.q10[n]!;
    const q90 = lead.quantiles.q90[n]!;
    const range = `${percent((q10 / lastClose - 1) * 100, 2)}% to ${percent((q90 / lastClose - 1) * 100, 2)}%`;
    const widthPct = percent(((q90 - q10) / lastClose) * 100, 2);
    const straddles = q10 <= lastClose && lastClose <= q90;
    if (sign === 0) file(straddles, straddles ? `the q10-q90 band (${range}) holds the last close: neither direction stands out` : `the whole q10-q90 band (${range}) lies on one side of the last close`);
    else if (straddles) file(false, `the q10-q90 band spans ${widthPct}% of the price (${range}) and holds the last close: the model gives the other direction at least a 10% chance`);
    else file(true, `the whole q10-q90 band (${range}) lies ${sign > 0 ? 'above' : 'below'} the last close`);
  }

  // Volume confirms the recent move: it backs the call when that move went the call's way.
  const volumes = input.history.map((c) => c.volumeUsd);
  const recent = volumes.slice(-lookback).reduce((a, b) => a + b, 0) / lookback;
  const average = volumes.reduce((a, b) => a + b, 0) / volumes.length;
  if (average > 0 && sign !== 0 && momentum !== 0) {
    const ratio = percent(recent / average, 2);
    const agrees = momentum === sign;
    if (ratio >= 1.25) file(agrees, `recent volume is ${ratio}x the series average behind the ${momentumPct}% move`);
    else if (ratio <= 0.75) file(!agrees, `recent volume is only ${ratio}x the series average behind the ${momentumPct}% move`);
  }

  const track = input.track;
  if (track && sign !== 0) {
    const beats = track.baseRate === null || track.hitRate > track.baseRate;
    file(beats, `this forecast's ${track.origin} hit rate here is ${track.hitRate} over ${track.calls} scored calls, against ${track.baseRate ?? 'no'} for always bullish`);
  }

  const confidence = sign === 0 || consensus.verdict === 'DIVERGENCE' ? 'low' : supporting.length > contradicting.length + 1 ? 'high' : supporting.length > contradicting.length ? 'medium' : 'low';
  // Models that disagree make no call; the factors still weigh the lead model's, and say whose.
  return { confidence, call: consensus.verdict === 'CONSENSUS' ? call : 'none', weighs: `${lead.model} ${call}`, supporting, contradicting, method: COMMENTARY_METHOD };
}
