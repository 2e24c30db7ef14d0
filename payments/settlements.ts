/**
 * The settlement ledger: every settlement Sibyl made, and those whose outcome is not known yet
 * (pending: the chain could not be reached, or the confirmation timed out). A pending record
 * keeps the signed authorization, so any instance can decide it later, also after a restart:
 * the token's `authorizationState` says whether it was used; if not, it is submitted again
 * until it lands or its validBefore passes. Nothing indeterminate is dropped.
 */
import { parseAbi, type Address, type Hash, type Hex } from 'viem';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { ConnectedChain } from '../chain/runtime.js';
import type { Store } from '../store/store.js';

const PENDING = 'settlements:pending';
const SETTLED_TTL_MS = 30 * 24 * 3600_000;
const authorizationStateAbi = parseAbi(['function authorizationState(address, bytes32) view returns (bool)']);

export type SettlementStatus = 'settled' | 'pending' | 'failed' | 'expired';

export interface SettlementRecord {
  status: SettlementStatus;
  transaction: Hash | '';
  payer: Address;
  nonce: Hex;
  amount: string;
  validBefore: string;
  resource: string;
  recordedAt: string;
  decidedAt?: string;
  reason?: string;
  /** Pending only: the signed authorization and what it pays, for resubmission. */
  payload?: PaymentPayload;
  requirements?: PaymentRequirements;
  /** Pending only: submissions after the first, and when the last one went out. */
  resubmissions?: number;
  lastResubmittedAt?: string;
}

/** A pending settlement as an operator sees it (no signature). */
export type PendingSettlement = Omit<SettlementRecord, 'payload' | 'requirements'> & { ageSeconds: number };

export interface LedgerOptions {
  /** Submits a signed authorization again (the facilitator's settle). Without it, pending ones only wait. */
  resubmit?: (payload: PaymentPayload, requirements: PaymentRequirements) => Promise<SettleResponse>;
  /** How long one instance holds a pending settlement while deciding it (covers a resubmission's confirmation wait). */
  lockMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

type Outcome = Pick<SettlementRecord, 'status' | 'reason'> & { transaction?: Hash };

export class SettlementLedger {
  private readonly settledListeners: ((record: SettlementRecord) => Promise<void>)[] = [];

  constructor(
    private readonly store: Store,
    private readonly chain: ConnectedChain | undefined,
    private readonly asset: Address,
    private readonly options: LedgerOptions = {},
  ) {}

  /** Called for each pending settlement that reconciliation finds settled (a credit top-up waits on it). */
  onSettled(listener: (record: SettlementRecord) => Promise<void>): void {
    this.settledListeners.push(listener);
  }

  private key(payer: Address, nonce: Hex): string {
    return `${payer.toLowerCase()}:${nonce.toLowerCase()}`;
  }

  /** Idempotent, so the outbox may write it again after a failure part-way. */
  async record(record: SettlementRecord): Promise<void> {
    const id = this.key(record.payer, record.nonce);
    if (record.status === 'pending') return this.store.hashSet(PENDING, id, JSON.stringify(record));
    const { payload: _p, requirements: _r, ...final } = record;
    // A decided record never changes; counted once, when it is first written.
    if (await this.store.reserve(`settlement:${id}`, JSON.stringify(final), SETTLED_TTL_MS)) {
      if (record.status === 'settled') await this.store.incrBy('settlements:count', 1);
    }
    await this.store.hashDelete(PENDING, id);
  }

  async get(payer: Address, nonce: Hex): Promise<SettlementRecord | null> {
    const id = this.key(payer, nonce);
    const raw = (await this.store.hashGet(PENDING, id)) ?? (await this.store.get(`settlement:${id}`));
    return raw ? (JSON.parse(raw) as SettlementRecord) : null;
  }

  async pending(): Promise<SettlementRecord[]> {
    return Object.values(await this.store.hashGetAll(PENDING)).map((r) => JSON.parse(r) as SettlementRecord);
  }

  /** Pending settlements for operators, oldest first, without their signatures. */
  async pendingReport(now = Date.now()): Promise<PendingSettlement[]> {
    return (await this.pending())
      .map(({ payload: _p, requirements: _r, ...r }) => ({ ...r, ageSeconds: Math.round((now - Date.parse(r.recordedAt)) / 1000) }))
      .sort((a, b) => b.ageSeconds - a.ageSeconds);
  }

  /**
   * Decides every pending settlement it can, resubmitting those the chain has not seen; safe
   * to run on several instances at once (each settlement is held by one instance while decided).
   */
  async reconcile(now = Date.now()): Promise<{ decided: number; stillPending: number }> {
    if (!this.chain) return { decided: 0, stillPending: (await this.pending()).length };
    const outcomes = await Promise.all((await this.pending()).map((record) => this.reconcileOne(record, now)));
    return { decided: outcomes.filter((o) => o === 'decided').length, stillPending: outcomes.filter((o) => o === 'pending').length };
  }

  private async reconcileOne(record: SettlementRecord, now: number): Promise<'decided' | 'pending' | 'skipped'> {
    const lock = `settlements:reconcile:${this.key(record.payer, record.nonce)}`;
    if (!(await this.store.reserve(lock, '1', this.options.lockMs ?? 60_000))) return 'skipped';
    try {
      const outcome = await this.decide(record, now);
      if (!outcome) return 'pending';
      const decided: SettlementRecord = { ...record, ...outcome, transaction: outcome.transaction ?? record.transaction, decidedAt: new Date().toISOString() };
      // Listeners first: if one fails, the record stays pending and the next pass runs them again (they credit once).
      if (decided.status === 'settled') for (const listener of this.settledListeners) await listener(decided);
      await this.record(decided);
      return 'decided';
    } finally {
      await this.store.delete(lock).catch(() => {}); // expires on its own
    }
  }

  /** The token's own authorizationState is the truth: a batched transaction can succeed while one of its calls failed. */
  private async decide(record: SettlementRecord, now: number): Promise<Outcome | null> {
    const client = this.chain!.client;
    if (await this.used(record)) return { status: 'settled', reason: 'authorization_used_on_chain' };
    if (record.transaction) {
      const receipt = await client.getTransactionReceipt({ hash: record.transaction }).catch(() => null);
      if (receipt) return { status: 'failed', reason: receipt.status === 'success' ? 'transfer_call_failed' : 'transaction_reverted' };
      // Still waiting in the node's pool: sending it again would only race it.
      if (await client.getTransaction({ hash: record.transaction }).catch(() => null)) return null;
    }
    // The token refuses an authorization at or after validBefore, so nothing can land any more.
    if (BigInt(record.validBefore) <= BigInt(Math.floor(now / 1000))) return { status: 'expired', reason: 'authorization_expired_unused' };
    if (!record.payload || !record.requirements || !this.options.resubmit) return null;
    return this.resubmit(record);
  }

  /** Submits the unused authorization again; the chain decides, never a second submission of a used one. */
  private async resubmit(record: SettlementRecord): Promise<Outcome | null> {
    let result: SettleResponse;
    try {
      result = await this.options.resubmit!(record.payload!, record.requirements!);
    } catch (err) {
      result = { success: false, errorReason: 'settlement_pending', errorMessage: (err as Error).message, transaction: '', network: record.requirements!.network };
    }
    if (result.success) return { status: 'settled', reason: 'resubmitted', transaction: result.transaction as Hash };
    // Refused because it is used (another submission landed): settled all the same.
    if (await this.used(record).catch(() => false)) return { status: 'settled', reason: 'authorization_used_on_chain' };
    const transaction = (result.transaction || record.transaction) as Hash | '';
    if (result.errorReason !== 'settlement_pending' && result.transaction) return { status: 'failed', reason: result.errorReason ?? 'transfer_call_failed', transaction: result.transaction as Hash };
    // Not sent, or sent and unconfirmed: still pending, tried again on the next pass until it expires.
    const again: SettlementRecord = {
      ...record, transaction, reason: result.errorMessage?.split('\n')[0] ?? result.errorReason,
      resubmissions: (record.resubmissions ?? 0) + 1, lastResubmittedAt: new Date().toISOString(),
    };
    await this.record(again).catch((err) => this.options.log?.('pending settlement not updated', err));
    return null;
  }

  private async used(record: SettlementRecord): Promise<boolean> {
    return this.chain!.client.readContract({
      address: this.asset, abi: authorizationStateAbi, functionName: 'authorizationState', args: [record.payer, record.nonce],
    });
  }
}
