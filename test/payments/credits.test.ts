/**
 * Credit debits under concurrency (docs/operations.md, "Faults"), on both stores. Debits alone (no top-up or
 * refund meanwhile) only ever lower the balance, so with B the balance before and F after:
 *   1. the balance is never negative, seen from another client sampling it all along;
 *   2. what was debited is exactly B − F (so never more than B);
 *   3. a refused debit was larger than the balance at its moment, which is ≥ F: every refused
 *      amount is > F, i.e. no debit that fits in what is left at the end was ever refused;
 *   4. the ledger's debit movements, in sequence order, chain from B down to F, each balanceAfter
 *      the one before minus its amount (every debit saw the balance the one before left).
 * The mix: 20 debits of 0.40 and 180 of 0.001 against 1.00, the dear ones first. At most two dear
 * ones fit, and with them all the cheap ones (0.98 in all): every cheap debit must succeed.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { CreditLedger } from '../../payments/credits.js';
import { MemoryStore } from '../../store/memory.js';
import { RedisStore } from '../../store/redis.js';
import type { Store } from '../../store/store.js';
import { TEST_REDIS_URL } from '../helpers/env.js';

const DEAR = 400_000n;
const CHEAP = 1_000n;
const START = 1_000_000n;

interface Sampler {
  stop(): Promise<bigint[]>;
}

/** Reads the balance over and over until stopped: through a second Redis connection, or between the memory store's steps. */
function sample(store: Store, prefix: string, account: string): Sampler {
  const key = `credits:balance:${account.toLowerCase()}`;
  const seen: bigint[] = [];
  let running = true;
  let loop: Promise<void>;
  if (store.kind === 'redis') {
    const client = createClient({ url: TEST_REDIS_URL });
    loop = (async () => {
      await client.connect();
      // Fifty reads in flight at a time, so they land between the debits on the server.
      while (running) seen.push(...(await Promise.all(Array.from({ length: 50 }, () => client.get(prefix + key)))).map((v) => BigInt(v ?? '0')));
      await client.quit();
    })();
  } else {
    loop = (async () => {
      while (running) {
        seen.push(BigInt((await store.get(key)) ?? '0'));
        await new Promise((r) => setImmediate(r));
      }
    })();
  }
  return {
    async stop() {
      running = false;
      await loop;
      return seen;
    },
  };
}

const stores: [string, (prefix: string) => Promise<Store>][] = [
  ['memory', async () => new MemoryStore()],
  ['redis', (prefix) => RedisStore.connect(TEST_REDIS_URL, prefix)],
];

describe.each(stores)('credit debits under concurrency: %s', (_name, open) => {
  const opened: Store[] = [];
  afterAll(async () => {
    for (const s of opened) await s.close();
  });

  it('200 concurrent debits of mixed sizes never overdraw, and a refused dear one never blocks a cheap one', async () => {
    const prefix = `sibyl-test:${randomUUID()}:`;
    const store = await open(prefix);
    opened.push(store);
    const credits = new CreditLedger(store);
    const account = `0x${randomUUID().replace(/-/g, '').padEnd(40, '0')}`;
    await credits.topUp(account, START, 'test', { payer: account, nonce: randomUUID() });

    const sizes = [...Array.from({ length: 20 }, () => DEAR), ...Array.from({ length: 180 }, () => CHEAP)];
    const sampler = sample(store, prefix, account);
    await new Promise((r) => setTimeout(r, 20)); // the sampler is reading before the first debit
    const results = await Promise.allSettled(sizes.map((amount, i) => credits.debit(account, amount, `call-${i}`)));
    const seen = await sampler.stop();
    const final = await credits.balance(account);

    // 1. Never negative, not even for an instant.
    // Enough samples to have looked between debits (the memory store's come one per event-loop turn,
    // fewer on a loaded machine: 45 were seen once under the full suite).
    expect(seen.length).toBeGreaterThanOrEqual(store.kind === 'redis' ? 50 : 20);
    expect(seen.filter((b) => b < 0n)).toEqual([]);
    // 2. Debited exactly what left the balance.
    const taken = sizes.filter((_, i) => results[i]!.status === 'fulfilled');
    expect(taken.reduce((a, b) => a + b, 0n)).toBe(START - final);
    expect(final).toBeGreaterThanOrEqual(0n);
    // 3. Every refusal was for more than is left; so every cheap debit went through and two dear ones.
    for (const [i, r] of results.entries()) {
      if (r.status === 'rejected') {
        expect((r.reason as { code: string }).code).toBe('insufficient_credit');
        expect(sizes[i]!).toBeGreaterThan(final);
      }
    }
    expect(results.filter((r, i) => sizes[i] === CHEAP && r.status === 'rejected')).toHaveLength(0);
    expect(taken.filter((a) => a === DEAR)).toHaveLength(2);
    // 4. The ledger chains from START to the final balance, one movement per debit taken.
    const debits = (await credits.movements(account, 1_000)).filter((m) => m.kind === 'debit').reverse();
    expect(debits).toHaveLength(taken.length);
    let before = START;
    for (const m of debits) {
      expect(BigInt(m.balanceAfter)).toBe(before + BigInt(m.amount));
      before = BigInt(m.balanceAfter);
    }
    expect(before).toBe(final);
    await store.clear('credits:');
  });
});

describe('credits sent again', () => {
  const store = new MemoryStore();
  const credits = new CreditLedger(store);

  it('a top-up sent twice for one authorization, and a refund sent twice for one debit, credit once each', async () => {
    const account = `0x${randomUUID().replace(/-/g, '').padEnd(40, '0').slice(0, 40)}`;
    const authorization = { payer: account, nonce: `0x${'ab'.repeat(32)}` };
    await credits.topUp(account, START, 'x402:0xtx', authorization);
    await credits.topUp(account, START, 'x402:0xtx', authorization); // the outbox's resend after a lost answer
    await credits.settle(authorization.payer, authorization.nonce, '0xtx'); // nothing pending: nothing added
    await credits.debit(account, DEAR, 'call-1');
    await credits.refund(account, DEAR, 'call-1:nothing_produced');
    await credits.refund(account, DEAR, 'call-1:nothing_produced');
    expect(await credits.balance(account)).toBe(START);
    expect((await credits.movements(account)).map((m) => m.kind)).toEqual(['refund', 'debit', 'topup']);
  });
});
