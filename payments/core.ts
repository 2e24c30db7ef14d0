/**
 * The payments core: the one charge flow every surface uses (docs/architecture.md), independent
 * of how the payment travels (an HTTP header, an A2A message, service-token headers):
 *
 *   onBeforeVerify → verify (reserve) → onAfterVerify → aroundWork(work) → produced? → keep → settle → onAfterSettle
 *
 * A method may keep the answer before it settles (x402: stored with its authorization, so the
 * payer who sends the same payment again after a lost answer gets it, and is never charged twice);
 * a store that cannot keep it refuses the call (503 with Retry-After) and nothing is settled. A
 * payment sent again for an answer already kept skips the work: the kept answer is answered with
 * its receipt (its settlement decided then if its instance stopped before deciding it).
 *
 * Failed work (or a refusal from an after-verify hook: the rate limit) releases what verify took
 * and settles nothing (onVerifiedPaymentCanceled). So does work that produced nothing: the one
 * rule for settling (skills/core/produced.ts) is applied here, for every surface and payment
 * method, and the answer is refused as `no_answer` carrying it (what the payer sees, not
 * charged). A refused verification runs onVerifyFailure, a
 * failed settlement onSettleFailure. Hook names follow `@x402/core`'s x402ResourceServer. Rate
 * limits, response-time targets and credit top-ups plug in as hooks; the x402 exact scheme and
 * the forecast quota are payment methods.
 */
import { toSibylError } from '../skills/core/error-mapping.js';
import { SibylError } from '../skills/core/errors.js';
import { STORE_RETRY_AFTER_SECONDS } from '../store/outage.js';
import { nothingProduced, produced } from '../skills/core/produced.js';
import type { PaidOperation } from './operation.js';
import { PaymentRefused } from './paywall.js';
import type { Resource } from './terms.js';

type Answer = Record<string, unknown>;

/** A verified payment holding what it reserved, until it is settled or released. */
export interface Payment<R> {
  /** Who pays: the signer of the authorization, the wallet of a quota. Rate limits count per payer. */
  readonly payer: string;
  /** The signed authorization it settles (x402): what a settlement record is keyed by. */
  readonly authorization?: { readonly payer: string; readonly nonce: string };
  /** Gives back what verification took (replay reservation, quota unit, debit): the call produced nothing, for `error`. */
  release(error: unknown): Promise<void>;
  /** Collects the payment for a successful answer; throws when it cannot (nothing moved then). */
  settle(): Promise<R>;
  /** Keeps the answer before it is settled; throws when it cannot (then nothing is settled). */
  keep?(answer: Answer): Promise<void>;
  /** The same payment sent again for the same request, whose answer was kept: no work is run. */
  readonly resent?: ResentPayment<R>;
}

/** A kept answer and how to get its receipt (decided now when its settlement was not decided yet). */
export interface ResentPayment<R> {
  readonly answer: Answer;
  receipt(): Promise<{ receipt: R; decidedNow: boolean }>;
}

/** A way to pay: verifies a proof of payment for one operation, throwing its refusal. */
export interface PaymentMethod<P, R> {
  readonly name: string;
  verify(proof: P, operation: PaidOperation, resource: Resource): Promise<Payment<R>>;
}

export interface VerifyContext {
  readonly operation: PaidOperation;
  readonly resource: Resource;
  readonly method: string;
}
export interface VerifyResultContext extends VerifyContext {
  readonly payer: string;
  /** The signed authorization being paid with (x402), for work whose effect waits on its settlement. */
  readonly authorization?: { readonly payer: string; readonly nonce: string };
}
export interface VerifyFailureContext extends VerifyContext {
  readonly error: unknown;
}
export interface SettleResultContext<R> extends VerifyResultContext {
  readonly answer: Answer;
  readonly receipt: R;
}
export interface SettleFailureContext extends VerifyResultContext {
  readonly error: unknown;
}
export interface VerifiedPaymentCanceledContext extends VerifyResultContext {
  /**
   * `nothing_produced`: the work answered, but nothing to sell (`no_answer`, from the core's rule or
   * the report agent's use of it); `answer_not_kept`: the method could not keep the answer (the store is out).
   */
  readonly reason: 'handler_threw' | 'after_verify_aborted' | 'nothing_produced' | 'answer_not_kept';
  readonly error: unknown;
}

export interface PaymentHooks<R = unknown> {
  /** Before anything is verified or reserved; `{ abort }` refuses the payment (402). */
  onBeforeVerify?(ctx: VerifyContext): Promise<void | { abort: true; reason: string; message?: string }>;
  /** After the payment is verified and reserved; a throw refuses the call and releases the payment. */
  onAfterVerify?(ctx: VerifyResultContext): Promise<void>;
  onVerifyFailure?(ctx: VerifyFailureContext): Promise<void>;
  /** Wraps the work (the response-time target); hooks nest in the order they were added. */
  aroundWork?(ctx: VerifyResultContext, work: (signal?: AbortSignal) => Promise<Answer>): Promise<Answer>;
  /** After the payment settled (or is pending): what the payment owes is written here. */
  onAfterSettle?(ctx: SettleResultContext<R>): Promise<void>;
  onSettleFailure?(ctx: SettleFailureContext): Promise<void>;
  /** The payment was verified but the call produced nothing: it was released, nothing moved. */
  onVerifiedPaymentCanceled?(ctx: VerifiedPaymentCanceledContext): Promise<void>;
}

type HookLists = { [K in keyof PaymentHooks]-?: NonNullable<PaymentHooks[K]>[] };

export class PaymentsCore<X = unknown, XR = unknown> {
  private readonly hooks: HookLists = {
    onBeforeVerify: [], onAfterVerify: [], onVerifyFailure: [], aroundWork: [], onAfterSettle: [], onSettleFailure: [], onVerifiedPaymentCanceled: [],
  };

  /** @param x402 the default method: x402's exact scheme (payments/x402-method.ts). */
  constructor(readonly x402: PaymentMethod<X, XR>) {}

  /** Adds a set of hooks (limits, credits...); each runs after those added before it. */
  use(hooks: PaymentHooks): this {
    for (const key of Object.keys(this.hooks) as (keyof HookLists)[]) {
      const hook = hooks[key];
      if (hook) (this.hooks[key] as unknown[]).push(hook.bind(hooks));
    }
    return this;
  }

  onBeforeVerify(hook: NonNullable<PaymentHooks['onBeforeVerify']>): this {
    return this.use({ onBeforeVerify: hook });
  }

  onAfterVerify(hook: NonNullable<PaymentHooks['onAfterVerify']>): this {
    return this.use({ onAfterVerify: hook });
  }

  onVerifyFailure(hook: NonNullable<PaymentHooks['onVerifyFailure']>): this {
    return this.use({ onVerifyFailure: hook });
  }

  onAfterSettle(hook: NonNullable<PaymentHooks['onAfterSettle']>): this {
    return this.use({ onAfterSettle: hook });
  }

  onSettleFailure(hook: NonNullable<PaymentHooks['onSettleFailure']>): this {
    return this.use({ onSettleFailure: hook });
  }

  onVerifiedPaymentCanceled(hook: NonNullable<PaymentHooks['onVerifiedPaymentCanceled']>): this {
    return this.use({ onVerifiedPaymentCanceled: hook });
  }

  /**
   * Charges `operation` with `proof` under `method`: verified, the work run, settled only when it
   * succeeded and produced something. Throws the refusal (PaymentRefused, a method's own) or the
   * work's error as a SibylError: `no_answer`, with the answer, when it produced nothing.
   */
  async charge<P, R>(operation: PaidOperation, method: PaymentMethod<P, R>, proof: P, resource: Resource): Promise<{ answer: Answer; receipt: R }> {
    const base: VerifyContext = { operation, resource, method: method.name };
    for (const hook of this.hooks.onBeforeVerify) {
      const verdict = await hook(base);
      if (verdict?.abort) throw new PaymentRefused('payment_invalid', verdict.reason, verdict.message ?? `payment refused: ${verdict.reason}`);
    }
    let payment: Payment<R>;
    try {
      payment = await method.verify(proof, operation, resource);
    } catch (error) {
      await this.each('onVerifyFailure', { ...base, error });
      throw error;
    }
    const verified: VerifyResultContext = { ...base, payer: payment.payer, ...(payment.authorization && { authorization: payment.authorization }) };
    if (payment.resent) return this.answerAgain(operation, verified, payment.resent);
    let answer: Answer;
    let stage: 'after_verify_aborted' | 'handler_threw' = 'after_verify_aborted';
    try {
      for (const hook of this.hooks.onAfterVerify) await hook(verified);
      await (operation.hooks as PaymentHooks | undefined)?.onAfterVerify?.(verified);
      stage = 'handler_threw';
      const work = this.hooks.aroundWork.reduceRight<(signal?: AbortSignal) => Promise<Answer>>(
        (inner, around) => () => around(verified, inner),
        (signal) => operation.run(signal),
      );
      answer = await work();
      // An answer of nothing (`available: false`, no product rows) is answered, never sold.
      if (!produced(answer, operation.product)) throw nothingProduced(answer, operation.product);
    } catch (error) {
      const refusal = toSibylError(error);
      // The payment was not used: given back before the error is answered.
      await payment.release(refusal);
      await this.each('onVerifiedPaymentCanceled', { ...verified, reason: refusal.code === 'no_answer' ? 'nothing_produced' : stage, error: refusal });
      throw refusal;
    }
    if (payment.keep) {
      try {
        await payment.keep(answer);
      } catch (error) {
        // Not kept, so not sold: a payer whose answer is then lost could not get it back.
        const refusal = error instanceof PaymentRefused || error instanceof SibylError ? error : notKept(error);
        await payment.release(refusal);
        await this.each('onVerifiedPaymentCanceled', { ...verified, reason: 'answer_not_kept', error: refusal });
        throw refusal;
      }
    }
    let receipt: R;
    try {
      receipt = await payment.settle();
    } catch (error) {
      await this.each('onSettleFailure', { ...verified, error });
      throw error;
    }
    await this.afterSettle(operation, { ...verified, answer, receipt });
    return { answer, receipt };
  }

  /** A resend of a payment whose answer was kept: that answer, with its receipt; no work, no second charge. */
  private async answerAgain<R>(operation: PaidOperation, verified: VerifyResultContext, resent: ResentPayment<R>): Promise<{ answer: Answer; receipt: R }> {
    let decided: { receipt: R; decidedNow: boolean };
    try {
      decided = await resent.receipt();
    } catch (error) {
      await this.each('onSettleFailure', { ...verified, error });
      throw error;
    }
    // Settled by this resend (its instance stopped first): what the settlement owes is written now.
    if (decided.decidedNow) await this.afterSettle(operation, { ...verified, answer: resent.answer, receipt: decided.receipt });
    return { answer: resent.answer, receipt: decided.receipt };
  }

  private async afterSettle<R>(operation: PaidOperation, settled: SettleResultContext<R>): Promise<void> {
    await this.each('onAfterSettle', settled);
    await (operation.hooks as PaymentHooks<R> | undefined)?.onAfterSettle?.(settled);
  }

  /** Runs observers; one that throws is not allowed to change the outcome it observes. */
  private async each<K extends 'onVerifyFailure' | 'onSettleFailure' | 'onVerifiedPaymentCanceled' | 'onAfterSettle'>(key: K, ctx: Parameters<NonNullable<PaymentHooks[K]>>[0]): Promise<void> {
    for (const hook of this.hooks[key] as ((c: typeof ctx) => Promise<void>)[]) await hook(ctx).catch(() => undefined);
  }
}

/** An answer the store could not keep: nothing is settled, and the same payment pays once the store is back. */
function notKept(error: unknown): SibylError {
  const mapped = toSibylError(error);
  if (mapped.code !== 'internal_error') return mapped;
  return Object.assign(new SibylError('upstream_unavailable', 'the answer could not be kept in the shared store; nothing was charged', { retryAfterSeconds: STORE_RETRY_AFTER_SECONDS }), { cause: error });
}
