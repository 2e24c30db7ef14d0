/**
 * Post-quantum key pairs with @noble/post-quantum: ML-KEM-768 for encryption (FIPS 203) and
 * ML-DSA-65/87 (FIPS 204) or SLH-DSA-SHA2-128s (FIPS 205) for signatures. Each pair is proved
 * before it is handed out: the KEM encapsulates to its public key and decapsulates with its secret
 * key, the signer signs and verifies (and a changed message must fail). A pair that fails is never
 * returned. Keys are generated from a seed the caller draws (pqc-keys-entropy.ts).
 */
import { equalBytes } from '@noble/post-quantum/utils.js';
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';
import { ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { slh_dsa_sha2_128s } from '@noble/post-quantum/slh-dsa.js';
import { sha256 } from '@noble/hashes/sha2';

export type KeyEncoding = 'hex' | 'base64';
export const encode = (bytes: Uint8Array, encoding: KeyEncoding) => Buffer.from(bytes).toString(encoding);
/** SHA-256 of a public key, hex: a short name for it that is safe to show anywhere. */
export const fingerprint = (publicKey: Uint8Array) => Buffer.from(sha256(publicKey)).toString('hex');

/** ML-KEM-768's published parameters (FIPS 203, table 3), which the generated pair must match. */
export const ML_KEM_768 = {
  name: 'ML-KEM-768',
  standard: 'FIPS 203 (Module-Lattice-Based Key-Encapsulation Mechanism)',
  nistSecurityCategory: 3,
  publicKeyBytes: 1184,
  secretKeyBytes: 2400,
  ciphertextBytes: 1088,
  sharedSecretBytes: 32,
  seedBytes: 64,
} as const;

export interface GeneratedPair {
  readonly publicKey: Uint8Array;
  readonly secretKey: Uint8Array;
  /** The FIPS seed the pair is expanded from (keygen(seed) gives it back). */
  readonly seed: Uint8Array;
  readonly selfCheck: 'passed';
  readonly selfCheckDetail: string;
}

export class SelfCheckFailed extends Error {}

/** An ML-KEM-768 pair from a 64-byte seed (d ‖ z), proved by an encapsulate/decapsulate round trip. */
export function encryptionKeyPair(seed: Uint8Array): GeneratedPair {
  const { publicKey, secretKey } = ml_kem768.keygen(seed);
  assertSizes(ML_KEM_768.name, publicKey, ML_KEM_768.publicKeyBytes, secretKey, ML_KEM_768.secretKeyBytes);
  const { cipherText, sharedSecret } = ml_kem768.encapsulate(publicKey);
  const recovered = ml_kem768.decapsulate(cipherText, secretKey);
  if (cipherText.length !== ML_KEM_768.ciphertextBytes || sharedSecret.length !== ML_KEM_768.sharedSecretBytes || !equalBytes(sharedSecret, recovered)) {
    throw new SelfCheckFailed('ML-KEM-768 self-check failed: decapsulation did not recover the encapsulated shared secret');
  }
  return {
    publicKey, secretKey, seed: Uint8Array.from(seed), selfCheck: 'passed',
    selfCheckDetail: `Encapsulated a fresh ${ML_KEM_768.sharedSecretBytes}-byte shared secret to the public key (ciphertext ${ML_KEM_768.ciphertextBytes} B) and decapsulated it with the secret key: both sides hold the same secret.`,
  };
}

type Signer = typeof ml_dsa65;

export interface SigningScheme {
  readonly id: SigningSchemeId;
  readonly name: string;
  readonly standard: string;
  readonly nistSecurityCategory: number;
  readonly publicKeyBytes: number;
  readonly secretKeyBytes: number;
  readonly signatureBytes: number;
  readonly seedBytes: number;
  readonly note: string;
  readonly signer: Signer;
}

export const SIGNING_SCHEME_IDS = ['ml-dsa-65', 'ml-dsa-87', 'slh-dsa-sha2-128s'] as const;
export type SigningSchemeId = (typeof SIGNING_SCHEME_IDS)[number];

/** Sizes from FIPS 204 table 2 and FIPS 205 table 2. */
export const SIGNING_SCHEMES: Record<SigningSchemeId, SigningScheme> = {
  'ml-dsa-65': {
    id: 'ml-dsa-65', name: 'ML-DSA-65', standard: 'FIPS 204 (Module-Lattice-Based Digital Signature Algorithm)', nistSecurityCategory: 3,
    publicKeyBytes: 1952, secretKeyBytes: 4032, signatureBytes: 3309, seedBytes: 32, signer: ml_dsa65,
    note: 'Lattice signatures: fast, mid-sized keys and signatures. The general-purpose default.',
  },
  'ml-dsa-87': {
    id: 'ml-dsa-87', name: 'ML-DSA-87', standard: 'FIPS 204 (Module-Lattice-Based Digital Signature Algorithm)', nistSecurityCategory: 5,
    publicKeyBytes: 2592, secretKeyBytes: 4896, signatureBytes: 4627, seedBytes: 32, signer: ml_dsa87,
    note: 'The highest ML-DSA security category, at larger keys and signatures.',
  },
  'slh-dsa-sha2-128s': {
    id: 'slh-dsa-sha2-128s', name: 'SLH-DSA-SHA2-128s', standard: 'FIPS 205 (Stateless Hash-Based Digital Signature Algorithm)', nistSecurityCategory: 1,
    publicKeyBytes: 32, secretKeyBytes: 64, signatureBytes: 7856, seedBytes: 48, signer: slh_dsa_sha2_128s as unknown as Signer,
    note: 'Hash-based: its security rests only on SHA-256, not on lattices. Tiny keys, large signatures, slow signing (seconds).',
  },
};

const SELF_CHECK_MESSAGE = new TextEncoder().encode('sibyl signing-key self-check');

/** A signing pair of `scheme` from its seed, proved by a signature that verifies and fails on a changed message. */
export function signingKeyPair(schemeId: SigningSchemeId, seed: Uint8Array): GeneratedPair {
  const scheme = SIGNING_SCHEMES[schemeId];
  const { publicKey, secretKey } = scheme.signer.keygen(seed);
  assertSizes(scheme.name, publicKey, scheme.publicKeyBytes, secretKey, scheme.secretKeyBytes);
  const signature = scheme.signer.sign(SELF_CHECK_MESSAGE, secretKey);
  const tampered = Uint8Array.from(SELF_CHECK_MESSAGE);
  tampered[0]! ^= 1;
  if (signature.length !== scheme.signatureBytes || !scheme.signer.verify(signature, SELF_CHECK_MESSAGE, publicKey) || scheme.signer.verify(signature, tampered, publicKey)) {
    throw new SelfCheckFailed(`${scheme.name} self-check failed: a signature by the secret key did not verify under the public key, or verified a changed message`);
  }
  return {
    publicKey, secretKey, seed: Uint8Array.from(seed), selfCheck: 'passed',
    selfCheckDetail: `Signed a test message with the secret key (${scheme.signatureBytes}-byte signature); it verifies under the public key, and the same signature is rejected for a message with one bit changed.`,
  };
}

function assertSizes(name: string, publicKey: Uint8Array, publicBytes: number, secretKey: Uint8Array, secretBytes: number): void {
  if (publicKey.length !== publicBytes || secretKey.length !== secretBytes) {
    throw new SelfCheckFailed(`${name} self-check failed: keys of ${publicKey.length}/${secretKey.length} bytes, the standard says ${publicBytes}/${secretBytes}`);
  }
}
