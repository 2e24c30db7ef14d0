/**
 * The settlement ledger: every settlement Sibyl made, and those whose outcome is not known yet
 * (pending: the chain could not be reached, or the confirmation timed out). A pending record
 * keeps the signed authorization, so any instance can decide it later, also after a restart:
 * the token's `authorizationState` says whether it was used; if not, it is submitted again
 * until it lands or its validBefore passes. Nothing indeterminate is dropped.
 *
 * Settled means on chain, and a chain can lose blocks (an embedded node restarted from an older
 * state, a reorganisation). A settled record that comes with its signed authorization is
 * watched until its validBefore (the authorization, in a key that expires then; the record's id
 * in a sorted set by validBefore). After a chain went back (the node restarted, the head went
 * down, a block seen before changed, another genesis) and at every start, each watched
 * settlement is checked against `authorizationState`: one the chain no longer has is reopened
 * as pending with its authorization and submitted again while valid; one that can no longer
 * land is recorded expired as lost, logged and listed (`lostReport`).
 */
import { parseAbi, type Address, type Block, type Hash, type Hex } from 'viem';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { ConnectedChain } from '../chain/runtime.js';
import type { Facilitator } from './facilitator.js';
import type { Store } from '../store/store.js';

const PENDING = 'settlements:pending';
const SETTLED_TTL_MS = 30 * 24 * 3600_000;
/** Settled records rechecked after the chain went back: ids by validBefore (seconds). */
const WATCHED = 'settlements:watched';
/** A watched settlement's record with its signed authorization, until its validBefore. */
const watchedKey = (id: string) => `settlements:watched:${id}`;
/**
 * Settled records by when they were written (ms). A chain that loses only blocks above the head
 * last looked at shows no sign of it (the head passes the old one, the block looked at is kept):
 * the settlements written since that look are therefore checked once more at the next one.
 */
const RECENT = 'settlements:recent';
const RECENT_KEEP_MS = 10 * 60_000;
/** Instances' clocks differ: the window of settlements checked reaches back this much further. */
const CLOCK_MARGIN_MS = 5_000;
/** Settlements answered and recorded settled that the chain lost when they could no longer land. */
const LOST = 'settlements:lost';
/**
 * How long after its validBefore a settlement is still rechecked (then only to report it lost:
 * its authorization is gone): a chain found rewound later than this is not searched for it.
 */
const RECHECK_AFTER_EXPIRY_S = 3600;
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
  /** Once settled, then gone from the chain (it went back): when that was found, why, and the transaction it had. */
  reopenedAt?: string;
  lostTransaction?: Hash;
}

/** A pending settlement as an operator sees it (no signature). */
export type PendingSettlement = Omit<SettlementRecord, 'payload' | 'requirements'> & { ageSeconds: number };

/** What a recheck of the watched settlements found. */
export interface RecheckOutcome {
  readonly checked: number;
  /** No longer on chain and still valid: pending again, submitted again. */
  readonly reopened: number;
  /** No longer on chain and expired: recorded lost. */
  readonly lost: number;
}

export interface LedgerOptions {
  /** Submits a signed authorization again (the facilitator's settle). Without it, pending ones only wait. */
  resubmit?: (payload: PaymentPayload, requirements: PaymentRequirements) => Promise<SettleResponse>;
  /**
   * Called before settlements the chain lost are submitted again: the settler's transactions went
   * with them, so its nonce count is ahead of the chain's (a local facilitator starts it again from the chain).
   */
  beforeResubmittingLost?: () => Promise<void>;
  /** How long one instance holds a pending settlement while deciding it (covers a resubmission's confirmation wait). */
  lockMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

type Outcome = Pick<SettlementRecord, 'status' | 'reason'> & { transaction?: Hash };

export class SettlementLedger {
  private readonly settledListeners: ((record: SettlementRecord) => Promise<void>)[] = [];
  /** The chain as the last look found it (chainWentBack). */
  private seen: { number: bigint; hash: Hash; genesis: Hash; restarts: number; at: number } | undefined;
  /** When the look before the last one began (recheckRecent's window). */
  private previousLookAt: number | undefined;

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

  /** Runs the settled listeners for a settlement recorded settled outside reconciliation (another instance's, taken over). */
  async announceSettled(record: SettlementRecord): Promise<void> {
    for (const listener of this.settledListeners) await listener(record);
  }

  private key(payer: Address, nonce: Hex): string {
    return `${payer.toLowerCase()}:${nonce.toLowerCase()}`;
  }

  /**
   * Idempotent, so the outbox may write it again after a failure part-way. A settled record that
   * carries its payload and requirements is watched until its validBefore (see above).
   */
  async record(record: SettlementRecord): Promise<void> {
    const id = this.key(record.payer, record.nonce);
    if (record.status === 'pending') return this.store.hashSet(PENDING, id, JSON.stringify(record));
    const { payload, requirements, ...final } = record;
    if (record.reopenedAt) {
      // Decided again after the chain lost it: this outcome replaces the one the chain no longer has.
      const previous = await this.store.get(`settlement:${id}`);
      await this.store.set(`settlement:${id}`, JSON.stringify(final), SETTLED_TTL_MS);
      const wasSettled = !!previous && (JSON.parse(previous) as SettlementRecord).status === 'settled';
      const delta = (record.status === 'settled' ? 1 : 0) - (wasSettled ? 1 : 0);
      if (delta) await this.store.incrBy('settlements:count', delta);
      if (record.status !== 'settled') await this.noteLost(id, final);
    } else if (await this.store.reserve(`settlement:${id}`, JSON.stringify(final), SETTLED_TTL_MS)) {
      // A decided record never changes otherwise; counted once, when it is first written.
      if (record.status === 'settled') await this.store.incrBy('settlements:count', 1);
    }
    if (record.status === 'settled' && payload && requirements) await this.watch(id, { ...record, payload, requirements });
    await this.store.hashDelete(PENDING, id);
  }

  /** Keeps a settled record with its authorization until validBefore, to be rechecked after the chain goes back. */
  private async watch(id: string, record: SettlementRecord): Promise<void> {
    const validBefore = Number(record.validBefore);
    const ttlMs = validBefore * 1000 - Date.now();
    if (ttlMs > 0) await this.store.set(watchedKey(id), JSON.stringify(record), ttlMs);
    await this.store.sortedAdd(WATCHED, [{ member: id, score: validBefore }]);
    await this.store.sortedAdd(RECENT, [{ member: `${id}|${record.transaction}`, score: Date.now() }]);
  }

  /** A settlement answered but never received: listed for operators (a month, as decided records are kept). */
  private async noteLost(id: string, record: Omit<SettlementRecord, 'payload' | 'requirements'>): Promise<void> {
    await this.store.hashSet(LOST, id, JSON.stringify(record));
    const cutoff = Date.now() - SETTLED_TTL_MS;
    const stale = Object.entries(await this.store.hashGetAll(LOST)).filter(([, r]) => Date.parse((JSON.parse(r) as SettlementRecord).decidedAt ?? '') < cutoff);
    for (const [key] of stale) await this.store.hashDelete(LOST, key);
  }

  /** Settlements answered and once recorded settled that the chain lost after they could land, newest first. */
  async lostReport(): Promise<Omit<SettlementRecord, 'payload' | 'requirements'>[]> {
    return Object.values(await this.store.hashGetAll(LOST))
      .map((r) => JSON.parse(r) as SettlementRecord)
      .sort((a, b) => (b.decidedAt ?? '').localeCompare(a.decidedAt ?? ''));
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

  /**
   * Checks every watched settlement (valid, or expired within the last hour) against the token:
   * one the chain no longer has is reopened as pending and submitted again while valid, or
   * recorded lost when it can no longer land. Safe on several instances at once (a settlement is
   * held by one instance while checked, under the same lock as reconciliation).
   */
  async recheckSettled(why: string, now = Date.now()): Promise<RecheckOutcome> {
    if (!this.chain) return { checked: 0, reopened: 0, lost: 0 };
    const nowSeconds = Math.floor(now / 1000);
    await this.store.sortedRemoveRange(WATCHED, Number.NEGATIVE_INFINITY, nowSeconds - RECHECK_AFTER_EXPIRY_S - 1);
    const watched = await this.store.sortedRange(WATCHED, nowSeconds - RECHECK_AFTER_EXPIRY_S, Number.POSITIVE_INFINITY);
    return this.recheck(watched.map(({ member }) => member), why, now);
  }

  /**
   * Checks the settlements recorded since the chain was last looked at (chainWentBack), which a
   * loss of only the blocks above that look would not show: call it right after that look.
   */
  async recheckRecent(now = Date.now()): Promise<RecheckOutcome> {
    if (!this.chain || this.previousLookAt === undefined) return { checked: 0, reopened: 0, lost: 0 };
    await this.store.sortedRemoveRange(RECENT, Number.NEGATIVE_INFINITY, now - RECENT_KEEP_MS);
    const recent = (await this.store.sortedRange(RECENT, this.previousLookAt - CLOCK_MARGIN_MS, Number.POSITIVE_INFINITY)).map(({ member }) => {
      const [id, transaction] = member.split('|') as [string, Hash | ''];
      return { id, transaction };
    });
    // One receipt read per transaction (a batch settles many): only the settlements of a
    // transaction the chain no longer has are checked one by one.
    const client = this.chain.client;
    const transactions = [...new Set(recent.map((r) => r.transaction).filter((t): t is Hash => !!t))];
    const landed = new Set<string>();
    for (let i = 0; i < transactions.length; i += 32) {
      await Promise.all(transactions.slice(i, i + 32).map(async (hash) => {
        const receipt = await client.getTransactionReceipt({ hash }).catch(() => null);
        if (receipt?.status === 'success') landed.add(hash);
      }));
    }
    const unsure = recent.filter((r) => !r.transaction || !landed.has(r.transaction)).map((r) => r.id);
    const outcome = await this.recheck(unsure, 'checked again after it was recorded', now);
    return { ...outcome, checked: recent.length };
  }

  private async recheck(ids: readonly string[], why: string, now: number): Promise<RecheckOutcome> {
    const nowSeconds = Math.floor(now / 1000);
    const outcomes: ('kept' | 'reopened' | 'lost' | 'skipped')[] = [];
    // A few at a time: each is one authorizationState read (and a store write when reopened).
    for (let i = 0; i < ids.length; i += 32) {
      outcomes.push(...(await Promise.all(ids.slice(i, i + 32).map((id) => this.recheckOne(id, why, nowSeconds)))));
    }
    // Those reopened are submitted again at once, not at the next reconciliation pass.
    const reopened = ids.filter((_, i) => outcomes[i] === 'reopened');
    if (reopened.length) await this.options.beforeResubmittingLost?.().catch((err) => this.options.log?.('settler nonce resync failed', err));
    const records = await this.store.hashGetMany(PENDING, reopened);
    await Promise.all(records.map((raw) => raw && this.reconcileOne(JSON.parse(raw) as SettlementRecord, now)));
    return { checked: ids.length, reopened: reopened.length, lost: outcomes.filter((o) => o === 'lost').length };
  }

  /** How many times the payment chain's node was restarted (an embedded chain; 0 otherwise). */
  nodeRestarts(): number {
    return this.chain?.node?.().restarts ?? 0;
  }

  private async recheckOne(id: string, why: string, nowSeconds: number): Promise<'kept' | 'reopened' | 'lost' | 'skipped'> {
    const lock = `settlements:reconcile:${id}`;
    if (!(await this.store.reserve(lock, '1', this.options.lockMs ?? 60_000))) return 'skipped';
    try {
      if (await this.store.hashGet(PENDING, id)) return 'skipped'; // reopened already: reconciliation has it
      const [raw, decidedRaw] = await Promise.all([this.store.get(watchedKey(id)), this.store.get(`settlement:${id}`)]);
      const watched = raw ? (JSON.parse(raw) as SettlementRecord) : null;
      const decided = decidedRaw ? (JSON.parse(decidedRaw) as SettlementRecord) : null;
      const record = watched ?? decided;
      if (!record || decided?.status !== 'settled') {
        await this.store.sortedRemove(WATCHED, [id]); // no longer a settlement to keep on chain
        return 'kept';
      }
      if (await this.used(record)) return 'kept';
      const lostTransaction = (record.transaction || undefined) as Hash | undefined;
      const found = `settlement${lostTransaction ? ` ${lostTransaction}` : ''} no longer on chain (${why})`;
      if (watched?.payload && watched.requirements && Number(watched.validBefore) > nowSeconds) {
        const reopened: SettlementRecord = {
          ...watched, status: 'pending', transaction: '', reason: found, reopenedAt: new Date().toISOString(), ...(lostTransaction && { lostTransaction }),
        };
        delete reopened.decidedAt;
        await this.store.hashSet(PENDING, id, JSON.stringify(reopened));
        this.options.log?.(`${found}: ${record.payer} ${record.nonce} reopened as pending and submitted again`);
        return 'reopened';
      }
      const { payload: _p, requirements: _r, ...rest } = record;
      const lost = {
        ...rest, status: 'expired' as const, transaction: '' as const, reason: `settlement_lost: ${found}, authorization expired`,
        reopenedAt: new Date().toISOString(), decidedAt: new Date().toISOString(), ...(lostTransaction && { lostTransaction }),
      };
      await this.store.set(`settlement:${id}`, JSON.stringify(lost), SETTLED_TTL_MS);
      await this.store.incrBy('settlements:count', -1);
      await this.noteLost(id, lost);
      await this.store.sortedRemove(WATCHED, [id]);
      await this.store.delete(watchedKey(id));
      this.options.log?.(`${found}: ${record.payer} ${record.nonce} (${record.amount} for ${record.resource}) can no longer be submitted (authorization expired): recorded lost`);
      return 'lost';
    } finally {
      await this.store.delete(lock).catch(() => {}); // expires on its own
    }
  }

  /**
   * Whether the chain went back since the last call (null the first time, and when it did not):
   * its node restarted, another genesis, the head below the one seen last, or that block changed.
   */
  async chainWentBack(): Promise<string | null> {
    if (!this.chain) return null;
    const client = this.chain.client;
    const lookAt = Date.now();
    const restarts = this.chain.node?.().restarts ?? 0;
    const [head, genesis] = await Promise.all([client.getBlock({ blockTag: 'latest' }), client.getBlock({ blockNumber: 0n })]) as [Block, Block];
    const seen = this.seen;
    let why: string | null = null;
    if (seen) {
      if (restarts !== seen.restarts) why = 'the node was restarted';
      else if (genesis.hash !== seen.genesis) why = 'the chain has another genesis';
      else if (head.number! < seen.number) why = `the head went back from block ${seen.number} to ${head.number}`;
      else if ((await client.getBlock({ blockNumber: seen.number }).catch(() => null))?.hash !== seen.hash) why = `block ${seen.number} changed`;
    }
    this.previousLookAt = this.seen?.at;
    this.seen = { number: head.number!, hash: head.hash!, genesis: genesis.hash!, restarts, at: lookAt };
    return why;
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
