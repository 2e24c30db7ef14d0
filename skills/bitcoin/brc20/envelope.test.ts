/** Inscription envelopes and BRC-20 bodies on vectors written from ord's envelope format and the BRC-20 rules. */
import { describe, expect, it } from 'vitest';
import { envelopesInScript, envelopesInTx } from './envelope.js';
import { brc20OpOf, formatScaled, scaledAmount } from './ops.js';
import { hex, inscriptionLeaf, pay, push, scriptPathWitness, spend, tx, utf8 } from '../observers/fixtures.js';
import { tapscriptOf } from '../observers/script.js';

const text = (b: Uint8Array | null) => (b ? Buffer.from(b).toString('utf8') : null);

describe('envelopes', () => {
  it('reads content type and body from ord\'s envelope', () => {
    const [e] = envelopesInScript(Uint8Array.from(inscriptionLeaf('text/plain;charset=utf-8', '{"p":"brc-20"}')), 0);
    expect(e!.contentType).toBe('text/plain;charset=utf-8');
    expect(text(e!.body)).toBe('{"p":"brc-20"}');
    expect(e!.flaws).toEqual([]);
  });

  it('joins a body pushed in 520-byte chunks (PUSHDATA2)', () => {
    const body = 'x'.repeat(1_300);
    const [e] = envelopesInScript(Uint8Array.from(inscriptionLeaf('text/plain', body)), 0);
    expect(text(e!.body)).toBe(body);
  });

  it('takes OP_1 as the content-type tag but flags it (pushnum), as ord does', () => {
    const [e] = envelopesInScript(Uint8Array.from(inscriptionLeaf('text/plain', 'hi', { tagAsPushnum: true })), 0);
    expect(e!.contentType).toBe('text/plain');
    expect(e!.flaws).toEqual(['pushnum']);
  });

  it('reads two envelopes in one script; ignores one that is not closed or not "ord"', () => {
    const one = inscriptionLeaf('text/plain', 'a');
    const notOrd = [0x00, 0x63, ...push(utf8('orc')), 0x00, ...push(utf8('b')), 0x68];
    const open = [0x00, 0x63, ...push(utf8('ord')), 0x00, ...push(utf8('c')), 0xac];
    const found = envelopesInScript(Uint8Array.from([...one, ...notOrd, ...one.slice(33), ...open]), 3);
    expect(found.map((e) => [e.input, text(e.body)])).toEqual([[3, 'a'], [3, 'a']]);
  });

  it('flags duplicate fields, incomplete fields and unknown even tags; reads a pointer', () => {
    const base = [0x00, 0x63, ...push(utf8('ord'))];
    const dup = envelopesInScript(Uint8Array.from([...base, ...push([1]), ...push(utf8('a')), ...push([1]), ...push(utf8('b')), 0x68]), 0)[0]!;
    expect(dup.flaws).toContain('duplicate-field');
    const even = envelopesInScript(Uint8Array.from([...base, ...push([4]), ...push([9]), 0x00, ...push([1]), 0x68]), 0)[0]!;
    expect(even.flaws).toEqual(['unrecognized-even-field']);
    const incomplete = envelopesInScript(Uint8Array.from([...base, ...push([1]), 0x68]), 0)[0]!;
    expect(incomplete.flaws).toEqual(['incomplete-field']);
    const pointer = envelopesInScript(Uint8Array.from([...base, ...push([2]), ...push([0x10, 0x27]), 0x00, ...push([1]), 0x68]), 0)[0]!;
    expect(pointer.pointer).toBe(10_000n);
    // An odd unknown tag is fine.
    expect(envelopesInScript(Uint8Array.from([...base, ...push([5]), ...push([9]), 0x68]), 0)[0]!.flaws).toEqual([]);
  });

  it('finds the tapscript before the control block, past an annex', () => {
    const leaf = inscriptionLeaf('text/plain', 'a');
    const w = scriptPathWitness(leaf);
    expect(hex(tapscriptOf(w)!)).toBe(hex(leaf));
    expect(hex(tapscriptOf([...w, '50aa'])!)).toBe(hex(leaf));
    expect(tapscriptOf(['11'.repeat(64)])).toBeNull();
    const t = tx([spend('aa'.repeat(32), 0, pay('p', 1)), spend('bb'.repeat(32), 0, pay('q', 1), w)], [pay('r', 1)]);
    expect(envelopesInTx(t).map((e) => e.input)).toEqual([1]);
  });
});

describe('BRC-20 operations', () => {
  const op = (body: string, contentType = 'text/plain;charset=utf-8') => brc20OpOf(envelopesInScript(Uint8Array.from(inscriptionLeaf(contentType, body)), 0)[0]!);

  it('reads deploy, mint and transfer', () => {
    expect(op('{"p":"brc-20","op":"deploy","tick":"ORDI","max":"21000000","lim":"1000"}')).toEqual({ op: 'deploy', tick: 'ordi', max: 21_000_000n * 10n ** 18n, lim: 1000n * 10n ** 18n, dec: 18 });
    expect(op('{"p":"brc-20","op":"mint","tick":"ordi","amt":"1000"}', 'application/json')).toEqual({ op: 'mint', tick: 'ordi', amt: '1000' });
    expect(op('{"p":"brc-20","op":"transfer","tick":"ordi","amt":"0.5"}')).toEqual({ op: 'transfer', tick: 'ordi', amt: '0.5' });
    // lim defaults to max; dec limits the decimals the amounts may have.
    expect(op('{"p":"brc-20","op":"deploy","tick":"abcd","max":"10.5","dec":"1"}')).toMatchObject({ max: 105n * 10n ** 17n, lim: 105n * 10n ** 17n, dec: 1 });
    expect(op('{"p":"brc-20","op":"deploy","tick":"abcd","max":"10.55","dec":"1"}')).toBeNull();
  });

  it('refuses what the standard does not accept', () => {
    const refused = [
      '{"p":"brc-20","op":"mint","tick":"ordi","amt":1000}', // a number, not a string
      '{"p":"brc20","op":"mint","tick":"ordi","amt":"1"}',
      '{"p":"brc-20","op":"mint","tick":"ord","amt":"1"}', // 3 bytes
      '{"p":"brc-20","op":"burn","tick":"ordi","amt":"1"}',
      '{"p":"brc-20","op":"deploy","tick":"ordi","max":"0"}',
      '{"p":"brc-20","op":"deploy","tick":"ordi","max":"18446744073709551616"}', // over uint64
      '{"p":"brc-20","op":"deploy","tick":"ordi","max":"1","dec":"19"}',
      '["brc-20"]',
      'not json',
    ];
    for (const body of refused) expect(op(body), body).toBeNull();
    expect(op('{"p":"brc-20","op":"mint","tick":"ordi","amt":"1"}', 'image/png')).toBeNull();
    expect(op('{"p":"brc-20","op":"deploy","tick":"ordi","max":"18446744073709551615"}')).not.toBeNull();
  });

  it('scales amounts to 18 decimals and back', () => {
    expect(scaledAmount('1')).toBe(10n ** 18n);
    expect(scaledAmount('.5')).toBe(5n * 10n ** 17n);
    expect(scaledAmount('1.25', 2)).toBe(125n * 10n ** 16n);
    expect(scaledAmount('1.255', 2)).toBeNull();
    for (const bad of ['', '.', '1.', '-1', '+1', '1e3', ' 1', '1.2.3']) expect(scaledAmount(bad), bad).toBeNull();
    expect(formatScaled(1_500_000_000_000_000_000n)).toBe('1.5');
    expect(formatScaled(21_000n * 10n ** 18n)).toBe('21000');
  });
});
