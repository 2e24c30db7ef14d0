/** Payments that must be refused with a reason, and never move money. */
import { describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import { freshAddress, fundedPayer, mintUsdc, postJson, useTestSibyl, usdcBalance, json } from '../helpers/sibyl.js';
import { signedPayment, type PaymentSpec } from '../helpers/payments.js';

const PRICE = 400_000n;
const path = '/x402/data/latest-pairs';

describe('refused payments', () => {
  const sibyl = useTestSibyl();

  const now = () => BigInt(Math.floor(Date.now() / 1000));
  const cases: [string, (payTo: `0x${string}`) => Partial<PaymentSpec>, string][] = [
    ['underpayment', () => ({ amount: PRICE - 1n }), 'amount_mismatch'],
    ['overpayment (v2 wants the exact amount)', () => ({ amount: PRICE + 1n }), 'amount_mismatch'],
    ['accepted amount differs from the signed value', () => ({ acceptedAmount: PRICE + 100_000n }), 'amount_mismatch'],
    ['wrong recipient', () => ({ payTo: freshAddress() }), 'recipient_mismatch'],
    ['wrong network', () => ({ network: 'eip155:1' }), 'network_mismatch'],
    ['expired authorization', () => ({ validBefore: now() - 1n }), 'authorization_expired'],
    ['not-yet-valid authorization', () => ({ validAfter: now() + 600n, validBefore: now() + 900n }), 'authorization_not_yet_valid'],
    ['bad signature', () => ({ signerKey: generatePrivateKey() }), 'invalid_signature'],
    ['signature for another chain id', () => ({ chainId: 1 }), 'invalid_signature'],
    ['v1 payload on the wrong network', () => ({ version: 1, network: 'base-sepolia' }), 'network_mismatch'],
  ];

  it.each(cases)('%s → 402 with reason, no transfer', async (_name, tweak, reason) => {
    const { key, account } = await fundedPayer('5');
    const spec = { key, payTo: sibyl.payTo, amount: PRICE, ...tweak(sibyl.payTo) } as PaymentSpec;
    const { header } = await signedPayment(spec);
    const res = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': header });
    expect(res.status).toBe(402);
    const body = await json(res);
    expect(body.error).toBe(reason);
    expect(body.accepts[0].amount).toBe(PRICE.toString());
    expect(await usdcBalance(account.address)).toBe(5_000_000n);
    expect(await usdcBalance(sibyl.payTo)).toBe(0n);
  });

  it('insufficient balance → 402 insufficient_balance', async () => {
    const { key, account } = await fundedPayer('0.10');
    const { header } = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE });
    const res = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': header });
    expect(res.status).toBe(402);
    expect((await json(res)).error).toBe('insufficient_balance');
    expect(await usdcBalance(account.address)).toBe(100_000n);
  });

  it('a refused payment can be corrected: its nonce was not burned', async () => {
    const { key } = await fundedPayer('0.10');
    const { header, nonce } = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE });
    expect((await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': header })).status).toBe(402);
    await mintUsdc(privateKeyToAccount(key).address, '1');
    const retry = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE, nonce });
    expect((await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': retry.header })).status).toBe(200);
  });

  it('pays with an x402 v1 payload in X-PAYMENT', async () => {
    const { key, account } = await fundedPayer('5');
    const { header } = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE, version: 1 });
    const res = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': header });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-payment-response')).toBeTruthy();
    expect(await usdcBalance(account.address)).toBe(5_000_000n - PRICE);
  });

  it.each([
    ['not base64 JSON', '%%%not-base64%%%'],
    ['JSON that is not a payment', Buffer.from(JSON.stringify({ hello: 'world' })).toString('base64')],
    ['a payload without authorization', encodePaymentSignatureHeader({ x402Version: 2, accepted: { scheme: 'exact', network: 'eip155:8453', amount: '400000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: '0x0000000000000000000000000000000000000001', maxTimeoutSeconds: 300, extra: {} }, payload: {} } as never)],
  ])('malformed payment header (%s) → 400 payment_header_malformed', async (_name, header) => {
    const res = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': header });
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe('payment_header_malformed');
  });
});
