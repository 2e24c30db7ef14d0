/**
 * The settlement's own path: what it asks the node, and that a nonce gap cannot hold it up.
 * A settlement knows its gas bound, fees (read once a block or two) and nonce (the shared
 * counter) before sending, so per payment the node sees the raw transaction and the receipt
 * reads, nothing filled or estimated; and a nonce taken from the shared counter but never sent
 * (a count whose answer was lost in a Redis outage) is filled, so the next payment settles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { startRpcProxy, type RpcProxy } from '../helpers/rpc-proxy.js';
import { rpcUrl, startTestSibyl, walletPoster, type TestSibyl } from '../helpers/sibyl.js';

const PATH = '/x402/data/latest-pairs';

describe('settlement path', () => {
  let proxy: RpcProxy;
  let sibyl: TestSibyl;

  beforeAll(async () => {
    proxy = await startRpcProxy(rpcUrl('base'));
    sibyl = await startTestSibyl({ rpcUrls: { base: proxy.url } });
  });
  afterAll(async () => {
    await sibyl?.close();
    await proxy?.close();
  });

  it('asks the node only for the send and the receipt (no fill, estimate or fee read per payment)', async () => {
    const payer = await walletPoster(sibyl.url, '5');
    expect((await payer.post(PATH, { limit: 1 })).status).toBe(200); // the first reads the fees
    const before = { ...proxy.methods };
    const n = 5;
    for (let i = 0; i < n; i++) {
      const res = await payer.post(PATH, { limit: 1 });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-settlement-status')).toBeNull();
    }
    const delta = (m: string) => (proxy.methods[m] ?? 0) - (before[m] ?? 0);
    expect(delta('eth_sendRawTransaction')).toBe(n);
    expect(delta('eth_fillTransaction')).toBe(0);
    expect(delta('eth_estimateGas')).toBe(0);
    expect(delta('eth_maxPriorityFeePerGas')).toBeLessThanOrEqual(1);
  });

  it('fills a nonce gap left by a count that was never sent, and the payment behind it settles', async () => {
    const payer = await walletPoster(sibyl.url, '5');
    expect((await payer.post(PATH, { limit: 1 })).status).toBe(200);
    const settler = (sibyl.facilitator as unknown as { settler: Address }).settler;
    // A count taken from the shared counter whose answer was lost: that nonce is never sent.
    await sibyl.store.takeNext(`settler:nonce:8453:${settler.toLowerCase()}`, 0);
    const balance = await payer.balance();
    const res = await payer.post(PATH, { limit: 1 });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-settlement-status')).toBeNull();
    expect(await payer.balance()).toBe(balance - 400_000n);
  });
});
