/** Concurrent payments share settlement transactions, and each one's outcome is its own. */
import { describe, expect, it } from 'vitest';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { fundedPayer, postJson, useTestSibyl, usdcBalance, json } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';

const PRICE = 400_000n;

describe('group-commit settlement', () => {
  const sibyl = useTestSibyl();

  it('settles 30 concurrent payments, several per transaction, each exactly once', async () => {
    const payers = await Promise.all(Array.from({ length: 30 }, () => fundedPayer('1')));
    const headers = await Promise.all(payers.map(({ key }) => signedPayment({ key, payTo: sibyl.payTo, amount: PRICE })));
    const responses = await Promise.all(headers.map(({ header }) => postJson(`${sibyl.url}/x402/data/latest-pairs`, { limit: 1 }, { 'X-PAYMENT': header })));
    expect(responses.map((r) => r.status)).toEqual(Array(30).fill(200));
    const txs = responses.map((r) => decodePaymentResponseHeader(r.headers.get('payment-response')!).transaction);
    expect(new Set(txs).size).toBeLessThan(30); // batched
    for (const { account } of payers) expect(await usdcBalance(account.address)).toBe(1_000_000n - PRICE);
    expect(await usdcBalance(sibyl.payTo)).toBe(PRICE * 30n);
  });

  it('when two payments share a batch and only one can be paid, only that one is answered', async () => {
    const { key, account } = await fundedPayer('0.50'); // enough for one payment, not two
    const [a, b] = await Promise.all([1, 2].map(() => signedPayment({ key, payTo: sibyl.payTo, amount: PRICE })));
    const before = await usdcBalance(sibyl.payTo);
    const responses = await Promise.all([a!, b!].map(({ header }) => postJson(`${sibyl.url}/x402/data/latest-pairs`, { limit: 1 }, { 'X-PAYMENT': header })));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 402]);
    const refused = responses.find((r) => r.status === 402)!;
    expect(await json(refused)).toMatchObject({ code: 'settlement_failed' });
    expect(await usdcBalance(account.address)).toBe(100_000n);
    expect(await usdcBalance(sibyl.payTo)).toBe(before + PRICE);
  });
});
