/**
 * The report agent's graph: LangChain's `createAgent`, compiled once and shared by every request,
 * with the planner in the model's seat (a language model or the offline planner, both chat
 * models) and the skill tools. Its middleware, outermost first:
 *
 * - ModelSeat: what the model is shown (planners.ts);
 * - RoundLimit: LangChain's model-call limit, as many calls a turn as it may run rounds of
 *   tools; past them the answer is written from the results (written-answer.ts);
 * - ToolCallLimit: LangChain's tool-call limit, the turn's budget of tool calls;
 * - SkillCalls: what a call runs and what the turn records of it (skill-calls.ts);
 * - WrittenAnswer: the answer when the model stops without a word (written-answer.ts).
 *
 * What belongs to one request (its abort signal, its room) comes in the invoke config.
 */
import type { BaseMessage } from '@langchain/core/messages';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { createAgent, toolCallLimitMiddleware } from 'langchain';
import type { SkillContext } from '../skills/core/context.js';
import type { Registry } from '../skills/core/registry.js';
import { modelSeatMiddleware, SYSTEM_PROMPT, type ReportModel } from './planners.js';
import { skillCallMiddleware } from './skill-calls.js';
import { skillTools, type AgentTool } from './tools.js';
import { roundLimitMiddleware, writtenAnswerMiddleware } from './written-answer.js';

/** Tool calls a turn may make for each round of tools it may run. */
export const MAX_CALLS_PER_ROUND = 5;
/** Graph steps a round takes, with room: the hooks around the model, the model, the tools (six). */
const STEPS_PER_ROUND = 10;

export interface ReportAgentGraphOptions {
  readonly model: ReportModel;
  readonly registry: Registry;
  /** The tools bound to the model and run (agentTools). */
  readonly tools: readonly AgentTool[];
  /** Those and the unavailable ones, by which the written answer names every outcome's skill. */
  readonly known: readonly AgentTool[];
  readonly context: SkillContext;
  /** Replaces every configured secret in text the model is shown. */
  readonly scrub: (text: string) => string;
  /** Rounds of tools a turn may run; past the last one the answer is written without asking the model again. */
  readonly maxToolRounds: number;
  readonly checkpointer: BaseCheckpointSaver;
}

export function createReportAgent(options: ReportAgentGraphOptions) {
  const { model, tools, known, maxToolRounds } = options;
  return createAgent({
    model: model.chat,
    tools: skillTools(tools, options.context),
    systemPrompt: SYSTEM_PROMPT,
    middleware: [
      modelSeatMiddleware(model, tools),
      roundLimitMiddleware(maxToolRounds, known),
      toolCallLimitMiddleware({ runLimit: maxToolRounds * MAX_CALLS_PER_ROUND, exitBehavior: 'continue' }),
      skillCallMiddleware(options),
      writtenAnswerMiddleware(known),
    ],
    checkpointer: options.checkpointer,
  });
}

export type ReportAgentGraph = ReturnType<typeof createReportAgent>;

/**
 * One turn's input and config. The limits count a run's calls and reset their counts only when a
 * run ends normally (not when the model-call limit ends it, nor when the time budget cuts it), so
 * each turn starts its counts at zero itself.
 */
export function startTurn(messages: BaseMessage[], roomId: string, signal: AbortSignal, maxToolRounds: number) {
  return {
    input: { messages, runModelCallCount: 0, runToolCallCount: {} },
    config: { configurable: { thread_id: roomId }, signal, recursionLimit: STEPS_PER_ROUND * (maxToolRounds + 1) },
  };
}
