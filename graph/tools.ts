/**
 * The report agent's tools, projected from the registry: every skill published on the `agent`
 * surface becomes one tool with its name, description and input schema. There is no other list.
 *
 * Two views of the same skills: `agentTools` describes them (name, skill, JSON Schema) for the
 * offline planner, which ranks and fills arguments from the schema; `skillTools` makes them
 * LangChain tools (`tool()` over the skill's zod input) that the graph's ToolNode runs and a
 * chat model binds.
 */
import { tool, type StructuredToolInterface, type ToolRuntime } from '@langchain/core/tools';
import { ToolMessage } from '@langchain/core/messages';
import { Command } from '@langchain/langgraph';
import { z } from 'zod';
import { SibylError, type ErrorCode } from '../skills/core/errors.js';
import type { SkillContext } from '../skills/core/context.js';
import type { Registry, Skill } from '../skills/core/registry.js';
import { bound, type ToolOutcome } from './answer.js';
import { chooseChain } from './chain-choice.js';

export interface JsonSchemaProperty {
  readonly type?: string;
  readonly enum?: readonly (string | number)[];
  readonly pattern?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly items?: JsonSchemaProperty;
}

export interface AgentTool {
  /** Tool name the model calls (the skill's toolName). */
  readonly name: string;
  readonly skill: Skill;
  readonly parameters: { readonly properties: Readonly<Record<string, JsonSchemaProperty>>; readonly required?: readonly string[] };
}

export function agentTools(registry: Registry): AgentTool[] {
  return registry.list('agent').map((skill) => {
    const { $schema: _ignored, ...parameters } = z.toJSONSchema(skill.input, { io: 'input' }) as Record<string, unknown>;
    return { name: skill.toolName ?? skill.id.replace(/-/g, '_'), skill, parameters: parameters as AgentTool['parameters'] };
  });
}

/** A tool result as the model sees it, in characters of JSON. */
export const TOOL_MESSAGE_CHARS = 8_000;

export interface SkillToolOptions {
  readonly context: SkillContext;
  /** Replaces every configured secret in text a tool hands the model. */
  readonly scrub: (text: string) => string;
}

/** The bounded, scrubbed JSON reply to one tool call. */
export function toolReply(options: Pick<SkillToolOptions, 'scrub'>, call: { id: string; name: string }, body: unknown): ToolMessage {
  return new ToolMessage({ tool_call_id: call.id, name: call.name, content: bound(options.scrub(JSON.stringify(body)), TOOL_MESSAGE_CHARS) });
}

/**
 * The LangChain tools of the agent skills. Each runs its skill's handler with the skill context
 * and the run's abort signal, and answers with a Command that appends the outcome (full result)
 * to the graph state and the bounded tool message to the conversation.
 *
 * The tool's schema is the input side of the skill's zod schema as JSON Schema (what a caller may
 * send, fields with defaults optional: the projection MCP publishes too). Handed the zod schema
 * itself, LangChain would publish its output side, where every defaulted field is required.
 * The skill's zod schema still parses the arguments (defaults, transforms) before the handler.
 */
export function skillTools(tools: readonly AgentTool[], options: SkillToolOptions): StructuredToolInterface[] {
  return tools.map((agentTool) => {
    const { name, skill, parameters } = agentTool;
    return tool(
      async (asked: Record<string, unknown>, runtime: ToolRuntime) => {
        const call = { id: runtime.toolCallId || runtime.toolCall?.id || name, name };
        const context = { ...options.context, ...(runtime.signal && { signal: runtime.signal }) };
        // A symbol with no chain named is answered where it is most liquid, and the answer says so.
        const { args, note } = await chooseChain(agentTool, asked, context);
        // The outcome keeps the arguments as the model wrote them, a chosen chain added (defaults are the skill's business).
        const base = { skill: skill.id, tool: name, args, ...(note && { note }) };
        const outcome = await run(skill, args, context, base);
        const body = outcome.ok ? { ...(note && { note }), ...outcome.result } : { error: outcome.error };
        return new Command({ update: { outcomes: [outcome], messages: [toolReply(options, call, body)] } });
      },
      { name, description: `${skill.title}. ${skill.description}`, schema: { type: 'object', ...parameters } },
    );
  });
}

async function run(skill: Skill, args: Record<string, unknown>, context: SkillContext, base: Omit<ToolOutcome, 'ok'>): Promise<ToolOutcome> {
  try {
    return { ...base, ok: true, result: await skill.handler(skill.input.parse(args), context) };
  } catch (err) {
    const known = err instanceof SibylError;
    return { ...base, ok: false, error: { code: known ? err.code : ('internal_error' satisfies ErrorCode), message: known ? err.message : 'the skill failed unexpectedly' } };
  }
}

/** Why a call was refused before it ran: its arguments fail the skill's schema. */
export function invalidArgs(skill: Skill, args: Record<string, unknown>): string | undefined {
  const parsed = skill.input.safeParse(args);
  if (parsed.success) return undefined;
  return parsed.error.issues.map((i) => `${i.path.join('.') || '(args)'}: ${i.message}`).join('; ');
}
