/**
 * Every tool call of the report agent goes through this middleware, whichever model made it.
 * It decides what runs and records what came of it:
 *
 * - a name no bound tool has is resolved on the registry: a skill declared for the agent but off
 *   on this deployment is refused with its own code (and recorded, so the answer says so); any
 *   other name is answered `unknown_tool` and never runs;
 * - a symbol with no chain named is answered on the chain where it is most liquid (chain-choice.ts);
 * - arguments the skill's schema refuses are answered `invalid_body`, and the skill never runs;
 * - whatever happened, the tool message the model is shown is bounded and scrubbed of every
 *   configured secret, and its artifact is the call's outcome with the full result. The turn's
 *   outcomes are read back from those artifacts (`turnOutcomes`): a failed call is an outcome
 *   that answered nothing, and a turn with no answered outcome charges nothing.
 */
import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import { createMiddleware, ToolInvocationError } from 'langchain';
import { SibylError, type ErrorCode } from '../skills/core/errors.js';
import type { SkillContext } from '../skills/core/context.js';
import type { Registry } from '../skills/core/registry.js';
import { bound, type ToolOutcome } from './answer.js';
import { chooseChain } from './chain-choice.js';
import { currentTurn } from './planners.js';
import type { AgentTool } from './tools.js';

/** A tool result as the model sees it, in characters of JSON. */
export const TOOL_MESSAGE_CHARS = 8_000;

export interface SkillCallOptions {
  readonly registry: Registry;
  /** The bound tools, as the agent describes them. */
  readonly tools: readonly AgentTool[];
  readonly context: SkillContext;
  /** Replaces every configured secret in text the model is shown. */
  readonly scrub: (text: string) => string;
}

export function skillCallMiddleware({ registry, tools, context, scrub }: SkillCallOptions) {
  /** The reply to one call; an outcome rides along as its artifact. */
  const reply = (call: ToolCall, body: unknown, outcome?: ToolOutcome) =>
    new ToolMessage({ tool_call_id: call.id ?? '', name: call.name, content: bound(scrub(JSON.stringify(body)), TOOL_MESSAGE_CHARS), ...(outcome && { artifact: outcome }) });
  const failed = (call: ToolCall, outcome: Omit<ToolOutcome, 'ok' | 'error'>, error: NonNullable<ToolOutcome['error']>) => reply(call, { error }, { ...outcome, ok: false, error });

  return createMiddleware({
    name: 'SkillCalls',
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall;
      const asked = call.args ?? {};
      const agentTool = tools.find((t) => t.name === call.name);
      if (!request.tool || !agentTool) {
        try {
          // Every working skill is bound, so what resolves here is never run.
          registry.resolve('agent', { tool: call.name });
        } catch (refusal) {
          return failed(call, { skill: registry.byTool(call.name)?.id ?? call.name, tool: call.name, args: asked }, errorOf(refusal));
        }
        return reply(call, { error: { code: 'unknown_tool', message: `no tool named ${call.name}; only the listed tools exist` } });
      }
      const signal = request.runtime.signal;
      // A symbol with no chain named is answered where it is most liquid, and the answer says so.
      const { args, note } = await chooseChain(agentTool, asked, { ...context, ...(signal && { signal }) });
      // The outcome keeps the arguments as the model wrote them, a chosen chain added (defaults are the skill's business).
      const base = { skill: agentTool.skill.id, tool: call.name, args, ...(note && { note }) };
      try {
        const message = await handler({ ...request, toolCall: { ...call, args } });
        const result = ToolMessage.isInstance(message) ? (message.artifact as Record<string, unknown>) : undefined;
        if (!result) throw new Error(`the ${call.name} tool gave no result`);
        return reply(call, { ...(note && { note }), ...result }, { ...base, ok: true, result });
      } catch (err) {
        if (signal?.aborted) throw err;
        if (ToolInvocationError.isInstance(err)) {
          return failed(call, { skill: agentTool.skill.id, tool: call.name, args: asked }, { code: 'invalid_body', message: err.toolError.message });
        }
        return failed(call, base, errorOf(err));
      }
    },
  });
}

/** The current turn's outcomes, in call order: the artifacts of its tool messages. */
export function turnOutcomes(messages: readonly BaseMessage[]): ToolOutcome[] {
  return currentTurn(messages).after.flatMap((m) => (ToolMessage.isInstance(m) && isOutcome(m.artifact) ? [m.artifact] : []));
}

function isOutcome(value: unknown): value is ToolOutcome {
  return !!value && typeof value === 'object' && 'skill' in value && 'ok' in value;
}

function errorOf(err: unknown): { code: string; message: string } {
  if (err instanceof SibylError) return { code: err.code, message: err.message };
  return { code: 'internal_error' satisfies ErrorCode, message: 'the skill failed unexpectedly' };
}
