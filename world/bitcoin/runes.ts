/**
 * Runes (ord's runes specification): runestones are OP_RETURN outputs whose script is
 * OP_RETURN OP_13 followed by data pushes; the pushes concatenate into a sequence of LEB128
 * integers read as tag/value pairs, then, after the Body tag, edicts as delta-encoded
 * (block, tx, amount, output) quadruples. This file holds the spec's constants and the world's
 * encoder; the decoder is written separately from the spec (skills/bitcoin/runes).
 *
 * Heights here are the world's own: the mainnet activation height (840,000) and the name-length
 * unlock schedule do not apply to this chain.
 */
import { concat } from './bytes.js';
import { OP, push, script } from './script.js';

/** Runestone field tags (ord's `Tag`). Even tags are understood by every reader; odd ones may be ignored. */
export const RUNE_TAG = {
  Body: 0, Divisibility: 1, Flags: 2, Spacers: 3, Rune: 4, Symbol: 5, Premine: 6, Cap: 8, Amount: 10,
  HeightStart: 12, HeightEnd: 14, OffsetStart: 16, OffsetEnd: 18, Mint: 20, Pointer: 22, Cenotaph: 126, Nop: 127,
} as const;

/** Bits of the Flags field. */
export const RUNE_FLAG = { Etching: 0, Terms: 1, Turbo: 2 } as const;

/** Runestone marker: OP_RETURN then OP_13. */
export const RUNESTONE_MAGIC = OP.OP_13;
/** Blocks a rune's commitment must have aged before its etching may reveal it. */
export const RUNE_COMMIT_CONFIRMATIONS = 6;
/** Largest data push in a runestone script. */
const MAX_PUSH = 520;

export function leb128(n: bigint): number[] {
  const out: number[] = [];
  let v = n;
  while (v >> 7n > 0n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

/** A rune's name as the integer the spec stores: bijective base 26 (A = 0, Z = 25, AA = 26, ...). */
export function runeNameValue(name: string): bigint {
  let n = 0n;
  const letters = name.replace(/[•.]/g, '').toUpperCase();
  for (let i = 0; i < letters.length; i++) {
    if (i > 0) n += 1n;
    n = n * 26n + BigInt(letters.charCodeAt(i) - 65);
  }
  return n;
}

/** The spacers bitfield of a spaced name ("UNCOMMON•GOODS": a bit after each letter a dot follows). */
export function runeSpacers(spaced: string): number {
  let bits = 0;
  let letters = 0;
  for (const ch of spaced) {
    if (ch === '•' || ch === '.') bits |= 1 << (letters - 1);
    else letters++;
  }
  return bits;
}

/** The commitment an etching's input must reveal in a tapscript: the name's integer, little-endian, trailing zeros dropped. */
export function runeCommitment(name: string): Uint8Array {
  let v = runeNameValue(name);
  const out: number[] = [];
  while (v > 0n) {
    out.push(Number(v & 0xffn));
    v >>= 8n;
  }
  return Uint8Array.from(out.length ? out : [0]);
}

export interface RuneId { readonly block: number; readonly tx: number }

export interface Etching {
  /** Spaced name, e.g. "DOG•GO•TO•THE•MOON". */
  readonly name: string;
  readonly divisibility: number;
  readonly symbol: string;
  readonly premine: bigint;
  readonly terms?: { readonly amount: bigint; readonly cap: bigint; readonly heightStart?: number; readonly heightEnd?: number };
}

export interface Edict { readonly id: RuneId; readonly amount: bigint; readonly output: number }

export interface Runestone {
  readonly etching?: Etching;
  readonly mint?: RuneId;
  readonly pointer?: number;
  readonly edicts?: readonly Edict[];
}

/** The runestone's payload: tag/value integers, then Body and the edicts. */
export function encodeRunestonePayload(r: Runestone): Uint8Array {
  const out: number[] = [];
  const field = (tag: number, value: bigint | number) => out.push(...leb128(BigInt(tag)), ...leb128(BigInt(value)));
  if (r.etching) {
    const e = r.etching;
    field(RUNE_TAG.Flags, (1 << RUNE_FLAG.Etching) | (e.terms ? 1 << RUNE_FLAG.Terms : 0));
    field(RUNE_TAG.Rune, runeNameValue(e.name));
    const spacers = runeSpacers(e.name);
    if (spacers) field(RUNE_TAG.Spacers, spacers);
    field(RUNE_TAG.Divisibility, e.divisibility);
    field(RUNE_TAG.Symbol, e.symbol.codePointAt(0)!);
    if (e.premine > 0n) field(RUNE_TAG.Premine, e.premine);
    if (e.terms) {
      field(RUNE_TAG.Amount, e.terms.amount);
      field(RUNE_TAG.Cap, e.terms.cap);
      if (e.terms.heightStart !== undefined) field(RUNE_TAG.HeightStart, e.terms.heightStart);
      if (e.terms.heightEnd !== undefined) field(RUNE_TAG.HeightEnd, e.terms.heightEnd);
    }
  }
  if (r.mint) {
    field(RUNE_TAG.Mint, r.mint.block);
    field(RUNE_TAG.Mint, r.mint.tx);
  }
  if (r.pointer !== undefined) field(RUNE_TAG.Pointer, r.pointer);
  if (r.edicts?.length) {
    out.push(...leb128(BigInt(RUNE_TAG.Body)));
    const sorted = [...r.edicts].sort((a, b) => a.id.block - b.id.block || a.id.tx - b.id.tx);
    let prev: RuneId = { block: 0, tx: 0 };
    for (const e of sorted) {
      const dBlock = e.id.block - prev.block;
      const dTx = dBlock === 0 ? e.id.tx - prev.tx : e.id.tx;
      out.push(...leb128(BigInt(dBlock)), ...leb128(BigInt(dTx)), ...leb128(e.amount), ...leb128(BigInt(e.output)));
      prev = e.id;
    }
  }
  return Uint8Array.from(out);
}

/** The runestone output script: OP_RETURN OP_13 <payload in pushes of at most 520 bytes>. */
export function runestoneScript(r: Runestone): Uint8Array {
  const payload = encodeRunestonePayload(r);
  const pushes: Uint8Array[] = [];
  for (let i = 0; i < payload.length; i += MAX_PUSH) pushes.push(push(payload.subarray(i, i + MAX_PUSH)));
  return script(OP.OP_RETURN, RUNESTONE_MAGIC, concat(...pushes));
}
