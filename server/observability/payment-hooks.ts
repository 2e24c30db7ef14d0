/**
 * The payments core's hooks that record what each paid call did: in the request's facts (its log
 * line and rate-limit headers) and in the metrics. They observe only; they never refuse.
 */
import type { PaymentHooks } from '../../payments/core.js';
import { formatUsd } from '../../skills/core/money.js';
import { toSibylError } from '../../skills/core/error-mapping.js';
import type { Metrics } from './metrics.js';
import { annotate } from './request-scope.js';

interface SettledReceipt {
  readonly pending?: boolean;
  readonly settlement?: { readonly transaction?: string };
}

export function observabilityHooks(metrics: Metrics | undefined): PaymentHooks {
  const skillOf = (op: { skill?: string }) => op.skill ?? 'unknown';
  return {
    onAfterVerify: async ({ operation, payer, method }) => {
      annotate({ skill: skillOf(operation), method, payer, priceUsd: formatUsd(operation.amount) });
    },
    onVerifyFailure: async ({ method }) => {
      metrics?.paymentsRefused.inc({ method });
    },
    aroundWork: async ({ operation }, work) => {
      const started = performance.now();
      let outcome = 'error';
      try {
        const answer = await work();
        outcome = 'ok';
        return answer;
      } finally {
        metrics?.skillSeconds.observe({ skill: skillOf(operation), outcome }, (performance.now() - started) / 1000);
      }
    },
    onAfterSettle: async ({ operation, method, receipt }) => {
      const r = receipt as SettledReceipt;
      const status = r.pending ? 'pending' : 'settled';
      metrics?.paidAnswers.inc({ skill: skillOf(operation), method });
      // Only an on-chain payment has a settlement; credits and quota units are book entries.
      if (r.settlement) {
        metrics?.settlements.inc({ outcome: status });
        annotate({ settlement: r.settlement.transaction, settlementStatus: status });
      }
    },
    onSettleFailure: async () => {
      metrics?.settlements.inc({ outcome: 'failed' });
      annotate({ settlementStatus: 'failed' });
    },
    onVerifiedPaymentCanceled: async ({ method, error }) => {
      const reason = toSibylError(error).code;
      metrics?.refunds.inc({ method, reason });
      annotate({ released: reason });
    },
  };
}
