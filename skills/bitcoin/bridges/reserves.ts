/**
 * Proof of reserves of a wrapped BTC: the confirmed balance of every Bitcoin address its
 * custodian publishes (the entities list: kind `custodian`, `backs` the token's symbol), read
 * through the Esplora API (/address/:a, chain_stats funded − spent; the mempool is not counted),
 * against the wrapped supply summed over the EVM chains read. Without a Bitcoin chain, or without
 * a published custody address, the reserves are `available: false` with the reason.
 */
import { formatUnits, parseUnits } from 'viem';
import type { BitcoinSource } from '../../../chain/bitcoin.js';
import { round } from '../../data/market.js';

export interface ReserveAddress {
  address: string;
  btc: string;
}

export interface Reserves {
  available: boolean;
  reason: string | null;
  /** Confirmed BTC in the custody addresses (decimal string), null when unavailable. */
  btc: string | null;
  /** Wrapped supply summed over the chains read (whole tokens, decimal string). */
  wrapped: string;
  /** The chains summed: supply on chains this deployment does not connect is not in `wrapped`. */
  wrappedChains: string[];
  /** btc / wrapped; above 1 over-collateralised, below 1 short. */
  ratio: number | null;
  /** False when a chain that may hold the token could not be read: the wrapped sum is then partial. */
  wrappedComplete: boolean;
  custodians: string[];
  /** Most BTC first. */
  addresses: ReserveAddress[];
  addressCount: number;
  /** Where the Bitcoin figures come from. */
  bitcoin: { kind: 'embedded' | 'esplora'; esplora: string; tipHeight: number } | null;
}

const sats = (n: number) => BigInt(n);

/** The custodian entities that back `symbol` (case-insensitive). */
export function custodiansOf(bitcoin: BitcoinSource, symbol: string) {
  return bitcoin.entities.filter((e) => e.kind === 'custodian' && e.backs?.toUpperCase() === symbol.toUpperCase());
}

export async function proofOfReserves(
  bitcoin: BitcoinSource | undefined,
  symbol: string,
  wrapped: { amount: string; chains: string[]; complete: boolean },
  limit: number,
): Promise<Reserves> {
  const { amount, chains: wrappedChains, complete: wrappedComplete } = wrapped;
  const none = (reason: string, extra: Partial<Reserves> = {}): Reserves => ({ available: false, reason, btc: null, wrapped: amount, wrappedChains, ratio: null, wrappedComplete, custodians: [], addresses: [], addressCount: 0, bitcoin: null, ...extra });
  if (!bitcoin) return none('no Bitcoin chain is configured on this deployment (BITCOIN=off and no BITCOIN_ESPLORA_URL): the custodian\'s BTC cannot be read');
  const custodians = custodiansOf(bitcoin, symbol);
  const addresses = [...new Set(custodians.flatMap((c) => c.addresses))];
  const source = { kind: bitcoin.kind, esplora: bitcoin.esplora.baseUrl, tipHeight: await bitcoin.esplora.tipHeight() };
  if (!addresses.length) return none(`no custody address of ${symbol} is published in this deployment's Bitcoin entities`, { bitcoin: source });
  const balances = await Promise.all(addresses.map(async (address) => {
    const { chain_stats: s } = await bitcoin.esplora.address(address);
    return { address, sats: sats(s.funded_txo_sum) - sats(s.spent_txo_sum) };
  }));
  const total = balances.reduce((s, b) => s + b.sats, 0n);
  const wrappedSats = parseUnits(amount, 8);
  return {
    available: true, reason: null,
    btc: formatUnits(total, 8), wrapped: amount, wrappedChains,
    ratio: wrappedSats > 0n ? round(Number(total) / Number(wrappedSats), 6) : null,
    wrappedComplete,
    custodians: custodians.map((c) => c.name),
    addresses: balances.sort((a, b) => (b.sats > a.sats ? 1 : b.sats < a.sats ? -1 : 0)).slice(0, limit).map((b) => ({ address: b.address, btc: formatUnits(b.sats, 8) })),
    addressCount: addresses.length,
    bitcoin: source,
  };
}
