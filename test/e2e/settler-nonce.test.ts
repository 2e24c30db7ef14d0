/**
 * Two instances on one Redis settling with one key (docs/operations.md, "Faults"): each counting nonces on its
 * own gave two transactions the same nonce, and the later one was refused after the work was
 * done. A send the node refuses for its nonce is made again with a fresh one: no valid payment is
 * refused and each settles once.
 * Payments settle one per transaction (X402_SETTLE_BATCH_MAX=1, as contract wallets and v1 payloads
 * always do) behind a node that takes 300 ms to receive a send, so both instances' sends overlap.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { fundedPayer, postJson, rpc, rpcUrl, startTestSibyl, usdcBalance, type TestSibyl } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';
import { startSlowRpc, type SlowRpc } from '../helpers/slow-rpc.js';

const PRICE = 400_000n;
const PAYERS = 20;
const PER_PAYER = 10;
/** A send takes this long to reach the node (a remote RPC's latency): the window two counters collide in. */
const SEND_LATENCY_MS = 300;

describe('two instances, one settler key, one Redis', () => {
  let a: TestSibyl;
  let b: TestSibyl;
  let proxy: SlowRpc;
  beforeAll(async () => {
    proxy = await startSlowRpc(rpcUrl(), ['eth_sendRawTransaction'], SEND_LATENCY_MS);
    const rpcUrls = { ...inject('rpcUrls'), base: proxy.url };
    const prefix = `sibyl-test:${randomUUID()}:`;
    const settlerKey = generatePrivateKey();
    await rpc(rpcUrl(), 'anvil_setBalance', [privateKeyToAccount(settlerKey).address, `0x${parseEther('100').toString(16)}`]);
    a = await startTestSibyl({ redis: prefix, rpcUrls, env: { X402_SETTLER_PRIVATE_KEY: settlerKey, X402_SETTLE_BATCH_MAX: '1' } });
    b = await startTestSibyl({ redis: prefix, rpcUrls, env: { X402_SETTLER_PRIVATE_KEY: settlerKey, X402_SETTLE_BATCH_MAX: '1', X402_PAY_TO: a.payTo } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await proxy?.close();
  });

  it('settles 200 concurrent payments split across both, none refused, each exactly once', async () => {
    const payers = await Promise.all(Array.from({ length: PAYERS }, () => fundedPayer('5')));
    const payments = await Promise.all(payers.flatMap(({ key }) => Array.from({ length: PER_PAYER }, () => signedPayment({ key, payTo: a.payTo, amount: PRICE }))));
    const responses = await Promise.all(payments.map(({ header }, i) => postJson(`${(i % 2 ? a : b).url}/x402/data/latest-pairs`, { limit: 1 }, { 'X-PAYMENT': header })));
    const refused = await Promise.all(responses.filter((r) => r.status !== 200).map(async (r) => `${r.status} ${((await r.json()) as { code?: string }).code}`));
    expect(refused.length, refused.join(', ')).toBe(0);
    const settlements = responses.map((r) => decodePaymentResponseHeader(r.headers.get('payment-response')!));
    expect(settlements.every((s) => s.success && /^0x[0-9a-f]{64}$/.test(s.transaction))).toBe(true);
    for (const { account } of payers) expect(await usdcBalance(account.address)).toBe(5_000_000n - PRICE * BigInt(PER_PAYER));
    expect(await usdcBalance(a.payTo)).toBe(PRICE * BigInt(PAYERS * PER_PAYER));
  }, 120_000);
});
