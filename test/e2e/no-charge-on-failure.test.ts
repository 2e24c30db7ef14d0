/** Failed work moves no money: a failing handler and an unindexed chain both leave the payer whole. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineSkill } from '../../skills/core/registry.js';
import { fundedPayer, postJson, useTestSibyl, usdcBalance, json } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';

let calls = 0;
const failingSkill = defineSkill({
  id: 'test-failure',
  title: 'Always fails',
  description: 'A skill whose handler throws, registered only in this test.',
  tags: ['test'],
  examples: [],
  input: z.strictObject({}),
  output: z.object({}),
  price: '0.30',
  httpPath: '/x402/data/test-failure',
  surfaces: ['http'],
  async handler() {
    calls++;
    throw new Error('engine exploded');
  },
});

describe('no charge on failure', () => {
  const sibyl = useTestSibyl({ extraSkills: [failingSkill] });

  it('a handler that fails → 500 internal_error, payer balance unchanged, payment reusable', async () => {
    const { key, account } = await fundedPayer('5');
    const { header } = await signedPayment({ key, payTo: sibyl.payTo, amount: 300_000n });
    const res = await postJson(`${sibyl.url}/x402/data/test-failure`, {}, { 'X-PAYMENT': header });
    expect(res.status).toBe(500);
    expect((await json(res)).error).toMatchObject({ code: 'internal_error', message: expect.stringContaining('nothing was charged') });
    expect(res.headers.get('payment-response')).toBeNull();
    expect(calls).toBe(1);
    expect(await usdcBalance(account.address)).toBe(5_000_000n);
    expect(await usdcBalance(sibyl.payTo)).toBe(0n);
    // The reservation was released: the same authorization is not burned by failed work.
    const again = await postJson(`${sibyl.url}/x402/data/test-failure`, {}, { 'X-PAYMENT': header });
    expect(again.status).toBe(500);
    expect(calls).toBe(2);
  });

  it.each([['zksync'], ['solana']])('latest-pairs on %s (not indexed) → 503 chain_unavailable, uncharged', async (chain) => {
    const { key, account } = await fundedPayer('5');
    const { header } = await signedPayment({ key, payTo: sibyl.payTo, amount: 400_000n });
    const res = await postJson(`${sibyl.url}/x402/data/latest-pairs`, { chain }, { 'X-PAYMENT': header });
    expect(res.status).toBe(503);
    expect((await json(res)).error.code).toBe('chain_unavailable');
    expect(await usdcBalance(account.address)).toBe(5_000_000n);
  });
});
