/**
 * The report agent's tools, projected from the registry: every skill published on the `agent`
 * surface becomes one tool with its name, description and JSON Schema. There is no other list.
 */
import { z } from 'zod';
import type { Registry, Skill } from '../skills/registry.js';

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

/** The OpenAI function-tool shape (what `bindTools` sends). */
export function openAiTool(tool: AgentTool) {
  return {
    type: 'function' as const,
    function: { name: tool.name, description: `${tool.skill.title}. ${tool.skill.description}`, parameters: tool.parameters },
  };
}
