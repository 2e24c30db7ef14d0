/**
 * Buying a skill the ways a user does, shared by the capability end-to-end tests: an A2A JSON-RPC
 * `message/send` answered with a signed payment, and the paid MCP tools' kinds on credits.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { X402_META } from '../../agent/a2a-executor.js';
import { signedPayment } from './payments.js';
import { json, postJson } from './sibyl.js';
import { SPEC_SKILL_PRICE } from './spec-prices.js';

type SkillId = keyof typeof SPEC_SKILL_PRICE;

/** Sends `skill` over A2A JSON-RPC: the task asks for the spec price, and the paid message completes. */
export async function paidJsonRpc(url: string, key: `0x${string}`, skill: SkillId, params: Record<string, unknown>): Promise<void> {
  const call = async (p: unknown) => json(await postJson(`${url}/a2a`, { jsonrpc: '2.0', id: 1, method: 'message/send', params: p }));
  const asked = await call({ message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'data', data: { skill, params } }] } });
  expect(asked.result.status.state, JSON.stringify(asked).slice(0, 300)).toBe('input-required');
  const accepted = asked.result.status.message.metadata[X402_META.required].accepts[0];
  expect(BigInt(accepted.amount)).toBe(SPEC_SKILL_PRICE[skill]);
  const { payload } = await signedPayment({ key, payTo: accepted.payTo, amount: BigInt(accepted.amount), version: 1 });
  const done = await call({ message: { kind: 'message', messageId: randomUUID(), role: 'user', taskId: asked.result.id, contextId: asked.result.contextId, parts: [{ kind: 'text', text: 'paid' }], metadata: { [X402_META.status]: 'payment-submitted', [X402_META.payload]: payload } } });
  expect(done.result.status.state, JSON.stringify(done).slice(0, 300)).toBe('completed');
}

/**
 * Buys each skill over A2A `{params}` with `payer` (the official x402 client); what failed: a status
 * other than 200, a charge other than the spec price, an answer not available, or `check`'s complaint.
 */
export async function a2aParamsFailures(
  payer: { post(path: string, body: unknown): Promise<Response>; balance(): Promise<bigint> },
  bodies: Partial<Record<SkillId, Record<string, unknown>>>,
  check: (id: SkillId, response: Record<string, unknown>) => string | undefined = () => undefined,
): Promise<string[]> {
  const failures: string[] = [];
  for (const [id, params] of Object.entries(bodies) as [SkillId, Record<string, unknown>][]) {
    const before = await payer.balance();
    const res = await payer.post(`/api/a2a/skills/${id}`, { params });
    const body = await json(res);
    if (res.status !== 200) {
      failures.push(`${id}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      continue;
    }
    const charged = before - (await payer.balance());
    if (charged !== SPEC_SKILL_PRICE[id]) failures.push(`${id}: charged ${charged}, spec ${SPEC_SKILL_PRICE[id]}`);
    if (body.response?.available === false) failures.push(`${id}: available false (${body.response.reason})`);
    const complaint = check(id, body.response);
    if (complaint) failures.push(`${id}: ${complaint}`);
  }
  return failures;
}

/** Calls each paid tool kind on credits; what failed: an error, nothing available, another skill, or a debit other than the skill's spec price. */
export async function kindFailures(client: Client, credits: () => Promise<bigint>, kinds: readonly (readonly [string, Record<string, unknown>, SkillId])[]): Promise<string[]> {
  const failures: string[] = [];
  for (const [name, args, skill] of kinds) {
    const before = await credits();
    const r = await client.callTool({ name, arguments: args });
    const body = r.structuredContent as { available?: boolean; reason?: string; skill?: string } | undefined;
    const debited = before - (await credits());
    if (r.isError || body?.available !== true) failures.push(`${name}/${args.kind}: ${JSON.stringify(body ?? r.content).slice(0, 300)}`);
    else if (body.skill !== skill || debited !== SPEC_SKILL_PRICE[skill]) failures.push(`${name}/${args.kind}: skill ${body.skill}, debited ${debited}, spec ${SPEC_SKILL_PRICE[skill]}`);
  }
  return failures;
}
