/**
 * Direct access to the forecast endpoint for holders of the service token (docs/skills.md, "Forecasts").
 *
 * The caller sends `X-Wallet`, `X-Timestamp` (unix milliseconds) and `X-Signature`, an EIP-191
 * personal-message signature by that wallet over exactly:
 *
 *   Sibyl forecast access
 *   wallet: <X-Wallet, lowercase>
 *   timestamp: <X-Timestamp>
 *   body: <keccak256 of the raw request body bytes, 0x-hex>
 *
 * A timestamp more than SIGNATURE_WINDOW_SECONDS from the server clock is stale, a signature
 * is accepted once (replay refused), and the wallet's service-token balance on Base picks its
 * tier and daily quota (UTC days), counted in the shared store so every instance agrees.
 * Everyone else gets a 402: the forecast paid per call with x402 on the same endpoint, and the
 * cheaper chart forecast beside it.
 */
import { erc20Abi, formatUnits, getAddress, isAddress, isHex, keccak256, verifyMessage, type Address, type Hex, type PublicClient } from 'viem';
import { SibylError } from '../core/errors.js';
import type { Store } from '../../store/store.js';

/** Tiers by service-token balance, dearest first; quotas are forecasts per UTC day. */
export const ACCESS_TIERS = [
  { tier: 'whale', minTokens: 1_000_000, dailyQuota: 20_000 },
  { tier: 'pro', minTokens: 10_000, dailyQuota: 1_000 },
  { tier: 'holder', minTokens: 1, dailyQuota: 50 },
] as const;
export const SIGNATURE_WINDOW_SECONDS = 60;

export type AccessTier = (typeof ACCESS_TIERS)[number];

export function accessMessage(wallet: string, timestamp: string | number, bodyHash: Hex): string {
  return `Sibyl forecast access\nwallet: ${wallet.toLowerCase()}\ntimestamp: ${timestamp}\nbody: ${bodyHash}`;
}

export function bodyHash(raw: Uint8Array): Hex {
  return keccak256(raw);
}

/** Refused for want of a quota: answered 402, payable per call, with the cheaper chart forecast beside. */
export class QuotaRequired extends Error {
  constructor(readonly reason: 'no_access_headers' | 'not_a_holder' | 'quota_exhausted', message: string, readonly wallet?: Address) {
    super(message);
  }
}

export interface Admission {
  readonly wallet: Address;
  readonly tier: AccessTier['tier'];
  readonly balance: string;
  readonly limit: number;
  readonly used: number;
  /** Unix seconds when the day's quota starts over. */
  readonly resetAt: number;
  readonly quotaKey: string;
}

export class ForecastAccess {
  constructor(
    private readonly store: Store,
    private readonly client: PublicClient,
    readonly token: Address,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Checks the headers and takes one unit of the day's quota; `refund` returns it. */
  async admit(headers: { wallet?: string; signature?: string; timestamp?: string }, rawBody: Uint8Array): Promise<Admission> {
    const { wallet, signature, timestamp } = headers;
    if (!wallet && !signature && !timestamp) throw new QuotaRequired('no_access_headers', 'no forecast quota: service-token holders call free with X-Wallet, X-Signature and X-Timestamp');
    if (!wallet || !isAddress(wallet)) throw new SibylError('signature_invalid', 'X-Wallet must be a 0x-prefixed 20-byte address');
    if (!timestamp || !/^\d{1,15}$/.test(timestamp)) throw new SibylError('signature_invalid', 'X-Timestamp must be unix time in milliseconds');
    if (!signature || !isHex(signature) || signature.length < 132) throw new SibylError('signature_invalid', 'X-Signature must be a 0x-hex EIP-191 signature');
    const skew = Math.abs(this.now() - Number(timestamp)) / 1000;
    if (skew > SIGNATURE_WINDOW_SECONDS) throw new SibylError('signature_stale', `X-Timestamp is ${Math.round(skew)} s from the server clock; the window is ${SIGNATURE_WINDOW_SECONDS} s`);
    const address = getAddress(wallet);
    let valid = false;
    try {
      valid = await verifyMessage({ address, message: accessMessage(address, timestamp, bodyHash(rawBody)), signature: signature as Hex });
    } catch {
      valid = false;
    }
    if (!valid) throw new SibylError('signature_invalid', 'X-Signature does not recover to X-Wallet over the access message for this timestamp and body');
    if (!(await this.store.reserve(`forecast:sig:${keccak256(signature as Hex)}`, address, 2 * SIGNATURE_WINDOW_SECONDS * 1000))) {
      throw new SibylError('signature_replayed', 'this access signature was already used; sign each request anew');
    }

    const [balance, decimals] = await Promise.all([this.balanceOf(address), this.decimals()]);
    const tokens = Number(formatUnits(balance, decimals));
    const tier = ACCESS_TIERS.find((t) => tokens >= t.minTokens);
    if (!tier) throw new QuotaRequired('not_a_holder', `${address} holds ${tokens} service tokens; at least ${ACCESS_TIERS[ACCESS_TIERS.length - 1]!.minTokens} is needed for a free quota`, address);

    const day = Math.floor(this.now() / 86_400_000);
    const quotaKey = `forecast:quota:${address.toLowerCase()}:${day}`;
    const used = await this.store.incrBy(quotaKey, 1, 2 * 86_400_000);
    const resetAt = (day + 1) * 86_400;
    if (used > tier.dailyQuota) {
      await this.store.incrBy(quotaKey, -1);
      throw new QuotaRequired('quota_exhausted', `the ${tier.tier} tier's ${tier.dailyQuota} forecasts for today are used; the quota starts over at ${new Date(resetAt * 1000).toISOString()}`, address);
    }
    return { wallet: address, tier: tier.tier, balance: formatUnits(balance, decimals), limit: tier.dailyQuota, used, resetAt, quotaKey };
  }

  /** Returns a unit of quota taken for a forecast that was not produced. */
  async refund(admission: Admission): Promise<void> {
    await this.store.incrBy(admission.quotaKey, -1);
  }

  private tokenDecimals: Promise<number> | undefined;

  /** The token's decimals, read once (FORECAST_TOKEN_ADDRESS may name any ERC-20). */
  private decimals(): Promise<number> {
    this.tokenDecimals ??= this.client.readContract({ address: this.token, abi: erc20Abi, functionName: 'decimals' }).catch((err) => {
      this.tokenDecimals = undefined;
      throw unreadable(err);
    });
    return this.tokenDecimals;
  }

  private balanceOf(wallet: Address): Promise<bigint> {
    return this.client.readContract({ address: this.token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] }).catch((err) => {
      throw unreadable(err);
    });
  }
}

function unreadable(err: unknown): SibylError {
  return new SibylError('upstream_unavailable', `the service token could not be read on Base: ${(err as Error).message.split('\n')[0]}`);
}
