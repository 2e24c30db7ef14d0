/**
 * How much of a requested period the index's history covers. An answer over a period longer than
 * the history says so instead of passing the shorter span off as the period: charts count the
 * candles that hold history, rankings state the window their changes are measured over.
 */

/** Why a period is not fully covered: the index begins later, or the token's first price does. */
export type CoverageReason = 'index_history' | 'token_history';

export interface Coverage {
  /** Unix seconds: the earliest moment the figures hold history for, and the end (the index head). */
  readonly from: number;
  readonly to: number;
  /** Where the period asked to begin: its length before the head, for charts as for rankings. */
  readonly periodFrom: number;
  readonly complete: boolean;
  readonly reason?: CoverageReason;
  /** Charts only: candles holding history, and how many the whole period has. */
  readonly candles?: number;
  readonly periodCandles?: number;
}

/** A window [periodFrom, to] read from an index whose history begins at `historyStart`. */
export function windowCoverage(periodFrom: number, to: number, historyStart: number | null): Coverage {
  if (historyStart === null || historyStart <= periodFrom) return { from: periodFrom, to, periodFrom, complete: true };
  return { from: Math.min(historyStart, to), to, periodFrom, complete: false, reason: 'index_history' };
}

/**
 * Candles of `candleSeconds` cut from `periodFrom` to `to`: `candles` of them hold history, the
 * first price inside the window being at `firstPriceTs` when no price precedes the window.
 */
export function candleCoverage(c: { periodFrom: number; to: number; candleSeconds: number; candles: number; firstPriceTs: number | null; historyStart: number | null }): Coverage {
  const periodCandles = Math.floor((c.to - c.periodFrom) / c.candleSeconds) + 1;
  if (c.candles >= periodCandles) return { from: c.periodFrom, to: c.to, periodFrom: c.periodFrom, complete: true, candles: c.candles, periodCandles };
  const from = c.firstPriceTs ?? c.to;
  // The token was priced as soon as the index begins (within a candle): the index is the limit.
  const byIndex = c.historyStart !== null && from - c.historyStart < c.candleSeconds;
  return { from, to: c.to, periodFrom: c.periodFrom, complete: false, reason: byIndex ? 'index_history' : 'token_history', candles: c.candles, periodCandles };
}

/** Days, hours or minutes, for sentences. */
function span(seconds: number): string {
  if (seconds >= 86_400) return `${+(seconds / 86_400).toFixed(1)} days`;
  if (seconds >= 3_600) return `${+(seconds / 3_600).toFixed(1)} hours`;
  return `${Math.max(0, Math.round(seconds / 60))} minutes`;
}

/** The coverage as an answer carries it: times as ISO strings or unix seconds like the rest of the answer, and a note when the period is not covered. */
export function describeCoverage(c: Coverage, times?: 'iso'): CoverageBody<string>;
export function describeCoverage(c: Coverage, times: 'epoch'): CoverageBody<number>;
export function describeCoverage(c: Coverage, times: 'iso' | 'epoch' = 'iso'): CoverageBody<string | number> {
  const t = (s: number) => (times === 'iso' ? new Date(s * 1000).toISOString() : s);
  const note = c.complete
    ? undefined
    : `history covers ${span(c.to - c.from)} of the ${span(c.to - c.periodFrom)} asked for: ${c.reason === 'index_history' ? 'the index' : 'the token\'s price history'} begins at ${new Date(c.from * 1000).toISOString()}; figures are over that span, not the full period`;
  return {
    from: t(c.from),
    to: t(c.to),
    ...(c.candles !== undefined && { candles: c.candles, periodCandles: c.periodCandles }),
    periodFrom: t(c.periodFrom),
    complete: c.complete,
    ...(!c.complete && { reason: c.reason, note }),
  };
}

/** A coverage as answers carry it, times as ISO strings (T = string) or unix seconds (T = number). */
export interface CoverageBody<T extends string | number = string> {
  from: T;
  to: T;
  candles?: number;
  periodCandles?: number | undefined;
  periodFrom: T;
  complete: boolean;
  reason?: CoverageReason | undefined;
  note?: string | undefined;
}
