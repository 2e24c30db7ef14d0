/** Runestone decoding on vectors written from ord's runes specification (and its published test cases). */
import { describe, expect, it } from 'vitest';
import { hex, leb128, opReturn, pay, push, runestone } from '../observers/fixtures.js';
import { decipher, decodeVarints, RESERVED_RUNE, reservedRune, runeCommitment, runeName, spacedRuneName, supplyOf } from './runestone.js';

const U128_MAX = 2n ** 128n - 1n;
const txOf = (script: number[], outputs = 2) => ({ vout: [opReturn(script), ...Array.from({ length: outputs - 1 }, (_, i) => pay(`addr${i}`, 10_000))] });

describe('varints', () => {
  it('decodes the spec\'s LEB128 examples', () => {
    expect(decodeVarints(Uint8Array.from([0x00, 0x01, 0x7f, 0x80, 0x01, 0xff, 0x01, 0xff, 0x7f, 0x80, 0x80, 0x01]))).toEqual([0n, 1n, 127n, 128n, 255n, 16383n, 16384n]);
    // u128::MAX: eighteen 0xff bytes and 0x03.
    expect(decodeVarints(Uint8Array.from([...new Array(18).fill(0xff), 0x03]))).toEqual([U128_MAX]);
  });

  it('refuses unterminated, overlong and overflowing varints', () => {
    expect(decodeVarints(Uint8Array.from([0x80]))).toBeNull();
    expect(decodeVarints(Uint8Array.from([...new Array(19).fill(0x80), 0x00]))).toBeNull();
    expect(decodeVarints(Uint8Array.from([...new Array(18).fill(0xff), 0x04]))).toBeNull();
  });
});

describe('rune names', () => {
  it('follows the bijective base-26 table of the spec', () => {
    const cases: [bigint, string][] = [[0n, 'A'], [1n, 'B'], [25n, 'Z'], [26n, 'AA'], [27n, 'AB'], [51n, 'AZ'], [52n, 'BA'], [U128_MAX - 2n, 'BCGDENLQRQWDSLRUGSNLBTMFIJAT'], [U128_MAX, 'BCGDENLQRQWDSLRUGSNLBTMFIJAV']];
    for (const [n, name] of cases) expect(runeName(n)).toBe(name);
  });

  it('reserves names from 27 As on, and names unnamed etchings by block and position', () => {
    expect(runeName(RESERVED_RUNE)).toBe('A'.repeat(27));
    expect(runeName(RESERVED_RUNE - 1n)).toBe('Z'.repeat(26));
    expect(reservedRune(1n, 2n)).toBe(RESERVED_RUNE + (1n << 32n) + 2n);
  });

  it('spaces names by the spacers bitfield and commits to the name little-endian', () => {
    // "UNCOMMON•GOODS": a spacer after the eighth letter (bit 7).
    expect(spacedRuneName(2055900680524219742n, 0b1000_0000)).toBe('UNCOMMON•GOODS');
    expect(hex(runeCommitment(0x0102n))).toBe('0201');
    expect(hex(runeCommitment(0n))).toBe('');
  });
});

describe('decipher', () => {
  it('reads an etching with terms, and its supply', () => {
    const a = decipher(txOf(runestone([2, 0b11, 4, 2055900680524219742n, 3, 0b1000_0000, 1, 2, 5, 0x24, 6, 1000, 10, 100, 8, 21, 12, 50, 14, 150, 16, 3, 18, 90])));
    expect(a?.kind).toBe('runestone');
    if (a?.kind !== 'runestone') return;
    expect(a.etching).toEqual({
      divisibility: 2, premine: 1000n, rune: 2055900680524219742n, spacers: 128, symbol: '$', turbo: false,
      terms: { amount: 100n, cap: 21n, height: [50n, 150n], offset: [3n, 90n] },
    });
    expect(supplyOf(a.etching!)).toBe(1000n + 21n * 100n);
    expect(a.mint).toBeNull();
    expect(a.edicts).toEqual([]);
  });

  it('reads a mint, a pointer and delta-encoded edicts', () => {
    // Edicts (10:2, 5 → out 1), (10:5, 7 → out 0), (12:1, 0 → out 2 = split): deltas (10,2) (0,3) (2,1).
    const a = decipher(txOf(runestone([20, 10, 20, 2, 22, 1, 0, 10, 2, 5, 1, 0, 3, 7, 0, 2, 1, 0, 2]), 2));
    expect(a).toEqual({
      kind: 'runestone', etching: null, mint: { block: 10n, tx: 2n }, pointer: 1,
      edicts: [
        { id: { block: 10n, tx: 2n }, amount: 5n, output: 1 },
        { id: { block: 10n, tx: 5n }, amount: 7n, output: 0 },
        { id: { block: 12n, tx: 1n }, amount: 0n, output: 2 },
      ],
    });
  });

  it('finds the first OP_RETURN OP_13 output only, and concatenates its pushes', () => {
    const payload = [2, 1, 4, 26].flatMap((n) => leb128(BigInt(n)));
    const split = [0x6a, 0x5d, ...push(payload.slice(0, 1)), ...push(payload.slice(1))];
    const a = decipher({ vout: [pay('x', 1), opReturn([0x6a, ...push([1, 2])]), opReturn(split)] });
    expect(a?.kind === 'runestone' && a.etching?.rune).toBe(26n);
    expect(decipher({ vout: [pay('x', 1), opReturn([0x6a, ...push([1, 2])])] })).toBeNull();
  });

  it('makes cenotaphs of flawed runestones, keeping their etched name and mint', () => {
    const flaw = (ints: (number | bigint)[], outputs = 2) => {
      const a = decipher(txOf(runestone(ints), outputs));
      return a?.kind === 'cenotaph' ? a.flaw : a?.kind;
    };
    expect(flaw([126, 0])).toBe('unrecognized-even-tag');
    expect(flaw([127, 5])).toBe('runestone');
    expect(flaw([2, 1 << 3])).toBe('unrecognized-flag');
    expect(flaw([2, 1 << 2])).toBe('unrecognized-flag');
    expect(flaw([2, 1, 4])).toBe('truncated-field');
    expect(flaw([0, 1, 0, 5])).toBe('trailing-integers');
    expect(flaw([0, 0, 1, 5, 0])).toBe('edict-rune-id');
    expect(flaw([0, 1, 0, 5, 3])).toBe('edict-output');
    expect(flaw([0, 1, 0, 5, 2])).toBe('runestone');
    // A pointer past the outputs is not taken, and an even tag left over is a cenotaph.
    expect(flaw([22, 5])).toBe('unrecognized-even-tag');
    expect(flaw([2, 3, 6, U128_MAX, 8, 2, 10, 1])).toBe('supply-overflow');
    const withName = decipher(txOf(runestone([2, 1, 4, 99, 20, 7, 20, 1, 126, 0])));
    expect(withName).toEqual({ kind: 'cenotaph', flaw: 'unrecognized-even-tag', etching: 99n, mint: { block: 7n, tx: 1n } });
    // An opcode among the pushes, and a push running past the script's end.
    expect(decipher(txOf([0x6a, 0x5d, 0x51]))).toMatchObject({ kind: 'cenotaph', flaw: 'opcode' });
    expect(decipher(txOf([0x6a, 0x5d, 0x05, 0x01]))).toMatchObject({ kind: 'cenotaph', flaw: 'invalid-script' });
    expect(decipher(txOf([0x6a, 0x5d, ...push([0x80])]))).toMatchObject({ kind: 'cenotaph', flaw: 'varint' });
  });

  it('ignores a repeated odd field but not a repeated even one', () => {
    expect(decipher(txOf(runestone([2, 1, 1, 2, 1, 3])))).toMatchObject({ kind: 'runestone', etching: { divisibility: 2 } });
    expect(decipher(txOf(runestone([2, 1, 4, 5, 4, 6])))).toMatchObject({ kind: 'cenotaph', flaw: 'unrecognized-even-tag' });
  });
});
