/**
 * Runestones, deciphered as ord's runes specification defines them (Runestone::decipher): the
 * first output whose script is OP_RETURN OP_13 followed only by data pushes; the pushes
 * concatenate into LEB128 integers (u128) read as tag/value pairs until the Body tag, after which
 * come edicts as delta-encoded (block, tx, amount, output) quadruples. Any flaw (a non-push
 * opcode, a bad varint, an odd number of field integers, a bad edict, an unknown even tag or
 * flag, a supply overflow) makes the runestone a cenotaph: its etching and mint still count, but
 * every rune in the transaction's inputs is burned.
 */
import type { EsploraTx } from '../../../chain/esplora.js';
import { hexToBytes, instructions, isOp, isPush, OP_13, OP_RETURN } from '../observers/script.js';

export const TAG = {
  Body: 0n, Divisibility: 1n, Flags: 2n, Spacers: 3n, Rune: 4n, Symbol: 5n, Premine: 6n, Cap: 8n, Amount: 10n,
  HeightStart: 12n, HeightEnd: 14n, OffsetStart: 16n, OffsetEnd: 18n, Mint: 20n, Pointer: 22n, Cenotaph: 126n, Nop: 127n,
} as const;
export const FLAG = { Etching: 0n, Terms: 1n, Turbo: 2n } as const;

const U128_MAX = 2n ** 128n - 1n;
const U64_MAX = 2n ** 64n - 1n;
const U32_MAX = 2n ** 32n - 1n;
const MAX_DIVISIBILITY = 38n;
const MAX_SPACERS = 0b111_1111_1111_1111_1111_1111_1111n;
/** Names from "AAAAAAAAAAAAAAAAAAAAAAAAAAA" (27 letters) on are reserved for etchings that give no name. */
export const RESERVED_RUNE = 6402364363415443603228541259936211926n;

export interface RuneId { readonly block: bigint; readonly tx: bigint }
export const runeIdKey = (id: RuneId) => `${id.block}:${id.tx}`;

export interface Terms {
  readonly amount: bigint | null;
  readonly cap: bigint | null;
  readonly height: readonly [bigint | null, bigint | null];
  readonly offset: readonly [bigint | null, bigint | null];
}

export interface Etching {
  readonly divisibility: number | null;
  readonly premine: bigint | null;
  readonly rune: bigint | null;
  readonly spacers: number | null;
  readonly symbol: string | null;
  readonly terms: Terms | null;
  readonly turbo: boolean;
}

export interface Edict { readonly id: RuneId; readonly amount: bigint; readonly output: number }

export type Artifact =
  | { readonly kind: 'runestone'; readonly edicts: readonly Edict[]; readonly etching: Etching | null; readonly mint: RuneId | null; readonly pointer: number | null }
  | { readonly kind: 'cenotaph'; readonly flaw: string; readonly etching: bigint | null; readonly mint: RuneId | null };

/** LEB128 integers of a payload; null on a varint that overflows u128, is over 19 bytes, or is cut off. */
export function decodeVarints(payload: Uint8Array): bigint[] | null {
  const out: bigint[] = [];
  let i = 0;
  while (i < payload.length) {
    let n = 0n;
    let done = false;
    for (let k = 0; k < 19 && i < payload.length; k++) {
      const b = payload[i++]!;
      const value = BigInt(b & 0x7f);
      if (k === 18 && value > 0b11n) return null;
      n |= value << BigInt(7 * k);
      if (!(b & 0x80)) {
        done = true;
        break;
      }
      if (k === 18) return null;
    }
    if (!done) return null;
    out.push(n);
  }
  return out;
}

/** The runestone's payload, or a flaw; null when the transaction has no runestone output. */
export function runestonePayload(tx: Pick<EsploraTx, 'vout'>): { payload: Uint8Array } | { flaw: string } | null {
  for (const out of tx.vout) {
    if (!out.scriptpubkey.startsWith('6a5d')) continue;
    let script: Uint8Array;
    try {
      script = hexToBytes(out.scriptpubkey);
    } catch {
      continue;
    }
    const ins = instructions(script);
    if (!ins) return { flaw: 'invalid-script' };
    if (!isOp(ins[0], OP_RETURN) || !isOp(ins[1], OP_13)) continue;
    const parts: Uint8Array[] = [];
    for (const x of ins.slice(2)) {
      if (!isPush(x)) return { flaw: 'opcode' };
      parts.push(x.push);
    }
    const payload = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
    let o = 0;
    for (const p of parts) {
      payload.set(p, o);
      o += p.length;
    }
    return { payload };
  }
  return null;
}

/** The next rune id of an edict from the previous one and the deltas (block 0 with a tx > 0 is no id). */
function nextId(prev: RuneId, dBlock: bigint, dTx: bigint): RuneId | null {
  const block = prev.block + dBlock;
  const tx = dBlock === 0n ? prev.tx + dTx : dTx;
  if (block > U64_MAX || tx > U32_MAX) return null;
  if (block === 0n && tx > 0n) return null;
  return { block, tx };
}

export function decipher(tx: Pick<EsploraTx, 'vout'>): Artifact | null {
  const found = runestonePayload(tx);
  if (!found) return null;
  if ('flaw' in found) return { kind: 'cenotaph', flaw: found.flaw, etching: null, mint: null };
  const ints = decodeVarints(found.payload);
  if (!ints) return { kind: 'cenotaph', flaw: 'varint', etching: null, mint: null };

  const fields = new Map<bigint, bigint[]>();
  const edicts: Edict[] = [];
  let flaw: string | null = null;
  for (let i = 0; i < ints.length;) {
    const tag = ints[i]!;
    if (tag === TAG.Body) {
      let id: RuneId = { block: 0n, tx: 0n };
      for (let k = i + 1; k < ints.length; k += 4) {
        if (k + 4 > ints.length) {
          flaw = 'trailing-integers';
          break;
        }
        const next = nextId(id, ints[k]!, ints[k + 1]!);
        if (!next) {
          flaw = 'edict-rune-id';
          break;
        }
        const output = ints[k + 3]!;
        if (output > BigInt(tx.vout.length)) {
          flaw = 'edict-output';
          break;
        }
        id = next;
        edicts.push({ id, amount: ints[k + 2]!, output: Number(output) });
      }
      break;
    }
    if (i + 1 >= ints.length) {
      flaw = 'truncated-field';
      break;
    }
    fields.set(tag, [...(fields.get(tag) ?? []), ints[i + 1]!]);
    i += 2;
  }

  /** Takes the first `n` values of a field when `parse` accepts them (ord's Tag::take); otherwise they stay. */
  function take<T>(tag: bigint, n: number, parse: (v: bigint[]) => T | null): T | null {
    const values = fields.get(tag);
    if (!values || values.length < n) return null;
    const parsed = parse(values.slice(0, n));
    if (parsed === null) return null;
    values.splice(0, n);
    if (!values.length) fields.delete(tag);
    return parsed;
  }
  const one = <T>(tag: bigint, parse: (v: bigint) => T | null) => take(tag, 1, ([v]) => parse(v!));
  const any = (v: bigint) => v;

  let flags = one(TAG.Flags, any) ?? 0n;
  const flag = (f: bigint) => {
    const set = (flags & (1n << f)) !== 0n;
    flags &= ~(1n << f);
    return set;
  };

  let etching: Etching | null = null;
  if (flag(FLAG.Etching)) {
    const divisibility = one(TAG.Divisibility, (v) => (v <= MAX_DIVISIBILITY ? Number(v) : null));
    const premine = one(TAG.Premine, any);
    const rune = one(TAG.Rune, any);
    const spacers = one(TAG.Spacers, (v) => (v <= MAX_SPACERS ? Number(v) : null));
    const symbol = one(TAG.Symbol, (v) => (v <= 0x10ffffn && !(v >= 0xd800n && v <= 0xdfffn) ? String.fromCodePoint(Number(v)) : null));
    const terms: Terms | null = flag(FLAG.Terms)
      ? {
          cap: one(TAG.Cap, any),
          height: [one(TAG.HeightStart, (v) => (v <= U64_MAX ? v : null)), one(TAG.HeightEnd, (v) => (v <= U64_MAX ? v : null))],
          amount: one(TAG.Amount, any),
          offset: [one(TAG.OffsetStart, (v) => (v <= U64_MAX ? v : null)), one(TAG.OffsetEnd, (v) => (v <= U64_MAX ? v : null))],
        }
      : null;
    const turbo = flag(FLAG.Turbo);
    etching = { divisibility, premine, rune, spacers, symbol, terms, turbo };
  }
  const mint = take(TAG.Mint, 2, ([block, txIndex]) => (block! <= U64_MAX && txIndex! <= U32_MAX && !(block === 0n && txIndex! > 0n) ? { block: block!, tx: txIndex! } : null));
  const pointer = one(TAG.Pointer, (v) => (v < BigInt(tx.vout.length) ? Number(v) : null));

  if (etching && supplyOf(etching) === null) flaw ??= 'supply-overflow';
  if (flags !== 0n) flaw ??= 'unrecognized-flag';
  if ([...fields.keys()].some((tag) => tag % 2n === 0n)) flaw ??= 'unrecognized-even-tag';
  if (flaw) return { kind: 'cenotaph', flaw, etching: etching?.rune ?? null, mint };
  return { kind: 'runestone', edicts, etching, mint, pointer };
}

/** premine + cap × amount, or null when it overflows u128. */
export function supplyOf(e: Pick<Etching, 'premine' | 'terms'>): bigint | null {
  const capped = (e.terms?.cap ?? 0n) * (e.terms?.amount ?? 0n);
  const supply = (e.premine ?? 0n) + capped;
  return capped > U128_MAX || supply > U128_MAX ? null : supply;
}

/** A rune's name from its integer (bijective base 26: A = 0, Z = 25, AA = 26). */
export function runeName(n: bigint): string {
  let v = n + 1n;
  let s = '';
  while (v > 0n) {
    s = String.fromCharCode(65 + Number((v - 1n) % 26n)) + s;
    v = (v - 1n) / 26n;
  }
  return s;
}

/** The name with a spacer (•) after each letter whose bit is set. */
export function spacedRuneName(n: bigint, spacers: number): string {
  const name = runeName(n);
  let out = '';
  for (let i = 0; i < name.length; i++) {
    out += name[i];
    if (i < name.length - 1 && spacers & (1 << i)) out += '•';
  }
  return out;
}

/** The name an etching without one gets: reserved, from its block and position. */
export function reservedRune(block: bigint, txIndex: bigint): bigint {
  return RESERVED_RUNE + ((block << 32n) | txIndex);
}

/** The commitment an etching's input must reveal in a tapscript: the name's integer, little-endian, trailing zero bytes dropped. */
export function runeCommitment(n: bigint): Uint8Array {
  const out: number[] = [];
  let v = n;
  while (v > 0n) {
    out.push(Number(v & 0xffn));
    v >>= 8n;
  }
  return Uint8Array.from(out);
}
