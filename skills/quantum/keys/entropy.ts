/**
 * Where a generated key's randomness comes from. Without a QRNG provider: the OS CSPRNG. With
 * one: its quantum bytes, always mixed with as many OS CSPRNG bytes (HKDF-SHA-256 over both), so
 * the key is as unpredictable as the better of the two and the provider, which saw its own bytes
 * go by, cannot rebuild the key. The answer names the source either way, and a provider that fails
 * refuses the call (503, nothing charged) instead of quietly seeding from the OS alone.
 */
import { randomBytes } from 'node:crypto';
import { hkdf } from '@noble/hashes/hkdf';
import { sha256 } from '@noble/hashes/sha2';
import type { QrngProvider } from '../qrng/engine.js';

/** Input keying material drawn per call, from each source. */
const DRAW_BYTES = 64;
const SALT = 'sibyl/pqc-keys/v1';

export interface SeedSource {
  /** `os-csprng`, or `qrng:<host>` when the provider's bytes went into the seed. */
  readonly entropy: string;
  /** How the seed was made, in a sentence. */
  readonly entropyDetail: string;
  /** A seed of `length` bytes for one purpose (one key); different purposes give independent seeds. */
  derive(purpose: string, length: number): Uint8Array;
  /** Forgets the drawn material. */
  wipe(): void;
}

/** Draws this call's randomness: from the QRNG provider (mixed with the OS CSPRNG) when there is one. */
export async function drawSeeds(qrng: QrngProvider | undefined, signal?: AbortSignal): Promise<SeedSource> {
  const os = new Uint8Array(randomBytes(DRAW_BYTES));
  if (!qrng) {
    return seedSource(os, 'os-csprng', `Seeds derived with HKDF-SHA-256 from ${DRAW_BYTES} bytes of the server's OS CSPRNG (no quantum random-number provider is configured).`);
  }
  const quantum = await qrng.random(DRAW_BYTES, signal);
  const ikm = new Uint8Array(DRAW_BYTES * 2);
  ikm.set(quantum, 0);
  ikm.set(os, DRAW_BYTES);
  os.fill(0);
  quantum.fill(0);
  return seedSource(ikm, `qrng:${qrng.host}`, `Seeds derived with HKDF-SHA-256 from ${DRAW_BYTES} quantum random bytes of ${qrng.host} together with ${DRAW_BYTES} bytes of the server's OS CSPRNG, so neither source alone determines the key.`);
}

function seedSource(ikm: Uint8Array, entropy: string, entropyDetail: string): SeedSource {
  return {
    entropy,
    entropyDetail,
    derive: (purpose, length) => hkdf(sha256, ikm, SALT, purpose, length),
    wipe: () => void ikm.fill(0),
  };
}
