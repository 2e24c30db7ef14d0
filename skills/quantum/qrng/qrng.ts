/**
 * quantum-hardware-qrng: random bytes from the configured quantum random-number provider, and
 * from nothing else. Without a provider the call is refused before payment (503); a provider that
 * fails or answers malformed at call time refuses it too, with nothing charged. OS randomness is
 * never sold under this name (docs/skills.md, "Post-quantum").
 */
import { z } from 'zod';
import { SibylError } from '../../core/errors.js';
import { formatBytes, PROVIDER_UNAVAILABLE, QRNG_MAX_BYTES, STUCK_RUN } from './engine.js';
import { isoTime, multiChainProvenanceShape } from '../../core/outputs.js';
import { defineSkill } from '../../core/registry.js';
import { qrngOf } from '../keys/keys.js';

export const QRNG_METHODOLOGY = `qrng/v1: one request to the provider in the ANU QRNG API format (type uint8), its answer checked for shape, length and byte range and by NIST SP 800-90B's repetition count test (${STUCK_RUN} identical bytes in a row refuse it); the bytes are passed on unchanged, never mixed with or replaced by OS randomness.`;

const NO_PROVIDER = 'quantum random numbers need a QRNG provider (QRNG_URL), which this deployment does not have; OS randomness is never sold under this name, and nothing was charged';

export const quantumHardwareQrngSkill = defineSkill({
  id: 'quantum-hardware-qrng',
  title: 'Quantum random numbers',
  description: `Random bytes (1-${QRNG_MAX_BYTES}) measured by quantum hardware, from this deployment's configured QRNG provider (named in the answer), checked and passed on unchanged. Never OS randomness: without a provider the call is refused before payment (503).`,
  tags: ['quantum', 'random', 'qrng', 'entropy', 'randomness'],
  examples: ['Give me quantum random bytes', '64 bytes of quantum randomness in base64'],
  input: z.strictObject({
    bytes: z.number().int().min(1).max(QRNG_MAX_BYTES).default(32).describe(`How many random bytes, 1-${QRNG_MAX_BYTES}; default 32.`),
    format: z.enum(['hex', 'base64', 'uint8']).default('hex').describe('hex (default), base64, or uint8 (an array of integers 0-255).'),
  }),
  price: '0.25',
  toolName: 'quantum_hardware_qrng',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...multiChainProvenanceShape,
    provider: z.string().describe('Host of the QRNG provider the bytes came from.'),
    bytes: z.number().int(),
    format: z.enum(['hex', 'base64', 'uint8']),
    data: z.union([z.string(), z.array(z.number().int())]),
    checks: z.array(z.string()).describe('What the provider\'s answer passed before it was passed on.'),
    generatedAt: isoTime,
  }),
  summarize: (r) => `${r.bytes} quantum random bytes from ${r.provider} (${r.format}).`,
  // Without a provider the registry declares it off (503 provider_unavailable before any 402, not advertised).
  needs: ['qrng'],
  async admit(_input, ctx) {
    if (!qrngOf(ctx)) throw new SibylError(PROVIDER_UNAVAILABLE, NO_PROVIDER, { reason: 'no_qrng_provider' });
  },
  async handler(input, ctx) {
    const qrng = qrngOf(ctx);
    // admit refused already; a context without a provider here is the same refusal.
    if (!qrng) throw new SibylError(PROVIDER_UNAVAILABLE, NO_PROVIDER, { reason: 'no_qrng_provider' });
    const bytes = await qrng.random(input.bytes, ctx.signal);
    const now = new Date();
    return {
      source: `qrng:${qrng.host}`, asOf: { timestamp: now.toISOString() }, methodology: QRNG_METHODOLOGY,
      provider: qrng.host,
      bytes: bytes.length,
      format: input.format,
      data: formatBytes(bytes, input.format),
      checks: [
        'answer is {"success": true, "type": "uint8"} with the requested length',
        `exactly ${bytes.length} values, each an integer 0-255`,
        `no run of ${STUCK_RUN} identical bytes (NIST SP 800-90B repetition count test, false-alarm rate 2^-40)`,
      ],
      generatedAt: now.toISOString(),
    };
  },
});
