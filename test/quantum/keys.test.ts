/**
 * Keys are returned once and never stored or logged (docs/skills.md, "Post-quantum"): keys bought through the service
 * on each surface, then every key of the store (Redis, leases and TTL'd entries included, every
 * type read in full) and every line the service logged is searched for the secret material, in
 * the encodings a leak could take (hex either case, base64, the EVM 0x form, the WIF), and inside
 * values the store keeps base64-encoded.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { X402_META } from '../../agent/a2a-executor.js';
import { TEST_REDIS_URL } from '../helpers/env.js';
import { creditedMcpClient } from '../helpers/mcp-credits.js';
import { signedPayment } from '../helpers/payments.js';
import { fundedPayer, json, postJson, rpcUrl, startTestSibyl, walletPoster, type TestSibyl } from '../helpers/sibyl.js';

const PREFIX = `sibyl-test:${randomUUID()}:`;
const logged: string[] = [];
let sibyl: TestSibyl;
const consoleSpies: ReturnType<typeof vi.spyOn>[] = [];

beforeAll(async () => {
  // Whatever reaches the console during these tests counts as logged too.
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    consoleSpies.push(vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))));
  }
  sibyl = await startTestSibyl({ redis: PREFIX, log: (msg, err) => void logged.push(`${msg} ${err instanceof Error ? `${err.message}\n${err.stack}` : String(err ?? '')}`) });
}, 120_000);
afterAll(async () => {
  await sibyl?.close();
  for (const spy of consoleSpies) spy.mockRestore();
});

/** The secret strings of an answer: every value under a field that holds a secret, wherever it nests. */
function secretsOf(answer: unknown): string[] {
  const found: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (['secretKey', 'seed', 'privateKey', 'wif'].includes(k) && typeof x === 'string') found.push(x);
      else walk(x);
    }
  };
  walk(answer);
  return found;
}

/** Every form a secret could be written in: as given, hex in either case (without 0x), base64 of its bytes. */
function forms(secret: string): string[] {
  const out = new Set([secret]);
  const hex = secret.replace(/^0x/, '');
  if (/^[0-9a-fA-F]+$/.test(hex) && hex.length % 2 === 0) {
    out.add(hex.toLowerCase()).add(hex.toUpperCase()).add(Buffer.from(hex, 'hex').toString('base64'));
  } else if (/^[A-Za-z0-9+/]+=*$/.test(secret)) {
    out.add(Buffer.from(secret, 'base64').toString('hex'));
  }
  // A leak of part of a key is a leak: look for a 32-character piece of each form.
  return [...out].map((f) => f.slice(0, 32));
}

/** Every key under the test's prefix with everything it holds (TTL'd or not), as [key, text]. */
async function storeEntries(): Promise<[string, string][]> {
  const client = createClient({ url: TEST_REDIS_URL });
  await client.connect();
  try {
    const entries: [string, string][] = [];
    let cursor = '0';
    do {
      const page = await client.scan(cursor, { MATCH: `${PREFIX}*`, COUNT: 1000 });
      cursor = String(page.cursor);
      for (const key of page.keys.map(String)) {
        const type = String(await client.type(key));
        let text: string;
        if (type === 'string') text = String(await client.get(key));
        else if (type === 'hash') text = JSON.stringify(await client.hGetAll(key));
        else if (type === 'zset') text = JSON.stringify(await client.zRange(key, 0, -1));
        else if (type === 'list') text = JSON.stringify(await client.lRange(key, 0, -1));
        else if (type === 'set') text = JSON.stringify(await client.sMembers(key));
        else if (type === 'stream') text = JSON.stringify(await client.xRange(key, '-', '+'));
        else text = `<${type}>`;
        // Values kept as bytes (the report rooms' checkpoints) are stored base64: read them decoded too.
        const decoded = [...text.matchAll(/[A-Za-z0-9+/]{64,}={0,2}/g)].map((m) => Buffer.from(m[0], 'base64').toString('latin1'));
        entries.push([key.slice(PREFIX.length), [key, text, ...decoded].join('\n')]);
      }
    } while (cursor !== '0');
    return entries;
  } finally {
    await client.quit();
  }
}

/** Where the secrets' forms are found: the store keys holding them, or the logs. */
async function leaks(secrets: string[]): Promise<string[]> {
  const entries = await storeEntries();
  const logs = logged.join('\n');
  const found = new Set<string>();
  for (const secret of secrets) {
    for (const form of forms(secret)) {
      for (const [key, text] of entries) if (text.includes(form)) found.add(`store key ${key} holds key material`);
      if (logs.includes(form)) found.add(`logs hold ${form}…`);
    }
  }
  return [...found];
}

describe('generated keys are returned once, never stored or logged', () => {
  it('over A2A {params}: encryption key, each signing scheme and the hybrid wallet', { timeout: 120_000 }, async () => {
    const payer = await walletPoster(sibyl.url, '20');
    const secrets: string[] = [];
    for (const [skill, params] of [
      ['quantum-encryption-key', {}],
      ['quantum-encryption-key', { encoding: 'base64' }],
      ['quantum-signing-key', {}],
      ['quantum-signing-key', { scheme: 'ml-dsa-87' }],
      ['quantum-signing-key', { scheme: 'slh-dsa-sha2-128s', encoding: 'base64' }],
      ['quantum-wallet-generation', {}],
    ] as const) {
      const res = await payer.post(`/api/a2a/skills/${skill}`, { params });
      const body = await json(res);
      expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      const mine = secretsOf(body.response);
      expect(mine.length, skill).toBeGreaterThanOrEqual(2);
      secrets.push(...mine);
    }
    // The search finds what it looks for: the answers' own public keys are allowed to appear nowhere either,
    // but a planted secret must be found (so an empty result means absent, not a blind search).
    logged.push(`canary ${secrets[0]}`);
    expect((await leaks([secrets[0]!])).some((l) => l.startsWith('logs hold'))).toBe(true);
    logged.pop();
    expect(await leaks(secrets)).toEqual([]);
  });

  it('over A2A JSON-RPC: message/send, paid, completes with the key; the kept task says it was returned once', { timeout: 90_000 }, async () => {
    const call = async (method: string, params: unknown) => json(await postJson(`${sibyl.url}/a2a`, { jsonrpc: '2.0', id: 1, method, params }));
    const { key } = await fundedPayer('10');
    // A skill named in a data part, and a key asked for in words (the report agent, in the context's room).
    for (const part of [{ kind: 'data', data: { skill: 'quantum-encryption-key', params: {} } }, { kind: 'text', text: 'Make me a quantum-resistant encryption key' }]) {
      const asked = await call('message/send', { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [part] } });
      expect(asked.result.status.state, JSON.stringify(asked).slice(0, 300)).toBe('input-required');
      const accepted = asked.result.status.message.metadata[X402_META.required].accepts[0];
      const { payload } = await signedPayment({ key, payTo: accepted.payTo, amount: BigInt(accepted.amount), version: 1 });
      const done = await call('message/send', { message: { kind: 'message', messageId: randomUUID(), role: 'user', taskId: asked.result.id, contextId: asked.result.contextId, parts: [{ kind: 'text', text: 'paid' }], metadata: { [X402_META.status]: 'payment-submitted', [X402_META.payload]: payload } } });
      expect(done.result.status.state, JSON.stringify(done).slice(0, 300)).toBe('completed');
      const secrets = secretsOf(done.result);
      expect(secrets.length, part.kind).toBeGreaterThanOrEqual(2);
      await sibyl.outbox.drained(2_000);
      expect(await leaks(secrets), part.kind).toEqual([]);
      // The task itself is kept (in the store, not only in this instance), its answer replaced by what became of it.
      expect((await storeEntries()).some(([k]) => k === `a2a:task:${done.result.id}`)).toBe(true);
      const got = await call('tasks/get', { id: done.result.id });
      expect(got.result.status.state).toBe('completed');
      expect(secretsOf(got.result)).toEqual([]);
      expect(JSON.stringify(got.result.artifacts)).toContain('returned once');
    }
  });

  it('as the MCP tool generate_quantum_key (kind wallet), paid from credits', { timeout: 60_000 }, async () => {
    const { client } = await creditedMcpClient(sibyl.url, rpcUrl(), '2');
    try {
      const r = await client.callTool({ name: 'generate_quantum_key', arguments: { kind: 'wallet' } });
      expect(r.isError, JSON.stringify(r.content).slice(0, 300)).toBeFalsy();
      const secrets = secretsOf(r.structuredContent);
      expect(secrets.length).toBeGreaterThanOrEqual(4);
      expect(await leaks(secrets)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('on the report path as the catalogue service quantum-wallet-generation (a typed body)', { timeout: 60_000 }, async () => {
    const payer = await walletPoster(sibyl.url, '5');
    const res = await payer.post('/x402/svc/report', { service: 'quantum-wallet-generation' });
    const body = await json(res);
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    const secrets = secretsOf(body);
    expect(secrets.length, JSON.stringify(body).slice(0, 300)).toBeGreaterThanOrEqual(4);
    expect(await leaks(secrets)).toEqual([]);
  });

  it('through the report agent: a key asked for in words', { timeout: 60_000 }, async () => {
    const payer = await walletPoster(sibyl.url, '5');
    const res = await payer.post('/api/a2a/skills/general-analysis', { params: { prompt: 'Make me a quantum-resistant encryption key' } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    const secrets = secretsOf(body.response);
    expect(secrets.length, JSON.stringify(body.response).slice(0, 300)).toBeGreaterThanOrEqual(2);
    // The room was kept (the search covers its checkpoints), only without the key.
    const room = body.response.roomId as string;
    expect((await storeEntries()).some(([k]) => k.startsWith(`agent:room:${room}:`) && k.endsWith(':cp'))).toBe(true);
    expect(await leaks(secrets)).toEqual([]);
  });
});
