/**
 * The x402 gate, independent of any HTTP framework. For one priced request it:
 * reads the payment payload (x402 v1 or v2, from a header or a message), refuses what
 * can be refused locally (wrong scheme, network, asset, recipient, amount, time window)
 * without touching the chain, reserves the authorization in the store atomically (a replay,
 * even a concurrent one on another instance, is refused there), verifies with the
 * facilitator, and later settles only when the caller reports a successful answer.
 */
import { getAddress, isAddressEqual, type Address, type Hex } from 'viem';
import { decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import { parsePaymentPayload } from '@x402/core/schemas';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { SibylError } from '../skills/core/errors.js';
import type { Store } from '../store/store.js';
import type { Facilitator } from './facilitator.js';
import { Outbox } from './outbox.js';
import type { PendingSettlement, SettlementLedger, SettlementRecord } from './settlements.js';
import {
  X402_NETWORK, X402_NETWORK_V1, paymentRequired, requirementsV1, requirementsV2,
  type PaymentTerms, type Resource,
} from './terms.js';

/** Longest time from now to an authorization's validBefore accepted: its replay reservation lives that long. */
export const MAX_VALIDITY_SECONDS = 86_400;

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
  ) {}

  /** Runs `listener` for each pending settlement that reconciliation later finds settled. */
  onSettled(listener: (record: SettlementRecord) => Promise<void>): void {
    this.ledger.onSettled(listener);
  }

  /** Settlements not decided yet, oldest first (for /healthz and operators). */
  pendingSettlements(): Promise<PendingSettlement[]> {
    return this.ledger.pendingReport();
  }

  challenge(amount: bigint, resource: Resource, refusal?: PaymentRefused): Challenge {
    const body = paymentRequired(this.terms, amount, resource, refusal?.reason);
    return {
      status: 402,
      headers: { 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(body) },
      body: refusal ? { ...body, code: refusal.code, message: refusal.message } : body,
    };
  }

  /** Checks, reserves and verifies a decoded payload. Throws SibylError (400) or PaymentRefused (402). */
  async authorize(payload: PaymentPayload, amount: bigint, resource: Resource): Promise<Authorization> {
    const requirements = payload.x402Version === 1
      ? (requirementsV1(this.terms, amount, resource) as unknown as PaymentRequirements)
      : requirementsV2(this.terms, amount);
    const auth = this.checkLocally(payload, amount);

    const payer = getAddress(auth.from);
    const nonce = auth.nonce as Hex;
    const validBefore = BigInt(auth.validBefore);
    const reservationKey = `x402:auth:${this.chainId}:${this.terms.asset.toLowerCase()}:${payer.toLowerCase()}:${nonce.toLowerCase()}`;
    const ttlMs = Math.max(60_000, Number(validBefore) * 1000 - Date.now() + 60_000);
    if (!(await this.store.reserve(reservationKey, resource.url, ttlMs))) {
      throw new PaymentRefused('nonce_already_used', 'nonce_already_used', 'this payment authorization was already presented');
    }

    let verdict;
    try {
      verdict = await this.facilitator.verify(payload, requirements);
    } catch (err) {
      await this.store.delete(reservationKey);
      throw new SibylError('upstream_unavailable', `payment verification unavailable: ${(err as Error).message}`);
    }
    if (!verdict.isValid) {
      await this.store.delete(reservationKey);
      const reason = normaliseReason(verdict.invalidReason);
      throw new PaymentRefused(reason === 'nonce_already_used' ? 'nonce_already_used' : 'payment_invalid', reason, this.oneLine(verdict.invalidMessage, `payment refused: ${reason}`, `payment verification refused (${reason})`));
    }
    return { payload, requirements, payer, nonce, validBefore, amount, reservationKey, resource };
  }

  /** Gives the reservation back: the work failed, so the authorization was never used. */
  async release(authorization: Authorization): Promise<void> {
    await this.store.delete(authorization.reservationKey);
  }

  /**
   * Settles on chain. Throws PaymentRefused when the transfer did not happen. Once it happened
   * (or may have: pending) nothing the store does can fail the answer: the ledger record goes
   * through the outbox, which keeps it until the store takes it.
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
      // Nothing moved: the authorization may be presented again once its reservation is gone.
      await this.outbox.submit('reservation-release', { key: authorization.reservationKey }, () => this.release(authorization));
      const reason = normaliseReason(settlement.errorReason);
      throw new PaymentRefused('settlement_failed', reason, this.oneLine(settlement.errorMessage, `settlement failed: ${reason}`, `settlement failed (${reason})`));
    }
    const record: SettlementRecord = {
      status: pending ? 'pending' : 'settled',
      transaction: settlement.transaction as Hex,
      payer: authorization.payer,
      nonce: authorization.nonce,
      amount: authorization.amount.toString(),
      validBefore: authorization.validBefore.toString(),
      resource: authorization.resource.url,
      recordedAt: new Date().toISOString(),
      // A pending one carries what it takes to submit it again, from any instance.
      ...(pending && { reason: settlement.errorMessage, payload: authorization.payload, requirements: authorization.requirements }),
    };
    await this.outbox.submit(`settlement-${record.status}`, record, () => this.ledger.record(record));
    const encoded = encodePaymentResponseHeader(settlement);
    return { settlement, pending, payer: authorization.payer, nonce: authorization.nonce, headers: { 'PAYMENT-RESPONSE': encoded, 'X-PAYMENT-RESPONSE': encoded } };
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

  private checkLocally(payload: PaymentPayload, amount: bigint): ExactAuthorization {
    const refuse = (reason: string, message: string) => new PaymentRefused('payment_invalid', reason, message);
    const { authorization: auth, signature } = payload.payload as { authorization?: ExactAuthorization; signature?: unknown };
    if (!auth || typeof auth !== 'object' || !isAddressLike(auth.from) || !isAddressLike(auth.to) || !isString(auth.nonce) || !/^0x[0-9a-fA-F]{64}$/.test(auth.nonce) ||
        ![auth.value, auth.validAfter, auth.validBefore].every((n) => isString(n) && /^\d{1,78}$/.test(n))) {
      throw new SibylError('payment_header_malformed', 'payload.authorization must carry from, to, value, validAfter, validBefore and a 32-byte nonce');
    }
    if (!isString(signature) || !/^0x(?:[0-9a-fA-F]{2})+$/.test(signature)) {
      const rule = 'must be a 0x-prefixed hex string';
      throw new SibylError('payment_header_malformed', `payload.signature ${rule}`, { fields: [{ field: 'payload.signature', rule }] });
    }
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
    return auth;
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
