/** The model factory: the offline planner by default, ChatOpenAI on a configured endpoint, and the endpoint probe through the openai client. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatOpenAI } from '@langchain/openai';
import { plannerModel, readinessWarning } from '../../agent/model.js';
import { OfflineChatModel } from '../../graph/offline/chat-model.js';
import { createRegistry } from '../../skills/catalog/index.js';

const KEY = 'sk-probe-0123456789';
const registry = createRegistry();
let stub: Server;
let baseUrl: string;
const seen: { url: string | undefined; authorization: string | undefined }[] = [];

beforeAll(async () => {
  stub = createServer((req, res) => {
    seen.push({ url: req.url, authorization: req.headers.authorization });
    if (req.headers.authorization !== `Bearer ${KEY}`) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}');
    if (req.url === '/v1/models') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'stub-model', object: 'model', created: 0, owned_by: 'me' }] }));
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise((r) => stub.close(r)));

describe('plannerModel', () => {
  it('is the offline planner when no model is configured', async () => {
    const model = plannerModel(undefined, registry);
    expect(model.chat).toBeInstanceOf(OfflineChatModel);
    expect(model.label).toBe('offline');
    expect(await model.probe()).toEqual({ ok: true, planner: 'offline' });
  });

  it('is ChatOpenAI on the configured endpoint, which the probe reaches with the same client options', async () => {
    const model = plannerModel({ model: 'stub-model', baseUrl, apiKey: KEY }, registry);
    expect(model.chat).toBeInstanceOf(ChatOpenAI);
    expect(model.label).toBe('llm:stub-model');
    expect((model.chat as ChatOpenAI).clientConfig.baseURL).toBe(baseUrl);
    expect(await model.probe()).toEqual({ ok: true, planner: 'llm:stub-model', listed: true });
    expect(seen.at(-1)).toEqual({ url: '/v1/models', authorization: `Bearer ${KEY}` });
    expect(await plannerModel({ model: 'other', baseUrl, apiKey: KEY }, registry).probe()).toMatchObject({ ok: true, listed: false });
  });

  it('says why an endpoint is not ready without naming its URL or key', async () => {
    const refused = await plannerModel({ model: 'stub-model', baseUrl, apiKey: 'sk-wrong-000000' }, registry).probe();
    expect(refused).toEqual({ ok: false, planner: 'llm:stub-model', detail: 'HTTP 401' });
    expect(readinessWarning(refused)).toBe('warning: the llm:stub-model endpoint did not answer (HTTP 401); reports will fail until it does');
    expect(readinessWarning({ ok: true, planner: 'llm:other', listed: false })).toBe('warning: the model endpoint does not list other');
    expect(readinessWarning({ ok: true, planner: 'offline' })).toBeUndefined();
    const closed = await plannerModel({ model: 'stub-model', baseUrl: 'http://127.0.0.1:9/v1', apiKey: KEY }, registry).probe();
    expect(closed.ok).toBe(false);
    expect(JSON.stringify(closed)).not.toContain('127.0.0.1');
  });
});
