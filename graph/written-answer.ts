/**
 * The turn's last word when the model gives none: the answer written from the turn's outcomes
 * (answer.ts). Two ways a turn ends without the model's words: the model stops without text (the
 * offline planner once its tools have answered), or the model-call limit ends the turn after its
 * last round of tools, before the model is asked again.
 */
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { createMiddleware, modelCallLimitMiddleware } from 'langchain';
import { writeAnswer } from './answer.js';
import { currentTurn, textOf } from './planners.js';
import { answerParts } from './answer-types.js';
import { turnOutcomes } from './skill-calls.js';
import type { AgentTool } from './tools.js';

/**
 * A model reply with neither a tool call nor a word is replaced (same id) by the written answer.
 * A model's own answer to a question of a known type (ideas with their risks, a trade plan) that
 * leaves out a name or figure the tools gave for it keeps its words, and the part it missed,
 * written from the results, is added after them (answer-types.ts).
 */
export function writtenAnswerMiddleware(tools: readonly AgentTool[]) {
  return createMiddleware({
    name: 'WrittenAnswer',
    afterModel: (state) => {
      const last = state.messages.at(-1);
      if (!AIMessage.isInstance(last) || last.tool_calls?.length) return undefined;
      const text = textOf(last).trim();
      if (!text) return { messages: [written(last.id, state.messages, tools)] };
      const outcomes = turnOutcomes(state.messages);
      if (!outcomes.length) return undefined;
      const missed = answerParts(textOf(currentTurn(state.messages).prompt), outcomes).filter((p) => p.required.some((r) => !text.includes(r)));
      if (!missed.length) return undefined;
      return { messages: [new AIMessage({ ...(last.id && { id: last.id }), content: `${text}\n\n${missed.map((p) => p.text).join('\n\n')}`, additional_kwargs: last.additional_kwargs })] };
    },
  });
}

/**
 * LangChain's model-call limit, `runLimit` calls a turn: a model still calling tools at the last
 * of them is not asked again once those tools have answered. Re-dressed so that when it ends a
 * turn its closing notice is replaced by the answer written from the outcomes: the caller and the
 * room get an answer, not a notice.
 */
export function roundLimitMiddleware(runLimit: number, tools: readonly AgentTool[]) {
  const limit = modelCallLimitMiddleware({ runLimit, exitBehavior: 'end' });
  const check = hookOf(limit.beforeModel);
  return createMiddleware({
    name: 'RoundLimit',
    stateSchema: limit.stateSchema,
    beforeModel: {
      canJumpTo: ['end'],
      hook: async (state, runtime) => {
        const verdict = await check(state, runtime);
        return verdict?.jumpTo === 'end' ? { ...verdict, messages: [written(undefined, state.messages, tools)] } : verdict;
      },
    },
    afterModel: (state, runtime) => hookOf(limit.afterModel)(state, runtime),
    afterAgent: (state, runtime) => hookOf(limit.afterAgent)(state, runtime),
  });
}

function written(id: string | undefined, messages: readonly BaseMessage[], tools: readonly AgentTool[]): AIMessage {
  return new AIMessage({ ...(id && { id }), content: writeAnswer(turnOutcomes(messages), tools, textOf(currentTurn(messages).prompt)) });
}

/** The built-in's hooks, typed for its own context schema, are called here with the runtime they are given. */
type Hook = (state: any, runtime: any) => any;

/** A middleware hook is a function, or `{ hook, canJumpTo }`. */
function hookOf(hook: unknown): Hook {
  if (typeof hook === 'function') return hook as Hook;
  return (hook as { hook: Hook }).hook;
}
