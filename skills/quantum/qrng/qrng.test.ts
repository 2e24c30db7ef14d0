import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQrngStub, type QrngStub } from '../../../test/helpers/qrng-stub.js';
import type { SkillContext } from '../../core/context.js';
import { SibylError } from '../../core/errors.js';
import { AnuQrngProvider } from './engine.js';
import { assertAnswer } from '../../core/output-check.js';
import { crqcProximityBenchmarkSkill } from '../crqc/crqc.js';
import { quantumHardwareQrngSkill } from './qrng.js';

let stub: QrngStub;
beforeAll(async () => {
  stub = await startQrngStub();
});
afterAll(() => stub?.close());

const ctxWith = (qrng?: AnuQrngProvider) => ({ ...(qrng && { qrng }) }) as unknown as SkillContext;

describe('quantum-hardware-qrng', () => {
  it('without a provider: refused by admit, before any payment, with a 503', async () => {
    const err = await quantumHardwareQrngSkill.admit!(quantumHardwareQrngSkill.input.parse({}), ctxWith()).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(SibylError);
    expect((err as SibylError).status).toBe(503);
    expect((err as SibylError).message).toMatch(/never sold under this name/);
  });

  it('with a provider: the provider\'s own bytes, in the asked format, named by host', async () => {
    const ctx = ctxWith(new AnuQrngProvider({ url: stub.url, apiKey: undefined }));
    const input = quantumHardwareQrngSkill.input.parse({ bytes: 48, format: 'base64' });
    await quantumHardwareQrngSkill.admit!(input, ctx);
    const r = await quantumHardwareQrngSkill.handler(input, ctx);
    assertAnswer(quantumHardwareQrngSkill.id, quantumHardwareQrngSkill.output, r);
    expect(r).toMatchObject({ provider: stub.host, bytes: 48, format: 'base64', source: `qrng:${stub.host}` });
    expect(r.data).toBe(Buffer.from(stub.served.at(-1)!).toString('base64'));
    const ints = await quantumHardwareQrngSkill.handler(quantumHardwareQrngSkill.input.parse({ bytes: 5, format: 'uint8' }), ctx);
    expect(ints.data).toEqual([...stub.served.at(-1)!]);
  });

  it('a provider that answers malformed at call time: 503 from the handler, no bytes', async () => {
    stub.mode = 'stuck';
    try {
      const ctx = ctxWith(new AnuQrngProvider({ url: stub.url, apiKey: undefined }));
      const err = await quantumHardwareQrngSkill.handler(quantumHardwareQrngSkill.input.parse({}), ctx).then(() => null, (e: unknown) => e);
      expect((err as SibylError).status).toBe(503);
    } finally {
      stub.mode = 'ok';
    }
  });

  it('bytes are 1-1024', () => {
    expect(quantumHardwareQrngSkill.input.safeParse({ bytes: 0 }).success).toBe(false);
    expect(quantumHardwareQrngSkill.input.safeParse({ bytes: 1025 }).success).toBe(false);
    expect(quantumHardwareQrngSkill.input.parse({})).toEqual({ bytes: 32, format: 'hex' });
  });
});

describe('crqc-proximity-benchmark', () => {
  it('answers {} with the sourced table and its comparison, schema-true', async () => {
    const r = await crqcProximityBenchmarkSkill.handler(crqcProximityBenchmarkSkill.input.parse({}), ctxWith());
    assertAnswer(crqcProximityBenchmarkSkill.id, crqcProximityBenchmarkSkill.output, r);
    expect(r.estimates.every((e) => e.source.title && e.source.reference)).toBe(true);
    expect(r.movements.map((m) => m.target).sort()).toEqual(['ECDLP-256', 'RSA-2048']);
  });
});
