/**
 * A settlement whose confirmation times out is recorded as pending, the answer is still
 * delivered (the payer may be charged), and reconciliation later decides it from the chain.
 * Uses its own devnet, because it stops block production.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { signInBearer, fundedPayer, postJson, startTestSibyl, usdcBalance, json } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';
import { privateKeyToAccount } from 'viem/accounts';

async function rpc(url: string, method: string, params: unknown[] = []) {
  await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
}

describe('settlement that times out', () => {
  let devnet: Devnet;
  let url: string;
  let sibyl: Awaited<ReturnType<typeof startTestSibyl>>;
  beforeAll(async () => {
    devnet = await startDevnet({ chains: ['base'], basePort: 0 });
    url = devnet.chains[0]!.rpcUrl;
    sibyl = await startTestSibyl({ rpcUrls: { base: url }, env: { X402_SETTLE_TIMEOUT_MS: '1000' }, reconcileIntervalMs: 3_600_000 });
  });
  afterAll(async () => {
    await sibyl.close();
    await devnet.stop();
  });

  it('is recorded as pending and reconciled once the transaction is mined', async () => {
    const { key, account } = await fundedPayer('5', url);
    const { header, nonce } = await signedPayment({ key, payTo: sibyl.payTo, amount: 400_000n });
    await rpc(url, 'evm_setAutomine', [false]);
    try {
      const res = await postJson(`${sibyl.url}/x402/data/latest-pairs`, { limit: 1 }, { 'X-PAYMENT': header });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-settlement-status')).toBe('pending');
      const receipt = decodePaymentResponseHeader(res.headers.get('payment-response')!);
      expect(receipt).toMatchObject({ success: false, errorReason: 'settlement_pending' });
      expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      expect((await json(res)).pairs).toHaveLength(1);

      expect(await sibyl.ledger.pending()).toHaveLength(1);
      expect(await sibyl.ledger.reconcile()).toEqual({ decided: 0, stillPending: 1 });

      // The same authorization cannot pay for another request while its settlement is undecided;
      // sent again for the same one, it gets the same answer, still pending, and nothing is sent again.
      const replay = await postJson(`${sibyl.url}/x402/data/latest-pairs`, { limit: 2 }, { 'X-PAYMENT': header });
      expect(replay.status).toBe(402);
      const resent = await postJson(`${sibyl.url}/x402/data/latest-pairs`, { limit: 1 }, { 'X-PAYMENT': header });
      expect(resent.status).toBe(200);
      expect(resent.headers.get('x-settlement-status')).toBe('pending');
      expect(resent.headers.get('payment-response')).toBe(res.headers.get('payment-response'));
      expect(await sibyl.ledger.pending()).toHaveLength(1);

      await rpc(url, 'evm_mine');
      expect(await sibyl.ledger.reconcile()).toEqual({ decided: 1, stillPending: 0 });
      expect(await sibyl.ledger.get(account.address, nonce)).toMatchObject({ status: 'settled', transaction: receipt.transaction });
      expect(await sibyl.ledger.pending()).toHaveLength(0);
      expect(await usdcBalance(account.address, url)).toBe(5_000_000n - 400_000n);
    } finally {
      await rpc(url, 'evm_setAutomine', [true]);
    }
  });

  it('credits a top-up whose settlement is pending only once reconciliation finds it settled, and only once', async () => {
    const { key } = await fundedPayer('5', url);
    const account = privateKeyToAccount(key);
    const auth = await signInBearer(sibyl.url, key);
    const balance = async () => BigInt((await json(await fetch(`${sibyl.url}/api/credits`, { headers: auth }))).balance);
    const { header } = await signedPayment({ key, payTo: sibyl.payTo, amount: 2_000_000n });
    await rpc(url, 'evm_setAutomine', [false]);
    try {
      const res = await postJson(`${sibyl.url}/api/credits/topup`, { amountUsd: '2' }, { ...auth, 'X-PAYMENT': header });
      expect(res.status).toBe(202);
      expect(await json(res)).toMatchObject({ status: 'settlement_pending', pendingTopUp: '2000000', balance: '0' });
      expect(await sibyl.ledger.reconcile()).toEqual({ decided: 0, stillPending: 1 });
      expect(await balance()).toBe(0n);
      await rpc(url, 'evm_mine');
      expect(await sibyl.ledger.reconcile()).toEqual({ decided: 1, stillPending: 0 });
      expect(await balance()).toBe(2_000_000n);
      await sibyl.ledger.reconcile();
      expect(await balance()).toBe(2_000_000n);
    } finally {
      await rpc(url, 'evm_setAutomine', [true]);
    }
  });
});
