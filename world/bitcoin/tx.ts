/**
 * Transactions in Bitcoin's wire format: the model, (de)serialisation with and without the
 * segwit witness, txid/wtxid/weight, the three sighash algorithms the world's inputs need
 * (legacy for P2PK/P2PKH, BIP143 for P2WPKH, BIP341 for taproot key and script paths) and the
 * signing of a whole transaction.
 */
import { concat, hash256, hashToId, idToHash, Reader, sha256, taggedHash, Writer } from './bytes.js';
import { signEcdsa, signSchnorr, type KeyPair, type SchnorrKey } from './keys.js';
import { outputScript } from './script.js';

export interface TxInput {
  readonly prevTxid: string;
  readonly vout: number;
  readonly sequence: number;
  scriptSig: Uint8Array;
  witness: Uint8Array[];
}

export interface TxOutput {
  readonly script: Uint8Array;
  /** Satoshis. */
  readonly value: number;
}

export interface Tx {
  readonly version: number;
  readonly locktime: number;
  readonly inputs: TxInput[];
  readonly outputs: TxOutput[];
}

export const COINBASE_TXID = '0'.repeat(64);
export const FINAL_SEQUENCE = 0xffffffff;
/** Opt-in RBF, as today's wallets send. */
export const RBF_SEQUENCE = 0xfffffffd;

export function hasWitness(tx: Tx): boolean {
  return tx.inputs.some((i) => i.witness.length > 0);
}

export function serializeTx(tx: Tx, withWitness = true): Uint8Array {
  const segwit = withWitness && hasWitness(tx);
  const w = new Writer(256).i32le(tx.version);
  if (segwit) w.u8(0).u8(1);
  w.varint(tx.inputs.length);
  for (const i of tx.inputs) w.bytes(idToHash(i.prevTxid)).u32le(i.vout).varbytes(i.scriptSig).u32le(i.sequence);
  w.varint(tx.outputs.length);
  for (const o of tx.outputs) w.u64le(o.value).varbytes(o.script);
  if (segwit) {
    for (const i of tx.inputs) {
      w.varint(i.witness.length);
      for (const item of i.witness) w.varbytes(item);
    }
  }
  return w.u32le(tx.locktime).finish();
}

export function parseTx(raw: Uint8Array): Tx {
  const r = new Reader(raw);
  const version = r.u32le() | 0;
  let segwit = false;
  let nIn = r.varint();
  if (nIn === 0) {
    if (r.u8() !== 1) throw new Error('bad segwit flag');
    segwit = true;
    nIn = r.varint();
  }
  const inputs: TxInput[] = [];
  for (let k = 0; k < nIn; k++) {
    const prevTxid = hashToId(r.bytes(32));
    const vout = r.u32le();
    const scriptSig = Uint8Array.from(r.varbytes());
    inputs.push({ prevTxid, vout, scriptSig, sequence: r.u32le(), witness: [] });
  }
  const outputs: TxOutput[] = [];
  const nOut = r.varint();
  for (let k = 0; k < nOut; k++) {
    const value = r.u64le();
    outputs.push({ value, script: Uint8Array.from(r.varbytes()) });
  }
  if (segwit) {
    for (const i of inputs) {
      const n = r.varint();
      for (let k = 0; k < n; k++) i.witness.push(Uint8Array.from(r.varbytes()));
    }
  }
  return { version, inputs, outputs, locktime: r.u32le() };
}

export interface TxMetrics {
  readonly txid: string;
  readonly wtxid: string;
  /** Serialised size with the witness (bytes). */
  readonly size: number;
  readonly weight: number;
  readonly raw: Uint8Array;
}

export function txMetrics(tx: Tx): TxMetrics {
  const raw = serializeTx(tx, true);
  const base = hasWitness(tx) ? serializeTx(tx, false) : raw;
  return { txid: hashToId(hash256(base)), wtxid: hashToId(hash256(raw)), size: raw.length, weight: base.length * 3 + raw.length, raw };
}

export const vsizeOf = (weight: number) => Math.ceil(weight / 4);

// ---- sighashes ----

const SIGHASH_ALL = 0x01;
const SIGHASH_DEFAULT = 0x00;

/** Legacy (pre-segwit) SIGHASH_ALL digest of input `index` spending `scriptCode`. */
export function legacySighash(tx: Tx, index: number, scriptCode: Uint8Array): Uint8Array {
  const copy: Tx = {
    ...tx,
    inputs: tx.inputs.map((i, k) => ({ ...i, scriptSig: k === index ? scriptCode : new Uint8Array(0), witness: [] })),
  };
  return hash256(serializeTx(copy, false), new Writer(4).u32le(SIGHASH_ALL).finish());
}

/** The parts of a transaction every BIP143 / BIP341 digest shares, computed once per transaction. */
class SighashCache {
  private v0?: { prevouts: Uint8Array; sequences: Uint8Array; outputs: Uint8Array };
  private v1?: { prevouts: Uint8Array; amounts: Uint8Array; scripts: Uint8Array; sequences: Uint8Array; outputs: Uint8Array };

  constructor(private readonly tx: Tx, private readonly prevouts: readonly TxOutput[]) {}

  private parts() {
    const p = new Writer(36 * this.tx.inputs.length);
    const s = new Writer(4 * this.tx.inputs.length);
    for (const i of this.tx.inputs) {
      p.bytes(idToHash(i.prevTxid)).u32le(i.vout);
      s.u32le(i.sequence);
    }
    const o = new Writer(64 * this.tx.outputs.length);
    for (const out of this.tx.outputs) o.u64le(out.value).varbytes(out.script);
    return { p: p.finish(), s: s.finish(), o: o.finish() };
  }

  /** BIP143 digest (SIGHASH_ALL) of a segwit v0 input. */
  segwitV0(index: number, scriptCode: Uint8Array, amount: number): Uint8Array {
    if (!this.v0) {
      const { p, s, o } = this.parts();
      this.v0 = { prevouts: hash256(p), sequences: hash256(s), outputs: hash256(o) };
    }
    const i = this.tx.inputs[index]!;
    const w = new Writer(200)
      .i32le(this.tx.version).bytes(this.v0.prevouts).bytes(this.v0.sequences)
      .bytes(idToHash(i.prevTxid)).u32le(i.vout).varbytes(scriptCode).u64le(amount).u32le(i.sequence)
      .bytes(this.v0.outputs).u32le(this.tx.locktime).u32le(SIGHASH_ALL);
    return hash256(w.finish());
  }

  /** BIP341 digest (SIGHASH_DEFAULT) of a taproot input: key path, or script path with the leaf's hash. */
  taproot(index: number, leafHash?: Uint8Array): Uint8Array {
    if (!this.v1) {
      const { p, s, o } = this.parts();
      const amounts = new Writer(8 * this.prevouts.length);
      const scripts = new Writer(40 * this.prevouts.length);
      for (const prev of this.prevouts) {
        amounts.u64le(prev.value);
        scripts.varbytes(prev.script);
      }
      this.v1 = { prevouts: sha256(p), amounts: sha256(amounts.finish()), scripts: sha256(scripts.finish()), sequences: sha256(s), outputs: sha256(o) };
    }
    const w = new Writer(256)
      .u8(0).u8(SIGHASH_DEFAULT).i32le(this.tx.version).u32le(this.tx.locktime)
      .bytes(this.v1.prevouts).bytes(this.v1.amounts).bytes(this.v1.scripts).bytes(this.v1.sequences).bytes(this.v1.outputs)
      .u8(leafHash ? 2 : 0).u32le(index);
    if (leafHash) w.bytes(leafHash).u8(0).u32le(0xffffffff);
    return taggedHash('TapSighash', w.finish());
  }
}

// ---- taproot trees ----

export const TAPLEAF_VERSION = 0xc0;

export function tapLeafHash(leafScript: Uint8Array): Uint8Array {
  return taggedHash('TapLeaf', new Writer(leafScript.length + 4).u8(TAPLEAF_VERSION).varbytes(leafScript).finish());
}

export function tapBranchHash(a: Uint8Array, b: Uint8Array): Uint8Array {
  return Buffer.compare(Buffer.from(a), Buffer.from(b)) <= 0 ? taggedHash('TapBranch', a, b) : taggedHash('TapBranch', b, a);
}

/** The control block that proves a leaf: version|parity, the internal key, the leaf's merkle path. */
export function controlBlock(parity: number, internalXOnly: Uint8Array, path: readonly Uint8Array[] = []): Uint8Array {
  return concat(Uint8Array.of(TAPLEAF_VERSION | parity), internalXOnly, ...path);
}

// ---- signing ----

/** How one input is unlocked. */
export type InputSigner =
  | { readonly kind: 'p2pk'; readonly key: KeyPair }
  | { readonly kind: 'p2pkh'; readonly key: KeyPair; readonly uncompressed?: boolean }
  | { readonly kind: 'p2wpkh'; readonly key: KeyPair }
  | { readonly kind: 'p2tr-key'; readonly signer: SchnorrKey }
  /**
   * A script-path spend: the leaf's signers sign in the order their signatures must sit on the
   * stack (the last one consumed first is the first pushed: witness = [...sigs reversed]);
   * `extra` items go after the signatures (before the script).
   */
  | { readonly kind: 'p2tr-script'; readonly signers: readonly SchnorrKey[]; readonly leafScript: Uint8Array; readonly controlBlock: Uint8Array };

/** Fills every input's scriptSig / witness. `prevouts[i]` is the output input i spends. */
export function signTx(tx: Tx, prevouts: readonly TxOutput[], signers: readonly InputSigner[]): void {
  const cache = new SighashCache(tx, prevouts);
  const withType = (sig: Uint8Array) => concat(sig, Uint8Array.of(SIGHASH_ALL));
  tx.inputs.forEach((input, i) => {
    const s = signers[i]!;
    const prev = prevouts[i]!;
    switch (s.kind) {
      case 'p2pk':
        input.scriptSig = pushBytes(withType(signEcdsa(s.key.priv, legacySighash(tx, i, prev.script))));
        break;
      case 'p2pkh': {
        const sig = withType(signEcdsa(s.key.priv, legacySighash(tx, i, prev.script)));
        input.scriptSig = concat(pushBytes(sig), pushBytes(s.uncompressed ? s.key.pubUncompressed : s.key.pub));
        break;
      }
      case 'p2wpkh': {
        const digest = cache.segwitV0(i, outputScript.p2pkh(s.key.pkh), prev.value);
        input.witness = [withType(signEcdsa(s.key.priv, digest)), s.key.pub];
        break;
      }
      case 'p2tr-key':
        input.witness = [signSchnorr(s.signer, cache.taproot(i))];
        break;
      case 'p2tr-script': {
        const digest = cache.taproot(i, tapLeafHash(s.leafScript));
        const sigs = s.signers.map((k) => signSchnorr(k, digest)).reverse();
        input.witness = [...sigs, s.leafScript, s.controlBlock];
        break;
      }
    }
  });
}

function pushBytes(data: Uint8Array): Uint8Array {
  return concat(Uint8Array.of(data.length), data);
}

/**
 * The weight an unsigned transaction will have once signed: each input's unlocking data
 * sized as the signer will size it (ECDSA signatures counted at 72 bytes with the type byte,
 * their largest common size; Schnorr at 64).
 */
export function estimateWeight(tx: Tx, signers: readonly InputSigner[]): number {
  let base = 4 + 4 + varintSize(tx.inputs.length) + varintSize(tx.outputs.length);
  for (const o of tx.outputs) base += 8 + varintSize(o.script.length) + o.script.length;
  let witness = 0;
  let segwit = false;
  tx.inputs.forEach((_, i) => {
    const s = signers[i]!;
    let scriptSig = 0;
    let items: number[] = [];
    if (s.kind === 'p2pk') scriptSig = 1 + 72;
    else if (s.kind === 'p2pkh') scriptSig = 1 + 72 + 1 + (s.uncompressed ? 65 : 33);
    else if (s.kind === 'p2wpkh') items = [72, 33];
    else if (s.kind === 'p2tr-key') items = [64];
    else items = [...s.signers.map(() => 64), s.leafScript.length, s.controlBlock.length];
    base += 36 + varintSize(scriptSig) + scriptSig + 4;
    if (items.length) segwit = true;
    witness += varintSize(items.length) + items.reduce((a, n) => a + varintSize(n) + n, 0);
  });
  if (!segwit) return base * 4;
  return base * 4 + 2 + witness;
}

function varintSize(n: number): number {
  return n < 0xfd ? 1 : n <= 0xffff ? 3 : n <= 0xffffffff ? 5 : 9;
}
