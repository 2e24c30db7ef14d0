/** One authorization buys one answer: replays, concurrent replays, and across instances. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { fundedPayer, payingFetch, postJson, startTestSibyl, useTestSibyl, usdcBalance, json } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';

const PRICE = 400_000n;
const path = '/x402/data/latest-pairs';

describe('replay guard', () => {
  const sibyl = useTestSibyl();

  it('refuses the same payment sent twice with nonce_already_used', async () => {
    const { key, account } = await fundedPayer('5');
    const { pay, seen } = payingFetch(key);
    const first = await pay(`${sibyl.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"limit":1}' });
    expect(first.status).toBe(200);
    const again = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'PAYMENT-SIGNATURE': seen[0]! });
    expect(again.status).toBe(402);
    const body = await json(again);
    expect(body).toMatchObject({ error: 'nonce_already_used', code: 'nonce_already_used' });
    expect(again.headers.get('payment-required')).toBeTruthy();
    expect(await usdcBalance(account.address)).toBe(5_000_000n - PRICE);
  });

  it('settles exactly once when one payment is sent 50 times at once', async () => {
    const { key, account } = await fundedPayer('5');
    const { header } = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': header })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 402)).toHaveLength(49);
    expect(await usdcBalance(account.address)).toBe(5_000_000n - PRICE);
    expect(await usdcBalance(sibyl.payTo)).toBe(PRICE * 2n);
  });
});

describe('replay guard across two instances on one Redis', () => {
  let a: Awaited<ReturnType<typeof startTestSibyl>>;
  let b: Awaited<ReturnType<typeof startTestSibyl>>;
  beforeAll(async () => {
    const prefix = `sibyl-test:${randomUUID()}:`;
    a = await startTestSibyl({ redis: prefix });
    b = await startTestSibyl({ redis: prefix, env: { X402_PAY_TO: a.payTo } });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('settles exactly once when one payment hits both instances concurrently', async () => {
    expect(a.store.kind).toBe('redis');
    const { key, account } = await fundedPayer('5');
    const { header } = await signedPayment({ key, payTo: a.payTo, amount: PRICE });
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => postJson(`${(i % 2 ? a : b).url}${path}`, { limit: 1 }, { 'X-PAYMENT': header })),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await usdcBalance(account.address)).toBe(5_000_000n - PRICE);
    expect(await usdcBalance(a.payTo)).toBe(PRICE);
  });
});
