/**
 * The report agent on a language model: a loopback OpenAI-compatible server answers the
 * `openai` client with real tool-call responses (two calls in parallel, and one to a tool that
 * does not exist), then writes its answer from the tool messages it is sent, and tries to leak
 * the API key it was given. The whole path through ChatOpenAI and the openai client runs.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { agentTools } from '../../src/agent/tools.js';
import { createRegistry } from '../../src/skills/index.js';
import { fundedPayer, json, payingFetch, startTestSibyl, usdcBalance, type TestSibyl } from '../helpers/sibyl.js';

const API_KEY = 'sk-stub-0123456789abcdef';
const registry = createRegistry();

interface Seen { body: any; authorization: string | undefined }
const seen: Seen[] = [];
let stub: Server;
let sibyl: TestSibyl;

/** A chat completion: tool calls on the first round, an answer built from the tool messages after. */
function complete(body: any): unknown {
  const toolMessages = body.messages.filter((m: any) => m.role === 'tool');
  const user = [...body.messages].reverse().find((m: any) => m.role === 'user')?.content ?? '';
  const base = { id: `chatcmpl-${seen.length}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model, usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } };
  if (/hello/i.test(user)) return { ...base, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello! Ask me about on-chain activity.' } }] };
  if (!toolMessages.length) {
    const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
    return {
      ...base,
      choices: [{
        index: 0, finish_reason: 'tool_calls',
        message: { role: 'assistant', content: null, tool_calls: [call('call_pairs', 'latest_pairs', { chain: 'base', limit: 3 }), call('call_top', 'top_tokens', { chain: 'base' }), call('call_pay', 'transfer_usdc', { to: '0x0000000000000000000000000000000000000001', amount: 100 })] },
      }],
    };
  }
  const pairs = JSON.parse(toolMessages.find((m: any) => m.tool_call_id === 'call_pairs').content);
  return {
    ...base,
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `The newest ${pairs.count} pairs on base start with ${pairs.pairs[0].pair}. (My key is ${API_KEY}.)` } }],
  };
}

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

beforeAll(async () => {
  stub = createServer(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
    const body = await readBody(req);
    seen.push({ body, authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(complete(body)));
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  const { port } = stub.address() as AddressInfo;
  sibyl = await startTestSibyl({ env: { SIBYL_LLM_MODEL: 'stub-model', OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_API_KEY: API_KEY } });
});
afterAll(async () => {
  await sibyl?.close();
  await new Promise((r) => stub?.close(r));
});

async function payer() {
  const { key } = await fundedPayer('5');
  const { pay } = payingFetch(key);
  const address = privateKeyToAccount(key).address;
  return {
    balance: () => usdcBalance(address),
    post: (body: unknown) => pay(`${sibyl.url}/x402/svc/report`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  };
}

describe('report with an OpenAI-compatible model', () => {
  it('runs the model\'s parallel tool calls, refuses tools outside the registry, answers from the results and never leaks the key', async () => {
    const p = await payer();
    const before = await p.balance();
    seen.length = 0;
    const res = await p.post({ prompt: 'What are the newest pairs and the biggest tokens on base?' });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.planner).toBe('llm:stub-model');
    expect(body.toolsUsed).toEqual([
      { skill: 'latest-pairs', args: { chain: 'base', limit: 3 } },
      { skill: 'top-tokens', args: { chain: 'base' } },
    ]);
    const pairs = body.results[0].result;
    expect(body.analysis).toContain(`The newest ${pairs.count} pairs on base start with ${pairs.pairs[0].pair}`);
    expect(JSON.stringify(body)).not.toContain(API_KEY);
    expect(body.analysis).toContain('[redacted]');

    // What the model was sent: every agent tool from the registry, parallel calls allowed, the key as bearer.
    expect(seen).toHaveLength(2);
    expect(seen[0]!.authorization).toBe(`Bearer ${API_KEY}`);
    expect(seen[0]!.body.tools.map((t: any) => t.function.name).sort()).toEqual(agentTools(registry).map((t) => t.name).sort());
    expect(seen[0]!.body.parallel_tool_calls).toBe(true);
    const toolReplies = seen[1]!.body.messages.filter((m: any) => m.role === 'tool');
    expect(toolReplies.map((m: any) => m.tool_call_id)).toEqual(['call_pairs', 'call_top', 'call_pay']);
    expect(JSON.parse(toolReplies[2].content).error.code).toBe('unknown_tool');
    expect(JSON.stringify(seen[1]!.body.messages[0])).not.toContain(API_KEY);

    expect(before - (await p.balance())).toBe(registry.byId('general-analysis')!.priceRange.min);
  });

  it('charges nothing when the model answers without any tool', async () => {
    const p = await payer();
    const before = await p.balance();
    const res = await p.post({ prompt: 'hello there' });
    const body = await json(res);
    expect(res.status).toBe(422);
    expect(body.error).toMatchObject({ code: 'no_answer', message: 'Hello! Ask me about on-chain activity.' });
    expect(await p.balance()).toBe(before);
  });
});
