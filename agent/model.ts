/**
 * The model factory: the chat model that takes the report agent's planner seat, built from
 * configuration. With a model named (SIBYL_LLM_MODEL) it is ChatOpenAI on that OpenAI-compatible
 * endpoint; otherwise the offline planner as a chat model, which knows the agent's tools and the
 * skills this deployment has turned off. One set of `openai` client options
 * serves both the chat model and an `OpenAI` client of our own, which probes the endpoint
 * (@langchain/openai 1.5.8 takes client options, not a client: its `client` is internal).
 */
import { OpenAI, type ClientOptions } from 'openai';
import { ChatOpenAI } from '@langchain/openai';
import { OfflineChatModel } from '../graph/offline/chat-model.js';
import type { ReportModel } from '../graph/planners.js';
import { agentTools, unavailableTools } from '../graph/tools.js';
import type { Registry } from '../skills/core/registry.js';

export interface LlmSettings {
  readonly model: string;
  readonly baseUrl: string | undefined;
  readonly apiKey: string | undefined;
}

export interface ModelReadiness {
  /** The endpoint answered the model list with this key. */
  readonly ok: boolean;
  /** `offline` or `llm:<model>`. */
  readonly planner: string;
  /** The named model is among those the endpoint lists. */
  readonly listed?: boolean;
  /** Why it is not ok: an HTTP status or the error's name (never the URL or key). */
  readonly detail?: string;
}

export interface PlannerModel extends ReportModel {
  /** A cheap, bounded check that the model endpoint answers (start-up logging, health). */
  probe(): Promise<ModelReadiness>;
}

/** Most recent messages a language model is sent (the room keeps more). */
const MODEL_HISTORY = 24;
/** A probe gives up after this; it never holds up start-up or a health check. */
export const PROBE_TIMEOUT_MS = 3_000;

/** The `openai` client options for a configured endpoint. */
export function clientOptions(llm: LlmSettings): ClientOptions {
  return {
    // Local OpenAI-compatible servers ignore the key, but the client requires one.
    apiKey: llm.apiKey ?? 'not-needed',
    ...(llm.baseUrl && { baseURL: llm.baseUrl }),
  };
}

export function plannerModel(llm: LlmSettings | undefined, registry: Registry): PlannerModel {
  if (!llm) {
    const chat = new OfflineChatModel([...agentTools(registry), ...unavailableTools(registry)]);
    return { chat, label: 'offline', probe: async () => ({ ok: true, planner: 'offline' }) };
  }
  const options = clientOptions(llm);
  const label = `llm:${llm.model}`;
  const client = new OpenAI({ ...options, timeout: PROBE_TIMEOUT_MS, maxRetries: 0 });
  const chat = new ChatOpenAI({ model: llm.model, apiKey: options.apiKey!, configuration: options, maxRetries: 1, temperature: 0 });
  return { chat, label, historyWindow: MODEL_HISTORY, probe: () => probe(client, llm.model, label) };
}

/** What start-up says about a probe's result: nothing when the endpoint is ready. */
export function readinessWarning(r: ModelReadiness): string | undefined {
  if (!r.ok) return `warning: the ${r.planner} endpoint did not answer (${r.detail}); reports will fail until it does`;
  if (r.listed === false) return `warning: the model endpoint does not list ${r.planner.slice('llm:'.length)}`;
  return undefined;
}

async function probe(client: OpenAI, model: string, planner: string): Promise<ModelReadiness> {
  try {
    const page = await client.models.list();
    return { ok: true, planner, listed: page.data.some((m) => m.id === model) };
  } catch (err) {
    return { ok: false, planner, detail: err instanceof OpenAI.APIError && err.status ? `HTTP ${err.status}` : err instanceof Error ? err.name : 'unreachable' };
  }
}
