/**
 * The forecast model registry (docs/skills.md, "Forecasts"): every model id Sibyl knows, its family and
 * whether it produces quantiles, and the in-process model that serves it by default. A slot
 * without an in-process model is offered only when `FORECAST_BACKEND_<ID>` binds it to an HTTP
 * inference server.
 */
import type { InProcessMethod } from './models/index.js';

export interface ModelSlot {
  readonly id: string;
  readonly family: 'general' | 'finance-native';
  /** Whether answers carry q10/q50/q90 (required of an HTTP backend bound to the slot). */
  readonly quantiles: boolean;
  readonly inProcess?: InProcessMethod;
}

export const MODEL_SLOTS: readonly ModelSlot[] = [
  { id: 'modelA-2.5', family: 'general', quantiles: false, inProcess: 'ets' },
  // One listing names the general model 3.0: served only from a configured backend.
  { id: 'modelA-3.0', family: 'general', quantiles: false },
  { id: 'modelB-mini', family: 'finance-native', quantiles: true, inProcess: 'ewma' },
  { id: 'modelB-small', family: 'finance-native', quantiles: true, inProcess: 'garch' },
  { id: 'modelB-base', family: 'finance-native', quantiles: true, inProcess: 'gjr' },
];

/** The general and the finance-native model `consensus` runs side by side. */
export const CONSENSUS_PAIR = ['modelA-2.5', 'modelB-small'] as const;
export const CONSENSUS = 'consensus';

/** The inputs and horizon every model accepts (docs/skills.md, "Forecasts"). */
export const FORECAST_LIMITS = { minInputs: 16, maxInputs: 1024, minHorizon: 1, maxHorizon: 256, defaultHorizon: 8 } as const;

/** `FORECAST_BACKEND_MODELB_SMALL` for `modelB-small`. */
export function backendEnvName(id: string): string {
  return `FORECAST_BACKEND_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

export function slot(id: string): ModelSlot | undefined {
  return MODEL_SLOTS.find((s) => s.id === id);
}
