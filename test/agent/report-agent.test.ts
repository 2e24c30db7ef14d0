/**
 * The report agent in process, on a registry of four trivial skills (one declared but off): the
 * offline planner and langchain's fakeModel in the model's seat of one createAgent agent, the
 * skill tools validating their own arguments, the model-call and tool-call limits, the turn's
 * outcomes carried by its tool messages, and one compiled agent serving every request and room.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { StateGraph } from '@langchain/langgraph';
import { fakeModel } from 'langchain';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { writeAnswer } from '../../graph/answer.js';
import { OfflineChatModel } from '../../graph/offline/chat-model.js';
import type { ReportModel } from '../../graph/planners.js';
import { createReportAgent, MAX_CALLS_PER_ROUND, startTurn } from '../../graph/report-agent.js';
import { ReportAgent } from '../../graph/report.js';
import { StoreCheckpointSaver } from '../../graph/checkpointer.js';
import { turnOutcomes } from '../../graph/skill-calls.js';
import { agentTools, unavailableTools } from '../../graph/tools.js';
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
  defineSkill({
    id: 'weather-oracle', toolName: 'weather_oracle', title: 'Weather oracle', description: 'Rainfall forecasts for crop insurance markets.',
    tags: ['weather', 'rainfall', 'forecast'], examples: ['Will it rain in Lisbon tomorrow?'], surfaces: ['agent'], price: '0.01', output: z.looseObject({}),
    input: z.object({}),
    disabledReason: 'Weather oracle needs a weather feed, which this deployment does not have; nothing was charged',
    handler: async () => ({ rain: true }),
  }),
]);
const tools = agentTools(registry);
const known = [...tools, ...unavailableTools(registry)];
const context = {} as SkillContext;
const scrub = (text: string) => text.split(SECRET).join('[redacted]');
const offline: ReportModel = { chat: new OfflineChatModel(known), label: 'offline' };

function agentWith(model: ReportModel, maxToolRounds = 2) {
  const checkpointer = new StoreCheckpointSaver(new MemoryStore());
  return createReportAgent({ model, registry, tools, known, context, scrub, maxToolRounds, checkpointer });
}

/** One turn in a room: the prompt as the report agent sends it. */
const ask = (agent: ReturnType<typeof agentWith>, prompt: string, roomId: string, maxToolRounds = 2) => {
  const { input, config } = startTurn([new HumanMessage(prompt)], roomId, new AbortController().signal, maxToolRounds);
  return agent.invoke(input, config);
};
const toolMessages = (messages: readonly BaseMessage[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));

afterEach(() => vi.restoreAllMocks());

describe('report agent with the offline planner in the model seat', () => {
  it('runs the planner\'s call as a tool and writes the answer from the outcome its tool message carries', async () => {
    const state = await ask(agentWith(offline), 'What is the gas price on ethereum?', 'r1');
    const outcomes = turnOutcomes(state.messages);
    expect(outcomes).toEqual([expect.objectContaining({ skill: 'gas-price', tool: 'gas_price', args: { chain: 'ethereum' }, ok: true, result: expect.objectContaining({ gwei: 12.5 }) })]);
    const [human, call, result, answer] = state.messages;
    expect(HumanMessage.isInstance(human)).toBe(true);
    expect((call as AIMessage).tool_calls).toEqual([expect.objectContaining({ name: 'gas_price', args: { chain: 'ethereum' } })]);
    // What the model sees is scrubbed; the outcome keeps the full result.
    expect(ToolMessage.isInstance(result)).toBe(true);
    expect(result!.content).toContain('[redacted]');
    expect(result!.content).not.toContain(SECRET);
    expect(JSON.stringify(outcomes[0]!.result)).toContain(SECRET);
    // The planner's empty stop is replaced by the written answer, not followed by it.
    expect(state.messages).toHaveLength(4);
    expect(answer!.content).toBe(writeAnswer(outcomes, known));
    expect(answer!.content).toContain('Gas price (chain ethereum)');
  });

  it('reads only the current turn\'s outcomes, and a follow-up inherits from the room', async () => {
    const agent = agentWith(offline);
    await ask(agent, 'What is the gas price on ethereum?', 'r2');
    const second = await ask(agent, 'and on base?', 'r2');
    expect(turnOutcomes(second.messages).map((o) => o.args)).toEqual([{ chain: 'base' }]);
    expect(second.messages).toHaveLength(8);
  });

  it('answers without a call when nothing fits', async () => {
    const state = await ask(agentWith(offline), 'Write me a poem about autumn leaves', 'r3');
    expect(turnOutcomes(state.messages)).toEqual([]);
    expect(state.messages).toHaveLength(2);
    expect(state.messages.at(-1)!.content).toMatch(/nothing was run/i);
  });

  it('names a skill this deployment turned off and refuses the question before anything runs', async () => {
    const state = await ask(agentWith(offline), 'Will it rain in Lisbon tomorrow? I need a rainfall forecast', 'r4');
    expect(turnOutcomes(state.messages)).toEqual([]);
    const reply = state.messages.at(-1) as AIMessage;
    expect(reply.content).toMatch(/^Weather oracle needs a weather feed, which this deployment does not have \(weather-oracle\) \(domain_disabled\): nothing was run and nothing was charged/);
    expect(reply.additional_kwargs).toMatchObject({ reason: 'domain_disabled', missing: { skill: 'weather-oracle', title: 'Weather oracle', domain: null } });
  });
});

describe('report agent with fakeModel in the model seat', () => {
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

  it('ends the turn at the model-call limit and writes the answer from the outcomes, within the turn\'s tool-call budget', async () => {
    const model = greedy();
    const state = await ask(agentWith({ chat: model, label: 'llm:fake' }, 2), 'keep digging', 'f1');
    expect(model.callCount).toBe(2);
    const outcomes = turnOutcomes(state.messages);
    // Round one runs all six calls; round two the four left of the turn's budget (2 rounds x 5).
    // The bad argument is refused by the tool's schema and recorded; the unknown tool is answered, never run.
    expect(outcomes.map((o) => `${o.tool}:${o.ok ? 'ok' : o.error!.code}`)).toEqual([
      'gas_price:ok', 'token_holders:invalid_body', 'gas_price:ok', 'gas_price:ok', 'token_holders:ok',
      'gas_price:ok', 'token_holders:invalid_body', 'gas_price:ok',
    ]);
    const replies = toolMessages(state.messages);
    const ran = replies.filter((m) => m.status !== 'error').map((m) => JSON.parse(String(m.content)).error?.code ?? 'ok');
    expect(ran).toEqual(['ok', 'unknown_tool', 'invalid_body', 'ok', 'ok', 'ok', 'ok', 'unknown_tool', 'invalid_body', 'ok']);
    expect(ran).toHaveLength(2 * MAX_CALLS_PER_ROUND);
    const refused = replies.filter((m) => m.status === 'error');
    expect(refused.map((m) => m.content)).toEqual(Array(2).fill('Tool call limit exceeded. Do not make additional tool calls.'));
    // The invalid call's message is the schema's, naming the field.
    expect(JSON.parse(String(replies[2]!.content)).error.message).toMatch(/tokenAddress/);
    const last = state.messages.at(-1) as AIMessage;
    expect(last.tool_calls ?? []).toEqual([]);
    expect(last.content).toBe(writeAnswer(outcomes, known));
  });

  it('starts each turn\'s limits afresh, even after a turn the limit ended', async () => {
    const model = greedy();
    const agent = agentWith({ chat: model, label: 'llm:fake' }, 1);
    const first = await ask(agent, 'keep digging', 'f2', 1);
    const second = await ask(agent, 'and again', 'f2', 1);
    // One model call a turn, and each turn the same five calls of its budget.
    expect(model.callCount).toBe(2);
    expect(toolMessages(second.messages).length - toolMessages(first.messages).length).toBe(6);
    expect(turnOutcomes(second.messages)).toEqual(turnOutcomes(first.messages).map((o) => expect.objectContaining({ tool: o.tool, ok: o.ok })));
  });

  it('shows the model each working tool with the input side of its schema, in parallel, after the system prompt; its own answer ends the turn', async () => {
    const model = fakeModel().respondWithTools([{ name: 'gas_price', args: {} }]).respond(new AIMessage('Gas is cheap on base.'));
    const bindTools = vi.spyOn(model, 'bindTools');
    const state = await ask(agentWith({ chat: model, label: 'llm:fake' }), 'how is gas?', 'f3');
    // What createAgent binds: the tools as shown, and the model settings.
    const [shown, settings] = bindTools.mock.calls[0] as unknown as [Parameters<typeof convertToOpenAITool>[0][], Record<string, unknown>];
    const bound = shown.map((t) => convertToOpenAITool(t).function);
    // The disabled skill is not among them.
    expect(bound.map((f) => f.name)).toEqual(['gas_price', 'token_holders', 'mempool_watch']);
    expect(settings).toMatchObject({ parallel_tool_calls: true });
    // A field with a default is not required.
    expect(bound[1]!.parameters).toMatchObject({ required: ['tokenAddress'], properties: { chain: { default: 'base' } } });
    expect(bound[0]!.parameters).not.toHaveProperty('required');
    expect(state.messages.at(-1)!.content).toBe('Gas is cheap on base.');
    // The tool parsed the call (the default filled for the skill); the outcome keeps what the model wrote.
    expect(turnOutcomes(state.messages)).toEqual([expect.objectContaining({ tool: 'gas_price', args: {}, ok: true, result: expect.objectContaining({ chain: 'base' }) })]);
    expect(model.calls[0]!.messages[0]!.getType()).toBe('system');
  });

  it('answers a call to a skill this deployment turned off with that skill\'s refusal', async () => {
    const model = fakeModel().respondWithTools([{ name: 'weather_oracle', args: {} }]).respond(new AIMessage('No weather here.'));
    const state = await ask(agentWith({ chat: model, label: 'llm:fake' }), 'rain?', 'f4');
    expect(JSON.parse(String(toolMessages(state.messages)[0]!.content)).error.code).toBe('domain_disabled');
    expect(turnOutcomes(state.messages)).toEqual([expect.objectContaining({ skill: 'weather-oracle', ok: false })]);
  });
});

describe('ReportAgent', () => {
  const reportAgent = (model: ReportModel, timeBudgetMs = 5_000) => {
    const store = new MemoryStore();
    return { store, agent: new ReportAgent({ registry, model, context, store, checkpointer: new StoreCheckpointSaver(store), maxToolRounds: 2, timeBudgetMs, secrets: [SECRET] }) };
  };

  it('compiles its agent once and reuses it for every request and room', async () => {
    const compile = vi.spyOn(StateGraph.prototype, 'compile');
    const { agent } = reportAgent(offline);
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

  it('keeps the earlier turns\' words in the room, not their full results', async () => {
    const { agent, store } = reportAgent(offline);
    await agent.ask({ prompt: 'What is the gas price on ethereum?', roomId: 'a2' });
    await agent.ask({ prompt: 'and on base?', roomId: 'a2' });
    const saved = (await new StoreCheckpointSaver(store).getTuple({ configurable: { thread_id: 'a2' } }))!.checkpoint.channel_values.messages as BaseMessage[];
    const [earlier, latest] = toolMessages(saved);
    expect(earlier!.artifact).toBeUndefined();
    expect(earlier!.content).toContain('12.5');
    expect(latest!.artifact).toMatchObject({ skill: 'gas-price', ok: true });
  });

  it('hands the request\'s deadline to the skills through the invoke config: past it, timeout', async () => {
    const model = fakeModel().respondWithTools([{ name: 'mempool_watch', args: {} }]);
    const err = await reportAgent({ chat: model, label: 'llm:fake' }, 300).agent.ask({ prompt: 'watch the mempool' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SibylError);
    expect((err as SibylError).code).toBe('timeout');
    expect(slow.signal?.aborted).toBe(true);
  });

  it('refuses a prompt nothing fits with no_skill_fits, before payment (screen) and in the agent alike', async () => {
    const { agent } = reportAgent(offline);
    for (const refused of [agent.screen({ prompt: 'Write me a poem about autumn leaves' }), agent.ask({ prompt: 'Write me a poem about autumn leaves' })]) {
      const err = await refused.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SibylError);
      expect((err as SibylError).toBody().error).toMatchObject({ code: 'no_skill_fits', reason: 'off_topic', suggestions: expect.arrayContaining([expect.objectContaining({ skill: expect.any(String), example: expect.any(String) })]) });
    }
    await expect(agent.screen({ prompt: 'What is the gas price on ethereum?' })).resolves.toBeUndefined();
  });

  it('refuses a question about a skill this deployment turned off before payment, naming it, whichever model answers', async () => {
    const prompt = 'Will it rain in Lisbon tomorrow? I need a rainfall forecast';
    const { agent } = reportAgent(offline);
    const llm = reportAgent({ chat: fakeModel().respondWithTools([{ name: 'gas_price', args: {} }]), label: 'llm:fake' }).agent;
    for (const refused of [agent.screen({ prompt }), agent.ask({ prompt }), llm.screen({ prompt })]) {
      const err = await refused.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SibylError);
      expect((err as SibylError).toBody().error).toMatchObject({
        code: 'no_skill_fits',
        reason: 'domain_disabled',
        message: expect.stringMatching(/Weather oracle.*domain_disabled.*nothing was charged/s),
        missing: { skill: 'weather-oracle', title: 'Weather oracle', domain: null, needs: expect.stringMatching(/weather feed/) },
      });
    }
  });
});
