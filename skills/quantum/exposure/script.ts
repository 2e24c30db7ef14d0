/**
 * Reading the public key a spend put on chain: the pushes of a scriptSig, the witness items,
 * and the check that what was revealed really is what the address commits to (HASH160 of the
 * key for P2PKH/P2WPKH, of the redeem script for P2SH, SHA-256 of the witness script for P2WSH).
 */
import { createHash } from 'node:crypto';
import type { EsploraVin } from '../../../chain/esplora.js';
import type { BitcoinAddressType } from './address.js';

export const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fromHex = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
const sha256 = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());
export const hash160 = (b: Uint8Array) => new Uint8Array(createHash('ripemd160').update(sha256(b)).digest());
const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The data pushes of a script, in order (opcodes that push nothing are skipped); null when malformed. */
export function scriptPushes(script: Uint8Array): Uint8Array[] | null {
  const out: Uint8Array[] = [];
  for (let i = 0; i < script.length;) {
    const op = script[i++]!;
    let n: number;
    if (op >= 1 && op <= 75) n = op;
    else if (op === 76) n = script[i++]!;
    else if (op === 77) (n = script[i]! | (script[i + 1]! << 8)), (i += 2);
    else if (op === 78) (n = (script[i]! | (script[i + 1]! << 8) | (script[i + 2]! << 16)) + script[i + 3]! * 2 ** 24), (i += 4);
    else continue;
    if (n === undefined || i + n > script.length) return null;
    out.push(script.subarray(i, i + n));
    i += n;
  }
  return out;
}

/** A secp256k1 public key as scripts carry it: 33 bytes compressed or 65 uncompressed. */
export const isPublicKey = (b: Uint8Array) => (b.length === 33 && (b[0] === 2 || b[0] === 3)) || (b.length === 65 && b[0] === 4);

export interface RevealedKey {
  /** The public keys the spend revealed (hex); for a script (P2SH/P2WSH) every key it names. */
  readonly publicKeys: string[];
  /** The redeem or witness script revealed, hex (P2SH/P2WSH). */
  readonly script: string | null;
  /** What was revealed hashes to what the address commits to. */
  readonly verified: boolean;
}

/**
 * What an input spending from an address of `type` (committing to `payload`) revealed, or null
 * when the input holds nothing recognisable (then the spend still revealed it: the input could
 * not have been valid without the key).
 */
export function revealedBy(vin: EsploraVin, type: BitcoinAddressType, payload: Uint8Array): RevealedKey | null {
  const witness = (vin.witness ?? []).map(fromHex);
  const sigPushes = scriptPushes(fromHex(vin.scriptsig)) ?? [];
  switch (type) {
    case 'p2pkh': {
      const key = sigPushes.at(-1);
      return key && isPublicKey(key) ? { publicKeys: [toHex(key)], script: null, verified: equal(hash160(key), payload) } : null;
    }
    case 'v0_p2wpkh': {
      const key = witness.at(-1);
      return key && isPublicKey(key) ? { publicKeys: [toHex(key)], script: null, verified: equal(hash160(key), payload) } : null;
    }
    case 'p2sh': {
      const redeem = sigPushes.at(-1);
      if (!redeem) return null;
      // Nested segwit: the redeem script is a witness program, the key or script is in the witness.
      const nestedKey = redeem.length === 22 && redeem[0] === 0 && redeem[1] === 20 ? witness.at(-1) : undefined;
      const inner = redeem.length === 34 && redeem[0] === 0 && redeem[1] === 32 ? witness.at(-1) : undefined;
      const keys = nestedKey && isPublicKey(nestedKey) ? [nestedKey] : keysIn(inner ?? redeem);
      return { publicKeys: keys.map(toHex), script: toHex(inner ?? redeem), verified: equal(hash160(redeem), payload) };
    }
    case 'v0_p2wsh': {
      const script = witness.at(-1);
      return script ? { publicKeys: keysIn(script).map(toHex), script: toHex(script), verified: equal(sha256(script), payload) } : null;
    }
    case 'v1_p2tr':
      // Key path or script path, the output key is in the address itself (and in the output script).
      return { publicKeys: [toHex(payload)], script: null, verified: true };
  }
}

function keysIn(script: Uint8Array): Uint8Array[] {
  return (scriptPushes(script) ?? []).filter(isPublicKey);
}
