/**
 * The conventions of an API people run: request ids, CORS, RateLimit headers, one structured log
 * line per request (never a key or a signature) and Prometheus metrics, on a real server with real
 * payments.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineSkill } from '../../skills/core/registry.js';
import { createLogger, serializeError } from '../../server/observability/logger.js';
import { baseClient, fundedPayer, json, postJson, rpcUrl, startTestSibyl, useTestSibyl } from '../helpers/sibyl.js';
import { creditedMcpClient } from '../helpers/mcp-credits.js';
import { signedPayment } from '../helpers/payments.js';

const limitedSkill = defineSkill({
  id: 'test-limited', title: 'Limited echo', description: 'Answers its input; two calls a minute per payer (this test only).',
  tags: ['test'], examples: [], input: z.strictObject({ n: z.number().int() }), output: z.object({ n: z.number() }),
  price: '0.01', httpPath: '/x402/data/test-limited', surfaces: ['http'],
  catalog: { rateLimitPerMinute: 2, timeTargetSeconds: 30 },
  async handler(input) {
    return { n: input.n };
  },
});
const failingSkill = defineSkill({
  id: 'test-failing', title: 'Always fails', description: 'A handler that throws (this test only).',
  tags: ['test'], examples: [], input: z.strictObject({}), output: z.object({}),
  price: '0.01', httpPath: '/x402/data/test-failing', surfaces: ['http'],
  async handler() {
    throw new Error('engine exploded');
  },
});

/** Log lines the server writes, parsed. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(...String(chunk).split('\n').filter(Boolean)); done(); } });
  return { logger: createLogger({ level: 'info', format: 'json' }, stream), lines, entries: () => lines.map((l) => JSON.parse(l) as Record<string, any>) };
}

const until = async (check: () => boolean, ms = 2_000) => {
  for (const end = Date.now() + ms; !check() && Date.now() < end;) await new Promise((r) => setTimeout(r, 20));
};

/** Near a minute boundary a per-minute window may turn mid-test: wait for a fresh one. */
const freshMinute = async () => {
  if (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
};

describe('operational conventions', () => {
  const log = capturedLogger();
  const sibyl = useTestSibyl({ extraSkills: [limitedSkill, failingSkill], logger: log.logger });

  it('gives every answer an X-Request-Id: the caller\'s when well formed, a fresh one otherwise', async () => {
    const own = await fetch(`${sibyl.url}/healthz`, { headers: { 'X-Request-Id': 'trace-42.a:b' } });
    expect(own.headers.get('x-request-id')).toBe('trace-42.a:b');
    const made = await fetch(`${sibyl.url}/healthz`);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await fetch(`${sibyl.url}/healthz`, { headers: { 'X-Request-Id': 'no spaces allowed' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // Also on the 402 answered before express.
    const challenge = await postJson(`${sibyl.url}/x402/data/test-limited`, { n: 1 }, { 'X-Request-Id': 'lane-1' });
    expect(challenge.status).toBe(402);
    expect(challenge.headers.get('x-request-id')).toBe('lane-1');
  });

  it('answers CORS preflights for any origin, without credentials, and exposes the payment headers', async () => {
    const pre = await fetch(`${sibyl.url}/x402/data/test-limited`, {
      method: 'OPTIONS', headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-payment,payment-signature' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
    expect(pre.headers.get('access-control-allow-headers')!.toLowerCase()).toContain('x-payment');
    const challenge = await postJson(`${sibyl.url}/x402/data/test-limited`, { n: 1 }, { Origin: 'https://agent.example' });
    expect(challenge.headers.get('access-control-allow-origin')).toBe('*');
    expect(challenge.headers.get('access-control-expose-headers')).toContain('PAYMENT-REQUIRED');
  });

  it('a paid call carries RateLimit and RateLimit-Policy; past the limit, 429 with Retry-After and nothing charged', async () => {
    const { key } = await fundedPayer('1');
    await freshMinute();
    const challenge = await postJson(`${sibyl.url}/x402/data/test-limited`, { n: 1 });
    expect(challenge.headers.get('ratelimit-policy')).toBe('"test-limited";q=2;w=60');
    const pay = async () => postJson(`${sibyl.url}/x402/data/test-limited`, { n: 1 }, { 'X-PAYMENT': (await signedPayment({ key, payTo: sibyl.payTo, amount: 10_000n })).header });
    const first = await pay();
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"test-limited";q=2;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"test-limited";r=1;t=\d+$/);
    expect((await pay()).headers.get('ratelimit')).toMatch(/;r=0;/);
    const over = await pay();
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('ratelimit')).toMatch(/;r=0;t=\d+$/);
    expect(over.headers.get('payment-response')).toBeNull();
  });

  it('a paid MCP tool billed from credits carries the RateLimit headers of its service too', async () => {
    const { auth } = await creditedMcpClient(sibyl.url, rpcUrl(), '1');
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'detect_mev', arguments: { kind: 'detection', chain: 'base', timeframe: '24h' } } };
    const res = await postJson(`${sibyl.url}/api/mcp`, call, { ...auth, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-policy')).toBe('"mev-detection";q=20;w=60');
    expect(res.headers.get('ratelimit')).toMatch(/^"mev-detection";r=19;t=\d+$/);
  });

  it('logs one JSON line per request with its id, skill, price, payer, settlement and duration — and no payment header or signature', async () => {
    const { key, account } = await fundedPayer('1');
    const { header, payload } = await signedPayment({ key, payTo: sibyl.payTo, amount: 10_000n });
    const sent = performance.now();
    const res = await postJson(`${sibyl.url}/x402/data/test-limited`, { n: 7 }, { 'X-PAYMENT': header, 'X-Request-Id': 'log-check-1' });
    expect(res.status).toBe(200);
    const settlement = JSON.parse(Buffer.from(res.headers.get('payment-response')!, 'base64').toString()).transaction as string;
    await until(() => log.entries().some((e) => e.requestId === 'log-check-1'));
    const sentToLoggedMs = performance.now() - sent;
    const line = log.entries().find((e) => e.requestId === 'log-check-1')!;
    expect(line).toMatchObject({
      level: 30, service: 'sibyl', skill: 'test-limited', method: 'x402', priceUsd: '$0.01', settlement, settlementStatus: 'settled',
      req: { method: 'POST', path: '/x402/data/test-limited' }, res: { status: 200 },
    });
    expect(line.payer.toLowerCase()).toBe(account.address.toLowerCase());
    // The server's time for the request lies within what the caller saw: from sending it to reading its log line.
    expect(line.durationMs).toBeGreaterThan(0);
    expect(line.durationMs).toBeLessThanOrEqual(sentToLoggedMs);
    const all = log.lines.join('\n');
    const signature = (payload as unknown as { payload: { signature: string } }).payload.signature;
    expect(all).not.toContain(signature.slice(2, 40));
    expect(all).not.toContain(header.slice(0, 40));
    expect(all.toLowerCase()).not.toContain('x-payment');
  });

  it('publishes Prometheus metrics: requests, 402s, paid answers, settlements, refunds, skill latency, indexer lag', async () => {
    // Counted from what this test does (the other tests of the file may have run before it, or not).
    const scrape = async () => (await fetch(`${sibyl.url}/metrics`)).text();
    const indexedBefore = Number((await json(await fetch(`${sibyl.url}/healthz`))).chains.find((c: { name: string }) => c.name === 'base').indexedBlock);
    const indexedAt = Date.now();
    const before = await scrape();
    const { key } = await fundedPayer('1');
    await freshMinute();
    // Two paid answers, then a third refused past the skill's limit of two a minute per payer.
    const pay = async () => postJson(`${sibyl.url}/x402/data/test-limited`, { n: 1 }, { 'X-PAYMENT': (await signedPayment({ key, payTo: sibyl.payTo, amount: 10_000n })).header });
    expect([(await pay()).status, (await pay()).status, (await pay()).status]).toEqual([200, 200, 429]);
    await postJson(`${sibyl.url}/x402/data/test-failing`, {});
    const failed = await postJson(`${sibyl.url}/x402/data/test-failing`, {}, { 'X-PAYMENT': (await signedPayment({ key, payTo: sibyl.payTo, amount: 10_000n })).header });
    expect(failed.status).toBe(500);
    // A body refused before routing, on a path the caller made up: counted, but the path is no label.
    const invented = await fetch(`${sibyl.url}/made-up-${Date.now()}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(invented.status).toBe(415);
    // The sample a scrape reads is kept a second: this one is taken after indexedBefore was read.
    await new Promise((r) => setTimeout(r, Math.max(0, indexedAt + 1_100 - Date.now())));
    const res = await fetch(`${sibyl.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const headAfter = Number(await baseClient().getBlockNumber({ cacheTime: 0 }));
    // A series absent from a scrape has counted nothing yet.
    const value = (scraped: string, pattern: RegExp) => Number(pattern.exec(scraped)?.[1] ?? 0);
    const delta = (pattern: RegExp) => value(text, pattern) - value(before, pattern);
    expect(delta(/^sibyl_payment_challenges_total\{route="\/x402\/data\/test-failing"\} (\d+)/m)).toBe(1);
    expect(delta(/^sibyl_paid_answers_total\{skill="test-limited",method="x402"\} (\d+)/m)).toBe(2);
    expect(delta(/^sibyl_settlements_total\{outcome="settled"\} (\d+)/m)).toBe(2);
    expect(delta(/^sibyl_refunds_total\{method="x402",reason="internal_error"\} (\d+)/m)).toBe(1);
    expect(delta(/^sibyl_refunds_total\{method="x402",reason="rate_limited"\} (\d+)/m)).toBe(1);
    expect(delta(/^sibyl_skill_duration_seconds_count\{skill="test-failing",outcome="error"\} (\d+)/m)).toBe(1);
    expect(delta(/^sibyl_http_requests_total\{method="POST",route="\/x402\/data\/test-limited",status="200"\} (\d+)/m)).toBe(2);
    // The lag is the head less the indexed block at the sample: at most the chain's head after the scrape less what was indexed before the first one.
    const lag = /^sibyl_indexer_lag_blocks\{chain="base"\} (\d+)/m.exec(text);
    expect(lag, 'the base lag is published').not.toBeNull();
    expect(Number(lag![1])).toBeLessThanOrEqual(headAfter - indexedBefore);
    expect(text).toMatch(/^sibyl_settlements_pending 0$/m);
    expect(text).toMatch(/^sibyl_process_cpu_seconds_total /m);
    // No payer, URL or key in any label.
    expect(text).not.toMatch(/0x[0-9a-fA-F]{40}/);
    expect(text).not.toContain('made-up');
    expect(delta(/^sibyl_http_requests_total\{method="POST",route="other",status="415"\} (\d+)/m)).toBe(1);
  });
});

describe('error lines', () => {
  it('withhold every long hex string of an error (a viem contract error lists the signature, r and s among its arguments)', () => {
    const r = `0x${'ab'.repeat(32)}`;
    const s = `0x${'cd'.repeat(32)}`;
    const signature = `0x${'ef'.repeat(65)}`;
    const err = Object.assign(new Error(`The contract function "transferWithAuthorization" reverted.\n  args: (0x70997970C51812dc3A010C7d01b50e0d17dc79C8, 400000, 27, ${r}, ${s})`), {
      args: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 400_000n, 27, r, s], metaMessages: [`signature: ${signature}`], cause: new Error(`inner ${signature}`),
    });
    const text = JSON.stringify(serializeError(err));
    for (const secret of [r, s, signature]) expect(text).not.toContain(secret.slice(2, 40));
    expect(text).toContain('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(text).toContain('32 bytes withheld');
    expect(text).toContain('transferWithAuthorization');
  });
});

describe('restricted /metrics and CORS to listed origins', () => {
  it('METRICS_TOKEN asks for the bearer token; METRICS_ALLOW refuses other addresses; METRICS=off has no route', async () => {
    const token = 'metrics-token-0123456789';
    const guarded = await startTestSibyl({ env: { METRICS_TOKEN: token, CORS_ORIGINS: 'https://app.example' } });
    try {
      const none = await fetch(`${guarded.url}/metrics`);
      expect(none.status).toBe(401);
      expect((await json(none)).error.code).toBe('unauthorized');
      expect((await fetch(`${guarded.url}/metrics`, { headers: { Authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
      expect((await fetch(`${guarded.url}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);

      // Listed origin: reflected, with credentials; another: no CORS grant at all.
      const listed = await fetch(`${guarded.url}/healthz`, { headers: { Origin: 'https://app.example' } });
      expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
      const other = await fetch(`${guarded.url}/healthz`, { headers: { Origin: 'https://evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      expect(other.headers.get('access-control-allow-credentials')).toBeNull();
    } finally {
      await guarded.close();
    }
    const walled = await startTestSibyl({ env: { METRICS_ALLOW: '10.9.8.7' } });
    try {
      const res = await fetch(`${walled.url}/metrics`);
      expect(res.status).toBe(403);
      expect((await json(res)).error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('METRICS_ALLOW') });
    } finally {
      await walled.close();
    }
    const off = await startTestSibyl({ env: { METRICS: 'off' } });
    try {
      expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('refuses a CORS_ORIGINS entry that is not an origin, naming the variable', async () => {
    await expect(startTestSibyl({ env: { CORS_ORIGINS: 'https://app.example/path' } })).rejects.toThrow(/CORS_ORIGINS: "https:\/\/app.example\/path" is not an origin/);
  });
});
