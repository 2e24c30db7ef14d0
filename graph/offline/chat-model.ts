/**
 * The offline planner as a chat model, so it sits in the report agent exactly where a language
 * model does: it reads the room's messages and answers with tool calls (the planner's picks), a
 * reply (nothing fits, an argument is missing), or, once this turn's tools have answered, an
 * empty stop, which the agent replaces with the answer written from the outcomes
 * (written-answer.ts).
 *
 * It knows every skill declared for the agent: the bound tools it may call, and those this
 * deployment has turned off, which it still recognises so that a question about one is answered
 * by that skill's own refusal rather than by another skill.
 */
import { randomUUID } from 'node:crypto';
import { AIMessage, ToolMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { isOpenAITool, type BaseLanguageModelInput } from '@langchain/core/language_models/base';
import type { Runnable } from '@langchain/core/runnables';
import type { ChatResult } from '@langchain/core/outputs';
import { isWorking } from '../../skills/core/registry.js';
import { OfflinePlanner, type PlannedCall, type PreviousCall, type Subject } from './planner.js';
import { currentTurn, textOf } from '../planners.js';
import type { AgentTool } from '../tools.js';

export class OfflineChatModel extends BaseChatModel {
  private readonly planner: OfflinePlanner;

  /** `known`: the agent's tools and the unavailable ones (tools.ts). */
  constructor(private readonly known: readonly AgentTool[]) {
    super({});
    this.planner = new OfflinePlanner(known);
  }

  _llmType(): string {
    return 'sibyl-offline-planner';
  }

  /** Plans over the bound tools and the unavailable ones it knows (the same planner when all are bound). */
  override bindTools(tools: BindToolsInput[]): Runnable<BaseLanguageModelInput, AIMessageChunk, BaseChatModelCallOptions> {
    const names = new Set(tools.map((t) => (isOpenAITool(t) ? t.function.name : 'name' in t && typeof t.name === 'string' ? t.name : undefined)));
    const planned = this.known.filter((t) => names.has(t.name) || !isWorking(t.skill));
    return (planned.length === this.known.length ? this : new OfflineChatModel(planned)) as unknown as Runnable<BaseLanguageModelInput, AIMessageChunk, BaseChatModelCallOptions>;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const message = this.next(messages);
    return { generations: [{ text: textOf(message), message }] };
  }

  private next(history: readonly BaseMessage[]): AIMessage {
    const { prompt, after, before } = currentTurn(history);
    if (after.some((m) => ToolMessage.isInstance(m))) return this.nextRound(after);
    const plan = this.planner.plan(textOf(prompt), lastCall(before));
    if (plan.kind === 'reply') return new AIMessage({ content: plan.text, additional_kwargs: { reason: plan.reason, suggestions: plan.suggestions, ...(plan.missing && { missing: plan.missing }) } });
    return callsMessage(plan.calls, plan.pending);
  }

  /**
   * After a round: the clauses that waited for its results ("for the best one, …") are planned
   * with the subject the results lead with; with none left, an empty stop (the agent writes the answer).
   */
  private nextRound(after: readonly BaseMessage[]): AIMessage {
    const asked = [...after].reverse().find((m): m is AIMessage => AIMessage.isInstance(m) && !!m.tool_calls?.length);
    const pending = (asked?.additional_kwargs.pending as string[] | undefined) ?? [];
    if (!asked || !pending.length) return new AIMessage('');
    const results = after.slice(after.indexOf(asked) + 1).filter((m) => ToolMessage.isInstance(m));
    const subject = results.map((m) => subjectOf(textOf(m))).find((s) => s !== null);
    const calls = subject ? this.planner.planPending(pending, subject) : [];
    return calls.length ? callsMessage(calls, []) : new AIMessage('');
  }
}

function callsMessage(calls: readonly PlannedCall[], pending: readonly string[]): AIMessage {
  return new AIMessage({
    content: '',
    tool_calls: calls.map((c) => ({ id: `call_${randomUUID()}`, name: c.tool.name, args: c.args, type: 'tool_call' as const })),
    ...(pending.length && { additional_kwargs: { pending: [...pending] } }),
  });
}

/** The token (or wallet) a tool result leads with: its main list's first row, on the result's chain. */
export function subjectOf(content: string): Subject | null {
  let result: unknown;
  try {
    result = JSON.parse(content);
  } catch {
    return null; // a result cut at the message bound: no subject read from it
  }
  if (!result || typeof result !== 'object') return null;
  const record = result as Record<string, unknown>;
  const lists = Object.values(record).filter((v): v is Record<string, unknown>[] => Array.isArray(v) && v.length > 0 && v.every((r) => r && typeof r === 'object'));
  const first = lists.sort((a, b) => b.length - a.length)[0]?.[0];
  const address = first && ['token', 'tokenAddress', 'address', 'wallet'].map((k) => first[k]).find((v): v is string => typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v));
  return address ? { address, chain: typeof record.chain === 'string' ? record.chain : null } : null;
}

/** The most recent tool call of earlier turns: what a follow-up question refers to. */
export function lastCall(messages: readonly BaseMessage[]): PreviousCall | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (AIMessage.isInstance(m) && m.tool_calls?.length) {
      const call = m.tool_calls[m.tool_calls.length - 1]!;
      return { tool: call.name, args: call.args };
    }
  }
  return undefined;
}
