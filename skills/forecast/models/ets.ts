/**
 * The general model (`modelA-2.5`): AutoETS from `@bsull/augurs` (Rust compiled to WASM) on log
 * closes, so multiplicative moves become additive and forecasts stay positive. The WASM is
 * loaded with `initSync` from the package's own file: its async `init()` fetches a URL and fails
 * offline in Node.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AutoETS, initSync } from '@bsull/augurs/ets';
import { Z90 } from '../signal.js';
import type { ModelForecast } from './types.js';

let ready = false;
function load(): void {
  if (ready) return;
  // The package exports only its JS entry points; the wasm file sits beside them. (require.resolve,
  // not import.meta.resolve: worker threads load this module through tsx's CommonJS hook.)
  const dir = dirname(createRequire(import.meta.url).resolve('@bsull/augurs/ets'));
  initSync({ module: readFileSync(join(dir, 'ets_bg.wasm')) });
  ready = true;
}

export function etsForecast(closes: readonly number[], horizon: number): ModelForecast {
  load();
  const model = new AutoETS(1, 'ZZN'); // error and trend chosen by AIC, no season
  model.fit(Float64Array.from(closes, Math.log));
  const { point, intervals } = model.predict(horizon, 0.8);
  // The 80% interval on log closes spans 2·Z90 standard errors: the model's own noise per step.
  const stdErr = intervals?.lower.map((lo, i) => (intervals.upper[i]! - lo) / (2 * Z90));
  return stdErr?.every(Number.isFinite) ? { points: point.map(Math.exp), stdErr } : { points: point.map(Math.exp) };
}
