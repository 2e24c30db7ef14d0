/**
 * The report agent's tools, projected from the registry: every working skill the `agent` surface
 * publishes is one tool with its name, description and input schema. There is no other list.
 *
 * Two views of the same skills: `agentTools` describes them (name, skill, the input side of the
 * schema as JSON Schema), which is what a model is shown and what the offline planner ranks and
 * fills arguments from; `skillTools` makes them LangChain tools over the skill's own zod input,
 * which validates a call's arguments (once) before the handler runs.
 */
import { tool, type StructuredToolInterface, type ToolRuntime } from '@langchain/core/tools';
import { z } from 'zod';
import type { SkillContext } from '../skills/core/context.js';
import type { Registry, Skill } from '../skills/core/registry.js';

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
  /** What a caller may send, fields with defaults optional: the projection MCP publishes too. */
  readonly parameters: { readonly properties: Readonly<Record<string, JsonSchemaProperty>>; readonly required?: readonly string[] };
}

/** The agent's tools: the working skills published on the agent surface. */
export function agentTools(registry: Registry): AgentTool[] {
  return registry.published('agent').map(describe);
}

/**
 * Skills the spec declares, on any surface, that this deployment has turned off or has no engine
 * for (skills/catalog/planned.ts). Never bound or run; the offline planner recognises a question
 * about one, so the agent refuses it before payment, naming what is missing, instead of answering
 * it with a working skill that shares a word.
 */
export function unavailableTools(registry: Registry): AgentTool[] {
  return registry.unavailable().map(describe);
}

function toolNameOf(skill: Pick<Skill, 'id' | 'toolName'>): string {
  return skill.toolName ?? skill.id.replace(/-/g, '_');
}

export function toolDescription(skill: Pick<Skill, 'title' | 'description'>): string {
  return `${skill.title}. ${skill.description}`;
}

function describe(skill: Skill): AgentTool {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(skill.input, { io: 'input' }) as Record<string, unknown>;
  return { name: toolNameOf(skill), skill, parameters: parameters as AgentTool['parameters'] };
}

/**
 * The LangChain tools of the agent skills. Each runs its skill's handler on the arguments its zod
 * schema parsed (defaults filled, transforms applied), with the skill context and the run's abort
 * signal. The reply's content is the result as JSON and its artifact the result itself; what the
 * model is finally shown, and what the turn records, is the skill-call middleware's business
 * (skill-calls.ts).
 */
export function skillTools(tools: readonly AgentTool[], context: SkillContext): StructuredToolInterface[] {
  return tools.map(({ name, skill }) =>
    tool(
      async (input: Record<string, unknown>, runtime: ToolRuntime) => {
        const result = await skill.handler(input, { ...context, ...(runtime.signal && { signal: runtime.signal }) });
        return [JSON.stringify(result), result];
      },
      { name, description: toolDescription(skill), schema: skill.input, responseFormat: 'content_and_artifact' },
    ),
  );
}
