/**
 * Prepaid credits as a payment method of the core (the paid MCP tools): verification debits the
 * price atomically (refused with insufficient_credit, holding nothing), a failed call refunds it
 * once under a reference naming why, through the outbox when there is one (owed to the caller
 * whatever the store does), and settlement has nothing left to move.
 */
import { toSibylError } from '../skills/core/error-mapping.js';
import type { PaymentMethod } from './core.js';
import type { CreditLedger } from './credits.js';
import type { Outbox } from './outbox.js';

export interface CreditDebit extends PaymentMethod<string, { balance: bigint }> {
  /** Whether the debit was taken (a refusal before it moved nothing). */
  readonly taken: boolean;
  /** After a refund: the balance it left, or undefined while it waits in the outbox. */
  readonly balanceAfterRefund: bigint | undefined;
}

/** One call's debit of `price` under `ref`, charged to the account given as the proof. */
export function creditDebit(credits: CreditLedger, price: bigint, ref: string, outbox?: Outbox): CreditDebit {
  let taken = false;
  let after: bigint | undefined;
  return {
    name: 'credits',
    get taken() {
      return taken;
    },
    get balanceAfterRefund() {
      return after;
    },
    async verify(account) {
      const balance = await credits.debit(account, price, ref);
      taken = true;
      return {
        payer: account,
        async release(error) {
          const code = toSibylError(error).code;
          const reason = `${ref}:${code === 'no_answer' ? 'nothing_produced' : code}`;
          const give = async () => {
            after = await credits.refund(account, price, reason);
          };
          if (outbox) await outbox.submit('credit-refund', { account, amount: price.toString(), ref: reason }, give);
          else await give();
        },
        settle: async () => ({ balance }),
      };
    },
  };
}
