/**
 * The settlement ledger: every settlement Sibyl made, and those whose confirmation timed
 * out (pending) until a reconciliation pass decides them from the receipt or, failing that,
 * from the token's `authorizationState`. Nothing indeterminate is dropped.
 */
import { parseAbi, type Address, type Hash, type Hex } from 'viem';
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
}

export class SettlementLedger {
  private readonly settledListeners: ((record: SettlementRecord) => Promise<void>)[] = [];

  constructor(
    private readonly store: Store,
    private readonly chain: ConnectedChain | undefined,
    private readonly asset: Address,
  ) {}

  /** Called for each pending settlement that reconciliation finds settled (a credit top-up waits on it). */
  onSettled(listener: (record: SettlementRecord) => Promise<void>): void {
    this.settledListeners.push(listener);
  }

  private key(payer: Address, nonce: Hex): string {
    return `${payer.toLowerCase()}:${nonce.toLowerCase()}`;
  }

  async record(record: SettlementRecord): Promise<void> {
    const id = this.key(record.payer, record.nonce);
    if (record.status === 'pending') await this.store.hashSet(PENDING, id, JSON.stringify(record));
    else {
      await this.store.set(`settlement:${id}`, JSON.stringify(record), SETTLED_TTL_MS);
      await this.store.hashDelete(PENDING, id);
      if (record.status === 'settled') await this.store.incrBy('settlements:count', 1);
    }
  }

  async get(payer: Address, nonce: Hex): Promise<SettlementRecord | null> {
    const id = this.key(payer, nonce);
    const raw = (await this.store.hashGet(PENDING, id)) ?? (await this.store.get(`settlement:${id}`));
    return raw ? (JSON.parse(raw) as SettlementRecord) : null;
  }

  async pending(): Promise<SettlementRecord[]> {
    return Object.values(await this.store.hashGetAll(PENDING)).map((r) => JSON.parse(r) as SettlementRecord);
  }

  /** Decides every pending settlement it can; safe to run on several instances at once. */
  async reconcile(now = Date.now()): Promise<{ decided: number; stillPending: number }> {
    if (!this.chain) return { decided: 0, stillPending: (await this.pending()).length };
    let decided = 0;
    let stillPending = 0;
    for (const record of await this.pending()) {
      const lock = `settlements:reconcile:${this.key(record.payer, record.nonce)}`;
      if (!(await this.store.reserve(lock, '1', 30_000))) continue;
      try {
        const outcome = await this.decide(record, now);
        if (outcome) {
          const decidedRecord = { ...record, ...outcome, decidedAt: new Date(now).toISOString() };
          await this.record(decidedRecord);
          if (decidedRecord.status === 'settled') for (const listener of this.settledListeners) await listener(decidedRecord);
          decided++;
        } else stillPending++;
      } finally {
        await this.store.delete(lock);
      }
    }
    return { decided, stillPending };
  }

  /** The token's own authorizationState is the truth: a batched transaction can succeed while one of its calls failed. */
  private async decide(record: SettlementRecord, now: number): Promise<Pick<SettlementRecord, 'status' | 'reason'> | null> {
    const client = this.chain!.client;
    const used = await client.readContract({
      address: this.asset, abi: authorizationStateAbi, functionName: 'authorizationState', args: [record.payer, record.nonce],
    });
    if (used) return { status: 'settled', reason: 'authorization_used_on_chain' };
    if (record.transaction) {
      const receipt = await client.getTransactionReceipt({ hash: record.transaction }).catch(() => null);
      if (receipt) return { status: 'failed', reason: receipt.status === 'success' ? 'transfer_call_failed' : 'transaction_reverted' };
    }
    if (BigInt(record.validBefore) * 1000n < BigInt(now)) return { status: 'expired', reason: 'authorization_expired_unused' };
    return null;
  }
}
