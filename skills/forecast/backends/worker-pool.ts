/**
 * The in-process models run on a piscina pool of worker threads, so the two models of a
 * consensus forecast run in parallel on the machine's two cores and the event loop stays free.
 * Workers load the TypeScript sources through tsx, as the service itself does.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { IN_PROCESS_METHODS, type InProcessMethod } from '../models/index.js';
import type { ModelForecast } from '../models/types.js';
import { BackendFailed, type ModelBackend } from './types.js';

export class ForecastWorkers {
  private pool: Piscina | undefined;

  constructor(private readonly threads = Math.max(2, Math.min(4, availableParallelism()))) {}

  /** Threads start on first use (a server that never forecasts never pays for them). */
  private get workers(): Piscina {
    this.pool ??= new Piscina({
      filename: new URL('../worker.ts', import.meta.url).href,
      execArgv: ['--import', 'tsx'],
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: 60_000,
    });
    return this.pool;
  }

  /** Runs a tiny forecast on every thread so the first paid call does not pay for start-up. */
  async warm(): Promise<void> {
    const closes = Array.from({ length: 32 }, (_, i) => 100 + Math.sin(i));
    await Promise.all(Array.from({ length: this.threads }, (_, i) => this.run(i % 2 ? 'garch' : 'ets', closes, 2)));
  }

  run(method: InProcessMethod, closes: readonly number[], horizon: number, signal?: AbortSignal): Promise<ModelForecast> {
    return this.workers.run({ method, closes, horizon }, signal ? { signal } : {});
  }

  backend(method: InProcessMethod): ModelBackend {
    return {
      kind: 'in-process',
      servedBy: `in-process (${method})`,
      method: IN_PROCESS_METHODS[method].describe,
      forecast: async (closes, horizon, signal) => {
        try {
          return await this.run(method, closes, horizon, signal);
        } catch (err) {
          throw new BackendFailed(`in-process model ${method} failed: ${(err as Error).message}`);
        }
      },
    };
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }
}
