/**
 * A2A conformance (docs/protocols.md, "Conformance"), the points the official TCKs 1.0 and 0.3 found: JSON-RPC
 * errors for a body the app's parser refuses, invalid params for an empty message or a negative
 * historyLength, no second cancel, the card per A2A version (1.0 valid against the official
 * schema, 0.3 with its own fields) with Last-Modified, and the a2a-x402 flow for a client that
 * does not declare the extension, with the payment status, receipts and errors in the status
 * message metadata (where the a2a-x402 reference library reads them), paid in x402 v2 or v1.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { x402Client } from '@x402/core/client';
import type { PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { X402_EXTENSION_URI } from '../../cards/agent-card.js';
import { X402_META } from '../../agent/a2a-executor.js';
import { X402_NETWORK } from '../../payments/terms.js';
import { signedPayment } from '../helpers/payments.js';
import { fundedPayer, json, usdcBalance, useTestSibyl } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';

const message = (parts: Message['parts'], extra: Partial<Message> = {}): Message => ({
  messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [], ...extra,
});
const data = (value: unknown) => ({ content: { $case: 'data' as const, value }, metadata: undefined, filename: '', mediaType: 'application/json' });
const text = (value: string) => ({ content: { $case: 'text' as const, value }, metadata: undefined, filename: '', mediaType: 'text/plain' });

/** The A2A 1.0 schema's Agent Card, its `lf.a2a.v1.<Name>.jsonschema.json` references resolved as the TCK resolves them. */
function agentCardValidator() {
  const schema = JSON.parse(readFileSync(new URL('../fixtures/a2a-1.0/a2a.json', import.meta.url), 'utf8')) as { definitions: Record<string, unknown> };
  const names = new Map(Object.keys(schema.definitions).map((name) => [name.replace(/ /g, ''), name.replace(/ /g, '')]));
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$schema') continue;
      if (key === '$ref' && typeof value === 'string') {
        const name = /^(?:lf\.)?(?:a2a\.v1|google\.protobuf)\.(.+)\.jsonschema\.json$/.exec(value)?.[1];
        out[key] = name && names.has(name) ? `#/$defs/${name}` : value;
      } else out[key] = rewrite(value);
    }
    return out;
  };
  const $defs = Object.fromEntries(Object.entries(schema.definitions).map(([name, def]) => [name.replace(/ /g, ''), rewrite(def)]));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return ajv.compile({ $defs, $ref: '#/$defs/AgentCard' });
}

async function wallet() {
  const { key } = await fundedPayer('5');
  const account = privateKeyToAccount(key);
  const signer = new x402Client().register(X402_NETWORK, new ExactEvmScheme(account));
  return { key, address: account.address, balance: () => usdcBalance(account.address), pay: (required: PaymentRequired) => signer.createPaymentPayload(required) };
}

describe('A2A conformance (TCK 1.0 and 0.3 findings)', () => {
  const sibyl = useTestSibyl();
  const rpc = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${sibyl.url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const call = async (method: string, params: unknown, headers: Record<string, string> = {}) =>
    json(await rpc(JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }), headers));

  it('answers malformed JSON with -32700 and a body that is not JSON with ContentTypeNotSupported (-32005), in JSON-RPC', async () => {
    for (const version of [{}, { 'A2A-Version': '1.0' }] as Record<string, string>[]) {
      const bad = await rpc('{"jsonrpc": "2.0", "method": "message/send", "params": {"foo": "bar"}', version);
      expect(bad.headers.get('content-type')).toMatch(/json/);
      expect(await json(bad)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      const plain = await fetch(`${sibyl.url}/a2a`, { method: 'POST', headers: { 'content-type': 'text/plain', ...version }, body: '{"jsonrpc":"2.0"}' });
      expect(await json(plain)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32005 } });
    }
    // Elsewhere the REST error shape stays.
    const rest = await fetch(`${sibyl.url}/x402/data/latest-pairs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(rest.status).toBe(400);
    expect((await json(rest)).error.code).toBe('invalid_json');
  });

  it('refuses a message without parts and a negative historyLength with -32602 (1.0 client and 0.3 wire)', async () => {
    const a2a = await new ClientFactory().createFromUrl(sibyl.url);
    await expect(a2a.sendMessage({ message: message([]) } as never)).rejects.toThrow(/parts/);
    const legacy = await call('message/send', { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [] } });
    expect(legacy.error).toMatchObject({ code: -32602 });
    expect(legacy.result).toBeUndefined();

    const task = (await a2a.sendMessage({ message: message([data({ skill: 'latest-pairs', params: { limit: 2 } })]) } as never)) as Task;
    await expect(a2a.getTask({ id: task.id, historyLength: -1 } as never)).rejects.toThrow(/historyLength/);
    expect((await call('tasks/get', { id: task.id, historyLength: -1 })).error).toMatchObject({ code: -32602 });
    expect((await call('tasks/get', { id: task.id, historyLength: 0 })).result).toMatchObject({ id: task.id });
  });

  it('cancels a waiting task once; a second cancel is TaskNotCancelable (-32002)', async () => {
    const a2a = await new ClientFactory().createFromUrl(sibyl.url);
    const task = (await a2a.sendMessage({ message: message([data({ skill: 'latest-pairs', params: {} })]) } as never)) as Task;
    expect((await a2a.cancelTask({ id: task.id } as never)).status!.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(a2a.cancelTask({ id: task.id } as never)).rejects.toThrow(/not cancelable/i);
    expect((await call('tasks/cancel', { id: task.id })).error).toMatchObject({ code: -32002 });
  });

  it('serves the 1.0 card (valid against the official schema) to a 1.0 client and the 0.3 card otherwise, with Last-Modified', async () => {
    const validate = agentCardValidator();
    const card = (headers: Record<string, string>, query = '') => fetch(`${sibyl.url}/.well-known/agent-card.json${query}`, { headers });
    for (const asked of [card({ 'A2A-Version': '1.0' }), card({}, '?A2A-Version=1.0'), card({ 'A2A-Extensions': X402_EXTENSION_URI })]) {
      const res = await asked;
      expect(res.status).toBe(200);
      expect(new Date(res.headers.get('last-modified')!).getTime()).toBeLessThanOrEqual(Date.now());
      expect(res.headers.get('vary')).toMatch(/A2A-Version/);
      const body = await json(res);
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      expect(body.url).toBeUndefined();
    }
    // No version asked (A2A 1.0 §3.6.2: that is 0.3), or 0.3 asked: the 0.3 card, with the fields the 0.3 kit requires.
    for (const asked of [card({}), card({ 'A2A-Version': '0.3' }), card({ 'X-A2A-Extensions': X402_EXTENSION_URI })]) {
      const res = await asked;
      const body = await json(res);
      expect(body).toMatchObject({ url: `${sibyl.url}/a2a`, protocolVersion: expect.stringMatching(/^0\.3/), preferredTransport: 'JSONRPC', name: 'Sibyl' });
      expect(validate(body)).toBe(false);
      expect(res.headers.get('last-modified')).toBeTruthy();
    }
    // Conditional requests by date.
    const first = await card({ 'A2A-Version': '1.0' });
    // (fetch adds Cache-Control: no-cache to a conditional request unless one is given; no-cache means revalidate, not 304.)
    const again = await card({ 'A2A-Version': '1.0', 'If-Modified-Since': first.headers.get('last-modified')!, 'Cache-Control': 'max-age=0' });
    expect(again.status).toBe(304);
    // Prices ride in the x402 extension's params; the extension is not required.
    const body = await json(await card({ 'A2A-Version': '1.0' }));
    const extension = body.capabilities.extensions.find((e: { uri: string }) => e.uri === X402_EXTENSION_URI);
    expect(extension.required).toBe(false);
    expect(extension.params.prices['whale-tracking']).toBe('0.45');
    for (const skill of body.skills) expect(skill.price).toBeUndefined();
  });

  it('a client without the extension is told how to pay in the status message, pays, and gets the receipt there', async () => {
    const a2a = await new ClientFactory().createFromUrl(sibyl.url);
    const payer = await wallet();
    const before = await payer.balance();
    const asked = (await a2a.sendMessage({ message: message([data({ skill: 'whale-tracking', params: { chain: 'base', limit: 3 } })]) } as never)) as Task;
    expect(asked.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const waiting = asked.status!.message!.metadata!;
    expect(waiting[X402_META.status]).toBe('payment-required');
    expect(waiting['sibyl.request']).toBeUndefined();
    const required = waiting[X402_META.required] as PaymentRequired;
    expect(required.accepts[0]!.amount).toBe(String(SPEC_SKILL_PRICE['whale-tracking']));
    expect(await payer.balance()).toBe(before);

    const payload = await payer.pay(required);
    const done = (await a2a.sendMessage({ message: message([text('payment attached')], { taskId: asked.id, contextId: asked.contextId, metadata: { [X402_META.status]: 'payment-submitted', [X402_META.payload]: payload } }) } as never)) as Task;
    expect(done.status!.state, JSON.stringify(done.status)).toBe(TaskState.TASK_STATE_COMPLETED);
    const meta = done.status!.message!.metadata!;
    expect(meta[X402_META.status]).toBe('payment-completed');
    expect((meta[X402_META.receipts] as { success: boolean; transaction: string }[])[0]).toMatchObject({ success: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(before - (await payer.balance())).toBe(SPEC_SKILL_PRICE['whale-tracking']);
    // GetTask shows the same receipt in the status message.
    const fetched = await a2a.getTask({ id: asked.id } as never);
    expect(fetched.status!.message!.metadata![X402_META.receipts]).toEqual(meta[X402_META.receipts]);
  });

  it('a refused payment fails the task with the error and a failed receipt in the status message; nothing moves', async () => {
    const a2a = await new ClientFactory().createFromUrl(sibyl.url);
    const payer = await wallet();
    const before = await payer.balance();
    const asked = (await a2a.sendMessage({ message: message([data({ skill: 'latest-pairs', params: { limit: 2 } })]) } as never)) as Task;
    const required = asked.status!.message!.metadata![X402_META.required] as PaymentRequired;
    const short = await payer.pay({ ...required, accepts: [{ ...required.accepts[0]!, amount: String(BigInt(required.accepts[0]!.amount) - 1n) }] });
    const failed = (await a2a.sendMessage({ message: message([text('paid')], { taskId: asked.id, contextId: asked.contextId, metadata: { [X402_META.payload]: short } }) } as never)) as Task;
    expect(failed.status!.state).toBe(TaskState.TASK_STATE_FAILED);
    const meta = failed.status!.message!.metadata!;
    expect(meta).toMatchObject({ [X402_META.status]: 'payment-failed', [X402_META.error]: 'payment_invalid' });
    expect((meta[X402_META.receipts] as unknown[])[0]).toMatchObject({ success: false, transaction: '', network: X402_NETWORK });
    expect(await payer.balance()).toBe(before);
  });

  it('a client that declines (payment-rejected) gets the task canceled, uncharged', async () => {
    const a2a = await new ClientFactory().createFromUrl(sibyl.url);
    const asked = (await a2a.sendMessage({ message: message([data({ skill: 'latest-pairs', params: {} })]) } as never)) as Task;
    const declined = (await a2a.sendMessage({ message: message([text('no, thanks')], { taskId: asked.id, contextId: asked.contextId, metadata: { [X402_META.status]: 'payment-rejected' } }) } as never)) as Task;
    expect(declined.status!.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(declined.status!.message!.metadata![X402_META.status]).toBe('payment-rejected');
  });

  it('accepts an x402 v1 payment payload from a client that only speaks v1 (0.3 wire, no extension header)', async () => {
    const payer = await wallet();
    const before = await payer.balance();
    const asked = await call('message/send', { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'data', data: { skill: 'latest-pairs', params: { limit: 2 } } }] } });
    expect(asked.result.status.state).toBe('input-required');
    const accepted = asked.result.status.message.metadata[X402_META.required].accepts[0];
    const { payload } = await signedPayment({ key: payer.key, payTo: accepted.payTo, amount: BigInt(accepted.amount), version: 1 });
    const done = await call('message/send', { message: { kind: 'message', messageId: randomUUID(), role: 'user', taskId: asked.result.id, contextId: asked.result.contextId, parts: [{ kind: 'text', text: 'paid' }], metadata: { [X402_META.status]: 'payment-submitted', [X402_META.payload]: payload } } });
    expect(done.result.status.state, JSON.stringify(done)).toBe('completed');
    expect(done.result.status.message.metadata[X402_META.receipts][0]).toMatchObject({ success: true });
    expect(before - (await payer.balance())).toBe(BigInt(accepted.amount));
  });
});
