/**
 * Group-commit settlement: while one settlement transaction is in flight, new authorizations
 * queue; when it lands, everything queued goes out as one Multicall3 `aggregate3` transaction
 * of `transferWithAuthorization` calls (EIP-3009 lets any caller submit them). At low load each
 * payment settles alone, exactly as before; under load, many share one transaction and one
 * receipt wait. Each payment's outcome is read from its own `AuthorizationUsed` event, so one
 * failed call never hides or fakes another.
 */
import {
  BaseError, FeeCapTooLowError, HttpRequestError, TimeoutError, encodeFunctionData, getAddress, isAddressEqual, parseAbi, parseEventLogs, parseSignature,
  type Address, type Hash, type Hex, type PrivateKeyAccount, type PublicClient, type WalletClient,
} from 'viem';
import type { SettleResponse } from '@x402/core/types';
import { MULTICALL3_ADDRESS } from '../chain/chains.js';
import { isStoreOutage } from '../store/outage.js';
import { GAP_CHECK_MS, fillNonceGapBelow } from './nonce-gaps.js';
import { SettlerFees, batchGasLimit } from './settler-fees.js';
import { X402_NETWORK } from './terms.js';

const usdcAbi = parseAbi([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
]);
const aggregate3Abi = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
]);

export interface ExactAuthorizationArgs {
  from: Address;
  to: Address;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
}

interface Queued {
  auth: ExactAuthorizationArgs;
  callData: Hex;
  resolve: (r: SettleResponse) => void;
}

/**
 * A settlement's errorReason when the shared store could not hand the settler a nonce: nothing
 * was signed or sent, so nothing was charged (answered 503, never `settlement_failed`).
 */
export const STORE_UNAVAILABLE = 'store_unavailable';

/** True for a plain 65-byte ECDSA signature, the only kind batched (contract wallets settle alone). */
export function isBatchableSignature(signature: string): boolean {
  return /^0x[0-9a-fA-F]{130}$/.test(signature);
}

export class BatchSettler {
  private queue: Queued[] = [];
  private inFlight = false;

  constructor(
    private readonly wallet: WalletClient & { account: PrivateKeyAccount },
    private readonly client: PublicClient,
    private readonly asset: Address,
    private readonly confirmationTimeoutMs: number,
    private readonly maxBatch: number,
    /** Runs a send, again with a fresh nonce while the node refuses the nonce (another instance took it). */
    private readonly withNonce: <T>(send: () => Promise<T>) => Promise<T> = (send) => send(),
    private readonly fees = new SettlerFees(client),
    private readonly log: (msg: string) => void = () => {},
  ) {}

  settle(auth: ExactAuthorizationArgs, signature: Hex): Promise<SettleResponse> {
    const { v, r, s, yParity } = parseSignature(signature);
    const callData = encodeFunctionData({
      abi: usdcAbi,
      functionName: 'transferWithAuthorization',
      args: [auth.from, auth.to, BigInt(auth.value), BigInt(auth.validAfter), BigInt(auth.validBefore), auth.nonce, Number(v ?? BigInt(yParity + 27)), r, s],
    });
    return new Promise((resolve) => {
      this.queue.push({ auth, callData, resolve });
      // Let same-tick arrivals join before the first send.
      if (!this.inFlight) setImmediate(() => this.flush());
    });
  }

  private async flush(): Promise<void> {
    if (this.inFlight || !this.queue.length) return;
    this.inFlight = true;
    const batch = this.queue.splice(0, this.maxBatch);
    try {
      await this.send(batch);
    } finally {
      this.inFlight = false;
      if (this.queue.length) void this.flush();
    }
  }

  private async send(batch: Queued[]): Promise<void> {
    const answer = (q: Queued, r: Omit<SettleResponse, 'network' | 'payer'>) => q.resolve({ network: X402_NETWORK, payer: q.auth.from, ...r });
    const calls = batch.map((q) => ({ target: this.asset, allowFailure: true, callData: q.callData }));
    const request = { address: MULTICALL3_ADDRESS, abi: aggregate3Abi, functionName: 'aggregate3', args: [calls], account: this.wallet.account, chain: this.wallet.chain } as const;
    // Chain id, gas, fees (settler-fees.ts) and nonce (the nonce manager) are known before the
    // send, so viem fills nothing from the node (eth_fillTransaction; chainId reaches the request
    // it prepares): a settlement asks the node twice, for the raw transaction and its receipt.
    const known = { chainId: this.wallet.chain!.id, gas: batchGasLimit(batch.length) };
    const write = async () => this.wallet.writeContract({ ...request, ...known, ...(await this.fees.current()) });
    let hash: Hash;
    try {
      hash = await this.withNonce(async () => {
        try {
          return await write();
        } catch (err) {
          // A fee read too long ago for the block: once more with a fresh one.
          if (!(err instanceof BaseError && err.walk((e) => e instanceof FeeCapTooLowError))) throw err;
          this.fees.forget();
          return write();
        }
      });
    } catch (err) {
      // The shared store gave no nonce: nothing was signed or sent (the paywall answers 503).
      if (isStoreOutage(err)) {
        for (const q of batch) answer(q, { success: false, errorReason: STORE_UNAVAILABLE, errorMessage: firstLine(err), transaction: '' });
        return;
      }
      // A node that answered with a rejection (funds, nonce, gas) took nothing; a lost or
      // timed-out request may have reached the chain: indeterminate, for the ledger to decide.
      const indeterminate = !(err instanceof BaseError) || !!err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError);
      for (const q of batch) {
        answer(q, { success: false, errorReason: indeterminate ? 'settlement_pending' : 'transaction_failed', errorMessage: firstLine(err), transaction: '' });
      }
      return;
    }
    let receipt;
    try {
      receipt = await this.receiptOf(hash);
    } catch (err) {
      // Broadcast but unconfirmed: indeterminate, for the ledger to reconcile.
      for (const q of batch) answer(q, { success: false, errorReason: 'settlement_pending', errorMessage: firstLine(err), transaction: hash });
      return;
    }
    const used = parseEventLogs({ abi: usdcAbi, eventName: 'AuthorizationUsed', logs: receipt.logs.filter((l) => isAddressEqual(l.address, this.asset)) });
    for (const q of batch) {
      const settled = receipt.status === 'success' && used.some((l) => isAddressEqual(l.args.authorizer, getAddress(q.auth.from)) && l.args.nonce.toLowerCase() === q.auth.nonce.toLowerCase());
      answer(q, settled ? { success: true, transaction: hash } : { success: false, errorReason: 'transaction_failed', transaction: hash });
    }
  }

  /** The receipt, filling a nonce gap below the transaction if it is still unmined after GAP_CHECK_MS. */
  private async receiptOf(hash: Hash) {
    const gapCheck = setTimeout(() => {
      void this.fees.current()
        .then((fees) => fillNonceGapBelow(this.wallet, this.client, hash, fees))
        .then((filled) => filled && this.log(`settlement ${hash} waited behind a nonce gap: ${filled} filler transaction(s) sent`))
        .catch(() => {}); // the wait below still decides: receipt, or pending for the ledger
    }, GAP_CHECK_MS);
    try {
      return await this.client.waitForTransactionReceipt({ hash, timeout: this.confirmationTimeoutMs });
    } finally {
      clearTimeout(gapCheck);
    }
  }
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
}
