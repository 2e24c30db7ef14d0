/**
 * One authorization buys one answer, settled once: sent again for the same request it gets that
 * same answer and receipt back; for another request, or re-signed, it is refused. Concurrent
 * replays, and across instances.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { fundedPayer, payingFetch, postJson, startTestSibyl, useTestSibyl, usdcBalance, json } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';

const PRICE = 400_000n;
const path = '/x402/data/latest-pairs';

describe('replay guard', () => {
  const sibyl = useTestSibyl();

  it('answers the same payment sent again for the same request with the same answer and receipt, and charges once', async () => {
    const { key, account } = await fundedPayer('5');
    const { pay, seen } = payingFetch(key);
    const first = await pay(`${sibyl.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"limit":1}' });
    expect(first.status).toBe(200);
    const again = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'PAYMENT-SIGNATURE': seen[0]! });
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual(await json(first));
    expect(again.headers.get('payment-response')).toBe(first.headers.get('payment-response'));
    expect(await usdcBalance(account.address)).toBe(5_000_000n - PRICE);
  });

  it('refuses the payment for another request, or the same nonce signed again, with nonce_already_used', async () => {
    const { key, account } = await fundedPayer('5');
    const { header, nonce } = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE });
    expect((await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': header })).status).toBe(200);
    const other = await postJson(`${sibyl.url}${path}`, { limit: 2 }, { 'X-PAYMENT': header });
    expect(other.status).toBe(402);
    expect(await json(other)).toMatchObject({ error: 'nonce_already_used', code: 'nonce_already_used' });
    expect(other.headers.get('payment-required')).toBeTruthy();
    const resigned = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE, nonce, validBefore: BigInt(Math.floor(Date.now() / 1000) + 200) });
    const again = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': resigned.header });
    expect(again.status).toBe(402);
    expect(await json(again)).toMatchObject({ code: 'nonce_already_used' });
    expect(await usdcBalance(account.address)).toBe(5_000_000n - PRICE);
  });

  it('settles exactly once when one payment is sent 50 times at once', async () => {
    const { key, account } = await fundedPayer('5');
    const { header } = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': header })),
    );
    await expectOneAnswer(responses);
    expect(await usdcBalance(account.address)).toBe(5_000_000n - PRICE);
    expect(await usdcBalance(sibyl.payTo)).toBe(PRICE * 3n);
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
    await expectOneAnswer(responses);
    expect(await usdcBalance(account.address)).toBe(5_000_000n - PRICE);
    expect(await usdcBalance(a.payTo)).toBe(PRICE);
  });
});

/**
 * One answer for many presentations of one payment: each is that answer with the same receipt
 * (once kept), or 409 payment_in_progress with Retry-After while the first is answered; never a
 * 402 inviting the client to pay again.
 */
async function expectOneAnswer(responses: Response[]): Promise<void> {
  const answered = responses.filter((r) => r.status === 200);
  expect(answered.length).toBeGreaterThanOrEqual(1);
  expect(new Set(answered.map((r) => r.headers.get('payment-response'))).size).toBe(1);
  expect(new Set(await Promise.all(answered.map(async (r) => JSON.stringify(await json(r)))))).toHaveProperty('size', 1);
  for (const r of responses.filter((x) => x.status !== 200)) {
    expect(r.status).toBe(409);
    expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await json(r)).toMatchObject({ error: { code: 'payment_in_progress' } });
  }
}
