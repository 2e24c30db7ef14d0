/**
 * The report agent: a LangGraph graph `plan → tools → plan … → answer` whose tools are the
 * registry's agent skills and whose planner is a language model or the offline planner. A room
 * is a checkpointed thread; one turn at a time per room. Tool calls are bounded in rounds,
 * calls per round and time; results reach the model as bounded JSON, and the answer is bounded
 * and scrubbed of every configured secret.
 */
import { randomUUID } from 'node:crypto';
import { AIMessage, HumanMessage, RemoveMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { END, MessagesAnnotation, START, StateGraph, type BaseCheckpointSaver } from '@langchain/langgraph';
import { SibylError, type ErrorCode } from '../skills/errors.js';
import type { ReportRunner, SkillContext } from '../skills/context.js';
import type { Skill } from '../skills/registry.js';
import type { Store } from '../store/store.js';
import { bound, writeAnswer, MAX_ANALYSIS_CHARS, type ToolOutcome } from './answer.js';
import { textOf, type Planner, type Turn } from './planners.js';
import type { AgentTool } from './tools.js';

/** Calls one planner message may make at once (more are answered "not run"). */
export const MAX_CALLS_PER_ROUND = 4;
/** A tool result as the model sees it, in characters of JSON. */
const TOOL_MESSAGE_CHARS = 8_000;
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
  readonly tools: readonly AgentTool[];
  readonly planner: Planner;
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
  constructor(private readonly options: ReportAgentOptions) {}

  /** Answers a free-form prompt in its room. Throws `no_answer` when nothing was produced (nothing is charged then). */
  async ask(request: ReportRequest, outer?: AbortSignal): Promise<ReportAnswer> {
    const roomId = request.roomId ?? `room_${randomUUID()}`;
    const lock = `agent:lock:${roomId}`;
    const holder = randomUUID();
    if (!(await this.options.store.reserve(lock, holder, this.options.timeBudgetMs + 5_000))) {
      throw new SibylError('room_busy', `room ${roomId} is answering another question; send the next one when it is done`);
    }
    const signal = budget(this.options.timeBudgetMs, outer);
    const turn: Turn = { outcomes: [], signal };
    try {
      const graph = this.graph(turn);
      const config = { configurable: { thread_id: roomId }, signal, recursionLimit: 2 * this.options.maxToolRounds + 6 };
      const prior = ((await graph.getState(config)).values as { messages?: BaseMessage[] }).messages ?? [];
      const state = await graph.invoke({ messages: [...trimmed(prior), new HumanMessage(request.prompt)] }, config);
      const last = state.messages[state.messages.length - 1];
      const written = AIMessage.isInstance(last) && !last.tool_calls?.length ? textOf(last) : '';
      // A result that says `available: false` is an honest gap, not an answer: it is not charged.
      const produced = turn.outcomes.filter(answered);
      const analysis = this.scrub(bound(written.trim() || writeAnswer(turn.outcomes, this.options.tools), MAX_ANALYSIS_CHARS));
      if (!produced.length) throw new SibylError('no_answer', analysis || 'the agent produced no answer; nothing was charged');
      return this.answer(analysis, turn.outcomes, roomId, request.userId);
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
    const tool = this.options.tools.find((t) => t.skill.id === skill.id);
    // The report skill itself (ask_service) needs the agent in its context.
    const result = await skill.handler(input, { ...this.options.context, agent: this, ...(outer && { signal: outer }) });
    const outcome: ToolOutcome = { skill: skill.id, tool: tool?.name ?? skill.id, args: input, ok: true, result };
    // A skill that writes its own answer (the report agent itself, through ask_service) keeps it.
    const analysis = this.scrub(typeof result.analysis === 'string' ? bound(result.analysis, MAX_ANALYSIS_CHARS) : writeAnswer([outcome], this.options.tools));
    if (!answered(outcome)) throw new SibylError('no_answer', `${analysis}\nNothing was charged.`);
    return this.answer(analysis, [outcome], null, undefined, 'offline');
  }

  private answer(analysis: string, outcomes: readonly ToolOutcome[], roomId: string | null, userId: string | undefined, planner = this.options.planner.label): ReportAnswer {
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

  private graph(turn: Turn) {
    const { planner, maxToolRounds } = this.options;
    // Counted per turn: the room's earlier turns do not use up this one's rounds.
    let rounds = 0;
    return new StateGraph(MessagesAnnotation)
      .addNode('plan', async (state) => ({ messages: [await planner.next(state.messages, turn)] }))
      .addNode('tools', async (state) => {
        rounds++;
        const calls = (state.messages[state.messages.length - 1] as AIMessage).tool_calls ?? [];
        return { messages: await this.runCalls(calls, turn) };
      })
      .addNode('answer', () => ({ messages: [new AIMessage(writeAnswer(turn.outcomes, this.options.tools))] }))
      .addEdge(START, 'plan')
      .addConditionalEdges('plan', (state) => {
        const last = state.messages[state.messages.length - 1];
        return AIMessage.isInstance(last) && last.tool_calls?.length ? 'tools' : END;
      }, ['tools', END])
      // Out of rounds or time: answer from what the tools gave, without asking the planner again.
      .addConditionalEdges('tools', () => (rounds >= maxToolRounds || turn.signal.aborted ? 'answer' : 'plan'), ['plan', 'answer'])
      .addEdge('answer', END)
      .compile({ checkpointer: this.options.checkpointer });
  }

  /** Runs a planner message's calls: registry skills only, validated, in parallel, each answered. */
  private async runCalls(calls: NonNullable<AIMessage['tool_calls']>, turn: Turn): Promise<ToolMessage[]> {
    return Promise.all(
      calls.map(async (call, index) => {
        const id = call.id ?? `call_${randomUUID()}`;
        const reply = (body: unknown) => new ToolMessage({ tool_call_id: id, name: call.name, content: bound(this.scrub(JSON.stringify(body)), TOOL_MESSAGE_CHARS) });
        if (index >= MAX_CALLS_PER_ROUND) return reply({ error: { code: 'not_run', message: `at most ${MAX_CALLS_PER_ROUND} calls a round; answer with the results you have` } });
        const tool = this.options.tools.find((t) => t.name === call.name);
        if (!tool) return reply({ error: { code: 'unknown_tool', message: `no tool named ${call.name}; only the listed tools exist` } });
        const outcome = await this.runTool(tool, call.args ?? {}, turn.signal);
        turn.outcomes.push(outcome);
        return reply(outcome.ok ? outcome.result : { error: outcome.error });
      }),
    );
  }

  private async runTool(tool: AgentTool, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome> {
    const base = { skill: tool.skill.id, tool: tool.name, args };
    const parsed = tool.skill.input.safeParse(args);
    if (!parsed.success) {
      const message = parsed.error.issues.map((i) => `${i.path.join('.') || '(args)'}: ${i.message}`).join('; ');
      return { ...base, ok: false, error: { code: 'invalid_body', message } };
    }
    try {
      const result = await tool.skill.handler(parsed.data, { ...this.options.context, signal });
      return { ...base, ok: true, result };
    } catch (err) {
      const known = err instanceof SibylError;
      return { ...base, ok: false, error: { code: known ? err.code : ('internal_error' satisfies ErrorCode), message: known ? err.message : 'the skill failed unexpectedly' } };
    }
  }

  private scrub(text: string): string {
    let out = text;
    for (const secret of this.options.secrets) if (secret.length >= 6) out = out.split(secret).join('[redacted]');
    return out;
  }
}

function answered(outcome: ToolOutcome): boolean {
  return outcome.ok && outcome.result?.available !== false;
}

/** Aborts after `ms`, or when the caller's signal aborts. */
function budget(ms: number, outer?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return outer ? AbortSignal.any([timeout, outer]) : timeout;
}

/** Removals that keep a room within ROOM_MESSAGES, dropping whole turns from the oldest. */
function trimmed(messages: readonly BaseMessage[]): BaseMessage[] {
  if (messages.length <= ROOM_MESSAGES) return [];
  let cut = messages.length - ROOM_MESSAGES;
  while (cut < messages.length && !HumanMessage.isInstance(messages[cut])) cut++;
  return messages.slice(0, cut).filter((m) => m.id).map((m) => new RemoveMessage({ id: m.id! }));
}

function provenanceOf(outcome: ToolOutcome): Record<string, unknown> {
  const r = outcome.result ?? {};
  const pick = (k: string) => (r[k] !== undefined ? { [k]: r[k] } : {});
  return { skill: outcome.skill, ...pick('source'), ...pick('chain'), ...pick('chainId'), ...pick('asOf'), ...pick('blockRange'), ...pick('methodology'), ...pick('screen'), ...pick('fetchedAt') };
}
