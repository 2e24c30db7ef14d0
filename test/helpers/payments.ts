/** Hand-built x402 payloads, for the cases the official client would never produce. */
import { bytesToHex, getAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { randomBytes } from 'node:crypto';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { CHAINS } from '../../chain/chains.js';
import { X402_NETWORK } from '../../payments/terms.js';

const authorizationTypes = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

export interface PaymentSpec {
  key: Hex;
  payTo: Address;
  amount: bigint;
  /** What the accepted requirement claims; defaults to `amount`. */
  acceptedAmount?: bigint;
  network?: string;
  chainId?: number;
  validAfter?: bigint;
  validBefore?: bigint;
  nonce?: Hex;
  /** Sign with this key instead of the payer's (a forged signature). */
  signerKey?: Hex;
  version?: 1 | 2;
}

export async function signedPayment(spec: PaymentSpec): Promise<{ header: string; payload: PaymentPayload; nonce: Hex }> {
  const payer = privateKeyToAccount(spec.key);
  const signer = privateKeyToAccount(spec.signerKey ?? spec.key);
  const now = BigInt(Math.floor(Date.now() / 1000));
  const nonce = spec.nonce ?? bytesToHex(randomBytes(32));
  const authorization = {
    from: payer.address,
    to: getAddress(spec.payTo),
    value: spec.amount.toString(),
    validAfter: (spec.validAfter ?? now - 600n).toString(),
    validBefore: (spec.validBefore ?? now + 300n).toString(),
    nonce,
  };
  const signature = await signer.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: spec.chainId ?? 8453, verifyingContract: CHAINS.base.usdc },
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    },
  });
  const payload = (spec.version === 1
    ? { x402Version: 1, scheme: 'exact', network: spec.network ?? 'base', payload: { authorization, signature } }
    : {
        x402Version: 2,
        accepted: {
          scheme: 'exact',
          network: spec.network ?? X402_NETWORK,
          amount: (spec.acceptedAmount ?? spec.amount).toString(),
          asset: CHAINS.base.usdc,
          payTo: spec.payTo,
          maxTimeoutSeconds: 300,
          extra: { name: 'USD Coin', version: '2' },
        },
        payload: { authorization, signature },
      }) as PaymentPayload;
  return { header: encodePaymentSignatureHeader(payload), payload, nonce };
}
