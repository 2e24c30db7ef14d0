/**
 * A credit top-up sold through the payments core: an x402 payment for `amount` whose work is
 * nothing, and whose after-settle hook credits the account. The payment is made (or may be,
 * when pending) by then, so the credit is written through the outbox, which keeps and retries it
 * while the store is down: the answer never becomes an error. A pending settlement is credited by
 * reconciliation (CreditLedger.settle), never before. The credit is named in the store before the
 * settlement is sent, so a settlement recorded by another instance (its own died) credits it too.
 */
import type { z } from 'zod';
import type { topUpAnswer, topUpPendingAnswer } from './accounts.js';
import { formatAtomic, type CreditLedger } from './credits.js';
import type { PaidOperation } from './operation.js';
import type { Outbox } from './outbox.js';

export function topUpOperation(credits: CreditLedger, outbox: Outbox, account: string, amount: bigint): PaidOperation {
  let written = false;
  let balance: bigint | undefined;
  return {
    skill: 'credits-topup',
    amount,
    description: `Sibyl tool-server credits for ${account}`,
    request: { topUp: account, amount: amount.toString() },
    run: async () => ({}),
    status: (receipt) => (receipt.pending ? 202 : 200),
    hooks: {
      // Named before the settlement is sent: an instance that dies after sending it leaves the
      // credit to whichever instance records the settlement settled (the ledger's listeners).
      async onAfterVerify({ authorization }) {
        if (authorization) await credits.awaitSettlement(authorization.payer, authorization.nonce, account, amount);
      },
      async onAfterSettle({ receipt }) {
        const detail = { account, payer: receipt.payer, nonce: receipt.nonce, amount: amount.toString(), transaction: receipt.settlement.transaction };
        written = receipt.pending
          ? await outbox.submit('credit-await-settlement', detail, () => credits.awaitSettlement(receipt.payer, receipt.nonce, account, amount))
          : await outbox.submit('credit-topup', detail, async () => {
              balance = await credits.topUp(account, amount, `x402:${receipt.settlement.transaction}`, receipt);
            });
      },
    },
    async respond(_answer, receipt) {
      // The balance is shown when the store answers at once; the answer never waits on it.
      if ((written && receipt.pending) || receipt.resent) balance = await Promise.race([credits.balance(account), new Promise<undefined>((r) => setTimeout(() => r(undefined), 500).unref())]).catch(() => undefined);
      const credited = receipt.pending ? { status: 'settlement_pending' as const, pendingTopUp: amount.toString() } : { toppedUp: amount.toString() };
      // Not written yet: the credit is queued in this instance and lands when the store is back.
      const shown = balance === undefined ? { balance: null, balanceUsd: null, creditQueued: true as const } : { balance: balance.toString(), balanceUsd: formatAtomic(balance) };
      return { account, ...credited, ...shown, payment: receipt.settlement } satisfies z.input<typeof topUpAnswer> | z.input<typeof topUpPendingAnswer>;
    },
  };
}
