/**
 * Verification and settlement. By default the `@x402/evm` exact-scheme facilitator runs in
 * process against the configured Base chain, settling with Sibyl's own key; with
 * X402_FACILITATOR_URL set, a remote facilitator does both over HTTP.
 */
import { createWalletClient, getAddress, http, publicActions, type Hex } from 'viem';
import { nonceManager, privateKeyToAccount } from 'viem/accounts';
import { x402Facilitator } from '@x402/core/facilitator';
import { HTTPFacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import type { ConnectedChain } from '../chain/runtime.js';
import { BatchSettler, isBatchableSignature, type ExactAuthorizationArgs } from './batch-settler.js';
import { X402_NETWORK } from './terms.js';

export interface Facilitator {
  readonly kind: 'local' | 'remote';
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

export interface LocalFacilitator extends Facilitator {
  readonly settler: Hex;
  /** The supported-kinds answer, so the same instance can back the SDK's own middleware. */
  getSupported(): ReturnType<x402Facilitator['getSupported']>;
}

/**
 * @param settleBatchMax most EIP-3009 settlements one transaction may carry (1 settles each
 * payment alone through the SDK, exactly as the stock facilitator does).
 */
export function localFacilitator(chain: ConnectedChain, settlerKey: Hex, confirmationTimeoutMs: number, settleBatchMax = 1): LocalFacilitator {
  const account = privateKeyToAccount(settlerKey, { nonceManager });
  const client = createWalletClient({
    account,
    chain: chain.chain,
    transport: http(chain.rpcUrl, { batch: { wait: 0 }, retryCount: 2 }),
    pollingInterval: chain.source === 'embedded' ? 20 : 1_000,
  }).extend(publicActions);
  const getCode = codeCache((args) => client.getCode(args));
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (args) => client.readContract(args as never),
      verifyTypedData: (args) => client.verifyTypedData(args as never),
      writeContract: (args) => client.writeContract(args as never),
      sendTransaction: (args) => client.sendTransaction(args),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
      getCode,
    },
    { confirmationTimeoutMs },
  );
  const facilitator = registerExactEvmScheme(new x402Facilitator(), { signer, networks: X402_NETWORK });
  const batcher = settleBatchMax > 1
    ? new BatchSettler(client as never, client as never, getAddress(chain.spec.usdc), confirmationTimeoutMs, settleBatchMax)
    : undefined;
  return {
    kind: 'local',
    settler: account.address,
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: async (payload, requirements) => {
      const exact = payload.payload as { authorization?: ExactAuthorizationArgs; signature?: unknown };
      // Only plain EOA payments are batched; contract wallets (code at the payer) and v1
      // payloads settle alone through the SDK facilitator, exactly as it would settle them.
      if (batcher && payload.x402Version === 2 && exact.authorization && typeof exact.signature === 'string' &&
          isBatchableSignature(exact.signature) && !hasCode(await getCode({ address: exact.authorization.from }))) {
        return batcher.settle(exact.authorization, exact.signature as Hex);
      }
      return facilitator.settle(payload, requirements);
    },
    getSupported: () => facilitator.getSupported(),
  };
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

export function remoteFacilitator(url: string): Facilitator {
  const client = new HTTPFacilitatorClient({ url });
  return {
    kind: 'remote',
    verify: (payload, requirements) => client.verify(payload, requirements),
    settle: (payload, requirements) => client.settle(payload, requirements),
  };
}
