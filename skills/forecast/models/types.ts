/** What every forecast model answers, whatever serves it. */
export interface ModelForecast {
  /** Point forecast per step (price, not log). */
  readonly points: number[];
  /** Quantile bands per step, when the model produces them. */
  readonly quantiles?: { readonly q10: number[]; readonly q50: number[]; readonly q90: number[] };
  /** Standard error of the log price per step, when the model states one without quantiles. */
  readonly stdErr?: number[];
}
