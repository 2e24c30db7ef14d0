/**
 * The anchor's facilitator: `@x402/evm`'s exact scheme on an `x402Facilitator`, over a viem
 * wallet client, wired the way the x402 examples wire it (none of Sibyl's timeouts, shared
 * nonces, known fees or batching), so the stock server is measured as shipped.
 */
import { createWalletClient, http, publicActions, type Hex } from 'viem';
import { nonceManager, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { X402_NETWORK } from '../../payments/terms.js';

export function stockFacilitator(rpcUrl: string, key: Hex): x402Facilitator {
  // viem's nonce manager, as viem documents for concurrent sends from one key (without it
  // concurrent settlements take the same nonce and most fail).
  const account = privateKeyToAccount(key, { nonceManager });
  const client = createWalletClient({ account, chain: base, transport: http(rpcUrl) }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) => client.readContract(args as never),
    verifyTypedData: (args) => client.verifyTypedData(args as never),
    writeContract: (args) => client.writeContract(args as never),
    sendTransaction: (args) => client.sendTransaction(args as never),
    waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
    getCode: (args) => client.getCode(args),
  });
  return registerExactEvmScheme(new x402Facilitator(), { signer, networks: X402_NETWORK });
}
