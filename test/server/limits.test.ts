/** The catalogue's limits: the rate limiter shared across instances on Redis, and the response-time target. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SibylError } from '../../skills/core/errors.js';
import { RateLimiter, withinTarget } from '../../payments/limits.js';
import { CreditLedger } from '../../payments/credits.js';
import { RedisStore } from '../../store/redis.js';
import { TEST_REDIS_URL } from '../helpers/env.js';

describe('catalogue limits', () => {
  let a: RedisStore;
  let b: RedisStore;
  beforeAll(async () => {
    const prefix = `sibyl-test:${randomUUID()}:`;
    [a, b] = await Promise.all([RedisStore.connect(TEST_REDIS_URL, prefix), RedisStore.connect(TEST_REDIS_URL, prefix)]);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('counts a payer\'s calls across two instances on one Redis, at exactly the limit, per payer', async () => {
    const limits = { id: `svc-${randomUUID()}`, rateLimitPerMinute: 5, timeTargetSeconds: 30 };
    const [one, two] = [new RateLimiter(a), new RateLimiter(b)];
    // Near a minute boundary the window may turn mid-test; start in a fresh one.
    if (Date.now() % 60_000 > 55_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => (i % 2 ? one : two).take(limits, '0xPayer')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refusal = (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as SibylError;
    expect(refusal.code).toBe('rate_limited');
    expect(refusal.extra.retryAfterSeconds).toBeGreaterThan(0);
    expect(refusal.extra.retryAfterSeconds).toBeLessThanOrEqual(60);
    await expect(one.take(limits, '0xOtherPayer')).resolves.toBeUndefined();
  });

  it('credits: concurrent debits from two instances on one Redis never overdraw, and every movement is in the ledger', async () => {
    const account = `0x${randomUUID().replace(/-/g, '').padEnd(40, '0').slice(0, 40)}`;
    const [one, two] = [new CreditLedger(a), new CreditLedger(b)];
    await one.topUp(account, 1_000_000n, 'test', { payer: account, nonce: randomUUID() });
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).debit(account, 350_000n, `call-${i}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as SibylError).code).toBe('insufficient_credit');
    expect(await two.balance(account)).toBe(300_000n);
    await one.refund(account, 350_000n, 'call-0:nothing_produced');
    const movements = await two.movements(account);
    expect(movements.map((m) => m.kind)).toEqual(['refund', 'debit', 'debit', 'topup']);
    expect(movements[0]!.balanceAfter).toBe('650000');
  });

  it('fails work that outlasts its target with timeout, and aborts its signal', async () => {
    let aborted = false;
    const slow = withinTarget({ id: 'slow', rateLimitPerMinute: 1, timeTargetSeconds: 0.05 }, (signal) => new Promise((resolve) => {
      signal!.addEventListener('abort', () => (aborted = true));
      setTimeout(resolve, 500);
    }));
    await expect(slow).rejects.toMatchObject({ code: 'timeout' });
    expect(aborted).toBe(true);
    await expect(withinTarget({ id: 'fast', rateLimitPerMinute: 1, timeTargetSeconds: 1 }, async () => 42)).resolves.toBe(42);
  });
});
