import { describe, expect, it } from 'vitest';
import { SibylError } from '../../core/errors.js';
import { drawSeeds } from './entropy.js';
import type { QrngProvider } from '../qrng/engine.js';

/** A provider that always gives the same bytes, and counts its calls. */
function fixedProvider(byte = 0xab): QrngProvider & { calls: number[] } {
  const calls: number[] = [];
  return { host: 'qrng.example:443', calls, random: async (n) => (calls.push(n), new Uint8Array(n).fill(byte)) };
}

describe('key seeds', () => {
  it('without a provider: the OS CSPRNG, said so', async () => {
    const s = await drawSeeds(undefined);
    expect(s.entropy).toBe('os-csprng');
    expect(s.entropyDetail).toMatch(/OS CSPRNG/);
    expect(s.derive('a', 32)).toHaveLength(32);
  });

  it('with a provider: its bytes go in and it is named; one draw per call', async () => {
    const q = fixedProvider();
    const s = await drawSeeds(q);
    expect(s.entropy).toBe('qrng:qrng.example:443');
    expect(q.calls).toEqual([64]);
    expect(s.entropyDetail).toContain('quantum random bytes of qrng.example:443');
  });

  it('the provider alone does not determine the key: the same quantum bytes give different seeds', async () => {
    const q = fixedProvider();
    const a = (await drawSeeds(q)).derive('ml-kem-768', 64);
    const b = (await drawSeeds(q)).derive('ml-kem-768', 64);
    expect(Buffer.from(a)).not.toEqual(Buffer.from(b));
  });

  it('purposes give independent seeds from one draw, and the same purpose the same seed', async () => {
    const s = await drawSeeds(undefined);
    expect(Buffer.from(s.derive('secp256k1/0', 32))).not.toEqual(Buffer.from(s.derive('ml-dsa-65', 32)));
    expect(Buffer.from(s.derive('ml-dsa-65', 32))).toEqual(Buffer.from(s.derive('ml-dsa-65', 32)));
  });

  it('a failing provider fails the draw: no silent fallback to the OS', async () => {
    const failing: QrngProvider = { host: 'down.example', random: async () => { throw new SibylError('upstream_unavailable', 'down'); } };
    await expect(drawSeeds(failing)).rejects.toBeInstanceOf(SibylError);
  });
});
