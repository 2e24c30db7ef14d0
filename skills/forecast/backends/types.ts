/** What serves one model slot: the in-process worker pool or an HTTP inference server. */
import type { ModelForecast } from '../models/types.js';

export interface ModelBackend {
  /** `in-process: <method>` or the backing URL, as the models endpoint states it. */
  readonly servedBy: string;
  readonly kind: 'in-process' | 'http';
  readonly method: string;
  forecast(closes: readonly number[], horizon: number, signal?: AbortSignal): Promise<ModelForecast>;
}

/** A backend failed to answer (or answered out of contract): the forecast is unavailable. */
export class BackendFailed extends Error {}
