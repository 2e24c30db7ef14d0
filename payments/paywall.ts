/**
 * The x402 gate, independent of any HTTP framework. For one priced request it:
 * reads the payment payload (x402 v1 or v2, from a header or a message), refuses what
 * can be refused locally (wrong scheme, network, asset, recipient, amount, time window)
 * without touching the chain, reserves the authorization in the store atomically (a replay,
 * even a concurrent one on another instance, is refused there), verifies with the
 * facilitator, and later settles only when the caller reports a successful answer.
 *
 * Exactly once: the answer is kept in the store with its authorization and a fingerprint of the
 * request (resource, request, the signed payload) before the settlement is sent, and its receipt
 * is added once known. The same payment sent again for the same request gets that answer and
 * receipt back, never a second charge; anything else presenting a used authorization is refused.
 * A reservation names the instance holding it (payments/instance.ts): once that instance's
 * heartbeat is gone, a reservation it left unanswered is released, and an answer it kept but
 * never saw settled is decided from the token's authorizationState (and handed to the ledger).
 */
import { createHash, randomUUID } from 'node:crypto';
import { getAddress, isAddressEqual, parseAbi, parseAbiItem, type Address, type Hash, type Hex } from 'viem';
import { decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import { parsePaymentPayload } from '@x402/core/schemas';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { SibylError } from '../skills/core/errors.js';
import { holdsIssued, redactIssued } from '../skills/core/issued-secrets.js';
import type { ConnectedChain } from '../chain/runtime.js';
import { STORE_RETRY_AFTER_SECONDS } from '../store/outage.js';
import type { Store } from '../store/store.js';
import { STORE_UNAVAILABLE, type Facilitator } from './facilitator.js';
import { Instance } from './instance.js';
import { Outbox } from './outbox.js';
import type { PendingSettlement, SettlementLedger, SettlementRecord } from './settlements.js';
import {
  X402_NETWORK, X402_NETWORK_V1, paymentRequired, requirementsV1, requirementsV2,
  type PaymentTerms, type Resource,
} from './terms.js';

/** Longest time from now to an authorization's validBefore accepted: its replay reservation lives that long. */
export const MAX_VALIDITY_SECONDS = 86_400;
/** How long past its validBefore a kept answer (and the reservation) stays: a late resend still gets it. */
export const ANSWER_MARGIN_MS = 10 * 60_000;
/** Reservations by authorization id, naming their instance: where a takeover pass looks. */
const HELD = 'x402:held';
/** How long one resend holds the decision of a kept answer's settlement (covers a settlement's wait). */
const DECIDE_LOCK_MS = 120_000;
/** Blocks per search for the transaction that used an authorization, and the most searches. */
const LOOKBACK_BLOCKS = 5_000n;
const MAX_LOOKBACK_WINDOWS = 40;
const authorizationStateAbi = parseAbi(['function authorizationState(address, bytes32) view returns (bool)']);
const authorizationUsed = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)');

/** A payment that passed verification and holds its replay reservation. */
export interface Authorization {
  readonly payload: PaymentPayload;
  readonly requirements: PaymentRequirements;
  readonly payer: Address;
  readonly nonce: Hex;
  readonly validBefore: bigint;
  readonly amount: bigint;
  readonly reservationKey: string;
  readonly resource: Resource;
  /** `chainId:asset:payer:nonce`: the authorization, whoever presents it. */
  readonly id: string;
  /** What was asked with it: the resource, the request and the exact signed payload, hashed. */
  readonly fingerprint: string;
  /** The reservation as stored: this instance and the fingerprint. */
  readonly reservation: string;
  /** Its answer once kept (before the settlement is sent). */
  kept?: KeptAnswer;
  /** Set when this is a resend of a payment whose answer was kept for this same request: no new work. */
  readonly resent?: KeptAnswer;
}

/** An answer kept with its authorization, from before its settlement is sent until validBefore and a margin. */
export interface KeptAnswer {
  readonly fingerprint: string;
  /** The instance that ran the work and sends the settlement. */
  readonly owner: string;
  readonly answer: Record<string, unknown>;
  readonly payer: Address;
  readonly nonce: Hex;
  readonly amount: string;
  readonly validBefore: string;
  readonly resource: string;
  readonly payload: PaymentPayload;
  readonly requirements: PaymentRequirements;
  readonly keptAt: string;
  /** Added once the settlement is settled or pending. */
  readonly receipt?: { readonly settlement: SettleResponse; readonly pending: boolean };
}

interface Reservation {
  readonly owner: string;
  readonly fingerprint: string;
  /** This request's own: a late release by a request that failed never frees a resend's reservation. */
  readonly attempt?: string;
}

export interface PaywallOptions {
  /** This instance (its heartbeat); default: one without a heartbeat, for a paywall used alone. */
  readonly instance?: Instance;
  /** The payment chain, read for authorizationState when a settlement's fate was not seen. */
  readonly chain?: ConnectedChain;
}

export interface Challenge {
  readonly status: 402;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

export interface Receipt {
  readonly settlement: SettleResponse;
  readonly headers: Record<string, string>;
  readonly pending: boolean;
  /** The authorization settled: who paid, with which EIP-3009 nonce. */
  readonly payer: Address;
  readonly nonce: Hex;
  /** The receipt of a kept answer, given again to a resend of its payment. */
  readonly resent?: boolean;
}

interface ExactAuthorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

/** A refusal of the payment itself: answered with 402 and the requirements again. */
export class PaymentRefused extends Error {
  constructor(
    readonly code: 'payment_invalid' | 'nonce_already_used' | 'settlement_failed',
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export class Paywall {
  private readonly instance: Instance;
  private readonly chain: ConnectedChain | undefined;

  constructor(
    readonly terms: PaymentTerms,
    private readonly facilitator: Facilitator,
    private readonly store: Store,
    private readonly ledger: SettlementLedger,
    private readonly chainId: number,
    /** Where the full detail of a refusal goes when the 402 body only carries a one-line reason. */
    private readonly log: (msg: string, err?: unknown) => void = () => {},
    /** Store writes owed after money moved: retried until the store takes them, never an error answer. */
    readonly outbox: Outbox = new Outbox({ log }),
    options: PaywallOptions = {},
  ) {
    this.instance = options.instance ?? new Instance(store);
    this.chain = options.chain;
  }

  /** Runs `listener` for each pending settlement that reconciliation later finds settled. */
  onSettled(listener: (record: SettlementRecord) => Promise<void>): void {
    this.ledger.onSettled(listener);
  }

  /** Settlements not decided yet, oldest first (for /healthz and operators). */
  pendingSettlements(): Promise<PendingSettlement[]> {
    return this.ledger.pendingReport();
  }

  /** Settlements answered, then lost from the chain once they could no longer land (for /healthz and operators). */
  lostSettlements(): ReturnType<SettlementLedger['lostReport']> {
    return this.ledger.lostReport();
  }

  challenge(amount: bigint, resource: Resource, refusal?: PaymentRefused): Challenge {
    const body = paymentRequired(this.terms, amount, resource, refusal?.reason);
    return {
      status: 402,
      headers: { 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(body) },
      body: refusal ? { ...body, code: refusal.code, message: refusal.message } : body,
    };
  }

  /**
   * Checks, reserves and verifies a decoded payload. Throws SibylError (400, 409, 503) or
   * PaymentRefused (402). `request` is what was asked (the operation's validated input): the same
   * payment sent again for the same request and resource comes back with `resent`, its kept answer.
   */
  async authorize(payload: PaymentPayload, amount: bigint, resource: Resource, request?: unknown): Promise<Authorization> {
    const requirements = payload.x402Version === 1
      ? (requirementsV1(this.terms, amount, resource) as unknown as PaymentRequirements)
      : requirementsV2(this.terms, amount);
    const auth = this.readAuthorization(payload);
    const payer = getAddress(auth.from);
    const nonce = auth.nonce as Hex;
    const id = `${this.chainId}:${this.terms.asset.toLowerCase()}:${payer.toLowerCase()}:${nonce.toLowerCase()}`;
    const fingerprint = createHash('sha256').update(canonicalJson({ resource: resourcePath(resource.url), request: request ?? null, payload })).digest('hex');
    const authorization: Authorization = {
      payload, requirements, payer, nonce, validBefore: BigInt(auth.validBefore), amount, resource, id, fingerprint,
      reservationKey: `x402:auth:${id}`,
      reservation: JSON.stringify({ owner: this.instance.id, fingerprint, attempt: randomUUID() } satisfies Reservation),
    };
    const refusal = this.refusal(payload, amount, auth);
    if (refusal) {
      // Past its validBefore, an answer kept for this very request is still the payer's.
      const kept = refusal.reason === 'authorization_expired' ? await this.store.get(answerKey(id)) : null;
      if (kept) return { ...authorization, resent: this.keptFor(authorization, kept) };
      throw refusal;
    }

    // A release the store cannot take now (it went down meanwhile) is retried until it does: a
    // reservation left behind would answer this payer's resends `payment_in_progress` until it expired.
    const release = () => this.outbox.submit('reservation-release', { key: authorization.reservationKey }, () => this.release(authorization));
    for (let attempt = 0; ; attempt++) {
      let reserved: boolean;
      try {
        reserved = await this.store.reserve(authorization.reservationKey, authorization.reservation, this.keepMs(authorization));
      } catch (err) {
        // The store may have taken the reservation and lost only its reply: only that (this
        // attempt's own value) is released, never an answer an earlier request kept.
        await this.outbox.submit('reservation-release', { key: authorization.reservationKey }, async () => void (await this.store.release(authorization.reservationKey, authorization.reservation)));
        throw err;
      }
      if (reserved) break;
      const kept = await this.taken(authorization);
      if (kept) return { ...authorization, resent: kept };
      // Released (its instance died before answering): reserved again, once.
      if (attempt >= 1) throw inProgress();
    }
    // Indexed for the takeover pass beside the verification; a missing entry only delays a takeover.
    const indexed = this.store.hashSet(HELD, id, this.instance.id).catch((err) => this.log('payment reservation not indexed', err));

    let verdict;
    try {
      verdict = await this.facilitator.verify(payload, requirements);
    } catch (err) {
      await indexed;
      await release();
      throw new SibylError('upstream_unavailable', `payment verification unavailable: ${(err as Error).message}`);
    }
    await indexed;
    if (!verdict.isValid) {
      await release();
      const reason = normaliseReason(verdict.invalidReason);
      throw new PaymentRefused(reason === 'nonce_already_used' ? 'nonce_already_used' : 'payment_invalid', reason, this.oneLine(verdict.invalidMessage, `payment refused: ${reason}`, `payment verification refused (${reason})`));
    }
    return authorization;
  }

  /**
   * The authorization is reserved already: by this same request whose answer was kept (that
   * answer), by a live instance (in progress, or used for another request: refused), or by an
   * instance that died before answering (released: undefined, reserve again).
   */
  private async taken(authorization: Authorization): Promise<KeptAnswer | undefined> {
    const [held, kept] = await Promise.all([this.store.get(authorization.reservationKey), this.store.get(answerKey(authorization.id))]);
    if (kept) return this.keptFor(authorization, kept);
    if (held === null) return undefined;
    const reservation = readReservation(held);
    if (!reservation) throw usedElsewhere();
    if (await this.instance.alive(reservation.owner)) {
      if (reservation.fingerprint === authorization.fingerprint) throw inProgress();
      throw usedElsewhere();
    }
    // Its instance died before keeping an answer: nothing was sent, so the authorization is free again.
    await this.store.release(authorization.reservationKey, held);
    return undefined;
  }

  /** A kept answer for this request, or the refusal of a different request or signature. */
  private keptFor(authorization: Authorization, raw: string): KeptAnswer {
    const kept = JSON.parse(raw) as KeptAnswer;
    if (kept.fingerprint !== authorization.fingerprint) throw usedElsewhere();
    return kept;
  }

  /**
   * Keeps the answer with its authorization before the settlement is sent. Throws when the store
   * cannot take it (the caller answers 503 and settles nothing), or when the reservation went to
   * another instance meanwhile (409).
   */
  async keep(authorization: Authorization, answer: Record<string, unknown>): Promise<void> {
    const ttlMs = this.keepMs(authorization);
    // Still this instance's: a takeover while this one seemed dead would have released it.
    if (!(await this.store.renew(authorization.reservationKey, authorization.reservation, ttlMs)) &&
        !(await this.store.reserve(authorization.reservationKey, authorization.reservation, ttlMs))) {
      throw inProgress();
    }
    const kept: KeptAnswer = {
      fingerprint: authorization.fingerprint, owner: this.instance.id, answer: withoutSecrets(answer),
      payer: authorization.payer, nonce: authorization.nonce, amount: authorization.amount.toString(), validBefore: authorization.validBefore.toString(),
      resource: authorization.resource.url, payload: authorization.payload, requirements: authorization.requirements, keptAt: new Date().toISOString(),
    };
    await this.store.set(answerKey(authorization.id), JSON.stringify(kept), ttlMs);
    authorization.kept = kept;
  }

  /**
   * Gives the reservation back (the work failed, or its answer could not be kept or settled), with
   * the answer this instance kept for it, if any: the authorization was never used.
   */
  async release(authorization: Authorization): Promise<void> {
    const kept = await this.store.get(answerKey(authorization.id));
    if (kept && (JSON.parse(kept) as KeptAnswer).owner === this.instance.id) await this.store.delete(answerKey(authorization.id));
    await this.store.release(authorization.reservationKey, authorization.reservation);
    await this.store.hashDelete(HELD, authorization.id);
  }

  /**
   * Settles on chain. Throws PaymentRefused when the transfer did not happen, SibylError 503 when
   * the store could not hand the settler a nonce (nothing was sent). Once it happened (or may
   * have: pending) nothing the store does can fail the answer: the ledger record and the kept
   * answer's receipt go through the outbox, which keeps them until the store takes them.
   */
  async settle(authorization: Authorization): Promise<Receipt> {
    let settlement: SettleResponse;
    try {
      settlement = await this.facilitator.settle(authorization.payload, authorization.requirements);
    } catch (err) {
      settlement = { success: false, errorReason: 'settlement_pending', errorMessage: (err as Error).message, transaction: '', network: X402_NETWORK, payer: authorization.payer };
    }
    const pending = !settlement.success && settlement.errorReason === 'settlement_pending';
    if (!settlement.success && !pending) {
      // Made by another submission of the same authorization (a resend deciding it): settled all the same.
      if (settlement.errorReason !== STORE_UNAVAILABLE && (await this.usedOnChain(authorization))) {
        settlement = this.settled(authorization, await this.transactionOf(authorization));
      } else {
        // Nothing moved: the authorization may be presented again once its reservation is gone.
        await this.outbox.submit('reservation-release', { key: authorization.reservationKey }, () => this.release(authorization));
        if (settlement.errorReason === STORE_UNAVAILABLE) {
          throw new SibylError('upstream_unavailable', 'the shared store did not answer while the payment was being settled; nothing was charged', { retryAfterSeconds: STORE_RETRY_AFTER_SECONDS });
        }
        const reason = normaliseReason(settlement.errorReason);
        throw new PaymentRefused('settlement_failed', reason, this.oneLine(settlement.errorMessage, `settlement failed: ${reason}`, `settlement failed (${reason})`));
      }
    }
    await this.recordSettlement(authorization, settlement, pending);
    return this.receipt(authorization, settlement, pending);
  }

  /**
   * The receipt of a resend whose answer was kept, deciding the settlement when its instance
   * stopped before seeing it: used on chain → settled; not used and still valid → settled now;
   * expired → refused (nothing was charged). One resend decides at a time (a lock per authorization).
   */
  async answerAgain(authorization: Authorization): Promise<{ receipt: Receipt; decidedNow: boolean }> {
    const again = (settlement: SettleResponse, pending: boolean) => ({ receipt: { ...this.receipt(authorization, settlement, pending), resent: true }, decidedNow: false });
    // The ledger's record, once written, is the truth: a settlement the chain lost and that was
    // sent again names its new transaction, not the one in the kept receipt.
    const record = await this.ledger.get(authorization.payer, authorization.nonce);
    // Read after the ledger: a receipt is kept before its ledger record is written.
    const latest = await this.store.get(answerKey(authorization.id));
    const kept = latest ? this.keptFor(authorization, latest) : authorization.resent!;
    if (record && record.status === 'settled') {
      const keptReceipt = kept.receipt && !kept.receipt.pending ? kept.receipt.settlement : undefined;
      // The very receipt given first while it still names the transaction that settled it.
      if (keptReceipt && (!record.transaction || keptReceipt.transaction === record.transaction)) return again(keptReceipt, false);
      return again(this.settled(authorization, record.transaction || keptReceipt?.transaction || ''), false);
    }
    if (record && record.status !== 'pending') {
      throw new PaymentRefused('settlement_failed', record.reason ?? record.status, `this payment's settlement ${record.status === 'expired' ? 'expired unused' : 'failed'}; nothing was charged`);
    }
    // Pending in the ledger (reconciliation decides it): the answer is the payer's meanwhile.
    if (record) {
      if (kept.receipt?.pending) return again(kept.receipt.settlement, true);
      const pending = { success: false, errorReason: 'settlement_pending', errorMessage: record.reason ?? 'being settled', transaction: record.transaction, network: X402_NETWORK, payer: authorization.payer };
      return again(pending, true);
    }
    // No record yet: a receipt is kept before its ledger record is written.
    if (kept.receipt) return again(kept.receipt.settlement, kept.receipt.pending);
    const held = readReservation(await this.store.get(authorization.reservationKey));
    if (await this.instance.alive(held?.owner ?? kept.owner)) throw inProgress();
    const lock = `x402:deciding:${authorization.id}`;
    if (!(await this.store.reserve(lock, this.instance.id, DECIDE_LOCK_MS))) throw inProgress();
    try {
      return { receipt: { ...(await this.decide(authorization, kept, '')), resent: true }, decidedNow: true };
    } finally {
      await this.store.release(lock, this.instance.id).catch(() => {}); // expires on its own
    }
  }

  /** A kept answer's settlement that no instance saw decided, decided from the chain. */
  private async decide(authorization: Authorization, kept: KeptAnswer, transaction: Hash | ''): Promise<Receipt> {
    if (await this.usedOnChain(authorization)) {
      const settlement = this.settled(authorization, transaction || (await this.transactionOf(authorization)));
      await this.recordSettlement({ ...authorization, kept }, settlement, false);
      return this.receipt(authorization, settlement, false);
    }
    if (authorization.validBefore <= BigInt(Math.floor(Date.now() / 1000))) {
      // The token refuses it from now on: nothing was charged, and the kept answer is not sold.
      await this.outbox.submit('answer-expired', { id: authorization.id }, async () => {
        await this.store.delete(answerKey(authorization.id));
        const record = await this.ledger.get(authorization.payer, authorization.nonce);
        if (record?.status === 'pending') await this.ledger.record({ ...record, status: 'expired', reason: 'authorization_expired_unused', decidedAt: new Date().toISOString() });
        await this.store.hashDelete(HELD, authorization.id);
      });
      throw new PaymentRefused('payment_invalid', 'authorization_expired', 'the authorization expired before its settlement was sent; nothing was charged');
    }
    // Not used and still valid: this instance takes the payment over and settles it now.
    const mine: KeptAnswer = { ...kept, owner: this.instance.id };
    const ttlMs = this.keepMs(authorization);
    await this.store.set(authorization.reservationKey, authorization.reservation, ttlMs);
    await this.store.set(answerKey(authorization.id), JSON.stringify(mine), ttlMs);
    await this.store.hashSet(HELD, authorization.id, this.instance.id);
    return this.settle({ ...authorization, kept: mine });
  }

  /**
   * The takeover pass, run by every instance after its heartbeat: each reservation whose instance
   * has no heartbeat any more is released when it kept no answer, and handed to the settlement
   * ledger when it kept one whose settlement was not recorded (reconciliation decides it then,
   * even if the payer never comes back).
   */
  async takeOver(): Promise<{ released: number; handedOver: number }> {
    const entries = Object.entries(await this.store.hashGetAll(HELD));
    const beating = new Map<string, Promise<boolean>>();
    const alive = (owner: string) => {
      if (!beating.has(owner)) beating.set(owner, this.instance.alive(owner));
      return beating.get(owner)!;
    };
    let released = 0;
    let handedOver = 0;
    for (const [id, owner] of entries) {
      if (await alive(owner)) continue;
      const [held, raw] = await Promise.all([this.store.get(`x402:auth:${id}`), this.store.get(answerKey(id))]);
      const reservation = readReservation(held);
      // Taken since by a live instance (a resend): its own entry.
      if (reservation && reservation.owner !== owner && (await alive(reservation.owner))) continue;
      if (!raw) {
        if (held !== null && reservation?.owner === owner && (await this.store.release(`x402:auth:${id}`, held))) released++;
      } else {
        const kept = JSON.parse(raw) as KeptAnswer;
        if (!(await this.ledger.get(kept.payer, kept.nonce))) {
          // Claimed first, answer and reservation: a late release by the instance that seemed dead
          // (it lost the store, not its life) cannot then free what the ledger is about to settle.
          const ttlMs = this.keepMs({ validBefore: BigInt(kept.validBefore) });
          await this.store.set(answerKey(id), JSON.stringify({ ...kept, owner: this.instance.id }), ttlMs);
          await this.store.set(`x402:auth:${id}`, JSON.stringify({ owner: this.instance.id, fingerprint: kept.fingerprint } satisfies Reservation), ttlMs);
          // Used on chain already (its transaction landed as it died): recorded settled, with that transaction.
          const landed = !kept.receipt && (await this.usedOnChain(kept)) ? await this.transactionOf(kept) : undefined;
          const settled = kept.receipt?.settlement.success === true || landed !== undefined;
          const record: SettlementRecord = {
            status: settled ? 'settled' : 'pending', transaction: (landed ?? kept.receipt?.settlement.transaction ?? '') as Hash | '',
            payer: kept.payer, nonce: kept.nonce, amount: kept.amount, validBefore: kept.validBefore, resource: kept.resource, recordedAt: new Date().toISOString(),
            reason: settled ? 'recorded_after_its_instance_stopped' : 'its instance stopped before seeing the settlement',
            payload: kept.payload,
            requirements: kept.requirements,
          };
          // What the settlement owes (a credit top-up) first: if it fails, the next pass finds no record and runs it again.
          if (settled) await this.ledger.announceSettled(record);
          await this.ledger.record(record);
          handedOver++;
        }
      }
      await this.store.hashDelete(HELD, id);
    }
    return { released, handedOver };
  }

  /** The ledger record, the kept answer's receipt and the end of the reservation's takeover entry, written once the settlement is known. */
  private async recordSettlement(authorization: Authorization, settlement: SettleResponse, pending: boolean): Promise<void> {
    const record: SettlementRecord = {
      status: pending ? 'pending' : 'settled',
      transaction: settlement.transaction as Hex,
      payer: authorization.payer,
      nonce: authorization.nonce,
      amount: authorization.amount.toString(),
      validBefore: authorization.validBefore.toString(),
      resource: authorization.resource.url,
      recordedAt: new Date().toISOString(),
      // What it takes to submit it again, from any instance: a pending one is, and a settled one
      // is watched with it until validBefore (the ledger keeps no signature in the decided record).
      ...(pending && { reason: settlement.errorMessage }),
      payload: authorization.payload,
      requirements: authorization.requirements,
    };
    const kept = authorization.kept && { ...authorization.kept, receipt: { settlement, pending } };
    await this.outbox.submit(`settlement-${record.status}`, record, async () => {
      // The receipt first: a resend that finds the ledger's record finds the very receipt answered.
      if (kept) await this.store.set(answerKey(authorization.id), JSON.stringify(kept), this.keepMs(authorization));
      await this.ledger.record(record);
      await this.store.hashDelete(HELD, authorization.id);
    });
  }

  private receipt(authorization: Authorization, settlement: SettleResponse, pending: boolean): Receipt {
    const encoded = encodePaymentResponseHeader(settlement);
    return { settlement, pending, payer: authorization.payer, nonce: authorization.nonce, headers: { 'PAYMENT-RESPONSE': encoded, 'X-PAYMENT-RESPONSE': encoded } };
  }

  private settled(authorization: Authorization, transaction: string): SettleResponse {
    // In the order the settler writes its own, so a receipt rebuilt here encodes the same.
    return { network: X402_NETWORK, payer: authorization.payer, success: true, transaction };
  }

  /** The reservation and kept answer live until validBefore and a margin. */
  private keepMs(authorization: Pick<Authorization, 'validBefore'>): number {
    return Math.max(60_000, Number(authorization.validBefore) * 1000 - Date.now() + ANSWER_MARGIN_MS);
  }

  /** The token's own authorizationState; false when no chain is known or it cannot be read. */
  private async usedOnChain(authorization: Pick<Authorization, 'payer' | 'nonce'>): Promise<boolean> {
    if (!this.chain) return false;
    return this.chain.client.readContract({
      address: this.terms.asset, abi: authorizationStateAbi, functionName: 'authorizationState', args: [authorization.payer, authorization.nonce],
    }).catch(() => false);
  }

  /**
   * The transaction that used the authorization, from its AuthorizationUsed event ('' when not
   * found): searched back from the head a window at a time, down to the block before the
   * authorization became valid (the token refuses it earlier), so a busy chain's many blocks
   * since do not hide it.
   */
  private async transactionOf(authorization: Pick<Authorization, 'payer' | 'nonce' | 'payload'>): Promise<Hash | ''> {
    if (!this.chain) return '';
    const validAfter = BigInt((authorization.payload.payload as { authorization?: { validAfter?: string } }).authorization?.validAfter ?? '0');
    try {
      const client = this.chain.client;
      let toBlock = await client.getBlockNumber();
      for (let window = 0; window < MAX_LOOKBACK_WINDOWS; window++) {
        const fromBlock = toBlock > LOOKBACK_BLOCKS ? toBlock - LOOKBACK_BLOCKS : 0n;
        const logs = await client.getLogs({ address: this.terms.asset, event: authorizationUsed, args: { authorizer: authorization.payer, nonce: authorization.nonce }, fromBlock, toBlock });
        if (logs[0]) return logs[0].transactionHash;
        if (fromBlock === 0n || (await client.getBlock({ blockNumber: fromBlock })).timestamp < validAfter) return '';
        toBlock = fromBlock - 1n;
      }
      return '';
    } catch {
      return '';
    }
  }

  /**
   * The facilitator's message when it is a short single line; otherwise (viem's multi-line errors
   * carrying the contract call and its arguments) the fallback, with the detail kept in the log.
   */
  private oneLine(detail: string | undefined, fallback: string, context: string): string {
    if (!detail) return fallback;
    if (!/[\r\n]/.test(detail) && detail.length <= 200 && !/\bargs:/i.test(detail)) return detail;
    this.log(`${context}: ${detail}`);
    return fallback;
  }

  /** The authorization's fields, well formed (400 otherwise). */
  private readAuthorization(payload: PaymentPayload): ExactAuthorization {
    const { authorization: auth, signature } = payload.payload as { authorization?: ExactAuthorization; signature?: unknown };
    if (!auth || typeof auth !== 'object' || !isAddressLike(auth.from) || !isAddressLike(auth.to) || !isString(auth.nonce) || !/^0x[0-9a-fA-F]{64}$/.test(auth.nonce) ||
        ![auth.value, auth.validAfter, auth.validBefore].every((n) => isString(n) && /^\d{1,78}$/.test(n))) {
      throw new SibylError('payment_header_malformed', 'payload.authorization must carry from, to, value, validAfter, validBefore and a 32-byte nonce');
    }
    if (!isString(signature) || !/^0x(?:[0-9a-fA-F]{2})+$/.test(signature)) {
      const rule = 'must be a 0x-prefixed hex string';
      throw new SibylError('payment_header_malformed', `payload.signature ${rule}`, { fields: [{ field: 'payload.signature', rule }] });
    }
    return auth;
  }

  /** What can be refused without the chain (scheme, network, asset, recipient, amount, time window), or undefined. */
  private refusal(payload: PaymentPayload, amount: bigint, auth: ExactAuthorization): PaymentRefused | undefined {
    try {
      this.checkTerms(payload, amount, auth);
      return undefined;
    } catch (err) {
      if (err instanceof PaymentRefused) return err;
      throw err;
    }
  }

  private checkTerms(payload: PaymentPayload, amount: bigint, auth: ExactAuthorization): void {
    const refuse = (reason: string, message: string) => new PaymentRefused('payment_invalid', reason, message);
    const v1 = payload.x402Version === 1;
    const scheme = v1 ? (payload as unknown as { scheme: string }).scheme : payload.accepted.scheme;
    const network = v1 ? (payload as unknown as { network: string }).network : payload.accepted.network;
    if (scheme !== 'exact') throw refuse('scheme_mismatch', `scheme must be exact, got ${scheme}`);
    if (network !== (v1 ? X402_NETWORK_V1 : X402_NETWORK)) throw refuse('network_mismatch', `network must be ${v1 ? X402_NETWORK_V1 : X402_NETWORK}, got ${network}`);
    if (!v1) {
      const accepted = payload.accepted;
      if (!isAddressLike(accepted.asset) || !isAddressEqual(accepted.asset as Address, this.terms.asset)) throw refuse('asset_mismatch', `asset must be USDC at ${this.terms.asset}`);
      if (!isAddressLike(accepted.payTo) || !isAddressEqual(accepted.payTo as Address, this.terms.payTo)) throw refuse('recipient_mismatch', `payTo must be ${this.terms.payTo}`);
      if (accepted.amount !== amount.toString()) throw refuse('amount_mismatch', `amount must be exactly ${amount} atomic USDC`);
    }
    if (!isAddressEqual(auth.to as Address, this.terms.payTo)) throw refuse('recipient_mismatch', `authorization.to must be ${this.terms.payTo}`);
    if (BigInt(auth.value) !== amount) throw refuse('amount_mismatch', `authorization.value must be exactly ${amount} atomic USDC`);
    const now = BigInt(Math.floor(Date.now() / 1000));
    if (BigInt(auth.validBefore) <= now + 5n) throw refuse('authorization_expired', 'authorization.validBefore has passed');
    if (BigInt(auth.validBefore) > now + BigInt(MAX_VALIDITY_SECONDS)) {
      throw refuse('authorization_window_too_long', `authorization.validBefore must be at most ${MAX_VALIDITY_SECONDS} s from now`);
    }
    if (BigInt(auth.validAfter) > now) throw refuse('authorization_not_yet_valid', 'authorization.validAfter is in the future');
  }
}

/** The payload an HTTP payment header (X-PAYMENT or PAYMENT-SIGNATURE) carries, base64 JSON. */
export function decodePaymentHeader(header: string): PaymentPayload {
  let raw: unknown;
  try {
    raw = decodePaymentSignatureHeader(header.trim());
  } catch {
    throw new SibylError('payment_header_malformed', 'the payment header must be base64-encoded JSON');
  }
  return readPaymentPayload(raw);
}

/** An x402 v1 or v2 payment payload, checked: whatever carried it (a header, an A2A message) is untrusted. */
export function readPaymentPayload(raw: unknown): PaymentPayload {
  const parsed = parsePaymentPayload(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SibylError('payment_header_malformed', `not an x402 payment payload: ${issue ? `${issue.path.join('.') || 'payload'}: ${issue.message}` : 'invalid'}`);
  }
  return parsed.data as PaymentPayload;
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isAddressLike(value: unknown): value is string {
  return typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value);
}

/** The SDK's reasons with their scheme prefix dropped: `invalid_exact_evm_signature` → `invalid_signature`. */
function normaliseReason(reason: string | undefined): string {
  if (!reason) return 'payment_invalid';
  const short = reason.replace(/^invalid_exact_evm_(payload_)?/, '');
  const aliases: Record<string, string> = {
    nonce_already_used: 'nonce_already_used',
    signature: 'invalid_signature',
    insufficient_balance: 'insufficient_balance',
    authorization_valid_before: 'authorization_expired',
    authorization_valid_after: 'authorization_not_yet_valid',
    recipient_mismatch: 'recipient_mismatch',
    authorization_value_mismatch: 'amount_mismatch',
    network_mismatch: 'network_mismatch',
  };
  return aliases[short] ?? short;
}

const answerKey = (id: string) => `x402:answer:${id}`;

/** Secrets an answer issued (generated keys) are returned once and never kept: a resend reads them as not kept. */
function withoutSecrets(answer: Record<string, unknown>): Record<string, unknown> {
  const text = JSON.stringify(answer);
  return holdsIssued(text) ? (JSON.parse(redactIssued(text)) as Record<string, unknown>) : answer;
}

/** A resource without its origin: instances behind one service may be reached by different names. */
function resourcePath(url: string): string {
  try {
    const { pathname, search, hash } = new URL(url);
    return `${pathname}${search}${hash}`;
  } catch {
    return url;
  }
}

function readReservation(raw: string | null): Reservation | undefined {
  if (!raw?.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<Reservation>;
    return typeof value.owner === 'string' && typeof value.fingerprint === 'string' ? (value as Reservation) : undefined;
  } catch {
    return undefined;
  }
}

/** The authorization was used for another request or with another signature (never answered with that answer). */
function usedElsewhere(): PaymentRefused {
  return new PaymentRefused('nonce_already_used', 'nonce_already_used', 'this payment authorization was already used for another request; nothing was charged again');
}

/** The same payment is being answered (or its instance stopped moments ago): the same request sent again gets that answer. */
function inProgress(): SibylError {
  return new SibylError('payment_in_progress', 'this payment is being answered by another request; send the same request with the same payment again shortly for its answer (nothing is charged twice)', { retryAfterSeconds: 2 });
}

/** JSON with every object's keys sorted: one text for one value, however its keys were ordered. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}
