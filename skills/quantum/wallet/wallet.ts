/**
 * quantum-wallet-generation: a hybrid wallet (pqc-keys-wallet.ts) — a secp256k1 key with its EVM
 * and Bitcoin addresses for today's chains, an ML-DSA-65 key for the post-quantum migration, and a
 * binding both keys signed, verified before it is returned. Returned once, never stored or logged.
 */
import { z } from 'zod';
import { encode, fingerprint, SIGNING_SCHEMES } from '../keys/engine.js';
import { hybridWallet, secp256k1Secret } from './engine.js';
import { isoTime, multiChainProvenanceShape } from '../../core/outputs.js';
import { defineSkill } from '../../core/registry.js';
import { entropyShape, generatedProvenance, KEY_PAIR_SECRETS, ONCE, withSeeds } from '../keys/keys.js';

const ML_DSA_65 = SIGNING_SCHEMES['ml-dsa-65'];

export const quantumWalletGenerationSkill = defineSkill({
  id: 'quantum-wallet-generation',
  title: 'Quantum-safe hybrid wallet generation',
  description: 'A hybrid wallet: a secp256k1 key with its EVM address and Bitcoin P2WPKH and P2TR addresses for today\'s chains, plus an ML-DSA-65 (FIPS 204) key for when chains accept post-quantum signatures, bound together by a statement both keys sign (each signature verified before the answer), and how to use it without exposing the classical key. Seeded from the configured quantum random-number provider when there is one, else the OS CSPRNG (the answer says which). Returned once, never stored or logged.',
  tags: ['quantum', 'post-quantum', 'pqc', 'wallet', 'generate', 'ml-dsa', 'hybrid', 'bitcoin', 'ethereum', 'qrng'],
  examples: ['Generate a quantum-safe wallet', 'Create a hybrid post-quantum wallet for Bitcoin and Ethereum'],
  input: z.strictObject({
    network: z.enum(['mainnet', 'testnet']).default('mainnet').describe('Bitcoin network of the addresses: mainnet (bc1…, default) or testnet (tb1…).'),
  }),
  price: '2.00',
  toolName: 'quantum_wallet_generation',
  surfaces: ['a2a', 'mcp', 'agent'],
  // The WIF also sits inside the descriptors: stripped there too, by value.
  secretFields: ['privateKey', 'wif', ...KEY_PAIR_SECRETS],
  catalog: { rateLimitPerMinute: 5, timeTargetSeconds: 120 },
  output: z.object({
    ...multiChainProvenanceShape,
    classical: z.object({
      curve: z.literal('secp256k1'),
      privateKey: z.string().describe('Secret, 0x hex: imports into EVM wallets.'),
      publicKeyCompressed: z.string().describe('Hex, 33 bytes.'),
      evmAddress: z.string(),
      bitcoin: z.object({
        network: z.enum(['mainnet', 'testnet']),
        wif: z.string().describe('Secret: the same private key in Bitcoin\'s WIF (compressed).'),
        p2wpkh: z.string().describe('Native SegWit address: the public key stays hidden behind its hash until the first spend.'),
        p2tr: z.string().describe('Taproot (BIP 86 key path) address: the address itself encodes the tweaked public key.'),
        descriptors: z.array(z.string()).describe('Output descriptors holding the WIF (secret); add a checksum with getdescriptorinfo before importdescriptors.'),
      }),
    }),
    postQuantum: z.object({
      algorithm: z.literal(ML_DSA_65.name), standard: z.string(),
      encoding: z.literal('hex'),
      publicKey: z.string(), secretKey: z.string().describe('Secret.'), seed: z.string().describe('Secret: the 32-byte FIPS 204 seed; ml_dsa65.keygen(seed) rebuilds the pair.'),
      publicKeySha256: z.string(),
    }),
    binding: z.object({
      message: z.string().describe('The statement both keys signed (UTF-8, lines joined by \\n).'),
      secp256k1Signature: z.string().describe('EIP-191 personal_sign of the message by the EVM address.'),
      mlDsaSignature: z.string().describe('ML-DSA-65 signature of the message bytes (empty context), hex.'),
      verified: z.object({ secp256k1: z.boolean(), mlDsa: z.boolean() }).describe('Both checked by Sibyl before answering.'),
      howToVerify: z.array(z.string()),
    }),
    ...entropyShape,
    usage: z.array(z.string()),
    storage: z.string(),
    generatedAt: isoTime,
  }),
  summarize: (r) => `Hybrid wallet generated: EVM ${r.classical.evmAddress}, Bitcoin ${r.classical.bitcoin.p2wpkh} (P2WPKH) and ${r.classical.bitcoin.p2tr} (P2TR), ML-DSA-65 key ${String(r.postQuantum.publicKeySha256).slice(0, 16)}…; binding signed by both keys and verified; seeded from ${r.entropy}. The secret keys are in the answer only, once.`,
  async handler(input, ctx) {
    const now = new Date();
    return withSeeds(ctx, async (seeds) => {
      const w = await hybridWallet({
        secp256k1Secret: secp256k1Secret((attempt) => seeds.derive(`secp256k1/${attempt}`, 32)),
        mlDsaSeed: seeds.derive('ml-dsa-65', ML_DSA_65.seedBytes),
      }, input.network, now);
      const { wif } = w.secp256k1.bitcoin;
      return {
        ...generatedProvenance(now),
        classical: {
          curve: 'secp256k1' as const,
          privateKey: w.secp256k1.privateKey,
          publicKeyCompressed: w.secp256k1.publicKeyCompressed,
          evmAddress: w.secp256k1.evmAddress,
          bitcoin: { ...w.secp256k1.bitcoin, descriptors: [`wpkh(${wif})`, `tr(${wif})`] },
        },
        postQuantum: {
          algorithm: ML_DSA_65.name, standard: ML_DSA_65.standard, encoding: 'hex' as const,
          publicKey: encode(w.mlDsa.publicKey, 'hex'), secretKey: encode(w.mlDsa.secretKey, 'hex'), seed: encode(w.mlDsa.seed, 'hex'),
          publicKeySha256: fingerprint(w.mlDsa.publicKey),
        },
        binding: {
          message: w.binding.message,
          secp256k1Signature: w.binding.secp256k1Signature,
          mlDsaSignature: encode(w.binding.mlDsaSignature, 'hex'),
          verified: { secp256k1: true, mlDsa: true },
          howToVerify: [
            'secp256k1: viem verifyMessage({ address: evmAddress, message, signature: secp256k1Signature }) (EIP-191 personal_sign) must be true.',
            'ML-DSA-65: ml_dsa65.verify(hexToBytes(mlDsaSignature), utf8(message), hexToBytes(publicKey)) must be true (FIPS 204, empty context).',
            'The message must name this EVM address and sha256(ML-DSA public key): each key vouches for the other.',
          ],
        },
        entropy: seeds.entropy, entropyDetail: seeds.entropyDetail,
        usage: [
          'Today, use the secp256k1 key: the EVM address on any EVM chain, and on Bitcoin prefer the P2WPKH address for savings: its public key stays hidden behind a hash until you first spend from it.',
          'The P2TR address encodes its (tweaked) public key in the address itself, so coins on it are exposed to a future quantum computer from the moment they arrive; use it for spending convenience, not long-term storage.',
          'Never reuse an address after spending from it: the spend reveals the public key, and whatever stays on that address is exposed. Send change to fresh addresses.',
          'An EVM account reveals its public key with its first outgoing transaction; keep long-term holdings in an address that has never sent one, or in a smart-contract wallet whose signature check can be upgraded.',
          'Keep the ML-DSA-65 secret key (or its 32-byte seed) offline. Chains do not verify ML-DSA signatures natively yet; it is for the migration: when a chain or a contract wallet accepts post-quantum signatures, move the funds under this key, and the signed binding shows both keys were held together from the start.',
          'Keep the binding (message and both signatures) with the public keys; it holds no secret and can be published.',
        ],
        storage: `${ONCE} It holds two secret keys (secp256k1 and ML-DSA-65): back both up.`,
        generatedAt: now.toISOString(),
      };
    });
  },
});
