/**
 * The forecast API's service-token quota as a payment method of the core: the access headers
 * (X-Wallet, X-Signature over the body, X-Timestamp) are the proof, one unit of the wallet's daily
 * quota is what verification takes, and it is given back when the work fails. Nothing settles:
 * the unit is simply kept. A caller without quota is refused with QuotaRequired (answered 402).
 */
import type { Admission, ForecastAccess } from '../skills/forecast/access.js';
import type { PaymentMethod } from './core.js';

export interface QuotaProof {
  readonly wallet?: string | undefined;
  readonly signature?: string | undefined;
  readonly timestamp?: string | undefined;
  /** The request body's exact bytes, which the signature covers. */
  readonly rawBody: Uint8Array;
}

export function quotaMethod(access: ForecastAccess): PaymentMethod<QuotaProof, Admission> {
  return {
    name: 'service-token-quota',
    async verify({ rawBody, ...headers }) {
      const admission = await access.admit(headers, rawBody);
      return { payer: admission.wallet, release: () => access.refund(admission), settle: async () => admission };
    },
  };
}
