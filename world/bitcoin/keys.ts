/**
 * Keys of the world's actors and the signatures they make. Every key is derived from the seed
 * and a label, so a seed always yields the same chain. Signing goes straight through noble's
 * curve arithmetic over the sighash (btc-signer's `tx.sign` costs ~2.4 ms per P2WPKH input and
 * ~10 ms per taproot input; this costs one base-point multiplication, ~0.25 ms):
 * - ECDSA with a deterministic nonce (HMAC-SHA256 of the key over the message, as RFC 6979 does
 *   in spirit: never reused, never random), low-S, DER-encoded;
 * - BIP340 Schnorr with zero auxiliary randomness (BIP340's deterministic variant).
 * (noble 1.9's variable-time `multiplyUnsafe` would be twice as fast but returned wrong points
 * for some scalars when tried here: the constant-time `multiply` is used.)
 */
import { createHmac } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { invert, mod } from '@noble/curves/abstract/modular';
import { bigIntTo32, bytesToBigInt, concat, hash160, sha256, taggedHash, toHex, Writer } from './bytes.js';
import { curveMemo } from './curve-memo.js';

const Point = secp256k1.ProjectivePoint;
const N = secp256k1.CURVE.n;
const HALF_N = N >> 1n;

export interface KeyPair {
  readonly priv: bigint;
  /** Compressed SEC1 public key (33 bytes). */
  readonly pub: Uint8Array;
  /** Uncompressed public key (65 bytes): what the early P2PK outputs carry. */
  readonly pubUncompressed: Uint8Array;
  /** x-only key (32 bytes), BIP340. */
  readonly xonly: Uint8Array;
  /** HASH160 of the compressed key. */
  readonly pkh: Uint8Array;
}

/** A key from the seed and a label (the same label always gives the same key). */
export function deriveKey(seed: string, label: string): KeyPair {
  let priv = 0n;
  for (let i = 0; priv === 0n || priv >= N; i++) priv = bytesToBigInt(sha256(new TextEncoder().encode(`sibyl-btc:${seed}:${label}:${i}`)));
  return keyFromPriv(priv);
}

/** k·G in affine coordinates. */
function mulG(k: bigint): { x: bigint; y: bigint } {
  return Point.BASE.multiply(k).toAffine();
}

export function keyFromPriv(priv: bigint): KeyPair {
  const full = curveMemo.get(`p:${priv.toString(16)}`, () => {
    const { x, y } = mulG(priv);
    return concat(Uint8Array.of(0x04), bigIntTo32(x), bigIntTo32(y));
  });
  const pub = concat(Uint8Array.of(full[64]! & 1 ? 0x03 : 0x02), full.subarray(1, 33));
  return { priv, pub, pubUncompressed: full, xonly: pub.subarray(1), pkh: hash160(pub) };
}

/** DER-encoded ECDSA signature (low-S) of a 32-byte sighash, without the sighash-type byte. */
export function signEcdsa(priv: bigint, msgHash: Uint8Array): Uint8Array {
  return curveMemo.get(`e:${toHex(msgHash)}:${priv.toString(16).slice(0, 16)}`, () => computeEcdsa(priv, msgHash));
}

function computeEcdsa(priv: bigint, msgHash: Uint8Array): Uint8Array {
  const z = bytesToBigInt(msgHash);
  const d32 = bigIntTo32(priv);
  for (let counter = 0; ; counter++) {
    const k = mod(bytesToBigInt(createHmac('sha256', d32).update(msgHash).update(Uint8Array.of(counter)).digest()), N);
    if (k === 0n) continue;
    const r = mod(mulG(k).x, N);
    if (r === 0n) continue;
    let s = mod(invert(k, N) * (z + r * priv), N);
    if (s === 0n) continue;
    if (s > HALF_N) s = N - s;
    return derSignature(r, s);
  }
}

function derInt(n: bigint): Uint8Array {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  if (parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
  return Buffer.from(hex, 'hex');
}

function derSignature(r: bigint, s: bigint): Uint8Array {
  const rb = derInt(r);
  const sb = derInt(s);
  return new Writer(72).u8(0x30).u8(rb.length + sb.length + 4).u8(0x02).u8(rb.length).bytes(rb).u8(0x02).u8(sb.length).bytes(sb).finish();
}

/**
 * A key ready for BIP340: the secret adjusted so its point has an even y (BIP340 signs for the
 * x-only key), with that x-only key.
 */
export interface SchnorrKey {
  readonly priv: bigint;
  readonly xonly: Uint8Array;
}

export function schnorrKey(key: KeyPair): SchnorrKey {
  const evenY = key.pub[0] === 0x02;
  return { priv: evenY ? key.priv : N - key.priv, xonly: key.xonly };
}

/**
 * The BIP341 key-path output key of an internal key (no script tree, or the tree's merkle root):
 * Q = P + H_TapTweak(P || root)·G, and the secret that signs for Q.
 */
export function taprootTweak(internal: KeyPair | Uint8Array, merkleRoot: Uint8Array = new Uint8Array(0)): { output: Uint8Array; parity: number; signer: SchnorrKey | null } {
  const xonly = internal instanceof Uint8Array ? internal : internal.xonly;
  const t = bytesToBigInt(taggedHash('TapTweak', xonly, merkleRoot));
  if (t >= N) throw new Error('taproot tweak out of range');
  const q = curveMemo.get(`t:${toHex(xonly)}:${toHex(merkleRoot)}`, () => Point.fromHex(concat(Uint8Array.of(0x02), xonly)).add(Point.BASE.multiply(t)).toRawBytes(true));
  const parity = q[0] === 0x03 ? 1 : 0;
  let signer: SchnorrKey | null = null;
  if (!(internal instanceof Uint8Array)) {
    const d = schnorrKey(internal).priv;
    const tweaked = mod(d + t, N);
    signer = { priv: parity ? N - tweaked : tweaked, xonly: q.subarray(1) };
  }
  return { output: q.subarray(1), parity, signer };
}

const ZERO32 = new Uint8Array(32);
const AUX_HASH = taggedHash('BIP0340/aux', ZERO32);

/** BIP340 signature (64 bytes) of a 32-byte message with zero auxiliary randomness. */
export function signSchnorr(key: SchnorrKey, msg: Uint8Array): Uint8Array {
  return curveMemo.get(`s:${toHex(msg)}:${key.priv.toString(16).slice(0, 16)}`, () => computeSchnorr(key, msg));
}

function computeSchnorr(key: SchnorrKey, msg: Uint8Array): Uint8Array {
  const d = bigIntTo32(key.priv);
  const t = new Uint8Array(32);
  for (let i = 0; i < 32; i++) t[i] = d[i]! ^ AUX_HASH[i]!;
  let k = mod(bytesToBigInt(taggedHash('BIP0340/nonce', t, key.xonly, msg)), N);
  if (k === 0n) throw new Error('schnorr nonce is zero');
  const R = mulG(k);
  if (R.y & 1n) k = N - k;
  const rx = bigIntTo32(R.x);
  const e = mod(bytesToBigInt(taggedHash('BIP0340/challenge', rx, key.xonly, msg)), N);
  return concat(rx, bigIntTo32(mod(k + e * key.priv, N)));
}
