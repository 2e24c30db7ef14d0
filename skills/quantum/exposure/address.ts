/**
 * Which kind of address a quantum-exposure request names: an EVM account (0x + 40 hex) or a
 * Bitcoin mainnet address whose checksum holds (base58check P2PKH/P2SH, bech32 P2WPKH/P2WSH,
 * bech32m P2TR), decoded by @scure/btc-signer. Decided from the string alone, before payment.
 */
import { Address as BtcAddress, NETWORK } from '@scure/btc-signer';
import { getAddress } from 'viem';

/** Bitcoin output types an address can name, in Esplora's spelling of scriptpubkey_type. */
export type BitcoinAddressType = 'p2pkh' | 'p2sh' | 'v0_p2wpkh' | 'v0_p2wsh' | 'v1_p2tr';

export type ParsedAddress =
  | { readonly kind: 'evm'; readonly address: `0x${string}` }
  | {
      readonly kind: 'bitcoin';
      readonly address: string;
      readonly type: BitcoinAddressType;
      /** What the address commits to: the key or script hash (20/32 bytes), or the taproot output key (32 bytes, x-only). */
      readonly payload: Uint8Array;
    };

const DECODED_TYPE: Record<string, BitcoinAddressType> = { pkh: 'p2pkh', sh: 'p2sh', wpkh: 'v0_p2wpkh', wsh: 'v0_p2wsh', tr: 'v1_p2tr' };

/** The address parsed, or a sentence saying why it is not one this service reads. */
export function parseAddress(raw: string): ParsedAddress | { readonly error: string } {
  const s = raw.trim();
  if (/^0x[0-9a-fA-F]{40}$/.test(s)) return { kind: 'evm', address: getAddress(s) };
  if (/^0x/i.test(s)) return { error: 'an EVM address is 0x followed by 40 hex characters' };
  // Bech32 is case-insensitive but never mixed; Esplora and every wallet write it lower-case.
  const candidate = /^bc1/i.test(s) && (s === s.toUpperCase() || s === s.toLowerCase()) ? s.toLowerCase() : s;
  let decoded: ReturnType<ReturnType<typeof BtcAddress>['decode']>;
  try {
    decoded = BtcAddress(NETWORK).decode(candidate);
  } catch (err) {
    return { error: `not a Bitcoin mainnet address (${(err as Error).message}); expected base58check (1…, 3…), bech32 (bc1q…) or bech32m (bc1p…)` };
  }
  const type = DECODED_TYPE[decoded.type];
  if (!type) return { error: `Bitcoin address of type ${decoded.type} is not one this scan reads` };
  const payload = 'hash' in decoded ? decoded.hash : 'pubkey' in decoded ? decoded.pubkey : null;
  if (!payload) return { error: 'Bitcoin address without a payload' };
  return { kind: 'bitcoin', address: candidate, type, payload: payload as Uint8Array };
}

/** The address parsed; throws where `parseAddress` gives an error (for callers that validated already). */
export function parsedAddress(raw: string): ParsedAddress {
  const parsed = parseAddress(raw);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed;
}

/** How two requests name the same wallet: EVM lower-case, Bitcoin as decoded (bech32 lower-case). */
export function canonicalAddress(raw: string): string {
  const parsed = parsedAddress(raw);
  return parsed.kind === 'evm' ? parsed.address.toLowerCase() : parsed.address;
}
