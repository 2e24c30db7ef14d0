/**
 * A hybrid wallet: one secp256k1 key for today's chains (its EVM address, and its Bitcoin P2WPKH
 * and P2TR addresses) plus an ML-DSA-65 key for the post-quantum future, bound to each other by
 * one binding statement that both keys sign: the secp256k1 key (EIP-191 personal_sign) over a
 * text naming the ML-DSA public key's SHA-256, and the ML-DSA key (FIPS 204, empty context) over
 * the same text, which names the EVM address. Both signatures are verified before the wallet is
 * handed out, and `verifyBinding` lets anyone check them again later.
 */
import * as btc from '@scure/btc-signer';
import { secp256k1 } from '@noble/curves/secp256k1';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { bytesToHex, getAddress, verifyMessage, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fingerprint, SelfCheckFailed, SIGNING_SCHEMES } from '../keys/engine.js';

export type BitcoinNetwork = 'mainnet' | 'testnet';
const NETWORKS = { mainnet: btc.NETWORK, testnet: btc.TEST_NETWORK } as const;
export const BINDING_TITLE = 'Sibyl hybrid wallet binding v1';

export interface HybridKeys {
  /** 32-byte secp256k1 secret key (must be a valid scalar). */
  readonly secp256k1Secret: Uint8Array;
  /** 32-byte ML-DSA-65 seed (FIPS 204 ξ). */
  readonly mlDsaSeed: Uint8Array;
}

export interface HybridWallet {
  readonly secp256k1: {
    readonly privateKey: Hex;
    readonly publicKeyCompressed: string;
    readonly evmAddress: string;
    readonly bitcoin: { readonly network: BitcoinNetwork; readonly wif: string; readonly p2wpkh: string; readonly p2tr: string };
  };
  readonly mlDsa: { readonly publicKey: Uint8Array; readonly secretKey: Uint8Array; readonly seed: Uint8Array; readonly publicKeySha256: string };
  readonly binding: { readonly message: string; readonly secp256k1Signature: Hex; readonly mlDsaSignature: Uint8Array };
}

/** A valid secp256k1 secret from a 32-byte draw: out-of-range draws (odds ~2^-128) are redrawn by the caller's `next`. */
export function secp256k1Secret(draw: (attempt: number) => Uint8Array): Uint8Array {
  for (let attempt = 0; attempt < 8; attempt++) {
    const candidate = draw(attempt);
    if (secp256k1.utils.isValidPrivateKey(candidate)) return candidate;
  }
  throw new SelfCheckFailed('no valid secp256k1 secret key in 8 draws');
}

/** The binding statement both keys sign: it names every address and the ML-DSA key. */
export function bindingMessage(fields: { evmAddress: string; p2wpkh: string; p2tr: string; mlDsaPublicKeySha256: string; createdAt: string }): string {
  return [
    BINDING_TITLE,
    `EVM address: ${fields.evmAddress}`,
    `Bitcoin P2WPKH: ${fields.p2wpkh}`,
    `Bitcoin P2TR: ${fields.p2tr}`,
    `ML-DSA-65 public key SHA-256: ${fields.mlDsaPublicKeySha256}`,
    `Created: ${fields.createdAt}`,
  ].join('\n');
}

export async function hybridWallet(keys: HybridKeys, network: BitcoinNetwork, createdAt: Date): Promise<HybridWallet> {
  const privateKey = bytesToHex(keys.secp256k1Secret);
  const account = privateKeyToAccount(privateKey);
  const compressed = secp256k1.getPublicKey(keys.secp256k1Secret, true);
  const net = NETWORKS[network];
  const p2wpkh = btc.p2wpkh(compressed, net).address!;
  // BIP 86: key-path only, the internal key tweaked with no script tree.
  const p2tr = btc.p2tr(compressed.slice(1), undefined, net).address!;
  const ml = ml_dsa65.keygen(keys.mlDsaSeed);
  const mlDsaPublicKeySha256 = fingerprint(ml.publicKey);
  const message = bindingMessage({ evmAddress: account.address, p2wpkh, p2tr, mlDsaPublicKeySha256, createdAt: createdAt.toISOString() });
  const secp256k1Signature = await account.signMessage({ message });
  const mlDsaSignature = ml_dsa65.sign(new TextEncoder().encode(message), ml.secretKey);
  const wallet: HybridWallet = {
    secp256k1: { privateKey, publicKeyCompressed: bytesToHex(compressed).slice(2), evmAddress: account.address, bitcoin: { network, wif: btc.WIF(net).encode(keys.secp256k1Secret), p2wpkh, p2tr } },
    mlDsa: { publicKey: ml.publicKey, secretKey: ml.secretKey, seed: Uint8Array.from(keys.mlDsaSeed), publicKeySha256: mlDsaPublicKeySha256 },
    binding: { message, secp256k1Signature, mlDsaSignature },
  };
  const check = await verifyBinding({ message, evmAddress: account.address, secp256k1Signature, mlDsaPublicKey: ml.publicKey, mlDsaSignature });
  if (!check.valid) throw new SelfCheckFailed(`hybrid wallet binding failed its own check: ${JSON.stringify(check)}`);
  if (ml.publicKey.length !== SIGNING_SCHEMES['ml-dsa-65'].publicKeyBytes) throw new SelfCheckFailed('ML-DSA-65 public key of the wrong size');
  return wallet;
}

export interface BindingCheck {
  /** The secp256k1 signature recovers to the EVM address (EIP-191). */
  readonly secp256k1SignatureValid: boolean;
  /** The ML-DSA-65 signature verifies under the given public key. */
  readonly mlDsaSignatureValid: boolean;
  /** The statement names this EVM address and this ML-DSA public key's SHA-256. */
  readonly namesEvmAddress: boolean;
  readonly namesMlDsaKey: boolean;
  readonly valid: boolean;
}

/** Checks a binding: both signatures over the same statement, and the statement names both keys. */
export async function verifyBinding(b: { message: string; evmAddress: string; secp256k1Signature: Hex; mlDsaPublicKey: Uint8Array; mlDsaSignature: Uint8Array }): Promise<BindingCheck> {
  const lines = b.message.split('\n');
  const namesEvmAddress = lines.includes(`EVM address: ${getAddress(b.evmAddress)}`);
  const namesMlDsaKey = lines.includes(`ML-DSA-65 public key SHA-256: ${fingerprint(b.mlDsaPublicKey)}`);
  const secp256k1SignatureValid = await verifyMessage({ address: getAddress(b.evmAddress), message: b.message, signature: b.secp256k1Signature }).catch(() => false);
  let mlDsaSignatureValid = false;
  try {
    mlDsaSignatureValid = ml_dsa65.verify(b.mlDsaSignature, new TextEncoder().encode(b.message), b.mlDsaPublicKey);
  } catch {
    mlDsaSignatureValid = false;
  }
  return { secp256k1SignatureValid, mlDsaSignatureValid, namesEvmAddress, namesMlDsaKey, valid: secp256k1SignatureValid && mlDsaSignatureValid && namesEvmAddress && namesMlDsaKey && lines[0] === BINDING_TITLE };
}
