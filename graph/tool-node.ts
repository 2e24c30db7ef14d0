/**
 * The graph's `tools` node: LangGraph's ToolNode over the skill tools, with the report's
 * refusals in front of each call. A call past the round's first MAX_CALLS_PER_ROUND is answered
 * "not run"; a call to a name that is no registry tool is answered `unknown_tool`, never run;
 * a call whose arguments fail the skill's schema is answered `invalid_body` and recorded as a
 * failed outcome. Everything else runs through ToolNode as usual.
 */
import { AIMessage, type BaseMessage, type ToolMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import { Command, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { ToolOutcome } from './answer.js';
import { invalidArgs, toolReply, type AgentTool, type SkillToolOptions } from './tools.js';

/** Calls one planner message may make at once (more are answered "not run"). */
export const MAX_CALLS_PER_ROUND = 5;

export class SkillToolNode extends ToolNode {
  constructor(
    tools: StructuredToolInterface[],
    private readonly skills: readonly AgentTool[],
    private readonly options: Pick<SkillToolOptions, 'scrub'>,
  ) {
    super(tools, { name: 'tools' });
  }

  protected override async runTool(call: ToolCall, config: LangGraphRunnableConfig, state: unknown): Promise<ToolMessage | Command> {
    const reply = (body: unknown) => toolReply(this.options, { id: call.id ?? '', name: call.name }, body);
    if (indexInRound(call, state) >= MAX_CALLS_PER_ROUND) {
      return reply({ error: { code: 'not_run', message: `at most ${MAX_CALLS_PER_ROUND} calls a round; answer with the results you have` } });
    }
    const known = this.skills.find((t) => t.name === call.name);
    if (!known) return reply({ error: { code: 'unknown_tool', message: `no tool named ${call.name}; only the listed tools exist` } });
    const invalid = invalidArgs(known.skill, call.args ?? {});
    if (invalid) {
      const outcome: ToolOutcome = { skill: known.skill.id, tool: known.name, args: call.args ?? {}, ok: false, error: { code: 'invalid_body', message: invalid } };
      return new Command({ update: { outcomes: [outcome], messages: [reply({ error: outcome.error })] } });
    }
    return super.runTool(call, config, state);
  }
}

/** The call's position among the tool calls of the message that made it. */
function indexInRound(call: ToolCall, state: unknown): number {
  const messages = (state as { messages?: BaseMessage[] }).messages ?? [];
  const last = [...messages].reverse().find((m) => AIMessage.isInstance(m));
  return (last as AIMessage | undefined)?.tool_calls?.findIndex((c) => c.id === call.id) ?? 0;
}
