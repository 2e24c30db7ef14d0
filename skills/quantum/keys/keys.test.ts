import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { verifyMessage } from 'viem';
import { startQrngStub, type QrngStub } from '../../../test/helpers/qrng-stub.js';
import type { SkillContext } from '../../core/context.js';
import { SibylError } from '../../core/errors.js';
import { AnuQrngProvider } from '../qrng/engine.js';
import { assertAnswer } from '../../core/output-check.js';
import { quantumEncryptionKeySkill, quantumSigningKeySkill } from './keys.js';
import { quantumWalletGenerationSkill } from '../wallet/wallet.js';

let stub: QrngStub;
beforeAll(async () => {
  stub = await startQrngStub();
});
afterAll(() => stub?.close());

/** Key skills read nothing but the QRNG provider from their context. */
const ctxWith = (qrng?: AnuQrngProvider) => ({ ...(qrng && { qrng }) }) as unknown as SkillContext;
const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));

describe('key skills', () => {
  it('quantum-encryption-key: a usable ML-KEM-768 pair, schema-true, seeded from the OS without a provider', async () => {
    const input = quantumEncryptionKeySkill.input.parse({});
    const r = await quantumEncryptionKeySkill.handler(input, ctxWith());
    assertAnswer(quantumEncryptionKeySkill.id, quantumEncryptionKeySkill.output, r);
    expect(r).toMatchObject({ encoding: 'hex', selfCheck: 'passed', entropy: 'os-csprng', algorithm: { name: 'ML-KEM-768', publicKeyBytes: 1184, secretKeyBytes: 2400 } });
    const { cipherText, sharedSecret } = ml_kem768.encapsulate(hex(r.publicKey));
    expect(Buffer.from(ml_kem768.decapsulate(cipherText, hex(r.secretKey)))).toEqual(Buffer.from(sharedSecret));
    expect(quantumEncryptionKeySkill.summarize!(r)).not.toContain(r.secretKey.slice(0, 32));
  });

  it('with a QRNG provider, keys are seeded from it and say so', async () => {
    const before = stub.requests.length;
    const r = await quantumSigningKeySkill.handler(quantumSigningKeySkill.input.parse({ encoding: 'base64' }), ctxWith(new AnuQrngProvider({ url: stub.url, apiKey: undefined })));
    expect(r.entropy).toBe(`qrng:${stub.host}`);
    expect(stub.requests.length).toBe(before + 1);
    const msg = new TextEncoder().encode('m');
    expect(ml_dsa65.verify(ml_dsa65.sign(msg, Buffer.from(r.secretKey, 'base64')), msg, Buffer.from(r.publicKey, 'base64'))).toBe(true);
  });

  it('a configured provider that fails refuses the key (503) rather than seeding from the OS alone', async () => {
    stub.mode = 'http-error';
    try {
      const err = await quantumEncryptionKeySkill.handler(quantumEncryptionKeySkill.input.parse({}), ctxWith(new AnuQrngProvider({ url: stub.url, apiKey: undefined }))).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(SibylError);
      expect((err as SibylError).status).toBe(503);
    } finally {
      stub.mode = 'ok';
    }
  });

  it('quantum-wallet-generation: both binding signatures verify outside the skill; the catalogue entry is the spec\'s', async () => {
    const r = await quantumWalletGenerationSkill.handler(quantumWalletGenerationSkill.input.parse({}), ctxWith());
    assertAnswer(quantumWalletGenerationSkill.id, quantumWalletGenerationSkill.output, r);
    expect(await verifyMessage({ address: r.classical.evmAddress as `0x${string}`, message: r.binding.message, signature: r.binding.secp256k1Signature as `0x${string}` })).toBe(true);
    expect(ml_dsa65.verify(hex(r.binding.mlDsaSignature), new TextEncoder().encode(r.binding.message), hex(r.postQuantum.publicKey))).toBe(true);
    expect(r.classical.bitcoin.p2wpkh).toMatch(/^bc1q/);
    expect(r.classical.bitcoin.p2tr).toMatch(/^bc1p/);
    expect(quantumWalletGenerationSkill.catalog).toEqual({ rateLimitPerMinute: 5, timeTargetSeconds: 120 });
    const summary = quantumWalletGenerationSkill.summarize!(r);
    for (const secret of [r.classical.privateKey.slice(2, 34), r.classical.bitcoin.wif.slice(0, 20), r.postQuantum.secretKey.slice(0, 32), r.postQuantum.seed.slice(0, 32)]) expect(summary).not.toContain(secret);
  });
});
