/**
 * The report agent on a language model: a loopback OpenAI-compatible server answers the
 * `openai` client with real tool-call responses (two calls in parallel, and one to a tool that
 * does not exist), then writes its answer from the tool messages it is sent, and tries to leak
 * the API key it was given. The whole path through ChatOpenAI and the openai client runs.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentTools } from '../../graph/tools.js';
import { MAX_CALLS_PER_ROUND } from '../../graph/report.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { json, postJson, startTestSibyl, walletPoster, type TestSibyl, TEST_SERVER_PARTS } from '../helpers/sibyl.js';
import { SPEC_PATH_PRICE } from '../helpers/spec-prices.js';

const API_KEY = 'sk-stub-0123456789abcdef';
const MAX_ROUNDS = 2;
const BUDGET_MS = 2_500;
/** The registry as this test server runs it: no Bitcoin chain, no QRNG provider. */
const registry = createRegistry([], TEST_SERVER_PARTS);

interface Seen { body: any; authorization: string | undefined }
const seen: Seen[] = [];
let stub: Server;
let sibyl: TestSibyl;

/** A chat completion: tool calls on the first round, an answer built from the tool messages after. */
function complete(body: any): unknown {
  const toolMessages = body.messages.filter((m: any) => m.role === 'tool');
  const user = [...body.messages].reverse().find((m: any) => m.role === 'user')?.content ?? '';
  const base = { id: `chatcmpl-${seen.length}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model, usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } };
  const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  // A model that never stops calling tools, six at a time.
  if (/keep digging/i.test(user)) {
    const round = toolMessages.length;
    return { ...base, choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: Array.from({ length: 6 }, (_, i) => call(`call_${round}_${i}`, 'latest_pairs', { chain: 'base', limit: 1 })) } }] };
  }
  // A plan in two rounds: the biggest token first, then its holders, read from the first result.
  if (/its biggest holders/i.test(user)) {
    if (!toolMessages.length) {
      return { ...base, choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [call('call_top', 'top_tokens', { chain: 'base', limit: 1 })] } }] };
    }
    const top = JSON.parse(toolMessages[0].content);
    if (toolMessages.length === 1) {
      return { ...base, choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [call('call_holders', 'holder_concentration', { tokenAddress: top.tokens[0].token, chain: 'base' })] } }] };
    }
    const holders = JSON.parse(toolMessages[1].content);
    return { ...base, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `${top.tokens[0].symbol} leads base; its largest holder has ${holders.top1Pct}%.` } }] };
  }
  if (/hello/i.test(user)) return { ...base, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello! Ask me about on-chain activity.' } }] };
  if (!toolMessages.length) {
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
    const user = [...body.messages].reverse().find((m: any) => m.role === 'user')?.content ?? '';
    // A model slower than the report's time budget.
    if (/take your time/i.test(user)) await new Promise((r) => setTimeout(r, 2 * BUDGET_MS));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(complete(body)));
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  const { port } = stub.address() as AddressInfo;
  sibyl = await startTestSibyl({ env: { SIBYL_LLM_MODEL: 'stub-model', OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_API_KEY: API_KEY, REPORT_MAX_TOOL_ROUNDS: String(MAX_ROUNDS), REPORT_TIME_BUDGET_MS: String(BUDGET_MS) } });
});
afterAll(async () => {
  await sibyl?.close();
  await new Promise((r) => stub?.close(r));
});

async function payer() {
  const wallet = await walletPoster(sibyl.url, '5');
  return { balance: wallet.balance, post: (body: unknown) => wallet.post('/x402/svc/report', body) };
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

    // What the model was sent: every working agent tool from the registry, parallel calls allowed, the key as bearer.
    expect(seen).toHaveLength(2);
    expect(seen[0]!.authorization).toBe(`Bearer ${API_KEY}`);
    expect(seen[0]!.body.tools.map((t: any) => t.function.name).sort()).toEqual(agentTools(registry).map((t) => t.name).sort());
    expect(seen[0]!.body.parallel_tool_calls).toBe(true);
    const toolReplies = seen[1]!.body.messages.filter((m: any) => m.role === 'tool');
    expect(toolReplies.map((m: any) => m.tool_call_id)).toEqual(['call_pairs', 'call_top', 'call_pay']);
    expect(JSON.parse(toolReplies[2].content).error.code).toBe('unknown_tool');
    expect(JSON.stringify(seen[1]!.body.messages[0])).not.toContain(API_KEY);

    expect(before - (await p.balance())).toBe(SPEC_PATH_PRICE.report);
  });

  it('bounds a model that never stops: REPORT_MAX_TOOL_ROUNDS model calls, that many times MAX_CALLS_PER_ROUND tool calls, then answers from the results', async () => {
    const p = await payer();
    seen.length = 0;
    const res = await p.post({ prompt: 'Keep digging into the newest pairs on base' });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    // Six calls a round, twice: the second round runs only what is left of the turn's budget.
    expect(body.toolsUsed).toHaveLength(MAX_ROUNDS * MAX_CALLS_PER_ROUND);
    expect(seen).toHaveLength(MAX_ROUNDS);
    expect(seen[1]!.body.messages.filter((m: any) => m.role === 'tool').map((m: any) => JSON.parse(m.content).error)).toEqual(Array(6).fill(undefined));
    expect(body.analysis).toContain('Latest DEX pairs');
  });

  it('stops at the time budget with 504 and charges nothing; a room answers one question at a time', async () => {
    const p = await payer();
    const q = await payer();
    const before = await p.balance();
    const roomId = `slow-${Date.now()}`;
    const slow = p.post({ prompt: 'Take your time: what are the newest pairs on base?', roomId });
    // The second question reaches the room while the first holds it.
    await new Promise((r) => setTimeout(r, BUDGET_MS / 2));
    const busy = await q.post({ prompt: 'hello, any whale moves on base?', roomId });
    expect(busy.status).toBe(409);
    expect((await json(busy)).error.code).toBe('room_busy');
    const res = await slow;
    expect(res.status).toBe(504);
    expect((await json(res)).error.code).toBe('timeout');
    expect(await p.balance()).toBe(before);
  });

  it('runs a plan over two rounds: the second call uses what the first returned', async () => {
    const p = await payer();
    const before = await p.balance();
    const res = await p.post({ prompt: 'What is the biggest token on base, and who are its biggest holders?' });
    const body = await json(res);
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.toolsUsed.map((t: { skill: string }) => t.skill)).toEqual(['top-tokens', 'holder-concentration']);
    const top = body.results[0].result.tokens[0];
    expect(body.toolsUsed[1].args).toEqual({ tokenAddress: top.token, chain: 'base' });
    // Two rounds are this test server's limit (REPORT_MAX_TOOL_ROUNDS): the answer is written from both results.
    expect(body.analysis).toContain(`${top.symbol}: `);
    expect(body.analysis).toContain('Top by liquidity on base');
    expect(before - (await p.balance())).toBe(SPEC_PATH_PRICE.report);
  });

  it('charges nothing when the model answers without any tool', async () => {
    const p = await payer();
    const before = await p.balance();
    const res = await p.post({ prompt: 'hello there, what do whales on base do?' });
    const body = await json(res);
    expect(res.status).toBe(422);
    expect(body.error).toMatchObject({ code: 'no_answer', message: 'Hello! Ask me about on-chain activity.' });
    expect(await p.balance()).toBe(before);
  });

  it('refuses an off-topic prompt before payment even with a model: no 402, nothing charged', async () => {
    const res = await postJson(`${sibyl.url}/x402/svc/report`, { prompt: 'hello there' });
    expect(res.status).toBe(422);
    expect((await json(res)).error).toMatchObject({ code: 'no_skill_fits', reason: 'off_topic' });
  });
});
