/**
 * Durable state (docs/operations.md, "Redis and what must persist"): Sibyl on a private Redis run with AOF; a credit top-up, a
 * sign-in, a paid MCP call and a paid x402 request; then Redis is killed with SIGKILL (no
 * shutdown save) and restarted on the same data directory. The balance and its movements, the
 * bearer token, the settlement records, the replay reservation and the kept answer are all still there, seen
 * through Sibyl's own APIs. A Redis without persistence is reported on /healthz.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { decodePaymentSignatureHeader } from '@x402/core/http';
import type { Address, Hex } from 'viem';
import { checkPersistence } from '../../store/persistence.js';
import { RedisStore } from '../../store/redis.js';
import { signInBearer, fundedPayer, json, payingFetch, startTestSibyl } from '../helpers/sibyl.js';
import { startPrivateRedis, type PrivateRedis } from '../helpers/redis-server.js';

type TestSibyl = Awaited<ReturnType<typeof startTestSibyl>>;

/** The payer and nonce of a payment header, whichever x402 version wrote it. */
function authorization(header: string): { payer: Address; nonce: Hex } {
  const payload = decodePaymentSignatureHeader(header) as unknown as { payload: { authorization: { from: Address; nonce: Hex } } };
  return { payer: payload.payload.authorization.from, nonce: payload.payload.authorization.nonce };
}

describe('state in an AOF Redis survives kill -9 and restart', () => {
  let redis: PrivateRedis;
  let sibyl: TestSibyl;
  beforeAll(async () => {
    redis = await startPrivateRedis({ aof: true });
    sibyl = await startTestSibyl({ redis: 'sibyl-durable:', env: { REDIS_URL: redis.url } });
  }, 60_000);
  afterAll(async () => {
    await sibyl?.close();
    await redis?.stop();
  });

  it('keeps credits and their movements, the bearer token, settlement records and replay reservations', async () => {
    // Sign in: a bearer token.
    const signInKey = generatePrivateKey();
    const account = privateKeyToAccount(signInKey);
    const bearer = await signInBearer(sibyl.url, signInKey, 'Sign in to Sibyl');

    // A $2 top-up paid with x402, then one paid MCP call debited from it.
    const { key } = await fundedPayer('20');
    const { pay, seen } = payingFetch(key);
    const top = await pay(`${sibyl.url}/api/credits/topup`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer }, body: JSON.stringify({ amountUsd: '2' }) });
    expect(top.status, await top.clone().text()).toBe(200);
    const mcp = new Client({ name: 'durable-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${sibyl.url}/api/mcp`), { requestInit: { headers: bearer } }));
    const call = await mcp.callTool({ name: 'analyze_wallet', arguments: { walletAddress: account.address, kind: 'portfolio' } });
    expect((call.structuredContent as { available: boolean }).available).toBe(true);
    await mcp.close();

    // A paid x402 request.
    const paid = await pay(`${sibyl.url}/x402/data/latest-pairs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ limit: 5 }) });
    expect(paid.status, await paid.clone().text()).toBe(200);
    const paidBody = await json(paid.clone());
    expect(seen).toHaveLength(2);
    const payments = seen.map(authorization);
    const before = await json(await fetch(`${sibyl.url}/api/credits`, { headers: bearer }));
    expect(before.movements.map((m: { kind: string }) => m.kind)).toEqual(['debit', 'topup']);
    const records = await Promise.all(payments.map((p) => sibyl.ledger.get(p.payer, p.nonce)));
    expect(records.map((r) => r?.status)).toEqual(['settled', 'settled']);

    // kill -9: whatever Redis acknowledged must be in its append-only file.
    await redis.kill();
    await redis.restart();

    // Sibyl reconnects on its own; the same bearer token reads the same balance and movements.
    let after: { status: number; body: any } | undefined;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      const res = await fetch(`${sibyl.url}/api/credits`, { headers: bearer });
      after = { status: res.status, body: await res.json() };
      if (res.status === 200) break;
    }
    expect(after?.status, JSON.stringify(after?.body)).toBe(200);
    expect(after!.body).toEqual(before);
    expect(BigInt(after!.body.balance)).toBeGreaterThan(0n);
    expect(await Promise.all(payments.map((p) => sibyl.ledger.get(p.payer, p.nonce)))).toEqual(records);

    // The paid request's authorization, presented again for another request, is still refused as used;
    // for the same request it gets the kept answer and receipt, with nothing charged again.
    const resend = (body: unknown) => fetch(`${sibyl.url}/x402/data/latest-pairs`, { method: 'POST', headers: { 'content-type': 'application/json', 'payment-signature': seen[1]! }, body: JSON.stringify(body) });
    const replay = await resend({ limit: 4 });
    expect(replay.status).toBe(402);
    expect(await json(replay)).toMatchObject({ code: 'nonce_already_used' });
    const again = await resend({ limit: 5 });
    expect(again.status).toBe(200);
    expect(again.headers.get('payment-response')).toBe(paid.headers.get('payment-response'));
    expect(await json(again)).toEqual(paidBody);

    const health = await json(await fetch(`${sibyl.url}/healthz`));
    expect(health.store).toMatchObject({ kind: 'redis', ok: true, persistence: 'aof', appendfsync: 'always' });
    expect(health.store.warning).toBeUndefined();
  }, 120_000);
});

describe('persistence check', () => {
  it('warns about a Redis without persistence and not about one with AOF', async () => {
    for (const aof of [false, true]) {
      const redis = await startPrivateRedis({ aof });
      const store = await RedisStore.connect(redis.url, 'sibyl-persistence:', { onError: () => {} });
      try {
        const found = await checkPersistence(store);
        if (aof) expect(found).toEqual({ persistence: 'aof', appendfsync: 'always' });
        else expect(found).toMatchObject({ persistence: 'none', warning: expect.stringMatching(/no persistence.*credit balances.*bearer tokens.*settlement ledger.*--appendonly yes/) });
      } finally {
        await store.close();
        await redis.stop();
      }
    }
  });
});
