/**
 * Hand-written transactions for the observers' unit tests: Esplora-shaped objects with just the
 * fields the observers read, and script builders written from the formats' specs.
 */
import type { EsploraBlock, EsploraTx, EsploraVin, EsploraVout } from '../../../chain/esplora.js';

export const hex = (b: Uint8Array | number[]) => Buffer.from(b).toString('hex');
export const utf8 = (s: string) => [...Buffer.from(s, 'utf8')];

/** A data push as Bitcoin Core encodes it (direct, PUSHDATA1 or PUSHDATA2). */
export function push(data: number[]): number[] {
  if (data.length === 0) return [0x00];
  if (data.length < 0x4c) return [data.length, ...data];
  if (data.length <= 0xff) return [0x4c, data.length, ...data];
  return [0x4d, data.length & 0xff, data.length >> 8, ...data];
}

/** An address-paying output (the script is a stand-in: observers key owners by address). */
export function pay(address: string, value: number, type = 'v1_p2tr'): EsploraVout {
  const script = type === 'v1_p2tr' ? `5120${Buffer.from(address.padEnd(32, '_').slice(0, 32)).toString('hex')}` : `0014${Buffer.from(address.padEnd(20, '_').slice(0, 20)).toString('hex')}`;
  return { scriptpubkey: script, scriptpubkey_asm: '', scriptpubkey_type: type, scriptpubkey_address: address, value };
}

export function opReturn(script: number[]): EsploraVout {
  return { scriptpubkey: hex(script), scriptpubkey_asm: '', scriptpubkey_type: 'op_return', value: 0 };
}

/** An input spending `txid:vout`, which paid `prevout`, with an optional witness (hex items). */
export function spend(txid: string, vout: number, prevout: EsploraVout, witness?: string[]): EsploraVin {
  return { txid, vout, prevout, scriptsig: '', scriptsig_asm: '', ...(witness && { witness }), is_coinbase: false, sequence: 0xfffffffd };
}

let counter = 0;
/** A transaction with a fresh txid (or the one given). */
export function tx(vin: EsploraVin[], vout: EsploraVout[], txid?: string): EsploraTx {
  const id = txid ?? (++counter).toString(16).padStart(64, '0');
  return { txid: id, version: 2, locktime: 0, vin, vout, size: 200, weight: 800, fee: 0, status: { confirmed: true } };
}

export function coinbase(to = 'miner'): EsploraTx {
  return tx([{ txid: '00'.repeat(32), vout: 0xffffffff, prevout: null, scriptsig: '', scriptsig_asm: '', is_coinbase: true, sequence: 0xffffffff }], [pay(to, 312_500_000, 'v0_p2wpkh')]);
}

export function block(height: number, time = 1_700_000_000 + height * 600): EsploraBlock {
  return { id: height.toString(16).padStart(64, 'b'), height, version: 0x20000000, timestamp: time, tx_count: 0, size: 0, weight: 0, merkle_root: '', previousblockhash: null, nonce: 0, bits: 0 };
}

/** A taproot script-path witness revealing `leaf` (signature, leaf, control block with leaf version 0xc0). */
export function scriptPathWitness(leaf: number[]): string[] {
  return ['11'.repeat(64), hex(leaf), `c0${'22'.repeat(32)}`];
}

/** A tapscript holding one ord envelope: <key> OP_CHECKSIG OP_FALSE OP_IF "ord" 01 <type> OP_0 <body> OP_ENDIF. */
export function inscriptionLeaf(contentType: string, body: string, o: { tagAsPushnum?: boolean } = {}): number[] {
  const chunks: number[] = [];
  const b = utf8(body);
  for (let i = 0; i < b.length; i += 520) chunks.push(...push(b.slice(i, i + 520)));
  return [
    ...push(new Array(32).fill(7)), 0xac,
    0x00, 0x63, ...push(utf8('ord')), ...(o.tagAsPushnum ? [0x51] : push([1])), ...push(utf8(contentType)),
    0x00, ...chunks, 0x68,
  ];
}

/** LEB128, written from the spec (7 bits a byte, high bit = more). */
export function leb128(n: bigint): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

/** OP_RETURN OP_13 <integers as one push>. */
export function runestone(ints: (number | bigint)[]): number[] {
  return [0x6a, 0x5d, ...push(ints.flatMap((n) => leb128(BigInt(n))))];
}
