/** The in-process models by method name: what a worker thread (or a test) runs for a slot. */
import { etsForecast } from './ets.js';
import type { ModelForecast } from './types.js';
import { volatilityForecast } from './volatility.js';

export const IN_PROCESS_METHODS = {
  ets: { describe: 'AutoETS on log closes (@bsull/augurs)', quantiles: false, run: etsForecast },
  ewma: { describe: 'EWMA volatility (lambda 0.94), filtered historical simulation', quantiles: true, run: (c, h) => volatilityForecast('ewma', c, h) },
  garch: { describe: 'GARCH(1,1), filtered historical simulation', quantiles: true, run: (c, h) => volatilityForecast('garch', c, h) },
  gjr: { describe: 'GJR-GARCH(1,1,1) (asymmetric), filtered historical simulation', quantiles: true, run: (c, h) => volatilityForecast('gjr', c, h) },
} as const satisfies Record<string, { describe: string; quantiles: boolean; run: (closes: readonly number[], horizon: number) => ModelForecast }>;

export type InProcessMethod = keyof typeof IN_PROCESS_METHODS;

export function runInProcess(method: InProcessMethod, closes: readonly number[], horizon: number): ModelForecast {
  return IN_PROCESS_METHODS[method].run(closes, horizon);
}
