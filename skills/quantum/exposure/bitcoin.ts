/**
 * A Bitcoin address's quantum exposure (quantum-exposure/v1), read only through Esplora: whether
 * a public key that guards its coins is on chain for Shor's algorithm to work from, and what it
 * guards. A P2TR output carries its (tweaked) output key in the script itself; a P2PKH / P2WPKH /
 * P2SH / P2WSH address shows only a hash until it spends, and the spend's scriptSig or witness then
 * reveals the key (or script) for every coin still at the address. The evidence is the revealing
 * transaction (the first one, when the address's history is read to its start) and the key,
 * checked against the address's hash.
 */
import type { Esplora, EsploraTx } from '../../../chain/esplora.js';
import type { BtcPrices } from '../../../chain/bitcoin.js';
import type { ParsedAddress } from './address.js';
import { revealedBy } from './script.js';

export const SATS_PER_BTC = 100_000_000;
/** Address history pages read for the evidence (25 confirmed transactions each). */
export const EVIDENCE_PAGES = 40;

export type BitcoinExposureReason = 'reused-after-spend' | 'taproot-key-path';
export type ExposureStatus = 'exposed' | 'revealed-empty' | 'hidden' | 'unused' | 'contract-wallet';

export interface BitcoinTip {
  readonly height: number;
  readonly hash: string;
  /** Unix seconds. */
  readonly time: number;
}

export interface ExposureEvidence {
  /** The transaction that put the key on chain (the spend; for P2TR the first output paying the address). */
  readonly tx: string;
  readonly block: number | null;
  readonly time: string | null;
  /** True when the history was read to its start, so this is the first revealing transaction. */
  readonly first: boolean;
  readonly publicKeys: string[];
  readonly script: string | null;
  /** The revealed key (or script) hashes to what the address commits to. */
  readonly verified: boolean;
  readonly note: string;
}

export interface BitcoinExposure {
  readonly address: string;
  readonly type: Extract<ParsedAddress, { kind: 'bitcoin' }>['type'];
  readonly keyRevealed: boolean;
  /** The key is on chain and coins sit behind it (confirmed). */
  readonly exposed: boolean;
  readonly why: BitcoinExposureReason | null;
  readonly status: Exclude<ExposureStatus, 'contract-wallet'>;
  readonly explanation: string;
  readonly evidence: ExposureEvidence | null;
  /** Confirmed balance (satoshis), the confirmed UTXOs not being spent in the mempool, and the mempool's net change. */
  readonly sats: number;
  readonly utxos: number;
  readonly pendingSats: number;
  readonly priceUsd: number | null;
  readonly valueUsd: number | null;
  readonly atRiskUsd: number | null;
  readonly tip: BitcoinTip;
}

export async function bitcoinTip(esplora: Esplora): Promise<BitcoinTip> {
  const hash = await esplora.tipHash();
  const block = await esplora.block(hash);
  if (!block) throw new Error(`the tip ${hash} vanished while it was read`);
  return { height: block.height, hash, time: block.timestamp };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export async function bitcoinExposure(
  esplora: Esplora,
  prices: BtcPrices,
  parsed: Extract<ParsedAddress, { kind: 'bitcoin' }>,
  options: { tip?: BitcoinTip; evidence?: boolean } = {},
): Promise<BitcoinExposure> {
  const { address, type } = parsed;
  const [tip, stats, utxos] = await Promise.all([options.tip ?? bitcoinTip(esplora), esplora.address(address), esplora.addressUtxo(address)]);
  // The confirmed balance (what the chain holds at the tip): an output a mempool transaction spends is still there
  // until it confirms, and is exactly what a quantum attacker racing that spend would take.
  const sats = stats.chain_stats.funded_txo_sum - stats.chain_stats.spent_txo_sum;
  const pendingSats = stats.mempool_stats.funded_txo_sum - stats.mempool_stats.spent_txo_sum;
  const funded = stats.chain_stats.funded_txo_count + stats.mempool_stats.funded_txo_count > 0;
  const spent = stats.chain_stats.spent_txo_count + stats.mempool_stats.spent_txo_count > 0;
  const taproot = type === 'v1_p2tr';
  const keyRevealed = taproot ? funded : spent;
  const exposed = keyRevealed && sats > 0;
  const why: BitcoinExposureReason | null = !keyRevealed ? null : taproot ? 'taproot-key-path' : 'reused-after-spend';
  const status = exposed ? 'exposed' : keyRevealed ? 'revealed-empty' : funded ? 'hidden' : 'unused';
  const priceUsd = prices.at(tip.time);
  const valueUsd = priceUsd === null ? null : round2((sats / SATS_PER_BTC) * priceUsd);
  const evidence = keyRevealed && options.evidence !== false ? await revealingTx(esplora, parsed) : null;
  return {
    address, type, keyRevealed, exposed, why, status,
    explanation: explain(type, status, sats),
    evidence,
    sats, utxos: utxos.filter((u) => u.status.confirmed).length, pendingSats,
    priceUsd, valueUsd, atRiskUsd: exposed ? valueUsd : valueUsd === null ? null : 0,
    tip,
  };
}

function explain(type: BitcoinExposure['type'], status: BitcoinExposure['status'], sats: number): string {
  const btc = `${sats / SATS_PER_BTC} BTC`;
  if (type === 'v1_p2tr') {
    return status === 'exposed'
      ? `A taproot output carries its output key in the script (and the address): ${btc} can be spent by the key path with the private key Shor's algorithm would derive from it.`
      : status === 'revealed-empty' ? 'The taproot output key is on chain, but nothing is held there now; anything sent to it again is exposed at once.'
      : 'A taproot address names its output key, but no output has paid it on chain yet.';
  }
  const what = type === 'p2sh' || type === 'v0_p2wsh' ? 'script (and the keys in it)' : 'public key';
  switch (status) {
    case 'exposed': return `The address has spent before: that spend revealed its ${what}, which still guards ${btc} here (reused after spend).`;
    case 'revealed-empty': return `The address has spent, revealing its ${what}, but holds nothing now; do not send to it again.`;
    case 'hidden': return `The address has never spent: only the hash of its ${what} is on chain, which Shor's algorithm cannot invert. Spending will reveal it, so send change to a fresh address.`;
    default: return 'No transaction has used this address.';
  }
}

/**
 * The transaction that revealed the key: newest first through the address's history (mempool,
 * then pages of 25 confirmed), keeping the oldest spend from it (for P2TR the oldest output paying
 * it). `first` when the history was read to its end.
 */
async function revealingTx(esplora: Esplora, parsed: Extract<ParsedAddress, { kind: 'bitcoin' }>): Promise<ExposureEvidence | null> {
  const { address, type, payload } = parsed;
  let oldest: { tx: EsploraTx; vin: number | null } | null = null;
  let page = await esplora.addressTxs(address);
  let reachedStart = false;
  for (let n = 0; n < EVIDENCE_PAGES; n++) {
    for (const tx of page) {
      if (type === 'v1_p2tr') {
        if (tx.vout.some((o) => o.scriptpubkey_address === address)) oldest = { tx, vin: null };
      } else {
        const vin = tx.vin.findIndex((i) => i.prevout?.scriptpubkey_address === address);
        if (vin >= 0) oldest = { tx, vin };
      }
    }
    const confirmed = page.filter((t) => t.status.confirmed);
    if (confirmed.length < 25) {
      reachedStart = true;
      break;
    }
    page = await esplora.addressTxs(address, confirmed.at(-1)!.txid);
  }
  if (!oldest) return null;
  const { tx, vin } = oldest;
  const revealed = vin === null ? revealedBy(tx.vin[0]!, 'v1_p2tr', payload) : revealedBy(tx.vin[vin]!, type, payload);
  return {
    tx: tx.txid,
    block: tx.status.block_height ?? null,
    time: tx.status.block_time ? new Date(tx.status.block_time * 1000).toISOString() : null,
    first: reachedStart,
    publicKeys: revealed?.publicKeys ?? [],
    script: revealed?.script ?? null,
    verified: revealed?.verified ?? false,
    note: (vin === null
      ? 'the first output paying this taproot address: its script is OP_1 <32-byte output key>'
      : `input ${vin} spends from the address; its ${type === 'p2pkh' || type === 'p2sh' ? 'scriptSig' : 'witness'} carries the ${type === 'p2sh' || type === 'v0_p2wsh' ? 'script' : 'public key'}`) +
      (reachedStart ? '' : `; the history is longer than the ${EVIDENCE_PAGES * 25} transactions read, so an earlier one may exist`) +
      (tx.status.confirmed ? '' : '; still in the mempool (broadcast: the key is public already)'),
  };
}
