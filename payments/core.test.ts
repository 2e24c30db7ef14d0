/** The payments core in process: hook order, and nothing settled for failed or refused work, or for work that produced nothing. */
import { describe, expect, it } from 'vitest';
import { SibylError } from '../skills/core/errors.js';
import { nothingProduced } from '../skills/core/produced.js';
import { MemoryStore } from '../store/memory.js';
import { PaymentsCore, type PaymentHooks, type PaymentMethod } from './core.js';
import { limitHooks, RateLimiter } from './limits.js';
import type { PaidOperation } from './operation.js';
import { PaymentRefused } from './paywall.js';
import { CreditLedger } from './credits.js';
import { creditDebit } from './credits-method.js';

const resource = { url: 'http://sibyl.test/x402/data/echo', description: 'echo', mimeType: 'application/json' };

/** A fake paywall: records what it verified, released and settled, in the order it happened. */
function fakeMethod(log: string[], options: { refuse?: boolean; failSettle?: boolean } = {}): PaymentMethod<string, { tx: string }> & { reserved: Set<string> } {
  const reserved = new Set<string>();
  return {
    name: 'fake',
    reserved,
    async verify(proof) {
      log.push('verify');
      if (options.refuse) throw new PaymentRefused('payment_invalid', 'invalid_signature', 'bad signature');
      reserved.add(proof);
      return {
        payer: '0xPayer',
        release: async () => {
          log.push('release');
          reserved.delete(proof);
        },
        settle: async () => {
          log.push('settle');
          if (options.failSettle) throw new PaymentRefused('settlement_failed', 'transfer_failed', 'settlement failed');
          return { tx: `tx-${proof}` };
        },
      };
    },
  };
}

/** Every hook, each writing its name to the log. */
function recorder(log: string[]): PaymentHooks {
  return {
    onBeforeVerify: async () => void log.push('beforeVerify'),
    onAfterVerify: async ({ payer }) => void log.push(`afterVerify ${payer}`),
    onVerifyFailure: async () => void log.push('verifyFailure'),
    aroundWork: async (_ctx, work) => {
      log.push('aroundWork');
      return work();
    },
    onAfterSettle: async ({ receipt }) => void log.push(`afterSettle ${(receipt as { tx: string }).tx}`),
    onSettleFailure: async () => void log.push('settleFailure'),
    onVerifiedPaymentCanceled: async ({ reason }) => void log.push(`canceled ${reason}`),
  };
}

function operation(log: string[], run: () => Promise<Record<string, unknown>> = async () => ({ ok: true })): PaidOperation {
  return {
    amount: 250_000n,
    description: 'echo',
    run: async () => {
      log.push('work');
      return run();
    },
  };
}

describe('payments core', () => {
  it('runs before verify → verify → after verify → work → settle → after settle', async () => {
    const log: string[] = [];
    const method = fakeMethod(log);
    const core = new PaymentsCore(method).use(recorder(log));
    const { answer, receipt } = await core.charge(operation(log), method, 'n1', resource);
    expect(answer).toEqual({ ok: true });
    expect(receipt).toEqual({ tx: 'tx-n1' });
    expect(log).toEqual(['beforeVerify', 'verify', 'afterVerify 0xPayer', 'aroundWork', 'work', 'settle', 'afterSettle tx-n1']);
  });

  it('failed work releases the reservation, settles nothing and calls the failure hook', async () => {
    const log: string[] = [];
    const method = fakeMethod(log);
    const core = new PaymentsCore(method).use(recorder(log));
    const failing = operation(log, async () => {
      throw new SibylError('upstream_unavailable', 'the chain did not answer');
    });
    await expect(core.charge(failing, method, 'n2', resource)).rejects.toMatchObject({ code: 'upstream_unavailable' });
    expect(log).toEqual(['beforeVerify', 'verify', 'afterVerify 0xPayer', 'aroundWork', 'work', 'release', 'canceled handler_threw']);
    expect(method.reserved.size).toBe(0);
  });

  it('an unexpected error from the work is answered as internal_error, and nothing is settled', async () => {
    const log: string[] = [];
    const method = fakeMethod(log);
    const core = new PaymentsCore(method);
    await expect(core.charge(operation(log, async () => { throw new TypeError('boom'); }), method, 'n3', resource)).rejects.toMatchObject({ code: 'internal_error' });
    expect(log).not.toContain('settle');
    expect(log).toContain('release');
  });

  it('an answer that is available: false is never settled: released, answered no_answer with the answer, marked not charged', async () => {
    const log: string[] = [];
    const method = fakeMethod(log);
    const core = new PaymentsCore(method).use(recorder(log));
    const gap = { address: '0xabc', available: false, reason: 'no contract code at this address' };
    const refusal = await core.charge(operation(log, async () => gap), method, 'u1', resource).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(SibylError);
    expect(refusal).toMatchObject({ code: 'no_answer', status: 422, message: 'no contract code at this address; nothing was charged' });
    expect(log).toEqual(['beforeVerify', 'verify', 'afterVerify 0xPayer', 'aroundWork', 'work', 'release', 'canceled nothing_produced']);
    expect(method.reserved.size).toBe(0);
    // What the payer receives: the answer as it is, unavailable, not charged, beside the error.
    expect((refusal as SibylError).toBody()).toEqual({
      address: '0xabc', available: false, reason: 'no contract code at this address', charged: false,
      error: { code: 'no_answer', message: 'no contract code at this address; nothing was charged' },
    });
  });

  it('a skill whose rows are its product produced nothing when none came back; any row, or available: true without the declaration, is sold', async () => {
    const log: string[] = [];
    const method = fakeMethod(log);
    const core = new PaymentsCore(method).use(recorder(log));
    const lookup = (rows: unknown[]): PaidOperation => ({ ...operation(log, async () => ({ available: true, trades: rows })), product: { productRows: 'trades' } });
    await expect(core.charge(lookup([]), method, 'r1', resource)).rejects.toMatchObject({ code: 'no_answer', extra: { answer: { available: false, reason: 'no trades came back', trades: [] } } });
    expect(log.filter((l) => l === 'settle' || l.startsWith('canceled'))).toEqual(['canceled nothing_produced']);
    log.length = 0;
    await expect(core.charge(lookup([{ hash: '0x1' }]), method, 'r2', resource)).resolves.toMatchObject({ receipt: { tx: 'tx-r2' } });
    expect(log).toContain('settle');
    log.length = 0;
    // Without the declaration an empty list is an answer (a ranking where nothing qualified).
    await expect(core.charge(operation(log, async () => ({ available: true, trades: [] })), method, 'r3', resource)).resolves.toMatchObject({ receipt: { tx: 'tx-r3' } });
  });

  it('a no_answer thrown by the work (the report agent, judged by the same rule) is released the same way', async () => {
    const log: string[] = [];
    const method = fakeMethod(log);
    const core = new PaymentsCore(method).use(recorder(log));
    const report = operation(log, async () => { throw nothingProduced({ analysis: 'Copy-trading intel: not available.', available: false, reason: 'no trade of this wallet' }); });
    await expect(core.charge(report, method, 'u2', resource)).rejects.toMatchObject({ code: 'no_answer', extra: { answer: { reason: 'no trade of this wallet' } } });
    expect(log.slice(-2)).toEqual(['release', 'canceled nothing_produced']);
    expect(log).not.toContain('settle');
  });

  it('credits: an answer of nothing is refunded under a reference saying so; the balance is whole', async () => {
    const credits = new CreditLedger(new MemoryStore());
    await credits.topUp('0xacc', 1_000_000n, 'seed', { payer: '0xacc', nonce: '0x01' });
    const core = new PaymentsCore(fakeMethod([]));
    const debit = creditDebit(credits, 600_000n, 'analyze_wallet:trust:1');
    const gap: PaidOperation = { amount: 600_000n, description: 'trust', run: async () => ({ available: false, reason: 'the index holds no activity of this wallet' }) };
    await expect(core.charge(gap, debit, '0xacc', resource)).rejects.toMatchObject({ code: 'no_answer' });
    expect(await credits.balance('0xacc')).toBe(1_000_000n);
    expect((await credits.movements('0xacc')).map((m) => [m.kind, m.ref])).toEqual([['refund', 'analyze_wallet:trust:1:nothing_produced'], ['debit', 'analyze_wallet:trust:1'], ['topup', 'seed']]);
  });

  it('a before-verify hook that aborts refuses before any verification', async () => {
    const log: string[] = [];
    const method = fakeMethod(log);
    const core = new PaymentsCore(method).onBeforeVerify(async () => ({ abort: true, reason: 'payer_blocked', message: 'this payer is blocked' })).use(recorder(log));
    const refusal = await core.charge(operation(log), method, 'n4', resource).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(PaymentRefused);
    expect(refusal).toMatchObject({ code: 'payment_invalid', reason: 'payer_blocked' });
    expect(log).toEqual([]);
  });

  it('a refused verification runs the verify-failure hook and neither the work nor a settlement', async () => {
    const log: string[] = [];
    const method = fakeMethod(log, { refuse: true });
    const core = new PaymentsCore(method).use(recorder(log));
    await expect(core.charge(operation(log), method, 'n5', resource)).rejects.toBeInstanceOf(PaymentRefused);
    expect(log).toEqual(['beforeVerify', 'verify', 'verifyFailure']);
  });

  it('a failed settlement runs the settle-failure hook and skips after-settle', async () => {
    const log: string[] = [];
    const method = fakeMethod(log, { failSettle: true });
    const core = new PaymentsCore(method).use(recorder(log));
    await expect(core.charge(operation(log), method, 'n6', resource)).rejects.toMatchObject({ code: 'settlement_failed' });
    expect(log).toEqual(['beforeVerify', 'verify', 'afterVerify 0xPayer', 'aroundWork', 'work', 'settle', 'settleFailure']);
  });

  it('the rate limit, hooked in after verify, refuses past the limit and releases the payment: no work, nothing settled', async () => {
    const log: string[] = [];
    const method = fakeMethod(log);
    const core = new PaymentsCore(method).use(limitHooks(new RateLimiter(new MemoryStore()))).use(recorder(log));
    const limited = { ...operation(log), limits: { id: 'echo', rateLimitPerMinute: 1, timeTargetSeconds: 5 } };
    await core.charge(limited, method, 'n7', resource);
    log.length = 0;
    await expect(core.charge(limited, method, 'n8', resource)).rejects.toMatchObject({ code: 'rate_limited' });
    expect(log).toEqual(['beforeVerify', 'verify', 'release', 'canceled after_verify_aborted']);
    expect(method.reserved.has('n8')).toBe(false);
  });

  it('work past its time target is aborted and answered timeout; the payment is released', async () => {
    const log: string[] = [];
    const method = fakeMethod(log);
    const core = new PaymentsCore(method).use(limitHooks(new RateLimiter(new MemoryStore())));
    let aborted = false;
    const slow: PaidOperation = {
      amount: 250_000n,
      description: 'slow',
      limits: { id: 'slow', rateLimitPerMinute: 10, timeTargetSeconds: 0.05 },
      run: (signal) => new Promise((resolve) => {
        signal?.addEventListener('abort', () => {
          aborted = true;
          resolve({});
        });
      }),
    };
    await expect(core.charge(slow, method, 'n9', resource)).rejects.toMatchObject({ code: 'timeout' });
    expect(aborted).toBe(true);
    expect(log).toEqual(['verify', 'release']);
  });

  it("an operation's own after-settle hook runs after the core's, with the receipt", async () => {
    const log: string[] = [];
    const method = fakeMethod(log);
    const core = new PaymentsCore(method).use(recorder(log));
    const credited: string[] = [];
    const topUp: PaidOperation = { ...operation(log), hooks: { onAfterSettle: async ({ receipt }) => void credited.push((receipt as unknown as { tx: string }).tx) } };
    await core.charge(topUp, method, 'n10', resource);
    expect(log.at(-1)).toBe('afterSettle tx-n10');
    expect(credited).toEqual(['tx-n10']);
  });

  it('credits as the method: a failed call is refunded once under a reference naming why; a refused debit takes nothing', async () => {
    const credits = new CreditLedger(new MemoryStore());
    await credits.topUp('0xacc', 1_000_000n, 'seed', { payer: '0xacc', nonce: '0x01' });
    const core = new PaymentsCore(fakeMethod([]));
    const debit = creditDebit(credits, 400_000n, 'tool:kind:1');
    const failing: PaidOperation = { amount: 400_000n, description: 'tool', run: async () => { throw new SibylError('no_answer', 'nothing fits'); } };
    await expect(core.charge(failing, debit, '0xacc', resource)).rejects.toMatchObject({ code: 'no_answer' });
    expect(debit.taken).toBe(true);
    expect(debit.balanceAfterRefund).toBe(1_000_000n);
    expect((await credits.movements('0xacc')).map((m) => [m.kind, m.ref])).toEqual([['refund', 'tool:kind:1:nothing_produced'], ['debit', 'tool:kind:1'], ['topup', 'seed']]);

    const dear = creditDebit(credits, 2_000_000n, 'tool:kind:2');
    await expect(core.charge({ ...failing, amount: 2_000_000n }, dear, '0xacc', resource)).rejects.toMatchObject({ code: 'insufficient_credit' });
    expect(dear.taken).toBe(false);
    expect(await credits.balance('0xacc')).toBe(1_000_000n);
  });
});
