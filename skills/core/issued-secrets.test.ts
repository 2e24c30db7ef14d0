import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { holdsIssued, ISSUED_TTL_MS, NOT_KEPT, noteIssued, notingSecrets, redactIssued, redactIssuedBytes, valuesUnder } from './issued-secrets.js';

const fresh = (bytes = 32) => randomBytes(bytes).toString('hex');

describe('issued secrets', () => {
  it('collects the values under the named fields at any depth, and only those', () => {
    const answer = { publicKey: 'pub', secretKey: 'sk1', nested: { list: [{ seed: 's1' }, { wif: 'w' }] }, seed: 42 };
    expect(valuesUnder(['secretKey', 'seed'], answer).sort()).toEqual(['s1', 'sk1']);
  });

  it('strips a noted secret wherever it sits, a copy cut short and one inside other text included', () => {
    const secret = fresh();
    const other = fresh();
    noteIssued([secret]);
    const text = JSON.stringify({ k: secret, cut: `${secret.slice(0, 40)}…`, descriptor: `wpkh(${secret})`, other });
    expect(holdsIssued(text)).toBe(true);
    const out = redactIssued(text);
    expect(out).not.toContain(secret.slice(0, 16));
    expect(out).toContain(other);
    expect(JSON.parse(out)).toEqual({ k: NOT_KEPT, cut: `${NOT_KEPT}…`, descriptor: `wpkh(${NOT_KEPT})`, other });
    expect(holdsIssued(out)).toBe(false);
  });

  it('recognises a 0x key with or without its prefix', () => {
    const bare = fresh();
    noteIssued([`0x${bare}`]);
    expect(redactIssued(`a 0x${bare} b ${bare}`)).toBe(`a 0x${NOT_KEPT} b ${NOT_KEPT}`);
  });

  it('strips secrets from bytes and leaves every other byte as it was (UTF-8 around it)', () => {
    const secret = fresh();
    noteIssued([secret]);
    const bytes = new TextEncoder().encode(`{"é":"€","k":"${secret}"}`);
    expect(new TextDecoder().decode(redactIssuedBytes(bytes))).toBe(`{"é":"€","k":"${NOT_KEPT}"}`);
    const untouched = new TextEncoder().encode('{"é":"nothing secret"}');
    expect(redactIssuedBytes(untouched)).toBe(untouched);
  });

  it('a skill that names secret fields notes its answers; one that names none does not', async () => {
    const secret = fresh();
    const plain = fresh();
    await notingSecrets(['secretKey'], async () => ({ secretKey: secret }))(undefined, undefined);
    await notingSecrets(undefined, async () => ({ secretKey: plain }))(undefined, undefined);
    expect(holdsIssued(secret)).toBe(true);
    expect(holdsIssued(plain)).toBe(false);
  });

  it('forgets a secret after the TTL', () => {
    const secret = fresh();
    const at = Date.now();
    noteIssued([secret], at);
    expect(holdsIssued(secret, at + ISSUED_TTL_MS - 1)).toBe(true);
    expect(holdsIssued(secret, at + ISSUED_TTL_MS + 1)).toBe(false);
  });
});
