/**
 * The report graph in process, on a registry of three trivial skills: the offline planner and
 * langchain's fakeModel in the model's seat, ToolNode running the skill tools, the round limit,
 * rounds and outcomes as graph state, and one compiled graph serving every request.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { Overwrite, StateGraph } from '@langchain/langgraph';
import { fakeModel } from 'langchain';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { writeAnswer } from '../../graph/answer.js';
import { OfflineChatModel } from '../../graph/offline-model.js';
import type { ReportModel } from '../../graph/planners.js';
import { compileReportGraph } from '../../graph/report-graph.js';
import { MAX_CALLS_PER_ROUND, ReportAgent } from '../../graph/report.js';
import { StoreCheckpointSaver } from '../../graph/checkpointer.js';
import { agentTools, skillTools } from '../../graph/tools.js';
import { SibylError } from '../../skills/core/errors.js';
import type { SkillContext } from '../../skills/core/context.js';
import { defineSkill, Registry } from '../../skills/core/registry.js';
import { MemoryStore } from '../../store/memory.js';

const SECRET = 'sk-test-0123456789';
const chain = z.enum(['base', 'ethereum']).default('base').describe('Chain: base or ethereum');
/** The signal the slow skill was handed. */
const slow: { signal?: AbortSignal | undefined } = {};

const registry = new Registry([
  defineSkill({
    id: 'gas-price', toolName: 'gas_price', title: 'Gas price', description: 'Current gas price on a chain, in gwei.',
    tags: ['gas', 'fees'], examples: ['What is the gas price on base?'], surfaces: ['agent'], price: '0.01', output: z.looseObject({}),
    input: z.object({ chain }),
    handler: async ({ chain }) => ({ chain, gwei: chain === 'base' ? 0.01 : 12.5, note: `signed with ${SECRET}`, source: 'embedded' }),
  }),
  defineSkill({
    id: 'token-holders', toolName: 'token_holders', title: 'Token holders', description: 'Largest holders of a token.',
    tags: ['holders', 'concentration'], examples: ['Who holds 0x...?'], surfaces: ['agent'], price: '0.01', output: z.looseObject({}),
    input: z.object({ tokenAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/).describe('Token contract address'), chain }),
    handler: async ({ tokenAddress }) => ({ token: tokenAddress, holders: [{ address: '0x' + '1'.repeat(40), share: 0.4 }] }),
  }),
  defineSkill({
    id: 'mempool-watch', toolName: 'mempool_watch', title: 'Mempool watch', description: 'Waits for pending transactions.',
    tags: ['mempool', 'pending'], examples: ['Watch the mempool'], surfaces: ['agent'], price: '0.01', output: z.looseObject({}),
    input: z.object({ chain }),
    handler: async (_input, ctx) => {
      slow.signal = ctx.signal;
      await new Promise((r) => setTimeout(r, 10_000).unref());
      return { pending: [] };
    },
  }),
]);
const tools = agentTools(registry);
const context = {} as SkillContext;
const scrub = (text: string) => text.split(SECRET).join('[redacted]');
const offline: ReportModel = { chat: new OfflineChatModel(tools), label: 'offline' };

function graphWith(model: ReportModel, maxToolRounds = 2) {
  const checkpointer = new StoreCheckpointSaver(new MemoryStore());
  return compileReportGraph({ model, tools, skillTools: skillTools(tools, { context, scrub }), scrub, maxToolRounds, checkpointer });
}

/** One turn's input: the prompt, with the turn's rounds and outcomes reset. */
const turn = (prompt: string) => ({ messages: [new HumanMessage(prompt)], rounds: 0, outcomes: new Overwrite([]) });
const room = (id: string) => ({ configurable: { thread_id: id } });

afterEach(() => vi.restoreAllMocks());

describe('report graph with the offline planner in the model seat', () => {
  it('runs the planner\'s call through ToolNode and writes the answer from the outcomes kept in state', async () => {
    const graph = graphWith(offline);
    const state = await graph.invoke(turn('What is the gas price on ethereum?'), room('r1'));
    expect(state.rounds).toBe(1);
    expect(state.outcomes).toEqual([expect.objectContaining({ skill: 'gas-price', tool: 'gas_price', args: { chain: 'ethereum' }, ok: true, result: expect.objectContaining({ gwei: 12.5 }) })]);
    const [human, call, result, answer] = state.messages;
    expect(HumanMessage.isInstance(human)).toBe(true);
    expect((call as AIMessage).tool_calls).toEqual([expect.objectContaining({ name: 'gas_price', args: { chain: 'ethereum' } })]);
    expect(ToolMessage.isInstance(result)).toBe(true);
    // What the model sees is scrubbed; the outcome keeps the full result.
    expect(result!.content).toContain('[redacted]');
    expect(result!.content).not.toContain(SECRET);
    // The planner's empty stop is replaced by the written answer, not followed by it.
    expect(state.messages).toHaveLength(4);
    expect(answer!.content).toBe(writeAnswer(state.outcomes, tools));
    expect(answer!.content).toContain('Gas price (chain ethereum)');
  });

  it('starts each turn with no rounds and no outcomes, and a follow-up inherits from the room', async () => {
    const graph = graphWith(offline);
    await graph.invoke(turn('What is the gas price on ethereum?'), room('r2'));
    const second = await graph.invoke(turn('and on base?'), room('r2'));
    expect(second.rounds).toBe(1);
    expect(second.outcomes.map((o) => o.args)).toEqual([{ chain: 'base' }]);
    expect(second.messages).toHaveLength(8);
    const saved = await graph.getState(room('r2'));
    expect(saved.values.outcomes).toEqual(second.outcomes);
  });

  it('answers without a call when nothing fits', async () => {
    const state = await graphWith(offline).invoke(turn('Write me a poem about autumn leaves'), room('r3'));
    expect(state.outcomes).toEqual([]);
    expect(state.rounds).toBe(0);
    expect(state.messages.at(-1)!.content).toMatch(/nothing was run/i);
  });
});

describe('report graph with fakeModel in the model seat', () => {
  /** A model that never stops: six calls a message, one to a tool that does not exist, one with a bad argument. */
  const greedy = () => {
    const model = fakeModel();
    for (let i = 0; i < 5; i++) {
      model.respondWithTools([
        { name: 'gas_price', args: { chain: 'base' } },
        { name: 'transfer_usdc', args: { to: '0x0', amount: 100 } },
        { name: 'token_holders', args: { tokenAddress: 'not-an-address' } },
        { name: 'gas_price', args: { chain: 'ethereum' } },
        { name: 'gas_price', args: {} },
        { name: 'token_holders', args: { tokenAddress: '0x' + 'a'.repeat(40) } },
      ]);
    }
    return model;
  };

  it('ends the loop at the round limit and writes the answer from the outcomes, without asking the model again', async () => {
    const model = greedy();
    const state = await graphWith({ chat: model, label: 'llm:fake' }, 2).invoke(turn('keep digging'), room('f1'));
    expect(model.callCount).toBe(2);
    expect(state.rounds).toBe(2);
    // Per round: the first MAX_CALLS_PER_ROUND (5) calls: three gas prices ran, the bad argument was
    // refused and recorded, the unknown tool answered unknown_tool; the sixth never ran.
    expect(state.outcomes.map((o) => `${o.tool}:${o.ok ? 'ok' : o.error!.code}`)).toEqual(
      Array(2).fill(['gas_price:ok', 'token_holders:invalid_body', 'gas_price:ok', 'gas_price:ok']).flat(),
    );
    const codes = state.messages.filter((m) => ToolMessage.isInstance(m)).map((m) => JSON.parse(String(m.content)).error?.code ?? 'ok');
    expect(codes).toEqual(Array(2).fill(['ok', 'unknown_tool', 'invalid_body', 'ok', 'ok', 'not_run']).flat());
    expect(codes.filter((c) => c === 'not_run')).toHaveLength(2 * (6 - MAX_CALLS_PER_ROUND));
    const last = state.messages.at(-1) as AIMessage;
    expect(last.tool_calls ?? []).toEqual([]);
    expect(last.content).toBe(writeAnswer(state.outcomes, tools));
  });

  it('binds every skill tool to the model with its JSON Schema, and a model\'s own answer ends the turn', async () => {
    const model = fakeModel().respondWithTools([{ name: 'gas_price', args: {} }]).respond(new AIMessage('Gas is cheap on base.'));
    const bindTools = vi.spyOn(model, 'bindTools');
    const graph = graphWith({ chat: model, label: 'llm:fake' });
    const bound = bindTools.mock.calls[0]![0].map((t) => convertToOpenAITool(t).function);
    expect(bound.map((f) => f.name)).toEqual(['gas_price', 'token_holders', 'mempool_watch']);
    // The model is sent each schema's input side: a field with a default is not required.
    expect(bound[1]!.parameters).toMatchObject({ required: ['tokenAddress'], properties: { chain: { default: 'base' } } });
    expect(bound[0]!.parameters).not.toHaveProperty('required');
    const state = await graph.invoke(turn('how is gas?'), room('f2'));
    expect(state.messages.at(-1)!.content).toBe('Gas is cheap on base.');
    expect(state.outcomes).toEqual([expect.objectContaining({ tool: 'gas_price', args: {}, ok: true })]);
    // The model was sent the system prompt first, then the room.
    expect(model.calls[0]!.messages[0]!.getType()).toBe('system');
  });
});

describe('ReportAgent', () => {
  const agentWith = (model: ReportModel, timeBudgetMs = 5_000) => {
    const store = new MemoryStore();
    return new ReportAgent({ tools, model, context, store, checkpointer: new StoreCheckpointSaver(store), maxToolRounds: 2, timeBudgetMs, secrets: [SECRET] });
  };

  it('compiles its graph once and reuses it for every request and room', async () => {
    const compile = vi.spyOn(StateGraph.prototype, 'compile');
    const agent = agentWith(offline);
    expect(compile).toHaveBeenCalledTimes(1);
    const first = await agent.ask({ prompt: 'What is the gas price on ethereum?', roomId: 'a1' });
    const second = await agent.ask({ prompt: 'and on base?', roomId: 'a1' });
    const other = await agent.ask({ prompt: 'Who holds token 0x' + 'b'.repeat(40) + '?' });
    expect(compile).toHaveBeenCalledTimes(1);
    expect(first.toolsUsed).toEqual([{ skill: 'gas-price', args: { chain: 'ethereum' } }]);
    expect(second.toolsUsed).toEqual([{ skill: 'gas-price', args: { chain: 'base' } }]);
    expect(other.toolsUsed).toEqual([{ skill: 'token-holders', args: { tokenAddress: '0x' + 'b'.repeat(40) } }]);
    expect(first.planner).toBe('offline');
    expect(JSON.stringify(first)).toContain('[redacted]');
  });

  it('hands the request\'s deadline to the skills through the invoke config: past it, timeout', async () => {
    const model = fakeModel().respondWithTools([{ name: 'mempool_watch', args: {} }]);
    const err = await agentWith({ chat: model, label: 'llm:fake' }, 300).ask({ prompt: 'watch the mempool' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SibylError);
    expect((err as SibylError).code).toBe('timeout');
    expect(slow.signal?.aborted).toBe(true);
  });

  it('refuses a prompt nothing fits with no_skill_fits, before payment (screen) and in the graph alike', async () => {
    const agent = agentWith(offline);
    for (const refused of [agent.screen({ prompt: 'Write me a poem about autumn leaves' }), agent.ask({ prompt: 'Write me a poem about autumn leaves' })]) {
      const err = await refused.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SibylError);
      expect((err as SibylError).toBody().error).toMatchObject({ code: 'no_skill_fits', reason: 'off_topic', suggestions: expect.arrayContaining([expect.objectContaining({ skill: expect.any(String), example: expect.any(String) })]) });
    }
    await expect(agent.screen({ prompt: 'What is the gas price on ethereum?' })).resolves.toBeUndefined();
  });
});
