import { beforeAll, describe, expect, it } from 'vitest';
import { bech32, bech32m } from '@scure/base';
import { schnorr, secp256k1 } from '@noble/curves/secp256k1';
import { ripemd160 } from '@noble/hashes/legacy';
import { sha256 } from '@noble/hashes/sha2';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { privateKeyToAccount } from 'viem/accounts';
import { bindingMessage, hybridWallet, secp256k1Secret, verifyBinding, type HybridWallet } from './engine.js';

/** Secret key 1: its public key is the generator G, whose addresses are published test vectors. */
const ONE = Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0));
const created = new Date('2026-01-01T00:00:00Z');

/** BIP 341/86 key-path output key, computed here from the curve: Q = P + H_TapTweak(P) * G. */
function p2trAddress(secret: Uint8Array, hrp: string): string {
  const P = secp256k1.ProjectivePoint.fromPrivateKey(secret);
  const even = P.hasEvenY() ? P : P.negate();
  const x = even.toRawBytes(true).slice(1);
  const t = schnorr.utils.taggedHash('TapTweak', x);
  const Q = even.add(secp256k1.ProjectivePoint.BASE.multiply(BigInt(`0x${Buffer.from(t).toString('hex')}`)));
  return bech32m.encode(hrp, [1, ...bech32m.toWords(Q.toRawBytes(true).slice(1))]);
}

describe('hybrid wallet', () => {
  /** The wallet of a known key, made once (read only by the tests). */
  let w: HybridWallet;
  beforeAll(async () => {
    w = await hybridWallet({ secp256k1Secret: ONE, mlDsaSeed: new Uint8Array(32).fill(5) }, 'mainnet', created);
  });
  it('derives the published addresses of a known key', async () => {
    // Ethereum's address of private key 1, and BIP 173's P2WPKH example (the key G).
    expect(w.secp256k1.evmAddress).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
    expect(w.secp256k1.bitcoin.p2wpkh).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    expect(w.secp256k1.bitcoin.p2tr).toBe(p2trAddress(ONE, 'bc'));
    // WIF of key 1, compressed (Bitcoin wiki's example).
    expect(w.secp256k1.bitcoin.wif).toBe('KwDiBf89QgGbjEhKnhXJuH7LrciVrZi3qYjgd9M7rFU73sVHnoWn');
  });

  it('testnet addresses encode the same keys under tb', async () => {
    const t = await hybridWallet({ secp256k1Secret: ONE, mlDsaSeed: new Uint8Array(32).fill(5) }, 'testnet', created);
    const hash = ripemd160(sha256(secp256k1.getPublicKey(ONE, true)));
    expect(t.secp256k1.bitcoin.p2wpkh).toBe(bech32.encode('tb', [0, ...bech32.toWords(hash)]));
    expect(t.secp256k1.bitcoin.p2tr).toBe(p2trAddress(ONE, 'tb'));
  });

  it('the binding names both keys and both signatures verify, checked here with viem and noble directly', async () => {
    const { message, secp256k1Signature, mlDsaSignature } = w.binding;
    expect(message).toContain(`EVM address: ${w.secp256k1.evmAddress}`);
    expect(message).toContain(`ML-DSA-65 public key SHA-256: ${Buffer.from(sha256(w.mlDsa.publicKey)).toString('hex')}`);
    const account = privateKeyToAccount(`0x${'0'.repeat(63)}1`);
    expect(await account.signMessage({ message })).toBe(secp256k1Signature); // RFC 6979: deterministic
    expect(ml_dsa65.verify(mlDsaSignature, new TextEncoder().encode(message), w.mlDsa.publicKey)).toBe(true);
    expect((await verifyBinding({ message, evmAddress: w.secp256k1.evmAddress, secp256k1Signature, mlDsaPublicKey: w.mlDsa.publicKey, mlDsaSignature })).valid).toBe(true);
  });

  it('a tampered binding fails: changed statement, another ML-DSA key, another EVM key', async () => {
    const { message, secp256k1Signature, mlDsaSignature } = w.binding;
    const base = { message, evmAddress: w.secp256k1.evmAddress, secp256k1Signature, mlDsaPublicKey: w.mlDsa.publicKey, mlDsaSignature };
    const changed = await verifyBinding({ ...base, message: message.replace('2026-01-01', '2027-01-01') });
    expect(changed).toMatchObject({ secp256k1SignatureValid: false, mlDsaSignatureValid: false, valid: false });
    const otherMl = ml_dsa65.keygen(new Uint8Array(32).fill(6));
    const swapped = await verifyBinding({ ...base, mlDsaPublicKey: otherMl.publicKey, mlDsaSignature: ml_dsa65.sign(new TextEncoder().encode(message), otherMl.secretKey) });
    expect(swapped).toMatchObject({ mlDsaSignatureValid: true, namesMlDsaKey: false, valid: false });
    const intruder = privateKeyToAccount(`0x${'0'.repeat(63)}2`);
    const wrongEvm = await verifyBinding({ ...base, evmAddress: intruder.address, secp256k1Signature: await intruder.signMessage({ message }) });
    expect(wrongEvm).toMatchObject({ secp256k1SignatureValid: true, namesEvmAddress: false, valid: false });
    // A statement that names the right keys but was signed by neither.
    const forged = bindingMessage({ evmAddress: w.secp256k1.evmAddress, p2wpkh: 'x', p2tr: 'y', mlDsaPublicKeySha256: Buffer.from(sha256(w.mlDsa.publicKey)).toString('hex'), createdAt: created.toISOString() });
    expect((await verifyBinding({ ...base, message: forged })).valid).toBe(false);
  });

  it('an out-of-range secp256k1 draw is redrawn', () => {
    const n = secp256k1.CURVE.n;
    const tooBig = Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));
    expect(secp256k1Secret((attempt) => (attempt === 0 ? tooBig : ONE))).toEqual(ONE);
  });
});
