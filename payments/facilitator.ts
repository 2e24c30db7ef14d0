/**
 * Verification and settlement. By default the `@x402/evm` exact-scheme facilitator runs in
 * process against the configured Base chain, settling with Sibyl's own key; with
 * X402_FACILITATOR_URL set, a remote facilitator does both over HTTP.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createPublicClient, createWalletClient, getAddress, http, type Hex } from 'viem';
import { createNonceManager, privateKeyToAccount } from 'viem/accounts';
import { jsonRpc } from 'viem/nonce';
import { x402Facilitator } from '@x402/core/facilitator';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { SettleError, VerifyError, type PaymentPayload, type PaymentRequirements, type SettleResponse, type VerifyResponse } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import type { ConnectedChain } from '../chain/runtime.js';
import { BatchSettler, STORE_UNAVAILABLE, isBatchableSignature, type ExactAuthorizationArgs } from './batch-settler.js';

export { STORE_UNAVAILABLE };
import { sharedNonceManager, withFreshNonce } from './settler-nonces.js';
import type { Store } from '../store/store.js';
import { isStoreOutage } from '../store/outage.js';
import { X402_NETWORK } from './terms.js';
import { isUnreachable, PAYMENT_RPC_TIMEOUT_MS, PAYMENT_RPC_RETRIES, PAYMENT_SEND_TIMEOUT_MS, VERIFY_DEADLINE_MS, withDeadline } from './upstream.js';

export interface Facilitator {
  readonly kind: 'local' | 'remote';
  /** The verdict on a payment; throws when the chain or the facilitator cannot be reached (no verdict). */
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

export interface LocalFacilitator extends Facilitator {
  readonly settler: Hex;
  /** The supported-kinds answer, so the same instance can back the SDK's own middleware. */
  getSupported(): ReturnType<x402Facilitator['getSupported']>;
  /** Starts the settler's nonces again from the chain's count (it lost blocks in a restart). */
  forgetNonces(): Promise<void>;
}

/**
 * @param settleBatchMax most EIP-3009 settlements one transaction may carry (1 settles each
 * payment alone through the SDK, exactly as the stock facilitator does).
 * @param store where the settler's nonces are counted, shared by every instance using the key.
 */
export function localFacilitator(chain: ConnectedChain, settlerKey: Hex, confirmationTimeoutMs: number, settleBatchMax = 1, store?: Store): LocalFacilitator {
  // One count for every instance settling with this key (through the store); without a store,
  // this facilitator's own (viem's default is one per process, shared by facilitators in it).
  const shared = store && sharedNonceManager(store);
  const nonceManager = shared ?? createNonceManager({ source: jsonRpc() });
  const account = privateKeyToAccount(settlerKey, { nonceManager });
  const pollingInterval = chain.source === 'embedded' ? 20 : 1_000;
  // Reads are bounded and retried once; sends are never retried by the transport (a retried
  // send that had landed would look like a nonce refusal and be sent again).
  const client = createPublicClient({
    chain: chain.chain,
    transport: http(chain.rpcUrl, { batch: { wait: 0 }, retryCount: PAYMENT_RPC_RETRIES, timeout: PAYMENT_RPC_TIMEOUT_MS }),
    pollingInterval,
  });
  const wallet = createWalletClient({ account, chain: chain.chain, transport: http(chain.rpcUrl, { retryCount: 0, timeout: PAYMENT_SEND_TIMEOUT_MS }), pollingInterval });
  // Drops what was counted; with `resync`, starts the sequence again from the chain's count.
  const forget = async (resync: boolean) => {
    const who = { address: account.address, chainId: chain.spec.chainId };
    if (resync && shared) await shared.resync(client, who.address, who.chainId);
    else nonceManager.reset(who);
  };
  // A send the store failed (no nonce to give) is noted for the SDK's settle, which hides the cause.
  const send = <T>(run: () => Promise<T>) => withFreshNonce(run, forget).catch((err: unknown) => {
    const scope = verifying.getStore();
    if (scope && isStoreOutage(err)) scope.storeFailure = err;
    throw err;
  });

  // A verification's transport failures, so an unreachable chain is not taken for a bad signature.
  const verifying = new AsyncLocalStorage<{ failure?: unknown; storeFailure?: unknown }>();
  const read = <A, R>(call: (args: A) => Promise<R>) => async (args: A): Promise<R> => {
    const scope = verifying.getStore();
    if (scope?.failure) throw scope.failure; // the chain already failed this verification: do not wait again
    try {
      return await call(args);
    } catch (err) {
      if (scope && isUnreachable(err)) scope.failure = err;
      throw err;
    }
  };
  const cachedCode = codeCache((args) => client.getCode(args));
  const readCode = read(cachedCode);
  // The SDK starts its asset-code check without always awaiting it: inside a verification (or the
  // SDK's settle, which verifies again) a failed read answers "no code" (the failure is recorded,
  // so the verdict is discarded) rather than leaving a rejection nobody handles.
  const getCode = (args: { address: `0x${string}` }) => (verifying.getStore() ? readCode(args).catch(() => undefined) : cachedCode(args));
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: read((args) => client.readContract(args as never)),
      verifyTypedData: read((args) => client.verifyTypedData(args as never)),
      writeContract: (args) => send(() => wallet.writeContract(args as never)),
      sendTransaction: (args) => send(() => wallet.sendTransaction(args as never)),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
      getCode,
    },
    { confirmationTimeoutMs },
  );
  const facilitator = registerExactEvmScheme(new x402Facilitator(), { signer, networks: X402_NETWORK });
  const batcher = settleBatchMax > 1
    ? new BatchSettler(wallet as never, client as never, getAddress(chain.spec.usdc), confirmationTimeoutMs, settleBatchMax, send)
    : undefined;
  return {
    kind: 'local',
    settler: account.address,
    verify: (payload, requirements) => {
      const scope: { failure?: unknown } = {};
      return withDeadline(VERIFY_DEADLINE_MS, 'payment verification', verifying.run(scope, async () => {
        const verdict = await facilitator.verify(payload, requirements);
        // The SDK turns a failed read into an invalid verdict: with the chain unreachable there is no verdict.
        if (scope.failure) throw new Error(`${chain.name} unreachable: ${firstLine(scope.failure)}`);
        return verdict;
      }));
    },
    settle: async (payload, requirements) => {
      const exact = payload.payload as { authorization?: ExactAuthorizationArgs; signature?: unknown };
      // Only plain EOA payments are batched; contract wallets (code at the payer) and v1
      // payloads settle alone through the SDK facilitator, exactly as it would settle them.
      if (batcher && payload.x402Version === 2 && exact.authorization && typeof exact.signature === 'string' &&
          isBatchableSignature(exact.signature) && !hasCode(await getCode({ address: exact.authorization.from }))) {
        return batcher.settle(exact.authorization, exact.signature as Hex);
      }
      // The SDK verifies again before sending: an unreachable chain there is no answer either (thrown:
      // undecided, for the ledger), not a refusal.
      const scope: { failure?: unknown; storeFailure?: unknown } = {};
      return verifying.run(scope, async () => {
        const result = await facilitator.settle(payload, requirements);
        if (!result.success && scope.storeFailure) return { ...result, success: false, errorReason: STORE_UNAVAILABLE, errorMessage: firstLine(scope.storeFailure), transaction: '' };
        if (!result.success && scope.failure) throw new Error(`${chain.name} unreachable: ${firstLine(scope.failure)}`);
        return result;
      });
    },
    getSupported: () => facilitator.getSupported(),
    forgetNonces: () => forget(true),
  };
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
}

function hasCode(code: Hex | undefined): boolean {
  return code !== undefined && code !== '0x';
}

/**
 * The SDK reads a payer's code twice per verification (ERC-6492 classification, then the
 * signature check); remembering it for a second halves those reads without letting a stale
 * answer outlive the request that asked.
 */
function codeCache(getCode: (args: { address: `0x${string}` }) => Promise<Hex | undefined>) {
  const TTL_MS = 1_000;
  const entries = new Map<string, { at: number; code: Promise<Hex | undefined> }>();
  return (args: { address: `0x${string}` }) => {
    const now = Date.now();
    const key = args.address.toLowerCase();
    const hit = entries.get(key);
    if (hit && now - hit.at < TTL_MS) return hit.code;
    if (entries.size > 10_000) for (const [k, e] of entries) if (now - e.at >= TTL_MS) entries.delete(k);
    const code = getCode(args);
    entries.set(key, { at: now, code });
    code.catch(() => entries.delete(key));
    return code;
  };
}

/**
 * A facilitator over HTTP. Its refusals (a 4xx carrying a verdict) are verdicts; a facilitator
 * that cannot be reached, times out or fails on its side (5xx) throws: no verdict, nothing charged.
 */
export function remoteFacilitator(url: string, confirmationTimeoutMs: number): Facilitator {
  const verifier = new HTTPFacilitatorClient({ url, timeoutMs: VERIFY_DEADLINE_MS });
  // Settling waits for the transaction's receipt on the facilitator's side.
  const settler = new HTTPFacilitatorClient({ url, timeoutMs: confirmationTimeoutMs + PAYMENT_RPC_TIMEOUT_MS });
  return {
    kind: 'remote',
    verify: async (payload, requirements) => {
      try {
        return await verifier.verify(payload, requirements);
      } catch (err) {
        if (err instanceof VerifyError && err.statusCode < 500) {
          return { isValid: false, invalidReason: err.invalidReason, invalidMessage: err.invalidMessage, payer: err.payer } as VerifyResponse;
        }
        throw err;
      }
    },
    settle: async (payload, requirements) => {
      try {
        return await settler.settle(payload, requirements);
      } catch (err) {
        // A refusal is an answer; anything else may have reached the chain and stays undecided (thrown).
        if (err instanceof SettleError && err.statusCode < 500) {
          return { success: false, errorReason: err.errorReason, errorMessage: err.errorMessage, payer: err.payer, transaction: err.transaction ?? '', network: err.network ?? X402_NETWORK } as SettleResponse;
        }
        throw err;
      }
    },
  };
}
