/**
 * The report agent: rooms, limits and the paid answer around the agent graph (report-agent.ts),
 * which is compiled once and shared by every request. A room is a checkpointed thread; one turn
 * at a time per room. The whole turn has a time budget; the answer is bounded and scrubbed of
 * every configured secret.
 *
 * Secrets a skill issued (keys generated for the caller) reach the caller only in the answer's
 * results: the model's tool messages and the written answer carry them stripped (a model is
 * never sent a caller's key), and the room's checkpointer strips them from the tool outcomes it
 * keeps (graph/checkpointer.ts).
 */
import { randomUUID } from 'node:crypto';
import { AIMessage, HumanMessage, RemoveMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { SibylError, type MissingCapability } from '../skills/core/errors.js';
import { nothingProduced, produced, type ProductDeclaration } from '../skills/core/produced.js';
import { redactIssued } from '../skills/core/issued-secrets.js';
import type { ReportRunner, SkillContext } from '../skills/core/context.js';
import type { Registry, Skill } from '../skills/core/registry.js';
import type { Store } from '../store/store.js';
import { bound, writeAnswer, MAX_ANALYSIS_CHARS, type ToolOutcome } from './answer.js';
import { textOf, type ReportModel } from './planners.js';
import { lastCall } from './offline/chat-model.js';
import { OfflinePlanner, type RefusalReason, type Suggestion } from './offline/planner.js';
import { createReportAgent, startTurn, type ReportAgentGraph } from './report-agent.js';
import { turnOutcomes } from './skill-calls.js';
import { agentTools, unavailableTools, type AgentTool } from './tools.js';

export { MAX_CALLS_PER_ROUND } from './report-agent.js';
/** Messages a room keeps; older turns are dropped whole. */
const ROOM_MESSAGES = 40;

export interface ReportRequest {
  readonly prompt: string;
  readonly roomId?: string | undefined;
  readonly userId?: string | undefined;
  readonly metadata?: Record<string, unknown> | undefined;
}

export interface ReportAnswer {
  readonly analysis: string;
  readonly toolsUsed: readonly { skill: string; args: Record<string, unknown> }[];
  readonly planner: string;
  /** The room the answer belongs to; null for a typed capability body, which has none. */
  readonly roomId: string | null;
  readonly userId?: string;
  readonly results: readonly ToolOutcome[];
  readonly provenance: readonly Record<string, unknown>[];
  readonly generatedAt: string;
}

export interface ReportAgentOptions {
  /** The agent's tools are the working skills the registry publishes on the agent surface. */
  readonly registry: Registry;
  /** The chat model in the planner's seat (agent/model.ts builds it from configuration). */
  readonly model: ReportModel;
  readonly context: SkillContext;
  readonly store: Store;
  readonly checkpointer: BaseCheckpointSaver;
  readonly maxToolRounds: number;
  /** Whole-turn time budget (the catalogue's response-time target). */
  readonly timeBudgetMs: number;
  /** Values that must never appear in an answer (keys, URLs with credentials). */
  readonly secrets: readonly string[];
}

export class ReportAgent implements ReportRunner {
  private readonly agent: ReportAgentGraph;
  /** The skills the agent knows: its tools, and those this deployment has turned off (named, never run). */
  private readonly known: readonly AgentTool[];
  /** The offline planner's measure of fit, asked before payment whichever model answers. */
  private readonly screener: OfflinePlanner;

  constructor(private readonly options: ReportAgentOptions) {
    const tools = agentTools(options.registry);
    this.known = [...tools, ...unavailableTools(options.registry)];
    this.screener = new OfflinePlanner(this.known);
    this.agent = createReportAgent({
      model: options.model,
      registry: options.registry,
      tools,
      known: this.known,
      context: options.context,
      scrub: (text) => this.scrub(text),
      maxToolRounds: options.maxToolRounds,
      checkpointer: options.checkpointer,
    });
  }

  /**
   * Refuses, before payment, a prompt no skill answers well: with the offline planner, exactly
   * what its plan would refuse (off-topic, injection only, a weak fit, a missing argument, a
   * capability this deployment lacks); with a language model, which may read paraphrase the
   * planner cannot, only what matches no skill at all (off-topic, injection only) and a question
   * about a capability this deployment lacks (which a model would answer with whatever tool
   * shares a word).
   */
  async screen(request: { prompt: string; roomId?: string | undefined }): Promise<void> {
    const room = request.roomId ? await this.room(request.roomId) : [];
    const plan = this.screener.plan(request.prompt, lastCall(room));
    if (plan.kind === 'call') {
      // The offline plan is what will run: when every call is refused by its own skill's admission
      // (a token no index holds, a chain not served), the first refusal is the answer, before payment.
      if (this.options.model.label === 'offline') await this.admitAny(plan.calls);
      return;
    }
    if (this.options.model.label !== 'offline' && !ALWAYS_REFUSED.has(plan.reason)) return;
    throw refusal(plan.text, plan.reason, plan.suggestions, plan.missing);
  }

  private async admitAny(calls: readonly { tool: AgentTool; args: Record<string, unknown> }[]): Promise<void> {
    let first: unknown;
    for (const { tool, args } of calls) {
      // A symbol with no chain is placed on a chain only when the tool runs (chain-choice.ts): not judged here.
      if (args.chain === undefined && 'chain' in tool.parameters.properties) return;
      try {
        await tool.skill.admit?.(tool.skill.input.parse(args), this.options.context);
        return;
      } catch (err) {
        first ??= err;
      }
    }
    if (first instanceof SibylError) throw first;
  }

  /** Answers a free-form prompt in its room. Throws `no_answer` when nothing was produced (nothing is charged then). */
  async ask(request: ReportRequest, outer?: AbortSignal): Promise<ReportAnswer> {
    const roomId = request.roomId ?? `room_${randomUUID()}`;
    const lock = `agent:lock:${roomId}`;
    const holder = randomUUID();
    if (!(await this.options.store.reserve(lock, holder, this.options.timeBudgetMs + 5_000))) {
      throw new SibylError('room_busy', `room ${roomId} is answering another question; send the next one when it is done`);
    }
    const signal = budget(this.options.timeBudgetMs, outer);
    try {
      // The request's own parts (its room, its deadline) travel in the config, not in the graph.
      const prior = await this.room(roomId);
      const { input, config } = startTurn([...roomUpdates(prior), new HumanMessage(request.prompt)], roomId, signal, this.options.maxToolRounds);
      const state = await this.agent.invoke(input, config);
      const last = state.messages[state.messages.length - 1];
      const written = AIMessage.isInstance(last) && !last.tool_calls?.length ? textOf(last) : '';
      const outcomes = turnOutcomes(state.messages);
      // The planner refused in the graph (a room that changed since the screen): the same refusal.
      const refused = AIMessage.isInstance(last) && !outcomes.length ? last.additional_kwargs : undefined;
      if (typeof refused?.reason === 'string') throw refusal(this.scrub(written), refused.reason, refused.suggestions as Suggestion[] | undefined, refused.missing as MissingCapability | undefined);
      // A result that says `available: false` is an honest gap, not an answer: it is not charged.
      const sold = outcomes.filter((o) => answered(o, this.known.find((t) => t.skill.id === o.skill)?.skill));
      const analysis = this.scrub(bound(written.trim() || writeAnswer(outcomes, this.known, request.prompt), MAX_ANALYSIS_CHARS));
      // Unsold, it is still the answer the payer reads: what was run, and why it came to nothing.
      if (!sold.length) throw nothingProduced({ ...this.answer(analysis, outcomes, roomId, request.userId), reason: 'no skill it ran produced an answer' }, {}, analysis || 'the agent produced no answer; nothing was charged');
      return this.answer(analysis, outcomes, roomId, request.userId);
    } catch (err) {
      if (signal.aborted && !(err instanceof SibylError)) {
        throw new SibylError('timeout', `the report did not finish within ${this.options.timeBudgetMs / 1000} s; nothing was charged`);
      }
      throw err;
    } finally {
      // Release only our own hold (had it expired, another turn may hold the room now).
      if ((await this.options.store.get(lock)) === holder) await this.options.store.delete(lock);
    }
  }

  /** Runs one skill directly (a typed capability body) and writes its answer the same way. */
  async capability(skill: Skill, input: Record<string, unknown>, outer?: AbortSignal): Promise<ReportAnswer> {
    // The report skill itself (ask_service) needs the agent in its context.
    const result = await skill.handler(input, { ...this.options.context, agent: this, ...(outer && { signal: outer }) });
    const tool = this.known.find((t) => t.skill.id === skill.id);
    const outcome: ToolOutcome = { skill: skill.id, tool: tool?.name ?? skill.id, args: input, ok: true, result };
    // A skill that writes its own answer (the report agent itself, through ask_service) keeps it.
    const analysis = this.scrub(typeof result.analysis === 'string' ? bound(result.analysis, MAX_ANALYSIS_CHARS) : writeAnswer([outcome], this.known));
    if (!answered(outcome, skill)) throw nothingProduced({ ...result, analysis }, skill, `${analysis}\nNothing was charged.`);
    return this.answer(analysis, [outcome], null, undefined, 'offline');
  }

  /** The room's messages so far (none for a new room). */
  private async room(roomId: string): Promise<BaseMessage[]> {
    return ((await this.agent.graph.getState({ configurable: { thread_id: roomId } })).values as { messages?: BaseMessage[] }).messages ?? [];
  }

  private answer(analysis: string, outcomes: readonly ToolOutcome[], roomId: string | null, userId: string | undefined, planner = this.options.model.label): ReportAnswer {
    return {
      analysis,
      toolsUsed: outcomes.map((o) => ({ skill: o.skill, args: { ...o.args } })),
      planner,
      roomId,
      ...(userId !== undefined && { userId }),
      results: outcomes,
      provenance: outcomes.filter((o) => o.ok).map((o) => provenanceOf(o)),
      generatedAt: new Date().toISOString(),
    };
  }

  private scrub(text: string): string {
    let out = redactIssued(text);
    for (const secret of this.options.secrets) if (secret.length >= 6) out = out.split(secret).join('[redacted]');
    return out;
  }
}

/** Refusals the offline planner's reading decides whichever model answers. */
const ALWAYS_REFUSED: ReadonlySet<RefusalReason> = new Set(['off_topic', 'injection', 'domain_disabled', 'provider_unavailable']);

function refusal(text: string, reason: string, suggestions: readonly Suggestion[] = [], missing?: MissingCapability): SibylError {
  return new SibylError('no_skill_fits', text, { reason, suggestions: suggestions.map((s) => ({ ...s })), ...(missing && { missing: { ...missing } }) });
}

/** The one rule for settling (skills/core/produced.ts), with the skill's own product declaration. */
function answered(outcome: ToolOutcome, product?: ProductDeclaration): boolean {
  return outcome.ok && produced(outcome.result, product);
}

/** Aborts after `ms`, or when the caller's signal aborts. */
function budget(ms: number, outer?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return outer ? AbortSignal.any([timeout, outer]) : timeout;
}

/**
 * What a new turn changes in the room before it starts: turns past ROOM_MESSAGES are dropped
 * whole, from the oldest, and the earlier turns' tool messages keep their words but not their
 * outcomes (full results, which only their own turn's answer reads).
 */
function roomUpdates(messages: readonly BaseMessage[]): BaseMessage[] {
  let cut = Math.max(0, messages.length - ROOM_MESSAGES);
  while (cut > 0 && cut < messages.length && !HumanMessage.isInstance(messages[cut])) cut++;
  const removed = messages.slice(0, cut).filter((m) => m.id).map((m) => new RemoveMessage({ id: m.id! }));
  const lightened = messages
    .slice(cut)
    .filter((m): m is ToolMessage => ToolMessage.isInstance(m) && m.artifact !== undefined && !!m.id)
    .map((m) => new ToolMessage({ id: m.id!, tool_call_id: m.tool_call_id, name: m.name, content: m.content, ...(m.status && { status: m.status }) }));
  return [...removed, ...lightened];
}

function provenanceOf(outcome: ToolOutcome): Record<string, unknown> {
  const r = outcome.result ?? {};
  const pick = (k: string) => (r[k] !== undefined ? { [k]: r[k] } : {});
  return { skill: outcome.skill, ...pick('source'), ...pick('chain'), ...pick('chainId'), ...pick('asOf'), ...pick('blockRange'), ...pick('methodology'), ...pick('screen'), ...pick('fetchedAt') };
}
