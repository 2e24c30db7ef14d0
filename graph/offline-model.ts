/**
 * The offline planner as a chat model, so it sits in the graph exactly where a language model
 * does: it reads the room's messages and answers with tool calls (the planner's picks), a reply
 * (nothing fits, an argument is missing), or, once this turn's tools have answered, an empty
 * stop, which the graph fills with the answer written from the outcomes.
 */
import { randomUUID } from 'node:crypto';
import { AIMessage, ToolMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import type { Runnable } from '@langchain/core/runnables';
import type { ChatResult } from '@langchain/core/outputs';
import { OfflinePlanner, type PreviousCall } from './offline-planner.js';
import { currentTurn, textOf } from './planners.js';
import type { AgentTool } from './tools.js';

export class OfflineChatModel extends BaseChatModel {
  private readonly planner: OfflinePlanner;

  constructor(private readonly tools: readonly AgentTool[]) {
    super({});
    this.planner = new OfflinePlanner(tools);
  }

  _llmType(): string {
    return 'sibyl-offline-planner';
  }

  /** Plans over the bound tools only (the same planner when all of its tools are bound). */
  override bindTools(tools: BindToolsInput[]): Runnable<BaseLanguageModelInput, AIMessageChunk, BaseChatModelCallOptions> {
    const names = new Set(tools.map((t) => ('name' in t && typeof t.name === 'string' ? t.name : undefined)));
    const bound = this.tools.filter((t) => names.has(t.name));
    return (bound.length === this.tools.length ? this : new OfflineChatModel(bound)) as unknown as Runnable<BaseLanguageModelInput, AIMessageChunk, BaseChatModelCallOptions>;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const message = this.next(messages);
    return { generations: [{ text: textOf(message), message }] };
  }

  private next(history: readonly BaseMessage[]): AIMessage {
    const { prompt, after, before } = currentTurn(history);
    // This turn's tools have answered: nothing more to call; the graph writes the answer.
    if (after.some((m) => ToolMessage.isInstance(m))) return new AIMessage('');
    const plan = this.planner.plan(textOf(prompt), lastCall(before));
    if (plan.kind === 'reply') return new AIMessage({ content: plan.text, additional_kwargs: { reason: plan.reason, suggestions: plan.suggestions } });
    return new AIMessage({ content: '', tool_calls: plan.calls.map((c) => ({ id: `call_${randomUUID()}`, name: c.tool.name, args: c.args, type: 'tool_call' as const })) });
  }
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
