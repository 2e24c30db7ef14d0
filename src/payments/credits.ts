/**
 * Prepaid credit balances of the tool server's paid tools, in atomic USDC, kept in the store so
 * every instance debits the same balance. A debit is one check-and-take (`Store.takeIfEnough`, a
 * Lua script on Redis) that writes its ledger movement in the same step: the balance never dips
 * below zero, not even for an instant, and a refused debit holds nothing, so it never blocks an
 * affordable one. Every movement (top-up, debit, refund) is written to the account's ledger.
 */
import { SibylError } from '../errors.js';
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

export class CreditLedger {
  constructor(private readonly store: Store) {}

  async balance(account: string): Promise<bigint> {
    return BigInt((await this.store.get(balanceKey(account))) ?? '0');
  }

  async topUp(account: string, amount: bigint, ref: string): Promise<bigint> {
    const after = BigInt(await this.store.incrBy(balanceKey(account), Number(amount)));
    await this.record(account, 'topup', amount, after, ref);
    return after;
  }

  /** Takes `amount` or throws `insufficient_credit`; concurrent debits never take more than there is. */
  async debit(account: string, amount: bigint, ref: string): Promise<bigint> {
    // The movement is written by the same step as the debit, which fills in its balance and
    // sequence; braces in the ref are escaped so only the two placeholders can match.
    const refJson = JSON.stringify(ref).replace(/\{/g, '\\u007b');
    const entry = `{"at":"${new Date().toISOString()}","kind":"debit","amount":"${-amount}","balanceAfter":"{value}","ref":${refJson},"seq":{seq}}`;
    const journal = { key: ledgerKey(account), seqKey: seqKey(account), entry };
    const { taken, value } = await this.store.takeIfEnough(balanceKey(account), Number(amount), journal);
    if (!taken) throw new SibylError('insufficient_credit', `the call costs ${formatAtomic(amount)} and the balance is ${formatAtomic(BigInt(value))}; top up with POST /api/credits/topup`);
    return BigInt(value);
  }

  async refund(account: string, amount: bigint, ref: string): Promise<bigint> {
    const after = BigInt(await this.store.incrBy(balanceKey(account), Number(amount)));
    await this.record(account, 'refund', amount, after, ref);
    return after;
  }

  /** A top-up paid by an authorization whose settlement is still pending: credited by `settle`. */
  async awaitSettlement(payer: string, nonce: string, account: string, amount: bigint): Promise<void> {
    await this.store.set(pendingKey(payer, nonce), JSON.stringify({ account, amount: amount.toString() }), PENDING_TTL_MS);
  }

  /** Credits the top-up waiting on this settled authorization, once. */
  async settle(payer: string, nonce: string, transaction: string): Promise<void> {
    const raw = await this.store.get(pendingKey(payer, nonce));
    if (!raw || !(await this.store.reserve(`${pendingKey(payer, nonce)}:credited`, '1', PENDING_TTL_MS))) return;
    const { account, amount } = JSON.parse(raw) as { account: string; amount: string };
    await this.topUp(account, BigInt(amount), `x402:${transaction}`);
    await this.store.delete(pendingKey(payer, nonce));
  }

  /** The newest movements first. */
  async movements(account: string, limit = 50): Promise<CreditMovement[]> {
    const rows = await this.store.sortedRange(ledgerKey(account), -Infinity, Infinity);
    return rows.slice(-limit).reverse().map((r) => JSON.parse(r.member) as CreditMovement);
  }

  private async record(account: string, kind: CreditMovement['kind'], amount: bigint, after: bigint, ref: string): Promise<void> {
    const movement: CreditMovement = { at: new Date().toISOString(), kind, amount: amount.toString(), balanceAfter: after.toString(), ref };
    // Ordered by a per-account sequence: movements within one millisecond keep their order.
    const seq = await this.store.incrBy(seqKey(account), 1);
    await this.store.sortedAdd(ledgerKey(account), [{ member: JSON.stringify({ ...movement, seq }), score: seq }]);
  }
}

export function formatAtomic(amount: bigint): string {
  const sign = amount < 0n ? '-' : '';
  const abs = amount < 0n ? -amount : amount;
  return `${sign}$${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0').replace(/0{1,4}$/, '')}`;
}
