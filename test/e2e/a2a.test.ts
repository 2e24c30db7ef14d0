/**
 * The A2A server with the official `@a2a-js/sdk` client: it discovers the card, sends a skill
 * call, pays it through the a2a-x402 extension with a payload signed by the official x402 client,
 * and gets the result with its receipt; text goes to the report agent; bad params, a refused
 * payment and a canceled task move no money; a 0.3 client still works.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ClientFactory, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client';
import { x402Client } from '@x402/core/client';
import type { PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { X402_EXTENSION_URI } from '../../cards/agent-card.js';
import { X402_META } from '../../agent/a2a-executor.js';
import { X402_NETWORK } from '../../payments/terms.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { fundedPayer, json, usdcBalance, useTestSibyl, TEST_SERVER_PARTS } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';

// As the test server is (TEST_SERVER_PARTS).
const registry = createRegistry([], TEST_SERVER_PARTS);
/** Clients that know the a2a-x402 extension declare it (the card offers it, not required). */
const x402 = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXTENSION_URI)) };

function message(parts: Message['parts'], extra: Partial<Message> = {}): Message {
  return { messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [], ...extra };
}
const data = (value: unknown) => ({ content: { $case: 'data' as const, value }, metadata: undefined, filename: '', mediaType: 'application/json' });
const text = (value: string) => ({ content: { $case: 'text' as const, value }, metadata: undefined, filename: '', mediaType: 'text/plain' });

async function wallet() {
  const { key } = await fundedPayer('5');
  const account = privateKeyToAccount(key);
  const signer = new x402Client().register(X402_NETWORK, new ExactEvmScheme(account));
  return { address: account.address, balance: () => usdcBalance(account.address), pay: (required: PaymentRequired) => signer.createPaymentPayload(required) };
}

describe('A2A server (official SDK client, a2a-x402)', () => {
  const sibyl = useTestSibyl();
  const client = () => new ClientFactory().createFromUrl(sibyl.url);

  it('publishes a card with every working skill, its price, modes and the x402 extension', async () => {
    const card = await json(await fetch(`${sibyl.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } }));
    const published = registry.published('a2a');
    expect(card.skills.map((s: { id: string }) => s.id).sort()).toEqual(published.map((s) => s.id).sort());
    const whales = card.skills.find((s: { id: string }) => s.id === 'whale-tracking');
    expect(whales).toMatchObject({ name: 'Whale tracking', tags: expect.arrayContaining(['whales']), examples: expect.any(Array), inputModes: ['application/json'], description: expect.stringContaining('Price: $0.45 USDC') });
    expect(card.capabilities.extensions).toContainEqual(expect.objectContaining({ uri: X402_EXTENSION_URI, required: false, params: expect.objectContaining({ currency: 'USDC', prices: expect.objectContaining({ 'whale-tracking': '0.45' }) }) }));
    expect(card.supportedInterfaces.map((i: { protocolVersion: string }) => i.protocolVersion).sort()).toEqual(['0.3', '1.0']);
    // A 0.3 reader gets the 0.3 fields too.
    const legacy = await json(await fetch(`${sibyl.url}/.well-known/agent-card.json`));
    expect(legacy.url).toBe(`${sibyl.url}/a2a`);
  });

  it('runs a paid skill: input-required with the requirements, paid by payload, completed with the result and the receipt', async () => {
    const a2a = await client();
    const payer = await wallet();
    const before = await payer.balance();
    const asked = (await a2a.sendMessage({ message: message([data({ skill: 'whale-tracking', params: { chain: 'base', limit: 5 } })]) } as never, x402)) as Task;
    expect(asked.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(asked.metadata![X402_META.status]).toBe('payment-required');
    const required = asked.metadata![X402_META.required] as PaymentRequired;
    expect(required.accepts[0]!.amount).toBe(String(SPEC_SKILL_PRICE['whale-tracking']));

    const payload = await payer.pay(required);
    const done = (await a2a.sendMessage({ message: message([text('payment attached')], { taskId: asked.id, contextId: asked.contextId, metadata: { [X402_META.payload]: payload } }) } as never, x402)) as Task;
    expect(done.status!.state, JSON.stringify(done.status)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.metadata![X402_META.status]).toBe('payment-completed');
    const [receipt] = done.metadata![X402_META.receipts] as { success: boolean; transaction: string }[];
    expect(receipt).toMatchObject({ success: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    // Where a2a-x402 v0.2 puts it: the status message's metadata.
    expect(done.status!.message!.metadata).toMatchObject({ [X402_META.status]: 'payment-completed', [X402_META.receipts]: [receipt] });
    const result = done.artifacts[0]!.parts.find((p) => p.content?.$case === 'data')!.content!.value;
    expect(result).toMatchObject({ chain: 'base', limit: 5, methodology: expect.stringContaining('whales/v2') });
    expect(before - (await payer.balance())).toBe(SPEC_SKILL_PRICE['whale-tracking']);

    const fetched = await a2a.getTask({ id: asked.id, historyLength: 0 } as never, x402);
    expect(fetched.status!.state).toBe(TaskState.TASK_STATE_COMPLETED);

    // A payer that never saw that answer (its connection died) reads the task: the result and
    // receipt are there. Sending the same payment again to the finished task is refused by the
    // protocol (a terminal task cannot be modified) and charges nothing.
    const read = await a2a.getTask({ id: asked.id } as never, x402);
    expect(read.metadata![X402_META.receipts]).toEqual([receipt]);
    expect(read.artifacts[0]!.parts.find((p) => p.content?.$case === 'data')!.content!.value).toEqual(result);
    await expect(a2a.sendMessage({ message: message([text('payment attached')], { taskId: asked.id, contextId: asked.contextId, metadata: { [X402_META.payload]: payload } }) } as never, x402)).rejects.toThrow(/terminal state/);
    expect(before - (await payer.balance())).toBe(SPEC_SKILL_PRICE['whale-tracking']);
  });

  it('sends text to the report agent at $1.00, and streams the task', async () => {
    const a2a = await client();
    const payer = await wallet();
    const before = await payer.balance();
    const events = [];
    for await (const event of a2a.sendMessageStream({ message: message([text('List the newest pairs on base')]) } as never, x402)) events.push(event);
    const asked = (events[0] as { payload?: { $case: string; value: Task } }).payload?.value ?? (events[0] as unknown as Task);
    expect(asked.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const payload = await payer.pay(asked.metadata![X402_META.required] as PaymentRequired);
    const done = (await a2a.sendMessage({ message: message([text('paid')], { taskId: asked.id, contextId: asked.contextId, metadata: { [X402_META.payload]: payload } }) } as never, x402)) as Task;
    expect(done.status!.state, JSON.stringify(done.status)).toBe(TaskState.TASK_STATE_COMPLETED);
    const parts = done.artifacts[0]!.parts;
    expect(parts[0]!.content).toMatchObject({ $case: 'text', value: expect.stringContaining('Latest DEX pairs') });
    expect((parts[1]!.content!.value as { toolsUsed: { skill: string }[] }).toolsUsed[0]!.skill).toBe('latest-pairs');
    expect(before - (await payer.balance())).toBe(SPEC_SKILL_PRICE['general-analysis']);
  });

  it('asks for another question, pricing nothing, when no skill answers the text; the task can be answered or canceled', async () => {
    const a2a = await client();
    const asked = (await a2a.sendMessage({ message: message([text('Tell me a joke about cats')]) } as never, x402)) as Task;
    expect(asked.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(asked.metadata?.[X402_META.required]).toBeUndefined();
    const error = (asked.status!.message!.parts[1]!.content!.value as { error: { code: string; reason: string; suggestions: unknown[] } }).error;
    expect(error).toMatchObject({ code: 'no_skill_fits', reason: 'off_topic' });
    expect(error.suggestions.length).toBeGreaterThan(0);
    // A real question on the same task is priced as any other.
    const rephrased = (await a2a.sendMessage({ message: message([text('List the newest pairs on base')], { taskId: asked.id, contextId: asked.contextId }) } as never, x402)) as Task;
    expect(rephrased.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(rephrased.metadata![X402_META.required]).toBeDefined();
  });

  it('rejects bad params naming the field, fails a refused payment with its code, cancels a waiting task: no money moves', async () => {
    const a2a = await client();
    const rejected = (await a2a.sendMessage({ message: message([data({ skill: 'whale-tracking', params: { chain: 'nowhere' } })]) } as never, x402)) as Task;
    expect(rejected.status!.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(JSON.stringify(rejected.status!.message)).toContain('params.chain');

    const payer = await wallet();
    const before = await payer.balance();
    const asked = (await a2a.sendMessage({ message: message([data({ skill: 'latest-pairs', params: { limit: 3 } })]) } as never, x402)) as Task;
    const required = asked.metadata![X402_META.required] as PaymentRequired;
    // Signed for one atomic unit less than asked.
    const short = await payer.pay({ ...required, accepts: [{ ...required.accepts[0]!, amount: String(BigInt(required.accepts[0]!.amount) - 1n) }] });
    const failed = (await a2a.sendMessage({ message: message([text('paid')], { taskId: asked.id, contextId: asked.contextId, metadata: { [X402_META.payload]: short } }) } as never, x402)) as Task;
    expect(failed.status!.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(failed.metadata![X402_META.status]).toBe('payment-failed');
    expect(failed.metadata![X402_META.error]).toBe('payment_invalid');
    expect(await payer.balance()).toBe(before);

    const waiting = (await a2a.sendMessage({ message: message([data({ skill: 'latest-pairs', params: {} })]) } as never, x402)) as Task;
    const canceled = await a2a.cancelTask({ id: waiting.id } as never, x402);
    expect(canceled.status!.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('answers a client that does not declare the x402 extension with the payment requirements, not a refusal', async () => {
    const a2a = await client();
    const asked = (await a2a.sendMessage({ message: message([data({ skill: 'latest-pairs', params: {} })]) } as never)) as Task;
    expect(asked.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(asked.status!.message!.metadata).toMatchObject({ [X402_META.status]: 'payment-required', [X402_META.required]: { x402Version: 2 } });
  });

  it('answers an A2A 0.3 client (message/send) with the same payment-required task', async () => {
    const res = await fetch(`${sibyl.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-A2A-Extensions': X402_EXTENSION_URI },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'data', data: { skill: 'smart-money', params: { chain: 'base' } } }] } } }),
    });
    const body = await json(res);
    expect(body.result).toMatchObject({ kind: 'task', status: { state: 'input-required' }, metadata: { [X402_META.status]: 'payment-required' } });
    expect(body.result.metadata[X402_META.required].accepts[0].amount).toBe(String(SPEC_SKILL_PRICE['smart-money']));
  });
});
