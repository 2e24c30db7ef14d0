/**
 * The forecast service: binds every model slot to its backend (an in-process model on the
 * worker pool, or the HTTP server of `FORECAST_BACKEND_<ID>`), runs a request's models in
 * parallel, assembles the record and, with `FORECAST_SIGNING_KEY`, attests it.
 */
import { keccak256, toHex, type Address, type Hex } from 'viem';
import { SibylError } from '../core/errors.js';
import { httpBackend } from './backends/http.js';
import { BackendFailed, type ModelBackend } from './backends/types.js';
import { ForecastWorkers } from './backends/worker-pool.js';
import { AGREEMENT_RULE } from './agreement.js';
import { assembleForecast, attest, canonicalJson, forecastInputSchema, modelsFor, type ForecastInput } from './engine.js';
import { IN_PROCESS_METHODS } from './models/index.js';
import { CONSENSUS, CONSENSUS_PAIR, FORECAST_LIMITS, MODEL_SLOTS, backendEnvName } from './slots.js';

/** How the forecast engine runs, read from the environment by server/config.ts. */
export interface ForecastConfig {
  readonly threads: number;
  /** Model id → HTTP inference server (FORECAST_BACKEND_<ID>). */
  readonly backends: Readonly<Record<string, string>>;
  readonly backendTimeoutMs: number;
  readonly signingKey: Hex | undefined;
  /** The service token whose holders call the forecast endpoint directly (on Base). */
  readonly tokenAddress: Address;
  /** Whether this instance runs the background forecasts of the majors and the ledger scoring. */
  readonly jobs: boolean;
  /** How often the background job forecasts the ledger's majors. */
  readonly precomputeIntervalMs: number;
}

export class ForecastService {
  private readonly backends = new Map<string, ModelBackend>();
  /** Ids a request may name here: consensus (when its pair is served) and every bound slot. */
  readonly modelIds: string[];
  readonly input: ReturnType<typeof forecastInputSchema>;

  constructor(private readonly config: ForecastConfig, private readonly workers = new ForecastWorkers(config.threads)) {
    for (const slot of MODEL_SLOTS) {
      const url = config.backends[slot.id];
      if (url) this.backends.set(slot.id, httpBackend(slot, url, config.backendTimeoutMs));
      else if (slot.inProcess) this.backends.set(slot.id, workers.backend(slot.inProcess));
    }
    const served = MODEL_SLOTS.filter((s) => this.backends.has(s.id)).map((s) => s.id);
    this.modelIds = CONSENSUS_PAIR.every((id) => this.backends.has(id)) ? [CONSENSUS, ...served] : served;
    this.input = forecastInputSchema(this.modelIds);
  }

  warm(): Promise<void> {
    return this.workers.warm();
  }

  /** Runs the request's models side by side. A backend that fails makes the forecast unavailable (503). */
  async forecast(input: ForecastInput, signal?: AbortSignal) {
    const ids = modelsFor(input.model);
    let answers;
    try {
      answers = await Promise.all(ids.map(async (id) => [id, await this.backends.get(id)!.forecast(input.inputs, input.horizon, signal)] as const));
    } catch (err) {
      if (err instanceof BackendFailed) throw new SibylError('forecast_unavailable', `the forecast could not be produced: ${err.message}`);
      throw err;
    }
    const record = {
      ...assembleForecast(input, new Map(answers)),
      servedBy: Object.fromEntries(ids.map((id) => [id, this.backends.get(id)!.servedBy])),
      inputsHash: keccak256(toHex(canonicalJson(input.inputs))),
      generatedAt: new Date().toISOString(),
    };
    return this.config.signingKey ? { ...record, attestation: await attest(record, this.config.signingKey) } : record;
  }

  /** The models endpoint: every registry id and what serves it here. */
  catalogue() {
    const { minHorizon, maxHorizon, defaultHorizon, minInputs, maxInputs } = FORECAST_LIMITS;
    const limits = { horizon: { min: minHorizon, max: maxHorizon, default: defaultHorizon }, inputs: { min: minInputs, max: maxInputs } };
    const models = MODEL_SLOTS.map((slot) => {
      const backend = this.backends.get(slot.id);
      return {
        id: slot.id,
        family: slot.family,
        available: Boolean(backend),
        servedBy: backend?.kind ?? null,
        backend: backend ? (backend.kind === 'http' ? backend.servedBy : 'in-process worker thread') : null,
        method: backend?.method ?? null,
        ...(!backend && { reason: `no in-process model; set ${backendEnvName(slot.id)} to an HTTP inference server` }),
        quantiles: slot.quantiles,
        ...limits,
      };
    });
    return {
      object: 'model-catalogue',
      default: CONSENSUS,
      models: [
        {
          id: CONSENSUS, family: 'ensemble', available: this.modelIds.includes(CONSENSUS), servedBy: 'ensemble', backend: null,
          method: `runs ${CONSENSUS_PAIR.join(' and ')} in parallel; ${AGREEMENT_RULE}`,
          pair: [...CONSENSUS_PAIR], quantiles: true, ...limits,
        },
        ...models,
      ],
      inProcessMethods: Object.keys(IN_PROCESS_METHODS),
      attestation: this.config.signingKey ? 'eip191' : null,
    };
  }

  close(): Promise<void> {
    return this.workers.close();
  }
}

export type ForecastAnswer = Awaited<ReturnType<ForecastService['forecast']>>;

