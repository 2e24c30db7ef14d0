/**
 * Prepaid credit balances of the tool server's paid tools, in atomic USDC, kept in the store so
 * every instance debits the same balance. A debit is one check-and-take (`Store.takeIfEnough`, a
 * Lua script on Redis) that writes its ledger movement in the same step: the balance never dips
 * below zero, not even for an instant, and a refused debit holds nothing, so it never blocks an
 * affordable one. A credit (top-up, refund) is one add-once step (`Store.addOnce`) keyed by what
 * pays for it, so sending it again after a lost answer, or a late run of a queued command, never
 * credits twice. Every movement is written to the account's ledger in the same step as its change.
 */
import { SibylError } from '../skills/core/errors.js';
import type { Store } from '../store/store.js';

export interface CreditMovement {
  readonly at: string;
  readonly kind: 'topup' | 'debit' | 'refund';
  /** Atomic USDC, positive for money in. */
  readonly amount: string;
  readonly balanceAfter: string;
  readonly ref: string;
}

const balanceKey = (account: string) => `credits:balance:${account.toLowerCase()}`;
const ledgerKey = (account: string) => `credits:ledger:${account.toLowerCase()}`;
const seqKey = (account: string) => `${ledgerKey(account)}:seq`;
const pendingKey = (payer: string, nonce: string) => `credits:pending:${payer.toLowerCase()}:${nonce.toLowerCase()}`;
/** How long a top-up waits for its settlement to be decided (authorizations expire well before). */
const PENDING_TTL_MS = 7 * 86_400_000;
/** How long a credit remembers it was applied: longer than anything that could send it again. */
const APPLIED_TTL_MS = 30 * 86_400_000;
const appliedKey = (id: string) => `credits:applied:${id.toLowerCase()}`;

export class CreditLedger {
  constructor(private readonly store: Store) {}

  async balance(account: string): Promise<bigint> {
    return BigInt((await this.store.get(balanceKey(account))) ?? '0');
  }

  /** Credits a paid top-up once per authorization (`payer`, `nonce`), however often it is sent. */
  async topUp(account: string, amount: bigint, ref: string, authorization: { payer: string; nonce: string }): Promise<bigint> {
    return this.credit(account, 'topup', amount, ref, `topup:${authorization.payer}:${authorization.nonce}`);
  }

  /** Takes `amount` or throws `insufficient_credit`; concurrent debits never take more than there is. */
  async debit(account: string, amount: bigint, ref: string): Promise<bigint> {
    const { taken, value } = await this.store.takeIfEnough(balanceKey(account), Number(amount), journal(account, 'debit', -amount, ref));
    if (!taken) throw new SibylError('insufficient_credit', `the call costs ${formatAtomic(amount)} and the balance is ${formatAtomic(BigInt(value))}; top up with POST /api/credits/topup`);
    return BigInt(value);
  }

  /** Gives back a debit once per `ref` (the debit's own reference and why). */
  async refund(account: string, amount: bigint, ref: string): Promise<bigint> {
    return this.credit(account, 'refund', amount, ref, `refund:${ref}`);
  }

  private async credit(account: string, kind: 'topup' | 'refund', amount: bigint, ref: string, once: string): Promise<bigint> {
    const { value } = await this.store.addOnce(balanceKey(account), Number(amount), appliedKey(once), APPLIED_TTL_MS, journal(account, kind, amount, ref));
    return BigInt(value);
  }

  /** A top-up paid by an authorization whose settlement is still pending: credited by `settle`. */
  async awaitSettlement(payer: string, nonce: string, account: string, amount: bigint): Promise<void> {
    await this.store.set(pendingKey(payer, nonce), JSON.stringify({ account, amount: amount.toString() }), PENDING_TTL_MS);
  }

  /** Credits the top-up waiting on this settled authorization, once (a repeat or a retry adds nothing). */
  async settle(payer: string, nonce: string, transaction: string): Promise<void> {
    const raw = await this.store.get(pendingKey(payer, nonce));
    if (!raw) return;
    const { account, amount } = JSON.parse(raw) as { account: string; amount: string };
    await this.topUp(account, BigInt(amount), `x402:${transaction}`, { payer, nonce });
    await this.store.delete(pendingKey(payer, nonce));
  }

  /** The newest movements first. */
  async movements(account: string, limit = 50): Promise<CreditMovement[]> {
    const rows = await this.store.sortedRange(ledgerKey(account), -Infinity, Infinity);
    return rows.slice(-limit).reverse().map((r) => JSON.parse(r.member) as CreditMovement);
  }

}

/**
 * A movement for the step that changes the balance to write: `{value}` and `{seq}` are filled in
 * by that step (braces in the ref are escaped so only the two placeholders can match).
 */
function journal(account: string, kind: CreditMovement['kind'], amount: bigint, ref: string) {
  const refJson = JSON.stringify(ref).replace(/\{/g, '\\u007b');
  const entry = `{"at":"${new Date().toISOString()}","kind":"${kind}","amount":"${amount}","balanceAfter":"{value}","ref":${refJson},"seq":{seq}}`;
  return { key: ledgerKey(account), seqKey: seqKey(account), entry };
}

export function formatAtomic(amount: bigint): string {
  const sign = amount < 0n ? '-' : '';
  const abs = amount < 0n ? -amount : amount;
  return `${sign}$${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0').replace(/0{1,4}$/, '')}`;
}
