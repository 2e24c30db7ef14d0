/**
 * What Sibyl asks for (x402 v2; docs/protocols.md, "Paying with x402"): scheme `exact`, network `eip155:8453`, USDC at
 * the chain's address, exact atomic amount, recipient, timeout, and the EIP-712 domain of
 * the token. Also the v1 shape, for clients that still pay with x402 v1 payloads.
 */
import type { Address } from 'viem';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import type { PaymentRequirementsV1 } from '@x402/core/schemas';
import { CHAINS, PAYMENT_CHAIN } from '../chain/chains.js';
import { USDC_DECIMALS } from '../skills/core/money.js';

export const X402_NETWORK = `eip155:${CHAINS[PAYMENT_CHAIN].chainId}` as const;
export const X402_NETWORK_V1 = PAYMENT_CHAIN;
export const USDC_EIP712 = { name: 'USD Coin', version: '2' } as const;
/** The asset every price is paid in, as documents name it. */
export const PAYMENT_ASSET_SYMBOL = 'USDC' as const;

export interface PaymentTerms {
  readonly asset: Address;
  readonly payTo: Address;
  readonly maxTimeoutSeconds: number;
}

export interface Resource {
  readonly url: string;
  readonly description: string;
  readonly mimeType: string;
}

export function requirementsV2(terms: PaymentTerms, amount: bigint): PaymentRequirements {
  return {
    scheme: 'exact',
    network: X402_NETWORK,
    amount: amount.toString(),
    asset: terms.asset,
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    extra: { ...USDC_EIP712 },
  };
}

export function requirementsV1(terms: PaymentTerms, amount: bigint, resource: Resource): PaymentRequirementsV1 {
  return {
    scheme: 'exact',
    network: X402_NETWORK_V1,
    maxAmountRequired: amount.toString(),
    resource: resource.url,
    description: resource.description,
    mimeType: resource.mimeType,
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    asset: terms.asset,
    extra: { ...USDC_EIP712 },
  };
}

export function paymentRequired(terms: PaymentTerms, amount: bigint, resource: Resource, error?: string): PaymentRequired {
  return {
    x402Version: 2,
    ...(error && { error }),
    resource: { ...resource },
    accepts: [requirementsV2(terms, amount)],
  } as PaymentRequired;
}

/** The payment requirement record, as published in OpenAPI and the catalogue. */
export function requirementRecord(terms: PaymentTerms, priceUsd: string) {
  return {
    required: true,
    scheme: 'exact',
    price: `$${priceUsd}`,
    network: X402_NETWORK,
    asset: 'USDC',
    assetAddress: terms.asset,
    decimals: USDC_DECIMALS,
  } as const;
}

/** The fixed-price record, as published in OpenAPI and the catalogue. */
export function fixedPriceRecord(priceUsd: string) {
  return { protocol: 'x402', mode: 'fixed', currency: 'USD', amount: priceUsd } as const;
}
