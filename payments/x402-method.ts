/**
 * x402's exact scheme as a payment method of the core: a decoded payload is verified and its
 * authorization reserved by the paywall, released through the outbox when the work fails (a store
 * that is down delays the release, never the error answer), settled on chain when it succeeded.
 */
import type { PaymentPayload } from '@x402/core/types';
import type { PaymentMethod, PaymentsCore } from './core.js';
import type { Paywall, Receipt } from './paywall.js';

export function x402Method(paywall: Paywall): PaymentMethod<PaymentPayload, Receipt> {
  return {
    name: 'x402',
    async verify(payload, operation, resource) {
      const authorization = await paywall.authorize(payload, operation.amount, resource);
      return {
        payer: authorization.payer,
        release: async () => void (await paywall.outbox.submit('reservation-release', { key: authorization.reservationKey }, () => paywall.release(authorization))),
        settle: () => paywall.settle(authorization),
      };
    },
  };
}

/** The core as the server builds it: x402 as its default method. */
export type X402Payments = PaymentsCore<PaymentPayload, Receipt>;
