import { describe, expect, it } from 'vitest';
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { encryptionKeyPair, SIGNING_SCHEME_IDS, SIGNING_SCHEMES, signingKeyPair } from './engine.js';

const seed = (n: number, fill: number) => new Uint8Array(n).fill(fill);

describe('ML-KEM-768 encryption key pair', () => {
  // FIPS 203 table 3 (ML-KEM-768): ek 1184 B, dk 2400 B, ciphertext 1088 B, shared secret 32 B.
  it('has the standard sizes and round-trips a shared secret the caller encapsulates', () => {
    const pair = encryptionKeyPair(seed(64, 7));
    expect(pair.publicKey.length).toBe(1184);
    expect(pair.secretKey.length).toBe(2400);
    expect(pair.selfCheck).toBe('passed');
    // An encapsulation made here, not by the engine, opens with the returned secret key.
    const { cipherText, sharedSecret } = ml_kem768.encapsulate(pair.publicKey);
    expect(cipherText.length).toBe(1088);
    expect(sharedSecret.length).toBe(32);
    expect(Buffer.from(ml_kem768.decapsulate(cipherText, pair.secretKey))).toEqual(Buffer.from(sharedSecret));
    // Another pair's secret key does not (ML-KEM's implicit rejection gives an unrelated secret).
    const other = encryptionKeyPair(seed(64, 8));
    expect(Buffer.from(ml_kem768.decapsulate(cipherText, other.secretKey))).not.toEqual(Buffer.from(sharedSecret));
  });

  it('is the seed\'s pair (keygen(seed) rebuilds it) and different seeds give different pairs', () => {
    const a = encryptionKeyPair(seed(64, 1));
    expect(Buffer.from(ml_kem768.keygen(a.seed).publicKey)).toEqual(Buffer.from(a.publicKey));
    expect(Buffer.from(encryptionKeyPair(seed(64, 2)).publicKey)).not.toEqual(Buffer.from(a.publicKey));
  });
});

describe('signing key pairs', () => {
  // FIPS 204 table 2 and FIPS 205 table 2.
  const FIPS_SIZES = {
    'ml-dsa-65': { pk: 1952, sk: 4032, sig: 3309 },
    'ml-dsa-87': { pk: 2592, sk: 4896, sig: 4627 },
    'slh-dsa-sha2-128s': { pk: 32, sk: 64, sig: 7856 },
  } as const;

  for (const id of SIGNING_SCHEME_IDS) {
    it(`${id}: standard sizes; a signature made here verifies, a changed one does not`, { timeout: 20_000 }, () => {
      const scheme = SIGNING_SCHEMES[id];
      const pair = signingKeyPair(id, seed(scheme.seedBytes, 3));
      expect(pair.publicKey.length).toBe(FIPS_SIZES[id].pk);
      expect(pair.secretKey.length).toBe(FIPS_SIZES[id].sk);
      expect(pair.selfCheck).toBe('passed');
      const msg = new TextEncoder().encode('pay 1 BTC to Alice');
      const sig = scheme.signer.sign(msg, pair.secretKey);
      expect(sig.length).toBe(FIPS_SIZES[id].sig);
      expect(scheme.signer.verify(sig, msg, pair.publicKey)).toBe(true);
      const forged = Uint8Array.from(sig);
      forged[10]! ^= 0x40;
      expect(scheme.signer.verify(forged, msg, pair.publicKey)).toBe(false);
      expect(scheme.signer.verify(sig, new TextEncoder().encode('pay 2 BTC to Alice'), pair.publicKey)).toBe(false);
    });
  }

  it('ML-DSA-65 is the seed\'s pair', () => {
    const pair = signingKeyPair('ml-dsa-65', seed(32, 9));
    expect(Buffer.from(ml_dsa65.keygen(seed(32, 9)).secretKey)).toEqual(Buffer.from(pair.secretKey));
  });
});
