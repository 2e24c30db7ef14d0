/**
 * A payment answered while the chain could not take its settlement (pending) is submitted
 * again once the chain is back, by whichever instance reconciles next (here one started after
 * the first stopped, on the same store), and lands exactly once; one whose authorization
 * expires first is reported expired and never submitted. The chain is made unreachable for
 * submissions by a loopback proxy that destroys every eth_sendRawTransaction.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, http, parseAbi, type Hex } from 'viem';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { fundedPayer, json, payingFetch, postJson, rpcUrl, startTestSibyl, usdcBalance, USDC, type TestSibyl } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';
import { startRpcProxy, type RpcProxy } from '../helpers/rpc-proxy.js';

const PRICE = 400_000n;
const authorizationState = parseAbi(['function authorizationState(address, bytes32) view returns (bool)']);

async function until<T>(what: string, check: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('pending settlements are resubmitted', () => {
  let proxy: RpcProxy;
  const prefix = `sibyl-test:${randomUUID()}:`;
  let second: TestSibyl | undefined;
  const used = (payer: Hex, nonce: Hex) =>
    createPublicClient({ transport: http(rpcUrl()) }).readContract({ address: USDC, abi: authorizationState, functionName: 'authorizationState', args: [payer, nonce] });
  const submissionsOf = (nonce: Hex) => proxy.forwarded.filter((raw) => raw.toLowerCase().includes(nonce.slice(2).toLowerCase())).length;

  beforeAll(async () => {
    proxy = await startRpcProxy(rpcUrl('base'));
  });
  afterAll(async () => {
    await second?.close();
    await proxy.close();
  });

  it('submits a pending payment again after a restart, and it lands exactly once', async () => {
    const first = await startTestSibyl({ rpcUrls: { base: proxy.url }, redis: prefix, reconcileIntervalMs: 3_600_000 });
    const { key, account } = await fundedPayer('5');
    const { pay, seen } = payingFetch(key);
    let nonce: Hex;
    try {
      proxy.dropSends = true;
      const paidAt = Date.now();
      const res = await pay(`${first.url}/x402/data/latest-pairs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ limit: 1 }) });
      const answeredAt = Date.now();
      expect(res.status).toBe(200);
      expect(res.headers.get('x-settlement-status')).toBe('pending');
      expect((await json(res)).pairs).toHaveLength(1);
      expect(decodePaymentResponseHeader(res.headers.get('payment-response')!)).toMatchObject({ success: false, errorReason: 'settlement_pending' });
      nonce = (JSON.parse(Buffer.from(seen[0]!, 'base64').toString()) as { payload: { authorization: { nonce: Hex } } }).payload.authorization.nonce;
      expect(proxy.dropped).toBeGreaterThan(0);
      expect(submissionsOf(nonce)).toBe(0);

      // The pending record was made between the payment and its answer: its age (whole seconds) lies within what the test timed.
      await new Promise((r) => setTimeout(r, 1_500));
      const askedAt = Date.now();
      const health = await json(await fetch(`${first.url}/healthz`));
      const doneAt = Date.now();
      expect(health.settlements).toMatchObject({ unrecorded: 0, pending: 1 });
      expect(health.settlements.oldestPendingSeconds).toBeGreaterThanOrEqual(Math.round((askedAt - answeredAt) / 1000));
      expect(health.settlements.oldestPendingSeconds).toBeLessThanOrEqual(Math.round((doneAt - paidAt) / 1000));
      // The signed authorization is kept with the pending record, for any instance to submit again.
      expect(await first.ledger.get(account.address, nonce)).toMatchObject({ status: 'pending', payload: { payload: { authorization: { nonce } } } });
    } finally {
      await first.close();
    }

    // The chain is back; a new instance on the same store reconciles on its own timer.
    proxy.dropSends = false;
    second = await startTestSibyl({ rpcUrls: { base: proxy.url }, redis: prefix, reconcileIntervalMs: 250 });
    const settled = await until('the resubmission to settle', async () => {
      const r = await second!.ledger.get(account.address, nonce);
      return r?.status === 'settled' && r;
    });
    expect(settled).toMatchObject({ reason: 'resubmitted', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await used(account.address, nonce)).toBe(true);
    // A few more passes: nothing is sent again, nothing moves again.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(submissionsOf(nonce)).toBe(1);
    expect(await usdcBalance(account.address)).toBe(5_000_000n - PRICE);
    expect((await json(await fetch(`${second.url}/healthz`))).settlements).toMatchObject({ unrecorded: 0, pending: 0 });
  });

  it('reports a pending payment whose authorization expired as expired, and never submits it', async () => {
    second ??= await startTestSibyl({ rpcUrls: { base: proxy.url }, redis: prefix, reconcileIntervalMs: 250 });
    const sibyl = second;
    const { key, account } = await fundedPayer('5');
    const validBefore = BigInt(Math.floor(Date.now() / 1000) + 10);
    const { header, nonce } = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE, validBefore });
    proxy.dropSends = true;
    try {
      const res = await postJson(`${sibyl.url}/x402/data/latest-pairs`, { limit: 1 }, { 'X-PAYMENT': header });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-settlement-status')).toBe('pending');
      // Resubmissions go on while the chain refuses them (each one destroyed by the proxy)...
      const droppedBefore = proxy.dropped;
      await until('a resubmission attempt', async () => proxy.dropped > droppedBefore);
      expect((await sibyl.ledger.get(account.address, nonce))?.status).toBe('pending');
      // ...until validBefore has passed.
      await until('the authorization to expire', async () => BigInt(Math.floor(Date.now() / 1000)) > validBefore + 1n, 20_000);
    } finally {
      proxy.dropSends = false;
    }
    const expired = await until('the pending payment to be decided', async () => {
      const r = await sibyl.ledger.get(account.address, nonce);
      return r?.status !== 'pending' && r;
    });
    expect(expired).toMatchObject({ status: 'expired', reason: 'authorization_expired_unused' });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(submissionsOf(nonce)).toBe(0);
    expect(await used(account.address, nonce)).toBe(false);
    expect(await usdcBalance(account.address)).toBe(5_000_000n);
    expect((await json(await fetch(`${sibyl.url}/healthz`))).settlements).toMatchObject({ pending: 0 });
  });

  it('settles, without sending it again, a pending payment whose first submission reached the chain', async () => {
    second ??= await startTestSibyl({ rpcUrls: { base: proxy.url }, redis: prefix, reconcileIntervalMs: 250 });
    const sibyl = second;
    const { key, account } = await fundedPayer('5');
    const { header, nonce } = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE });
    proxy.dropSendReplies = true;
    try {
      const res = await postJson(`${sibyl.url}/x402/data/latest-pairs`, { limit: 1 }, { 'X-PAYMENT': header });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-settlement-status')).toBe('pending');
    } finally {
      proxy.dropSendReplies = false;
    }
    const decided = await until('the pending payment to be decided', async () => {
      const r = await sibyl.ledger.get(account.address, nonce);
      return r?.status !== 'pending' && r;
    });
    expect(decided).toMatchObject({ status: 'settled', reason: 'authorization_used_on_chain' });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(submissionsOf(nonce)).toBe(1);
    expect(await usdcBalance(account.address)).toBe(5_000_000n - PRICE);
  });
});
