/**
 * x402's exact scheme as a payment method of the core: a decoded payload is verified and its
 * authorization reserved by the paywall, released through the outbox when the work fails (a store
 * that is down delays the release, never the error answer), its answer kept with the
 * authorization, then settled on chain. A resend of the same payment for the same request gets
 * the kept answer and its receipt (payments/paywall.ts).
 */
import type { PaymentPayload } from '@x402/core/types';
import type { PaymentMethod, PaymentsCore } from './core.js';
import type { Paywall, Receipt } from './paywall.js';

export function x402Method(paywall: Paywall): PaymentMethod<PaymentPayload, Receipt> {
  return {
    name: 'x402',
    async verify(payload, operation, resource) {
      const authorization = await paywall.authorize(payload, operation.amount, resource, operation.request);
      const release = async () => void (await paywall.outbox.submit('reservation-release', { key: authorization.reservationKey }, () => paywall.release(authorization)));
      if (authorization.resent) {
        const { answer } = authorization.resent;
        return {
          payer: authorization.payer,
          // Nothing was taken by this presentation: the payment is the kept answer's.
          release: async () => {},
          settle: async () => (await paywall.answerAgain(authorization)).receipt,
          resent: { answer, receipt: () => paywall.answerAgain(authorization) },
        };
      }
      return {
        payer: authorization.payer,
        authorization: { payer: authorization.payer, nonce: authorization.nonce },
        release,
        keep: (answer) => paywall.keep(authorization, answer),
        settle: () => paywall.settle(authorization),
      };
    },
  };
}

/** The core as the server builds it: x402 as its default method. */
export type X402Payments = PaymentsCore<PaymentPayload, Receipt>;
