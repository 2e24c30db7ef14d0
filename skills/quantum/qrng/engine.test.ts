import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SibylError } from '../../core/errors.js';
import { startQrngStub, type QrngStub, type QrngStubMode } from '../../../test/helpers/qrng-stub.js';
import { AnuQrngProvider, anuAnswerProblem, formatBytes, qrngProviderFromConfig } from './engine.js';

let stub: QrngStub;
beforeAll(async () => {
  stub = await startQrngStub({ apiKey: 'k-123' });
});
afterAll(() => stub?.close());

const provider = (timeoutMs = 2_000) => new AnuQrngProvider({ url: stub.url, apiKey: 'k-123' }, { timeoutMs });

describe('QRNG provider (ANU API format) against a loopback stub', () => {
  it('returns exactly the bytes the provider served, asking with length, type and the key', async () => {
    stub.mode = 'ok';
    const bytes = await provider().random(100);
    expect(Buffer.from(bytes)).toEqual(Buffer.from(stub.served.at(-1)!));
    expect(stub.requests.at(-1)).toEqual({ length: '100', type: 'uint8', apiKey: 'k-123' });
  });

  it('names only the host; no provider without config', () => {
    expect(provider().host).toBe(stub.host);
    expect(qrngProviderFromConfig(undefined)).toBeUndefined();
    expect(qrngProviderFromConfig({ url: `${stub.url}?secret=1`, apiKey: undefined })!.host).toBe(stub.host);
  });

  const refused: [QrngStubMode, RegExp][] = [
    ['http-error', /HTTP 500/],
    ['not-json', /not JSON/],
    ['success-false', /success: false.*Limit Exceeded/],
    ['short', /length|bytes for/],
    ['out-of-range', /not bytes/],
    ['wrong-type', /type "hex16"/],
    ['stuck', /identical bytes/],
    ['hang', /did not answer within/],
  ];
  for (const [mode, why] of refused) {
    it(`refuses a provider that answers ${mode}: 503, and no bytes of any other source`, async () => {
      stub.mode = mode;
      const err = await provider(300).random(32).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(SibylError);
      expect((err as SibylError).status).toBe(503);
      expect((err as SibylError).message).toMatch(why);
      expect((err as SibylError).message).toContain('nothing was charged');
      expect((err as SibylError).message).not.toContain('k-123');
    });
  }

  it('a wrong key is refused (the provider answers 403)', async () => {
    stub.mode = 'ok';
    const err = await new AnuQrngProvider({ url: stub.url, apiKey: 'wrong' }).random(8).then(() => null, (e: unknown) => e);
    expect((err as SibylError).message).toMatch(/HTTP 403/);
  });

  it('an unreachable provider is refused', async () => {
    const err = await new AnuQrngProvider({ url: 'http://127.0.0.1:1/', apiKey: undefined }, { timeoutMs: 1_000 }).random(8).then(() => null, (e: unknown) => e);
    expect((err as SibylError).status).toBe(503);
  });
});

describe('ANU answer checks', () => {
  it('accepts length as a number or a numeric string, and refuses a mismatch', () => {
    const data = [1, 2, 3, 4];
    expect(anuAnswerProblem({ success: true, type: 'uint8', length: 4, data }, 4)).toBeNull();
    expect(anuAnswerProblem({ success: true, type: 'uint8', length: '4', data }, 4)).toBeNull();
    expect(anuAnswerProblem({ success: true, type: 'uint8', length: 5, data }, 4)).toMatch(/length/);
    expect(anuAnswerProblem([1, 2], 2)).toMatch(/not a JSON object/);
  });

  it('the stuck-source cutoff is 6 identical bytes in a row', () => {
    expect(anuAnswerProblem({ success: true, type: 'uint8', data: [9, 9, 9, 9, 9, 1] }, 6)).toBeNull();
    expect(anuAnswerProblem({ success: true, type: 'uint8', data: [9, 9, 9, 9, 9, 9] }, 6)).toMatch(/6 identical/);
  });

  it('formats bytes as hex, base64 or integers', () => {
    const b = Uint8Array.from([0, 255, 16]);
    expect(formatBytes(b, 'hex')).toBe('00ff10');
    expect(formatBytes(b, 'base64')).toBe('AP8Q');
    expect(formatBytes(b, 'uint8')).toEqual([0, 255, 16]);
  });
});
