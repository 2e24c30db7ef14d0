/**
 * A model slot bound to an HTTP inference server by `FORECAST_BACKEND_<ID>`. The contract:
 *
 *   POST <url>   {"model": "<id>", "inputs": [closes, oldest first], "horizon": n}
 *   200          {"points": [n prices], "quantiles"?: {"q10": [n], "q50": [n], "q90": [n]}}
 *
 * Every price positive and finite, exactly `horizon` per series, q10 <= q50 <= q90 per step;
 * `quantiles` is required of finance-native slots. Anything else, a non-200 or no answer
 * within the timeout is a failed backend: the forecast is unavailable and nothing is charged.
 */
import { z } from 'zod';
import type { ModelSlot } from '../slots.js';
import type { ModelForecast } from '../models/types.js';
import { BackendFailed, type ModelBackend } from './types.js';

const series = z.array(z.number().finite().positive());
const answer = z.object({
  points: series,
  quantiles: z.object({ q10: series, q50: series, q90: series }).optional(),
});

export function httpBackend(slot: ModelSlot, url: string, timeoutMs: number): ModelBackend {
  return {
    kind: 'http',
    servedBy: url,
    method: `HTTP inference server (${slot.family})`,
    async forecast(closes, horizon, signal) {
      let body: unknown;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ model: slot.id, inputs: closes, horizon }),
          signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
        });
        if (res.status !== 200) throw new BackendFailed(`${slot.id} backend answered HTTP ${res.status}`);
        body = await res.json();
      } catch (err) {
        if (err instanceof BackendFailed) throw err;
        throw new BackendFailed(`${slot.id} backend did not answer: ${(err as Error).message}`);
      }
      return checked(slot, horizon, body);
    },
  };
}

function checked(slot: ModelSlot, horizon: number, body: unknown): ModelForecast {
  const parsed = answer.safeParse(body);
  if (!parsed.success) throw new BackendFailed(`${slot.id} backend answered out of contract: ${parsed.error.issues[0]!.path.join('.')} ${parsed.error.issues[0]!.message}`);
  const { points, quantiles } = parsed.data;
  if (points.length !== horizon) throw new BackendFailed(`${slot.id} backend returned ${points.length} points for horizon ${horizon}`);
  if (slot.quantiles && !quantiles) throw new BackendFailed(`${slot.id} backend returned no quantiles (the slot produces q10/q50/q90)`);
  if (quantiles) {
    if ([quantiles.q10, quantiles.q50, quantiles.q90].some((q) => q.length !== horizon)) throw new BackendFailed(`${slot.id} backend returned quantiles of the wrong length`);
    if (quantiles.q10.some((q, i) => q > quantiles.q50[i]! || quantiles.q50[i]! > quantiles.q90[i]!)) throw new BackendFailed(`${slot.id} backend returned crossing quantiles`);
  }
  return quantiles ? { points, quantiles } : { points };
}
