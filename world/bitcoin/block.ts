/**
 * Blocks: the 80-byte header, merkle roots, the coinbase (BIP34 height, the BIP141 witness
 * commitment) and proof of work. Every block meets a real target; the world uses regtest's
 * easiest one (bits 0x207fffff), so a nonce takes about two hashes to find.
 */
import { hash256, hashToId, idToHash, Writer } from './bytes.js';
import { outputScript, push, pushNumber, script } from './script.js';
import { COINBASE_TXID, FINAL_SEQUENCE, type Tx, type TxOutput } from './tx.js';

export const REGTEST_BITS = 0x207fffff;
export const BLOCK_VERSION = 0x20000000;

export interface BlockHeader {
  readonly version: number;
  readonly prevHash: string;
  readonly merkleRoot: string;
  readonly time: number;
  readonly bits: number;
  readonly nonce: number;
}

export function serializeHeader(h: BlockHeader): Uint8Array {
  return new Writer(80).i32le(h.version).bytes(idToHash(h.prevHash)).bytes(idToHash(h.merkleRoot)).u32le(h.time).u32le(h.bits).u32le(h.nonce).finish();
}

export function headerHash(h: BlockHeader): string {
  return hashToId(hash256(serializeHeader(h)));
}

/** The target a compact `bits` encodes. */
export function targetOf(bits: number): bigint {
  const exponent = bits >>> 24;
  const mantissa = BigInt(bits & 0x7fffff);
  return exponent <= 3 ? mantissa >> BigInt(8 * (3 - exponent)) : mantissa << BigInt(8 * (exponent - 3));
}

/** Difficulty as bitcoind reports it: the difficulty-1 target over this target. */
export function difficultyOf(bits: number): number {
  return Number(0xffffn << 208n) / Number(targetOf(bits));
}

export function meetsTarget(hash: string, bits: number): boolean {
  return BigInt(`0x${hash}`) <= targetOf(bits);
}

/** Finds a nonce: real proof of work against the header's target. */
export function mine(h: Omit<BlockHeader, 'nonce'>): { header: BlockHeader; hash: string } {
  for (let nonce = 0; ; nonce++) {
    const header = { ...h, nonce };
    const hash = headerHash(header);
    if (meetsTarget(hash, h.bits)) return { header, hash };
  }
}

/** Merkle root of txids (or wtxids) given in display order. */
export function merkleRoot(ids: readonly string[]): string {
  if (!ids.length) throw new Error('empty merkle tree');
  let level = ids.map(idToHash);
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(hash256(level[i]!, level[i + 1] ?? level[i]!));
    level = next;
  }
  return hashToId(level[0]!);
}

const WITNESS_RESERVED = new Uint8Array(32);
const COMMITMENT_HEADER = Uint8Array.of(0xaa, 0x21, 0xa9, 0xed);

/**
 * A coinbase paying `payouts`, with the BIP34 height and the pool's tag in its scriptSig and,
 * when the block carries witness data, the BIP141 commitment to the other txs' wtxids.
 */
export function coinbaseTx(height: number, tag: string, payouts: readonly TxOutput[], otherWtxids: readonly string[] | null): Tx {
  const scriptSig = script(pushNumber(height), push(new TextEncoder().encode(tag.slice(0, 60))));
  const outputs = [...payouts];
  if (otherWtxids) {
    const root = idToHash(merkleRoot([COINBASE_TXID, ...otherWtxids]));
    const commitment = hash256(root, WITNESS_RESERVED);
    outputs.push({ value: 0, script: outputScript.opReturn(push(new Uint8Array([...COMMITMENT_HEADER, ...commitment]))) });
  }
  return {
    version: 2,
    locktime: 0,
    inputs: [{ prevTxid: COINBASE_TXID, vout: 0xffffffff, sequence: FINAL_SEQUENCE, scriptSig, witness: otherWtxids ? [WITNESS_RESERVED] : [] }],
    outputs,
  };
}

/** Median of the last eleven timestamps (BIP113's median time past). */
export function medianTime(times: readonly number[]): number {
  const last = times.slice(-11).sort((a, b) => a - b);
  return last[Math.floor(last.length / 2)]!;
}

