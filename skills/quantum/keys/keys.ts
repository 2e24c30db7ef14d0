/**
 * quantum-encryption-key (ML-KEM-768) and quantum-signing-key (ML-DSA-65/87, SLH-DSA-SHA2-128s):
 * a post-quantum key pair generated for the caller, proved by a self-check, returned once. Keys are
 * never stored or logged by Sibyl: the handler keeps nothing, and summaries name only public facts
 * (algorithm, public-key fingerprint, entropy source).
 */
import { z } from 'zod';
import type { SkillContext } from '../../core/context.js';
import { SibylError } from '../../core/errors.js';
import { drawSeeds, type SeedSource } from './entropy.js';
import { encode, encryptionKeyPair, fingerprint, ML_KEM_768, SelfCheckFailed, SIGNING_SCHEME_IDS, SIGNING_SCHEMES, signingKeyPair, type KeyEncoding } from './engine.js';
import type { QrngProvider } from '../qrng/engine.js';
import { isoTime, multiChainProvenanceShape } from '../../core/outputs.js';
import { defineSkill } from '../../core/registry.js';

/** The QRNG provider of this deployment, when there is one (the service puts it in the context). */
export const qrngOf = (ctx: SkillContext): QrngProvider | undefined => ctx.qrng;

export const KEYS_METHODOLOGY = 'pqc-keys/v1: @noble/post-quantum 0.7 (FIPS 203/204/205), seeded per call (pqc-keys-entropy), self-checked before it is returned; nothing is stored or logged.';

export const ONCE = 'Returned once: Sibyl keeps no copy (nothing is stored or logged), so a lost secret key cannot be recovered from Sibyl. Store it encrypted, offline if you can.';

export const encodingParam = z.enum(['hex', 'base64']).default('hex').describe('Encoding of the keys: hex (default) or base64.');

/** The entropy fields every generated key carries. */
export const entropyShape = {
  entropy: z.string().describe('What seeded the key: os-csprng, or qrng:<host> when a quantum random-number provider is configured (its bytes mixed with the OS CSPRNG\'s).'),
  entropyDetail: z.string(),
};

export const generatedProvenance = (now: Date) => ({ source: 'generated', asOf: { timestamp: now.toISOString() }, methodology: KEYS_METHODOLOGY });

/** Runs key generation with this call's seeds; a failed self-check becomes a refusal with nothing charged and no key material in it. */
export async function withSeeds<T>(ctx: SkillContext, generate: (seeds: SeedSource) => Promise<T> | T): Promise<T> {
  const seeds = await drawSeeds(qrngOf(ctx), ctx.signal);
  try {
    return await generate(seeds);
  } catch (err) {
    if (err instanceof SelfCheckFailed) throw new SibylError('internal_error', `${err.message}; no key was returned and nothing was charged`);
    throw err;
  } finally {
    seeds.wipe();
  }
}

/** The fields of a key pair's answer that hold secrets: returned once, never kept (issued-secrets.ts). */
export const KEY_PAIR_SECRETS = ['secretKey', 'seed'] as const;

const keyPairShape = {
  ...multiChainProvenanceShape,
  encoding: z.enum(['hex', 'base64']).describe('How publicKey, secretKey and seed are encoded.'),
  publicKey: z.string(),
  secretKey: z.string().describe('Secret: anyone holding it can decrypt / sign as you.'),
  seed: z.string().describe('The FIPS seed the pair expands from (keygen(seed) gives the same pair): as secret as secretKey, and a compact way to store it.'),
  publicKeySha256: z.string().describe('SHA-256 of the public key, hex: a fingerprint safe to share.'),
  selfCheck: z.literal('passed'),
  selfCheckDetail: z.string(),
  ...entropyShape,
  usage: z.array(z.string()).describe('How to use the pair, step by step.'),
  storage: z.string(),
  generatedAt: isoTime,
};

const sizes = (pair: { publicKey: Uint8Array; secretKey: Uint8Array }) => `public ${pair.publicKey.length} B, secret ${pair.secretKey.length} B`;

/** A generated pair's keys, fingerprint, self-check and entropy, as both key skills answer them. */
function keyPairFields(pair: { publicKey: Uint8Array; secretKey: Uint8Array; seed: Uint8Array; selfCheck: 'passed'; selfCheckDetail: string }, enc: KeyEncoding, seeds: Pick<SeedSource, 'entropy' | 'entropyDetail'>) {
  return {
    publicKey: encode(pair.publicKey, enc), secretKey: encode(pair.secretKey, enc), seed: encode(pair.seed, enc),
    publicKeySha256: fingerprint(pair.publicKey),
    selfCheck: pair.selfCheck, selfCheckDetail: `${pair.selfCheckDetail} Sizes: ${sizes(pair)}.`,
    entropy: seeds.entropy, entropyDetail: seeds.entropyDetail,
  };
}

export const quantumEncryptionKeySkill = defineSkill({
  id: 'quantum-encryption-key',
  title: 'Post-quantum encryption key',
  description: `A fresh ML-KEM-768 key pair (FIPS 203, NIST security category 3: public key ${ML_KEM_768.publicKeyBytes} B, secret key ${ML_KEM_768.secretKeyBytes} B, ciphertext ${ML_KEM_768.ciphertextBytes} B, shared secret ${ML_KEM_768.sharedSecretBytes} B), self-checked by an encapsulate/decapsulate round trip, with how to use it. Seeded from the configured quantum random-number provider when there is one, else the OS CSPRNG (the answer says which). Returned once, never stored or logged.`,
  tags: ['quantum', 'post-quantum', 'pqc', 'encryption', 'key', 'generate', 'ml-kem', 'kyber', 'fips-203'],
  examples: ['Make me a quantum-resistant encryption key', 'Generate an ML-KEM-768 key pair'],
  input: z.strictObject({ encoding: encodingParam }),
  price: '1.00',
  toolName: 'quantum_encryption_key',
  surfaces: ['a2a', 'mcp', 'agent'],
  secretFields: KEY_PAIR_SECRETS,
  output: z.object({
    ...keyPairShape,
    algorithm: z.object({
      name: z.literal(ML_KEM_768.name), standard: z.string(), nistSecurityCategory: z.number().int(),
      publicKeyBytes: z.number().int(), secretKeyBytes: z.number().int(), ciphertextBytes: z.number().int(), sharedSecretBytes: z.number().int(), seedBytes: z.number().int(),
    }),
  }),
  summarize: (r) => `${r.algorithm.name} key pair generated (public key SHA-256 ${String(r.publicKeySha256).slice(0, 16)}…, seeded from ${r.entropy}); self-check ${r.selfCheck}. The secret key is in the answer only, once.`,
  async handler(input, ctx) {
    const now = new Date();
    return withSeeds(ctx, (seeds) => {
      const pair = encryptionKeyPair(seeds.derive('ml-kem-768', ML_KEM_768.seedBytes));
      const enc = input.encoding as KeyEncoding;
      return {
        ...generatedProvenance(now),
        algorithm: { ...ML_KEM_768 },
        encoding: enc,
        ...keyPairFields(pair, enc, seeds),
        usage: [
          'Publish the public key to whoever will send you secrets; keep the secret key (or the seed) private.',
          'Sender: (cipherText, sharedSecret) = ML-KEM-768.Encaps(publicKey); encrypt the message with an AEAD (e.g. AES-256-GCM or ChaCha20-Poly1305) under a key derived from sharedSecret (HKDF-SHA-256), and send cipherText (1,088 B) with the encrypted message.',
          'Recipient: sharedSecret = ML-KEM-768.Decaps(cipherText, secretKey), derive the same AEAD key and decrypt.',
          'In JavaScript: import { ml_kem768 } from \'@noble/post-quantum/ml-kem.js\'; ml_kem768.encapsulate(publicKey) and ml_kem768.decapsulate(cipherText, secretKey); ml_kem768.keygen(seed) rebuilds the pair from the seed.',
          'ML-KEM is a key-encapsulation mechanism, not a signature: it does not prove who sent a ciphertext. For transport, combine it with a classical exchange (hybrid, e.g. X25519MLKEM768 in TLS) and authenticate the parties.',
        ],
        storage: ONCE,
        generatedAt: now.toISOString(),
      };
    });
  },
});

export const quantumSigningKeySkill = defineSkill({
  id: 'quantum-signing-key',
  title: 'Post-quantum signing key',
  description: 'A fresh post-quantum signing key pair: ML-DSA-65 (FIPS 204, default), ML-DSA-87 (FIPS 204, category 5) or SLH-DSA-SHA2-128s (FIPS 205, hash-based), self-checked by a signature that verifies (and fails on a changed message), with how to use it. Seeded from the configured quantum random-number provider when there is one, else the OS CSPRNG (the answer says which). Returned once, never stored or logged.',
  tags: ['quantum', 'post-quantum', 'pqc', 'signing', 'signature', 'key', 'generate', 'ml-dsa', 'dilithium', 'slh-dsa', 'sphincs', 'fips-204', 'fips-205'],
  examples: ['Create a quantum-safe signature key', 'Generate an ML-DSA-65 signing key', 'Make me a hash-based SLH-DSA key'],
  input: z.strictObject({
    scheme: z.enum(SIGNING_SCHEME_IDS).default('ml-dsa-65').describe('ml-dsa-65 (default), ml-dsa-87 or slh-dsa-sha2-128s.'),
    encoding: encodingParam,
  }),
  price: '1.50',
  toolName: 'quantum_signing_key',
  surfaces: ['a2a', 'mcp', 'agent'],
  secretFields: KEY_PAIR_SECRETS,
  output: z.object({
    ...keyPairShape,
    algorithm: z.object({
      id: z.enum(SIGNING_SCHEME_IDS), name: z.string(), standard: z.string(), nistSecurityCategory: z.number().int(),
      publicKeyBytes: z.number().int(), secretKeyBytes: z.number().int(), signatureBytes: z.number().int(), seedBytes: z.number().int(), note: z.string(),
    }),
  }),
  summarize: (r) => `${r.algorithm.name} signing key pair generated (public key SHA-256 ${String(r.publicKeySha256).slice(0, 16)}…, seeded from ${r.entropy}); self-check ${r.selfCheck}. The secret key is in the answer only, once.`,
  async handler(input, ctx) {
    const now = new Date();
    const { signer: _signer, ...scheme } = SIGNING_SCHEMES[input.scheme];
    return withSeeds(ctx, (seeds) => {
      const pair = signingKeyPair(input.scheme, seeds.derive(input.scheme, scheme.seedBytes));
      const enc = input.encoding as KeyEncoding;
      const js = input.scheme === 'slh-dsa-sha2-128s'
        ? "import { slh_dsa_sha2_128s } from '@noble/post-quantum/slh-dsa.js'; slh_dsa_sha2_128s.sign(msg, secretKey) / .verify(signature, msg, publicKey)"
        : `import { ${input.scheme.replace(/-/g, '_')} } from '@noble/post-quantum/ml-dsa.js'; ${input.scheme.replace(/-/g, '_')}.sign(msg, secretKey) / .verify(signature, msg, publicKey)`;
      return {
        ...generatedProvenance(now),
        algorithm: scheme,
        encoding: enc,
        ...keyPairFields(pair, enc, seeds),
        usage: [
          'Publish the public key (or its SHA-256 fingerprint) where verifiers can find it; keep the secret key (or the seed) private.',
          `Sign: signature = ${scheme.name}.Sign(secretKey, message) (${scheme.signatureBytes} B). Verify: ${scheme.name}.Verify(publicKey, message, signature).`,
          `In JavaScript: ${js}. keygen(seed) rebuilds the pair from the seed.`,
          'Signatures are randomized by default (hedged signing): signing the same message twice gives different, equally valid signatures.',
          'No major blockchain verifies these signatures natively yet: use the key for off-chain attestations, software and document signing, or a smart-contract wallet with a post-quantum verifier.',
        ],
        storage: ONCE,
        generatedAt: now.toISOString(),
      };
    });
  },
});
