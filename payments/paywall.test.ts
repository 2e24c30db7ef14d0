/**
 * Exactly once, in process: the answer is kept with its authorization before the settlement is
 * sent, a resend of the same payment for the same request gets it back (never a second charge,
 * never nonce_already_used), a dead instance's payments are taken over, and a store outage while
 * keeping or settling is 503 with Retry-After and settles nothing. A fake facilitator and chain
 * stand in for the token: authorizationState is the set of nonces its settlements used.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bytesToHex, getAddress, type Hex } from 'viem';
import { decodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, SettleResponse } from '@x402/core/types';
import type { ConnectedChain } from '../chain/runtime.js';
import { SibylError } from '../skills/core/errors.js';
import { NOT_KEPT, noteIssued } from '../skills/core/issued-secrets.js';
import { MemoryStore } from '../store/memory.js';
import { StoreTimeoutError } from '../store/deadline.js';
import type { Store } from '../store/store.js';
import { PaymentsCore } from './core.js';
import type { Facilitator } from './facilitator.js';
import { STORE_UNAVAILABLE } from './batch-settler.js';
import { Instance } from './instance.js';
import type { PaidOperation } from './operation.js';
import { Outbox } from './outbox.js';
import { PaymentRefused, Paywall } from './paywall.js';
import { SettlementLedger } from './settlements.js';
import { CreditLedger } from './credits.js';
import { topUpOperation } from './topup.js';
import { X402_NETWORK } from './terms.js';
import { x402Method } from './x402-method.js';

const USDC = getAddress('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
const PAY_TO = getAddress('0x00000000000000000000000000000000000b0b0b');
const PAYER = getAddress('0x00000000000000000000000000000000000a11ce');
const PRICE = 250_000n;
const resource = { url: 'http://sibyl.test/x402/data/echo', description: 'echo', mimeType: 'application/json' };

function payment(options: { nonce?: Hex; validBefore?: number; signature?: Hex } = {}): PaymentPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    x402Version: 2,
    accepted: { scheme: 'exact', network: X402_NETWORK, amount: PRICE.toString(), asset: USDC, payTo: PAY_TO, maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' } },
    payload: {
      authorization: { from: PAYER, to: PAY_TO, value: PRICE.toString(), validAfter: String(now - 60), validBefore: String(options.validBefore ?? now + 300), nonce: options.nonce ?? bytesToHex(randomBytes(32)) },
      signature: options.signature ?? bytesToHex(randomBytes(65)),
    },
  } as PaymentPayload;
}

/** The token as far as these tests need it: the nonces used, each with the transaction that used it. */
class FakeToken {
  readonly used = new Map<string, Hex>();
  readonly settlements: string[] = [];
  /** What the next settlements answer instead of transferring. */
  next: ((nonce: Hex) => SettleResponse | Promise<SettleResponse> | undefined) | undefined;

  /** The chain's head, and the block each used nonce's transaction is in (absent: in every range). */
  head = 1_000n;
  readonly landedAt = new Map<string, bigint>();
  readonly logQueries: [bigint, bigint][] = [];

  readonly chain = {
    client: {
      readContract: async ({ args }: { args: [string, Hex] }) => this.used.has(args[1].toLowerCase()),
      getBlockNumber: async () => this.head,
      // A thousand blocks a second (a busy chain), the head's now.
      getBlock: async ({ blockNumber }: { blockNumber: bigint }) => ({ number: blockNumber, timestamp: BigInt(Math.floor(Date.now() / 1000)) - (this.head - blockNumber) / 1_000n }),
      getLogs: async ({ args, fromBlock, toBlock }: { args: { nonce: Hex }; fromBlock: bigint; toBlock: bigint }) => {
        this.logQueries.push([fromBlock, toBlock]);
        const tx = this.used.get(args.nonce.toLowerCase());
        const at = this.landedAt.get(args.nonce.toLowerCase());
        return tx && (at === undefined || (at >= fromBlock && at <= toBlock)) ? [{ transactionHash: tx }] : [];
      },
    },
  } as unknown as ConnectedChain;

  readonly facilitator: Facilitator = {
    kind: 'local',
    // The token refuses an authorization it has used.
    verify: async (p) => (this.used.has(nonceOf(p).toLowerCase()) ? { isValid: false, invalidReason: 'nonce_already_used', payer: PAYER } : { isValid: true, payer: PAYER }),
    settle: async (p) => {
      const nonce = nonceOf(p);
      const instead = await this.next?.(nonce);
      if (instead) return instead;
      this.settlements.push(nonce);
      if (this.used.has(nonce.toLowerCase())) return { success: false, errorReason: 'transaction_failed', transaction: '0xfeed', network: X402_NETWORK, payer: PAYER };
      const tx = bytesToHex(randomBytes(32));
      this.used.set(nonce.toLowerCase(), tx);
      return { success: true, transaction: tx, network: X402_NETWORK, payer: PAYER };
    },
  };
}

function nonceOf(p: PaymentPayload): Hex {
  return (p.payload as { authorization: { nonce: Hex } }).authorization.nonce;
}

function echo(runs: { count: number } = { count: 0 }, input: Record<string, unknown> = { limit: 1 }): PaidOperation {
  return {
    skill: 'echo', amount: PRICE, description: 'echo', request: { skill: 'echo', input },
    run: async () => ({ echoed: input, run: ++runs.count }),
  };
}

/** Every instance's outbox, closed after each test. */
const outboxes: Outbox[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const o of outboxes.splice(0)) o.close();
});

/** One Sibyl instance: its paywall and core on the shared store and token; `pay` charges through x402. */
function instance(store: Store, token: FakeToken, ledger = new SettlementLedger(store, undefined, USDC)) {
  const me = new Instance(store, { ttlMs: 60_000 });
  const outbox = new Outbox({ answerWithinMs: 50, firstRetryMs: 20, maxRetryMs: 50 });
  outboxes.push(outbox);
  const paywall = new Paywall({ asset: USDC, payTo: PAY_TO, maxTimeoutSeconds: 300 }, token.facilitator, store, ledger, 8453, () => {}, outbox, { instance: me, chain: token.chain });
  const core = new PaymentsCore(x402Method(paywall));
  const pay = (p: PaymentPayload, operation = echo(), at = resource) => core.charge(operation, core.x402, p, at);
  return { me, paywall, core, ledger, outbox, pay };
}

/** A store, a token and one instance on them. */
function oneInstance(store: Store = new MemoryStore()) {
  const token = new FakeToken();
  return { store, token, a: instance(store, token) };
}

const refusalOf = (p: Promise<unknown>) => p.then(() => undefined, (err: unknown) => err);

describe('a resend of the same payment', () => {
  it('for the same request gets the kept answer and the same receipt: the work ran once, one settlement', async () => {
    const { store, token, a } = oneInstance();
    const runs = { count: 0 };
    const p = payment();
    const first = await a.pay(p, echo(runs));
    const again = await a.pay(structuredClone(p), echo(runs));
    expect(again.answer).toEqual(first.answer);
    expect(again.receipt.headers).toEqual(first.receipt.headers);
    expect(again.receipt.resent).toBe(true);
    expect(decodePaymentResponseHeader(again.receipt.headers['PAYMENT-RESPONSE']!)).toMatchObject({ success: true, transaction: first.receipt.settlement.transaction });
    expect(runs.count).toBe(1);
    expect(token.settlements).toHaveLength(1);
  });

  it('of an answer that issued a secret gets the answer with the secret not kept (returned once, never stored)', async () => {
    const { store, token, a } = oneInstance();
    const secret = bytesToHex(randomBytes(32));
    const keys: PaidOperation = { ...echo({ count: 0 }), run: async () => { noteIssued([secret]); return { privateKey: secret, address: PAYER }; } };
    const p = payment();
    expect((await a.pay(p, keys)).answer.privateKey).toBe(secret);
    expect(JSON.stringify(await store.dump(''))).not.toContain(secret.slice(2));
    const again = await a.pay(p, keys);
    expect(again.answer).toEqual({ privateKey: expect.stringContaining(NOT_KEPT), address: PAYER });
    expect(JSON.stringify(again.answer)).not.toContain(secret.slice(2, 18));
    expect(token.settlements).toHaveLength(1);
  });

  it('for another request, or with another signature over the same nonce, is refused nonce_already_used and never sees the answer', async () => {
    const { store, token, a } = oneInstance();
    const runs = { count: 0 };
    const p = payment();
    await a.pay(p, echo(runs));
    const other = await refusalOf(a.pay(p, echo(runs, { limit: 2 })));
    expect(other).toBeInstanceOf(PaymentRefused);
    expect(other).toMatchObject({ code: 'nonce_already_used' });
    const elsewhere = await refusalOf(a.pay(p, echo(runs), { ...resource, url: 'http://sibyl.test/x402/data/other' }));
    expect(elsewhere).toMatchObject({ code: 'nonce_already_used' });
    const resigned = payment({ nonce: nonceOf(p) });
    expect(await refusalOf(a.pay(resigned, echo(runs)))).toMatchObject({ code: 'nonce_already_used' });
    expect(runs.count).toBe(1);
    expect(token.settlements).toHaveLength(1);
  });

  it('while the first is still being answered by a live instance is 409 payment_in_progress with Retry-After, never a second charge', async () => {
    const { store, token, a } = oneInstance();
    const b = instance(store, token);
    await b.me.start();
    let finish!: () => void;
    const slow: PaidOperation = { ...echo({ count: 0 }), run: () => new Promise((r) => (finish = () => r({ ok: true }))) };
    const p = payment();
    const first = b.pay(p, slow);
    await vi.waitFor(() => expect(finish).toBeDefined());
    const busy = await refusalOf(a.pay(p));
    expect(busy).toBeInstanceOf(SibylError);
    expect(busy).toMatchObject({ code: 'payment_in_progress', status: 409, extra: { retryAfterSeconds: expect.any(Number) } });
    finish();
    await first;
    await b.me.stop();
    expect(token.settlements).toHaveLength(1);
  });
});

describe('an instance that died', () => {
  /** Instance A verifies, runs and keeps the answer, then stops before (or after) sending the settlement: no receipt is kept. */
  async function diedAfterKeeping(store: Store, token: FakeToken, p: PaymentPayload, sent: boolean) {
    const a = instance(store, token);
    const authorization = await a.paywall.authorize(p, PRICE, resource, { skill: 'echo', input: { limit: 1 } });
    await a.paywall.keep(authorization, { echoed: { limit: 1 }, run: 1 });
    // The transaction reached the chain; the process died before its receipt.
    if (sent) token.used.set(nonceOf(p).toLowerCase(), bytesToHex(randomBytes(32)));
    return a;
  }

  it('after sending the settlement: the resend on another instance gets the kept answer with a receipt from the chain, and nothing is sent again', async () => {
    const store = new MemoryStore();
    const token = new FakeToken();
    const p = payment();
    await diedAfterKeeping(store, token, p, true);
    const b = instance(store, token);
    const runs = { count: 0 };
    const { answer, receipt } = await b.pay(p, echo(runs));
    expect(answer).toEqual({ echoed: { limit: 1 }, run: 1 });
    expect(runs.count).toBe(0);
    expect(receipt.settlement).toMatchObject({ success: true, transaction: token.used.get(nonceOf(p).toLowerCase()) });
    expect(token.settlements).toHaveLength(0);
    await b.outbox.drained(1_000);
    expect(await b.ledger.get(PAYER, nonceOf(p))).toMatchObject({ status: 'settled', transaction: receipt.settlement.transaction });
    // Once more: the same answer and receipt, still nothing sent.
    const again = await b.pay(p, echo(runs));
    expect(again.receipt.headers).toEqual(receipt.headers);
    expect(token.settlements).toHaveLength(0);
  });

  it('before sending it: the resend settles it now, once, and answers the kept answer', async () => {
    const store = new MemoryStore();
    const token = new FakeToken();
    const p = payment();
    await diedAfterKeeping(store, token, p, false);
    const b = instance(store, token);
    const runs = { count: 0 };
    const [one, two] = await Promise.allSettled([b.pay(p, echo(runs)), b.pay(p, echo(runs))]);
    const answered = [one, two].filter((r) => r.status === 'fulfilled');
    expect(answered.length).toBeGreaterThan(0);
    // Two resends at once: one decides, the other is told to come back (or gets the same answer).
    for (const r of [one, two]) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'payment_in_progress' });
    expect(runs.count).toBe(0);
    expect(token.settlements).toEqual([nonceOf(p)]);
    await b.outbox.drained(1_000);
    const again = await b.pay(p, echo(runs));
    expect(again.receipt.settlement).toMatchObject({ success: true });
    expect(token.settlements).toHaveLength(1);
  });

  it('before sending it, with the authorization expired since: refused, nothing charged, the answer not given', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const store = new MemoryStore();
    const token = new FakeToken();
    const p = payment({ validBefore: Math.floor(Date.now() / 1000) + 30 });
    await diedAfterKeeping(store, token, p, false);
    vi.setSystemTime(Date.now() + 60_000);
    const b = instance(store, token);
    const refusal = await refusalOf(b.pay(p));
    expect(refusal).toMatchObject({ code: 'payment_invalid', reason: 'authorization_expired' });
    expect(token.settlements).toHaveLength(0);
  });

  it('before keeping an answer: its reservation is released, and the same payment pays on another instance', async () => {
    const { store, token, a } = oneInstance();
    const p = payment();
    await a.paywall.authorize(p, PRICE, resource, { skill: 'echo', input: { limit: 1 } });
    const b = instance(store, token);
    const runs = { count: 0 };
    const paid = await b.pay(p, echo(runs));
    expect(paid.receipt.settlement.success).toBe(true);
    expect(runs.count).toBe(1);
    expect(token.settlements).toHaveLength(1);
  });

  it("is taken over without a resend: an unanswered reservation released, a kept answer handed to the ledger with what it takes to settle it", async () => {
    const { store, token, a } = oneInstance();
    const unanswered = payment();
    const answered = payment();
    await a.paywall.authorize(unanswered, PRICE, resource, { n: 1 });
    const kept = await a.paywall.authorize(answered, PRICE, resource, { n: 2 });
    await a.paywall.keep(kept, { ok: true });
    const b = instance(store, token);
    await b.me.start();
    try {
      expect(await b.paywall.takeOver()).toEqual({ released: 1, handedOver: 1 });
      expect(await b.ledger.pending()).toEqual([expect.objectContaining({ status: 'pending', nonce: nonceOf(answered), payload: answered })]);
      // The unanswered one pays again, for any request; the kept one stays its request's.
      const paid = await b.pay(unanswered);
      expect(paid.receipt.settlement.success).toBe(true);
      expect(await b.paywall.takeOver()).toEqual({ released: 0, handedOver: 0 });
    } finally {
      await b.me.stop();
    }
  });

  it('is taken over with its settlement recorded settled, with its transaction, when that transaction landed as it died', async () => {
    const store = new MemoryStore();
    const token = new FakeToken();
    const p = payment();
    await diedAfterKeeping(store, token, p, true);
    const b = instance(store, token);
    expect(await b.paywall.takeOver()).toEqual({ released: 0, handedOver: 1 });
    expect(await b.ledger.get(PAYER, nonceOf(p))).toMatchObject({ status: 'settled', transaction: token.used.get(nonceOf(p).toLowerCase()) });
    expect(await b.ledger.pending()).toEqual([]);
    // The payer who comes back gets the answer with that receipt; nothing is sent.
    const { receipt } = await b.pay(p);
    expect(receipt.settlement).toMatchObject({ success: true, transaction: token.used.get(nonceOf(p).toLowerCase()) });
    expect(token.settlements).toHaveLength(0);
  });

  it('a credit top-up whose instance died after sending its settlement is credited by the takeover, without a resend, once', async () => {
    const { store, token, a } = oneInstance();
    const credits = new CreditLedger(store);
    const p = payment();
    // A verifies (the credit is named), keeps the answer and sends the settlement; it dies before the receipt.
    token.next = (nonce) => {
      token.used.set(nonce.toLowerCase(), bytesToHex(randomBytes(32)));
      return new Promise<never>(() => {});
    };
    void a.pay(p, topUpOperation(credits, a.outbox, 'acct-1', PRICE));
    await vi.waitFor(() => expect(token.used.size).toBe(1));
    token.next = undefined;
    // B takes it over: the settlement is recorded settled and the credit it owes is written.
    const b = instance(store, token);
    b.paywall.onSettled((record) => credits.settle(record.payer, record.nonce, record.transaction));
    expect(await b.paywall.takeOver()).toEqual({ released: 0, handedOver: 1 });
    expect(await credits.balance('acct-1')).toBe(PRICE);
    // The payer who comes back gets its answer; the credit is not written twice.
    const { receipt } = await b.pay(p, topUpOperation(credits, b.outbox, 'acct-1', PRICE));
    expect(receipt.settlement).toMatchObject({ success: true });
    await b.outbox.drained(1_000);
    expect(await credits.balance('acct-1')).toBe(PRICE);
  });

  it('is recorded with its transaction when the chain has moved on thousands of blocks since, and searched no further back than the authorization was valid', async () => {
    const store = new MemoryStore();
    const token = new FakeToken();
    const p = payment();
    await diedAfterKeeping(store, token, p, true);
    token.head = 12_000n; // the transaction is 11,000 blocks back: 11 s on this chain
    token.landedAt.set(nonceOf(p).toLowerCase(), 1_000n);
    const b = instance(store, token);
    expect(await b.paywall.takeOver()).toEqual({ released: 0, handedOver: 1 });
    expect(await b.ledger.get(PAYER, nonceOf(p))).toMatchObject({ status: 'settled', transaction: token.used.get(nonceOf(p).toLowerCase()) });
    expect(token.logQueries.length).toBe(3);
    // One no block since its validAfter (60 s, 60,000 blocks back) holds: the search stops there, not at genesis.
    const q = payment();
    await diedAfterKeeping(store, token, q, true);
    token.head = 100_000n;
    token.landedAt.set(nonceOf(q).toLowerCase(), 1n);
    token.logQueries.length = 0;
    await b.paywall.takeOver();
    expect(await b.ledger.get(PAYER, nonceOf(q))).toMatchObject({ status: 'settled', transaction: '' });
    expect(token.logQueries.length).toBeGreaterThanOrEqual(11);
    expect(token.logQueries.length).toBeLessThanOrEqual(13);
  });

  it('is not taken over while its heartbeat lives', async () => {
    const { store, token, a } = oneInstance();
    await a.me.start();
    try {
      await a.paywall.authorize(payment(), PRICE, resource, {});
      const b = instance(store, token);
      expect(await b.paywall.takeOver()).toEqual({ released: 0, handedOver: 0 });
    } finally {
      await a.me.stop();
    }
  });
});

describe('a store outage', () => {
  /** Once the store is back (and the outbox drained), the refused payment pays, settled once. */
  async function paysOnceBack(a: ReturnType<typeof instance>, token: FakeToken, p: PaymentPayload) {
    await a.outbox.drained(1_000);
    const paid = await a.pay(p);
    expect(paid.receipt.settlement.success).toBe(true);
    expect(token.settlements).toHaveLength(1);
  }

  /** The store, failing every write to keys matching `failing` while it is set. */
  function flakyStore() {
    const store = new MemoryStore();
    const state = { failing: undefined as RegExp | undefined };
    const fail = (key: string) => {
      if (state.failing?.test(key)) throw new StoreTimeoutError(`store: no answer to set within 5000 ms`);
    };
    const flaky = new Proxy(store, {
      get(target, property) {
        const value = Reflect.get(target, property) as unknown;
        if (typeof value !== 'function') return value;
        return async (key: string, ...rest: unknown[]) => {
          fail(key);
          return (value as (...a: unknown[]) => unknown).call(target, key, ...rest);
        };
      },
    });
    return { store: flaky as Store, state };
  }

  it('while keeping the answer: 503 upstream_unavailable with Retry-After, nothing settled, and the payment pays once the store is back', async () => {
    const { store, state } = flakyStore();
    const { token, a } = oneInstance(store);
    const p = payment();
    state.failing = /^x402:answer:/;
    const refusal = await refusalOf(a.pay(p));
    expect(refusal).toBeInstanceOf(SibylError);
    expect(refusal).toMatchObject({ code: 'upstream_unavailable', status: 503, extra: { retryAfterSeconds: expect.any(Number) } });
    expect(token.settlements).toHaveLength(0);
    state.failing = undefined;
    await paysOnceBack(a, token, p);
  });

  it('while verifying (the chain and then the store unreachable): 503, and the reservation is released once the store is back, so the resend pays', async () => {
    const { store, state } = flakyStore();
    const { token, a } = oneInstance(store);
    const facilitator = token.facilitator as { verify: Facilitator['verify'] };
    const verify = facilitator.verify;
    // The store goes down while the chain does not answer the verification: the release cannot land then.
    facilitator.verify = async () => {
      state.failing = /^x402:(auth|answer):|^x402:held$/;
      throw new Error('verification read timed out');
    };
    const p = payment();
    expect(await refusalOf(a.pay(p))).toMatchObject({ code: 'upstream_unavailable', status: 503 });
    state.failing = undefined;
    facilitator.verify = verify;
    // Left reserved, every resend would be told payment_in_progress until the reservation expired.
    await paysOnceBack(a, token, p);
  });

  it('a reservation the store took but whose reply was lost is released (its own value only), so the resend pays', async () => {
    const store = new MemoryStore();
    let loseReply = true;
    const lossy = new Proxy(store, {
      get(target, property) {
        const value = Reflect.get(target, property) as unknown;
        if (property !== 'reserve' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: unknown[]) => {
          const done = await (value as (...a: unknown[]) => Promise<boolean>).apply(target, args);
          if (loseReply && String(args[0]).startsWith('x402:auth:')) {
            loseReply = false;
            throw new StoreTimeoutError('store: no answer to reserve within 5000 ms');
          }
          return done;
        };
      },
    }) as Store;
    const { token, a } = oneInstance(lossy);
    const p = payment();
    expect(await refusalOf(a.pay(p))).toBeInstanceOf(StoreTimeoutError);
    await paysOnceBack(a, token, p);
  });

  it('during the settlement (no settler nonce): 503 upstream_unavailable with Retry-After, never settlement_failed, and the payment pays later', async () => {
    const { store, token, a } = oneInstance();
    const p = payment();
    token.next = () => ({ success: false, errorReason: STORE_UNAVAILABLE, errorMessage: 'store: no answer to takeNext within 5000 ms', transaction: '', network: X402_NETWORK, payer: PAYER });
    const refusal = await refusalOf(a.pay(p));
    expect(refusal).toMatchObject({ code: 'upstream_unavailable', status: 503, extra: { retryAfterSeconds: expect.any(Number) } });
    token.next = undefined;
    await paysOnceBack(a, token, p);
  });

  it('longer than a heartbeat lives is not a death: no instance is taken for dead until this one has beaten for a heartbeat\'s life since', async () => {
    const { store, state } = flakyStore();
    // a beats seldom, b often: after the outage b beats again long before a does.
    const a = new Instance(store, { beatMs: 1_000, ttlMs: 1_500 });
    const b = new Instance(store, { beatMs: 20, ttlMs: 1_500 });
    await a.start();
    await b.start();
    try {
      expect(await b.alive(a.id)).toBe(true);
      state.failing = /^x402:instance:/;
      await new Promise((r) => setTimeout(r, 1_600)); // every heartbeat lapses, a's too
      state.failing = undefined;
      await new Promise((r) => setTimeout(r, 50));
      expect(await b.alive(a.id)).toBe(true); // a has had no chance to beat yet: not dead
      await a.stop(); // now a is gone for good
      await new Promise((r) => setTimeout(r, 1_600));
      expect(await b.alive(a.id)).toBe(false);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('an instance that only lost the store releases late, after another took its kept answer over: the answer stays the payer\'s', async () => {
    const store = new MemoryStore();
    const token = new FakeToken();
    const a = instance(store, token);
    const p = payment();
    const authorization = await a.paywall.authorize(p, PRICE, resource, { skill: 'echo', input: { limit: 1 } });
    await a.paywall.keep(authorization, { echoed: { limit: 1 }, run: 1 });
    // a looks dead (no heartbeat): b hands its kept answer to the ledger, which settles it.
    const b = instance(store, token);
    expect(await b.paywall.takeOver()).toEqual({ released: 0, handedOver: 1 });
    expect(await b.ledger.get(PAYER, nonceOf(p))).toMatchObject({ status: 'pending' });
    // a, back, gives up the payment it could not settle (the store had refused its settler a nonce).
    await a.paywall.release(authorization);
    // The payer resends: its kept answer (the settlement pending), never nonce_already_used ...
    const runs = { count: 0 };
    const first = await b.pay(p, echo(runs));
    expect(first.answer).toEqual({ echoed: { limit: 1 }, run: 1 });
    expect(first.receipt).toMatchObject({ pending: true });
    // ... and once the ledger settled it (the authorization used on chain), with its transaction.
    const transaction = bytesToHex(randomBytes(32));
    token.used.set(nonceOf(p).toLowerCase(), transaction);
    await b.ledger.record({ ...(await b.ledger.get(PAYER, nonceOf(p)))!, status: 'settled', transaction, decidedAt: new Date().toISOString() });
    const again = await b.pay(p, echo(runs));
    expect(again.answer).toEqual(first.answer);
    expect(again.receipt.settlement).toMatchObject({ success: true, transaction });
    expect(runs.count).toBe(0);
  });

  it('a transfer refused because another submission of the same authorization landed is settled, not refused', async () => {
    const { store, token, a } = oneInstance();
    const p = payment();
    const tx = bytesToHex(randomBytes(32));
    token.next = (nonce) => {
      token.used.set(nonce.toLowerCase(), tx);
      return { success: false, errorReason: 'transaction_failed', transaction: '0xfeed', network: X402_NETWORK, payer: PAYER };
    };
    const paid = await a.pay(p);
    expect(paid.receipt.settlement).toMatchObject({ success: true, transaction: tx });
  });
});
