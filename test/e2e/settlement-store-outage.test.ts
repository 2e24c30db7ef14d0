/**
 * Redis dies in the middle of a burst of paid requests, at the moment the first settlement
 * transaction goes to the chain (a loopback proxy in front of the node kills it there). Every
 * payment that settled on chain is answered with its 200 while Redis is still down, and once
 * Redis is back every settled payment's record reaches the ledger. The same holds for an A2A
 * task paid through a2a-x402 (its completed task is saved after the settlement) and for a credit
 * top-up (credited after the settlement). Sibyl runs on a private
 * redis-server (append-only, so a restart keeps what was written); the shared one is untouched.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ClientFactory, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client';
import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { X402_EXTENSION_URI } from '../../cards/agent-card.js';
import { X402_META } from '../../agent/a2a-executor.js';
import { X402_NETWORK } from '../../payments/terms.js';
import { signInBearer, fundedPayer, json, payingFetch, rpcUrl, startTestSibyl, usdcBalance, type TestSibyl } from '../helpers/sibyl.js';
import { startPrivateRedis, type PrivateRedis } from '../helpers/redis-server.js';
import { startRpcProxy, type RpcProxy } from '../helpers/rpc-proxy.js';
import { authorizationUsedBy } from '../helpers/settlements.js';

const PRICE = 400_000n;
const REQUESTS = 30;
/** How long Redis stays down: far longer than an answer may wait on the store. */
const OUTAGE_MS = 5_000;

interface Sent {
  /** Payment headers this request's client sent (known before any answer). */
  seen?: string[];
  status?: number;
  body?: any;
  answeredAt?: number;
}

describe('Redis killed mid-burst', () => {
  let redis: PrivateRedis;
  let proxy: RpcProxy;
  let sibyl: TestSibyl;
  let redisDown = false;
  const nonceOf = (s: Sent): Hex | undefined =>
    s.seen?.[0] ? (JSON.parse(Buffer.from(s.seen[0], 'base64').toString()) as { payload: { authorization: { nonce: Hex } } }).payload.authorization.nonce : undefined;

  beforeAll(async () => {
    redis = await startPrivateRedis({ aof: true });
    proxy = await startRpcProxy(rpcUrl('base'));
    sibyl = await startTestSibyl({ rpcUrls: { base: proxy.url }, env: { REDIS_URL: redis.url, REDIS_PREFIX: 'outage:' } });
  });
  afterAll(async () => {
    proxy.beforeSend = undefined;
    if (redisDown) await redis.restart().catch(() => {}); // a failed test may leave it down: up again, so the server closes cleanly
    await sibyl?.close();
    await proxy?.close();
    await redis?.stop();
  });

  /** Kills Redis when the first settlement transaction goes to the chain; `killed` says whether it has. */
  const killRedisAtFirstSend = () => {
    const kill = { killed: false };
    proxy.beforeSend = async () => {
      if (kill.killed) return;
      kill.killed = true;
      redisDown = true;
      await redis.kill();
    };
    return kill;
  };
  const restartRedis = async () => {
    await redis.restart();
    redisDown = false;
  };
  /** What `answer` gives within the outage, or null. */
  const withinOutage = <T>(answer: Promise<T>) => Promise.race([answer, new Promise<null>((r) => setTimeout(() => r(null), OUTAGE_MS))]);

  it('completes an A2A task paid while Redis dies at its settlement, and saves it once Redis is back', async () => {
    const { key, account } = await fundedPayer('5');
    const startBalance = await usdcBalance(account.address);
    const signer = new x402Client().register(X402_NETWORK, new ExactEvmScheme(privateKeyToAccount(key)));
    const x402 = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXTENSION_URI)) };
    const message = (parts: Message['parts'], extra: Partial<Message> = {}): Message =>
      ({ messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [], ...extra });
    const a2a = await new ClientFactory().createFromUrl(sibyl.url);
    const data = { content: { $case: 'data' as const, value: { skill: 'whale-tracking', params: { chain: 'base', limit: 5 } } }, metadata: undefined, filename: '', mediaType: 'application/json' };
    const asked = (await a2a.sendMessage({ message: message([data]) } as never, x402)) as Task;
    expect(asked.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const payload: PaymentPayload = await signer.createPaymentPayload(asked.metadata![X402_META.required] as PaymentRequired);
    const nonce = (payload.payload as { authorization: { nonce: Hex } }).authorization.nonce;

    const kill = killRedisAtFirstSend();
    const paid = a2a.sendMessage({ message: message([{ content: { $case: 'text', value: 'payment attached' }, metadata: undefined, filename: '', mediaType: 'text/plain' }], { taskId: asked.id, contextId: asked.contextId, metadata: { [X402_META.payload]: payload } }) } as never, x402);
    const answer = await withinOutage(paid.then((t) => t as Task));
    expect(kill.killed).toBe(true);
    // Answered while Redis is still down: completed with its result and receipt.
    expect(answer, 'the paid A2A task was not answered while the store was down').not.toBeNull();
    expect(answer!.status!.state, JSON.stringify(answer!.status)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answer!.metadata![X402_META.receipts]).toMatchObject([{ success: true }]);
    expect(await usdcBalance(account.address)).toBeLessThan(startBalance);

    await restartRedis();
    expect(await sibyl.outbox.drained(20_000)).toBe(true);
    expect(await sibyl.ledger.get(account.address, nonce)).toMatchObject({ status: 'settled' });
    const fetched = await a2a.getTask({ id: asked.id, historyLength: 0 } as never, x402);
    expect(fetched.status!.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('answers a credit top-up settled while Redis is down, and credits it once Redis is back', async () => {
    const { key } = await fundedPayer('5');
    const account = privateKeyToAccount(key);
    const auth = await signInBearer(sibyl.url, key);
    const { pay } = payingFetch(key);

    const kill = killRedisAtFirstSend();
    const res = await withinOutage(pay(`${sibyl.url}/api/credits/topup`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ amountUsd: '2' }) }));
    expect(kill.killed).toBe(true);
    expect(res, 'the paid top-up was not answered while the store was down').not.toBeNull();
    expect(res!.status).toBe(200);
    // Paid on chain; the credit waits in the outbox and says so.
    expect(await json(res!)).toMatchObject({ toppedUp: '2000000', creditQueued: true, payment: { success: true } });
    expect(await usdcBalance(account.address)).toBe(3_000_000n);

    await restartRedis();
    expect(await sibyl.outbox.drained(20_000)).toBe(true);
    const credits = await json(await fetch(`${sibyl.url}/api/credits`, { headers: auth }));
    expect(credits).toMatchObject({ balance: '2000000', movements: [{ kind: 'topup', amount: '2000000' }] });
  });

  it('credits a top-up once when Redis stays down past the store timeout (the timed-out write is not sent again)', async () => {
    const { key } = await fundedPayer('5');
    const account = privateKeyToAccount(key);
    const auth = await signInBearer(sibyl.url, key);
    const { pay } = payingFetch(key);
    killRedisAtFirstSend();
    const res = await pay(`${sibyl.url}/api/credits/topup`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ amountUsd: '1' }) });
    expect(await json(res)).toMatchObject({ toppedUp: '1000000', creditQueued: true });
    // Past the store's 5 s command deadline: the queued credit times out, and stays queued in the client.
    await new Promise((r) => setTimeout(r, 7_000));
    await restartRedis();
    expect(await sibyl.outbox.drained(20_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await json(await fetch(`${sibyl.url}/api/credits`, { headers: auth }))).balance).toBe('1000000');
  });

  it('answers every payment that settled, and records each once Redis is back', async () => {
    const { key, account } = await fundedPayer('50');
    const startBalance = await usdcBalance(account.address);
    const used = authorizationUsedBy(createPublicClient({ transport: http(rpcUrl()) }), account.address);
    const kill = killRedisAtFirstSend();

    const sent: Sent[] = Array.from({ length: REQUESTS }, () => ({}));
    const burst = sent.map(async (s) => {
      // One client per request, so each response is matched to the payment it carried.
      const { pay, seen } = payingFetch(key);
      s.seen = seen;
      const res = await pay(`${sibyl.url}/x402/data/latest-pairs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ limit: 1 }) });
      s.status = res.status;
      s.body = await res.json().catch(() => null);
      s.answeredAt = Date.now();
    }).map((p) => p.catch(() => {})); // a request that failed outright counts as unanswered

    const deadline = Date.now() + 30_000;
    while (!kill.killed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(kill.killed).toBe(true);
    await new Promise((r) => setTimeout(r, OUTAGE_MS));

    // Still down: every payment the chain took has had its answer.
    const settledDuringOutage = (await Promise.all(sent.map(async (s) => {
      const nonce = nonceOf(s);
      return nonce && (await used(nonce)) ? { ...s, nonce } : null;
    }))).filter((s) => !!s);
    expect(settledDuringOutage.length).toBeGreaterThan(0);
    for (const s of settledDuringOutage) {
      expect(s.status, `payment ${s.nonce} settled on chain but was not answered while the store was down`).toBe(200);
      expect(s.body.pairs).toHaveLength(1);
    }
    // Their records wait in the outbox.
    expect(sibyl.outbox.backlog).toBeGreaterThan(0);

    await restartRedis();
    await Promise.allSettled(burst);

    // No charge without an answer, no answer marked paid without a charge.
    let settled = 0;
    for (const s of sent) {
      const nonce = nonceOf(s);
      const charged = !!nonce && (await used(nonce));
      if (charged) settled++;
      if (charged) expect(s.status, `payment ${nonce} settled on chain; answered ${s.status}`).toBe(200);
      if (s.status === 200) expect(charged).toBe(true);
    }
    expect(await usdcBalance(account.address)).toBe(startBalance - PRICE * BigInt(settled));

    // Once Redis is back the outbox empties and every settled payment is in the ledger.
    expect(await sibyl.outbox.drained(20_000)).toBe(true);
    for (const s of sent.filter((x) => x.status === 200)) {
      const nonce = nonceOf(s)!;
      expect(await sibyl.ledger.get(account.address, nonce), `ledger record of ${nonce}`).toMatchObject({ status: 'settled', nonce });
    }
    expect((await json(await fetch(`${sibyl.url}/healthz`))).settlements).toMatchObject({ unrecorded: 0, pending: 0 });
  });
});
