/**
 * The Bitcoin leg of a post-quantum migration (pqc-migration/v1): one unsigned PSBT that sweeps
 * every confirmed UTXO of an exposed address to a fresh P2WPKH/P2WSH destination (hash-hidden
 * until it spends; not a P2TR key path, whose key is on chain by construction). Built with
 * @scure/btc-signer from what Esplora says about the UTXOs; a legacy (P2PKH/P2SH) input carries its
 * whole previous transaction, rebuilt from Esplora's JSON and checked against its txid. Sibyl never signs.
 */
import { createHash } from 'node:crypto';
import { Address, NETWORK, OutScript, RawTx, Transaction } from '@scure/btc-signer';
import type { Esplora, EsploraTx } from '../../../chain/esplora.js';
import type { BitcoinAddressType, ParsedAddress } from '../exposure/address.js';

/** Virtual bytes per input spent (typical signatures), per output created, and the transaction's own. */
const INPUT_VBYTES: Record<BitcoinAddressType, number> = { p2pkh: 148, p2sh: 91, v0_p2wpkh: 68, v0_p2wsh: 105, v1_p2tr: 57.5 };
const OUTPUT_VBYTES: Partial<Record<BitcoinAddressType, number>> = { v0_p2wpkh: 31, v0_p2wsh: 43 };
const OVERHEAD_VBYTES = 10.5;
/** Outputs below this are dust: relays refuse them (P2WPKH 294, P2WSH 330 sats at 3 sat/vB). */
const DUST: Partial<Record<BitcoinAddressType, number>> = { v0_p2wpkh: 294, v0_p2wsh: 330 };
/** Opt-in replace-by-fee, so a stuck sweep can be bumped. */
const RBF_SEQUENCE = 0xfffffffd;

const fromHex = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
const sha256d = (b: Uint8Array) => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();

/** A transaction's raw bytes rebuilt from Esplora's JSON (with its witnesses when it has any). */
export function rawTxFromEsplora(tx: EsploraTx, withWitness = true): Uint8Array {
  const segwit = withWitness && tx.vin.some((i) => (i.witness?.length ?? 0) > 0);
  return RawTx.encode({
    version: tx.version,
    segwitFlag: segwit,
    inputs: tx.vin.map((i) => ({ txid: fromHex(i.txid), index: i.vout, finalScriptSig: fromHex(i.scriptsig), sequence: i.sequence })),
    outputs: tx.vout.map((o) => ({ amount: BigInt(o.value), script: fromHex(o.scriptpubkey) })),
    ...(segwit && { witnesses: tx.vin.map((i) => (i.witness ?? []).map(fromHex)) }),
    lockTime: tx.locktime,
  });
}

/** The txid of raw bytes (without witness). */
export const txidOf = (tx: EsploraTx) => Buffer.from(sha256d(rawTxFromEsplora(tx, false))).reverse().toString('hex');

export interface SweepPsbt {
  /** Base64 PSBT (BIP 174), unsigned. */
  readonly psbt: string;
  readonly inputs: { txid: string; vout: number; sats: number }[];
  readonly inputSats: number;
  readonly amountSats: number;
  readonly feeSats: number;
  readonly feeRate: number;
  readonly vsize: number;
  readonly destination: string;
}

export type SweepResult = { readonly ok: true; readonly sweep: SweepPsbt } | { readonly ok: false; readonly reason: string };

export async function sweepPsbt(
  esplora: Esplora,
  source: Extract<ParsedAddress, { kind: 'bitcoin' }>,
  destination: Extract<ParsedAddress, { kind: 'bitcoin' }>,
  feeRate: number,
): Promise<SweepResult> {
  const utxos = (await esplora.addressUtxo(source.address)).filter((u) => u.status.confirmed).sort((a, b) => b.value - a.value);
  if (!utxos.length) return { ok: false, reason: 'the address has no confirmed UTXO to move' };
  const outVbytes = OUTPUT_VBYTES[destination.type];
  if (outVbytes === undefined) return { ok: false, reason: `the destination must be P2WPKH or P2WSH (it is ${destination.type})` };
  const vsize = Math.ceil(OVERHEAD_VBYTES + INPUT_VBYTES[source.type] * utxos.length + outVbytes);
  const inputSats = utxos.reduce((s, u) => s + u.value, 0);
  const feeSats = Math.ceil(vsize * feeRate);
  const amountSats = inputSats - feeSats;
  if (amountSats < DUST[destination.type]!) return { ok: false, reason: `the ${inputSats} sats held do not cover a ${feeSats}-sat fee at ${feeRate} sat/vB and leave more than dust` };

  const script = OutScript.encode(Address(NETWORK).decode(source.address));
  const legacy = source.type === 'p2pkh' || source.type === 'p2sh';
  const tx = new Transaction({ allowLegacyWitnessUtxo: false });
  for (const u of utxos) {
    if (legacy) {
      const prev = await esplora.tx(u.txid);
      if (!prev) return { ok: false, reason: `Esplora no longer has the transaction ${u.txid}` };
      // The whole previous transaction proves the amount a legacy signer commits to: check it rebuilds to its id.
      if (txidOf(prev) !== u.txid) return { ok: false, reason: `the transaction ${u.txid} as Esplora serves it does not hash to its id` };
      tx.addInput({ txid: u.txid, index: u.vout, nonWitnessUtxo: rawTxFromEsplora(prev), sequence: RBF_SEQUENCE });
    } else {
      tx.addInput({ txid: u.txid, index: u.vout, witnessUtxo: { script, amount: BigInt(u.value) }, sequence: RBF_SEQUENCE });
    }
  }
  tx.addOutputAddress(destination.address, BigInt(amountSats), NETWORK);
  return {
    ok: true,
    sweep: {
      psbt: Buffer.from(tx.toPSBT()).toString('base64'),
      inputs: utxos.map((u) => ({ txid: u.txid, vout: u.vout, sats: u.value })),
      inputSats, amountSats, feeSats, feeRate, vsize, destination: destination.address,
    },
  };
}

/** The feerate to sweep at: the server's estimate for 6 blocks (rounded up), 2 sat/vB without one. */
export async function sweepFeeRate(esplora: Esplora): Promise<number> {
  const estimates = await esplora.feeEstimates().catch(() => ({} as Record<string, number>));
  const six = estimates['6'] ?? estimates['3'] ?? estimates['12'];
  return Math.max(1, Math.ceil(six ?? 2));
}
