/**
 * The report graph, compiled once per agent: `plan → tools → plan … → answer`. `plan` is the
 * chat model in the planner's seat (a language model or the offline planner), `tools` is
 * LangGraph's ToolNode over the skill tools, and `answer` writes the answer from the turn's
 * outcomes when the rounds run out (as `plan` does when the model stops without text). Rounds and outcomes are
 * graph state; what belongs to one request (its abort signal, its room) comes in the invoke
 * config.
 */
import { randomUUID } from 'node:crypto';
import { AIMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { Annotation, END, MessagesAnnotation, START, StateGraph, type BaseCheckpointSaver, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { toolsCondition } from '@langchain/langgraph/prebuilt';
import { writeAnswer, type ToolOutcome } from './answer.js';
import { modelInput, textOf, type ReportModel } from './planners.js';
import { SkillToolNode } from './tool-node.js';
import type { AgentTool, SkillToolOptions } from './tools.js';

export const ReportState = Annotation.Root({
  ...MessagesAnnotation.spec,
  /** Tool rounds of the current turn (each turn's input sets it to 0). */
  rounds: Annotation<number>({ reducer: (_, next) => next, default: () => 0 }),
  /** The current turn's tool outcomes in call order, full results (the messages carry bounded copies). */
  outcomes: Annotation<ToolOutcome[]>({ reducer: (all, more) => all.concat(more), default: () => [] }),
});

export interface ReportGraphOptions {
  readonly model: ReportModel;
  /** The skills as the answer writer and the tool node know them. */
  readonly tools: readonly AgentTool[];
  /** The same skills as LangChain tools (skillTools). */
  readonly skillTools: StructuredToolInterface[];
  readonly scrub: SkillToolOptions['scrub'];
  /** Tool rounds a turn may run; past the last one the answer is written without asking the model again. */
  readonly maxToolRounds: number;
  readonly checkpointer: BaseCheckpointSaver;
}

export function compileReportGraph(options: ReportGraphOptions) {
  const { model, tools, maxToolRounds } = options;
  if (!model.chat.bindTools) throw new Error(`the ${model.label} chat model cannot bind tools`);
  // Parallel calls where the model supports them (ChatOpenAI sends `parallel_tool_calls`).
  const planner = model.chat.bindTools(options.skillTools, { parallel_tool_calls: true } as never);

  return new StateGraph(ReportState)
    .addNode('plan', async (state, config) => {
      const reply = await planner.invoke(modelInput(state.messages, model), config);
      const calls = reply.tool_calls ?? [];
      // A model that stops without a word (the offline planner once its tools have answered)
      // leaves the answer to the writer, which reads the outcomes.
      const silent = !calls.length && !textOf(reply).trim();
      const message = new AIMessage({
        id: reply.id ?? `msg_${randomUUID()}`,
        content: silent ? writeAnswer(state.outcomes, tools) : reply.content,
        // Every call needs an id: its tool message answers it by that id.
        tool_calls: calls.map((c) => ({ ...c, id: c.id ?? `call_${randomUUID()}` })),
        // What the planner says about its own plan: why it refused, what it suggests, what waits for results.
        additional_kwargs: Object.fromEntries(['reason', 'suggestions', 'pending'].flatMap((k) => (reply.additional_kwargs[k] !== undefined ? [[k, reply.additional_kwargs[k]]] : []))),
      });
      return { messages: [message], rounds: state.rounds + (calls.length ? 1 : 0) };
    })
    .addNode('tools', new SkillToolNode(options.skillTools, tools, options))
    .addNode('answer', (state) => ({ messages: [new AIMessage(writeAnswer(state.outcomes, tools))] }))
    .addEdge(START, 'plan')
    .addConditionalEdges('plan', toolsCondition, ['tools', END])
    // Out of rounds or time: answer from what the tools gave, without asking the model again.
    .addConditionalEdges('tools', (state, config: LangGraphRunnableConfig) => (state.rounds >= maxToolRounds || config.signal?.aborted ? 'answer' : 'plan'), ['plan', 'answer'])
    .addEdge('answer', END)
    .compile({ checkpointer: options.checkpointer });
}

export type ReportGraph = ReturnType<typeof compileReportGraph>;

