/** The official x402 client pays Sibyl, and the USDC really moves on the embedded chain. */
import { describe, expect, it } from 'vitest';
import { decodePaymentResponseHeader } from '@x402/fetch';
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { erc20Abi, parseAbi, type Address, type Hex } from 'viem';
import { baseClient, fundedPayer, payingFetch, postJson, useTestSibyl, usdcBalance, json } from '../helpers/sibyl.js';

describe('a paid request with the official @x402/fetch client', () => {
  const sibyl = useTestSibyl();

  it('answers 402 with the v2 PaymentRequired in header and body', async () => {
    const res = await postJson(`${sibyl.url}/x402/data/latest-pairs`, { limit: 5 });
    expect(res.status).toBe(402);
    const body = await json(res);
    const header = JSON.parse(Buffer.from(res.headers.get('payment-required')!, 'base64').toString());
    expect(header).toEqual(body);
    expect(body.x402Version).toBe(2);
    expect(body.accepts).toEqual([{
      scheme: 'exact', network: 'eip155:8453', amount: '400000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      payTo: sibyl.payTo, maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' },
    }]);
    expect(body.resource.url).toMatch(/\/x402\/data\/latest-pairs$/);
  });

  it('pays for latest-pairs; USDC moves from payer to payTo on chain', async () => {
    const { key, account } = await fundedPayer('5');
    const { pay, seen } = payingFetch(key);
    const before = await usdcBalance(account.address);
    const res = await pay(`${sibyl.url}/x402/data/latest-pairs`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ limit: 3 }),
    });
    expect(res.status).toBe(200);
    const answer = await json(res);
    expect(answer.pairs).toHaveLength(3);
    expect(answer).toMatchObject({ chain: 'base', chainId: 8453, source: 'rpc', methodology: expect.stringContaining('latest-pairs/v2') });
    // Each pair's tokens and their symbols as the contracts on chain give them.
    const chain = baseClient();
    const pairAbi = parseAbi(['function token0() view returns (address)', 'function token1() view returns (address)']);
    for (const pair of answer.pairs) {
      for (const side of ['token0', 'token1'] as const) {
        const token = await chain.readContract({ address: pair.pair as Address, abi: pairAbi, functionName: side });
        expect(pair[side].address.toLowerCase()).toBe(token.toLowerCase());
        expect(pair[side].symbol).toBe(await chain.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' }));
      }
      expect(pair.liquidityUsd).toBeGreaterThan(0);
      expect(Number(pair.createdBlock)).toBeGreaterThan(0);
    }
    const receipt = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    expect(res.headers.get('x-payment-response')).toBe(res.headers.get('payment-response'));
    expect(receipt.success).toBe(true);
    const tx = await baseClient().getTransactionReceipt({ hash: receipt.transaction as Hex });
    expect(tx.status).toBe('success');
    expect(await usdcBalance(account.address)).toBe(before - 400_000n);
    expect(await usdcBalance(sibyl.payTo)).toBe(400_000n);
    const sent = decodePaymentSignatureHeader(seen[0]!);
    const record = await sibyl.ledger.get(account.address, (sent.payload as { authorization: { nonce: Hex } }).authorization.nonce);
    expect(record).toMatchObject({ status: 'settled', transaction: receipt.transaction, amount: '400000' });
  });
});
