/**
 * Bitcoin script reading shared by the token and staking observers: a script as its
 * instructions (data pushes and opcodes, as Bitcoin Core reads them), and the tapscript a
 * taproot script-path witness reveals (BIP341). Input is hex, as the Esplora API gives it.
 */
import type { EsploraVout } from '../../../chain/esplora.js';

export type Instruction = { readonly push: Uint8Array } | { readonly op: number };

export const OP_0 = 0x00;
export const OP_PUSHDATA1 = 0x4c;
export const OP_PUSHDATA2 = 0x4d;
export const OP_PUSHDATA4 = 0x4e;
export const OP_1NEGATE = 0x4f;
export const OP_1 = 0x51;
export const OP_16 = 0x60;
export const OP_IF = 0x63;
export const OP_ENDIF = 0x68;
export const OP_RETURN = 0x6a;
export const OP_13 = 0x5d;
export const OP_CHECKSIG = 0xac;
export const OP_CHECKSIGVERIFY = 0xad;
export const OP_CHECKSEQUENCEVERIFY = 0xb2;

/** BIP341: a last witness element starting with 0x50 (with at least two elements) is the annex. */
const ANNEX_PREFIX = 0x50;
/** BIP342 tapscript leaf version (the control block's first byte without its parity bit). */
export const TAPSCRIPT_LEAF_VERSION = 0xc0;

export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new Error(`not hex: ${hex.slice(0, 20)}`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/**
 * The script's instructions; null when a push runs past the end (a malformed script, which
 * every reader here treats as carrying nothing). OP_0 is an empty push, as in Bitcoin Core.
 */
export function instructions(script: Uint8Array): Instruction[] | null {
  const out: Instruction[] = [];
  let i = 0;
  while (i < script.length) {
    const op = script[i++]!;
    let len = -1;
    if (op === OP_0) len = 0;
    else if (op < OP_PUSHDATA1) len = op;
    else if (op === OP_PUSHDATA1) {
      if (i + 1 > script.length) return null;
      len = script[i]!;
      i += 1;
    } else if (op === OP_PUSHDATA2) {
      if (i + 2 > script.length) return null;
      len = script[i]! | (script[i + 1]! << 8);
      i += 2;
    } else if (op === OP_PUSHDATA4) {
      if (i + 4 > script.length) return null;
      len = (script[i]! | (script[i + 1]! << 8) | (script[i + 2]! << 16)) + script[i + 3]! * 0x1000000;
      i += 4;
    }
    if (len < 0) {
      out.push({ op });
      continue;
    }
    if (i + len > script.length) return null;
    out.push({ push: script.subarray(i, i + len) });
    i += len;
  }
  return out;
}

export const isPush = (x: Instruction | undefined): x is { push: Uint8Array } => x !== undefined && 'push' in x;
export const isOp = (x: Instruction | undefined, op: number): boolean => x !== undefined && 'op' in x && x.op === op;

/**
 * The leaf script of a taproot script-path spend: the witness element before the control block
 * (the annex, if any, removed). Like ord, this does not check that the output spent was taproot;
 * callers that need it check the prevout. With `tapscriptOnly`, only a leaf of version 0xc0.
 */
export function tapscriptOf(witness: readonly string[] | undefined, tapscriptOnly = false): Uint8Array | null {
  if (!witness || witness.length < 2) return null;
  let items = witness;
  if (items[items.length - 1]!.startsWith(ANNEX_PREFIX.toString(16))) {
    if (items.length < 3) return null;
    items = items.slice(0, -1);
  }
  const control = items[items.length - 1]!;
  if (tapscriptOnly && (control.length < 2 || (parseInt(control.slice(0, 2), 16) & 0xfe) !== TAPSCRIPT_LEAF_VERSION)) return null;
  try {
    return hexToBytes(items[items.length - 2]!);
  } catch {
    return null;
  }
}

/** A minimal script number (CScriptNum) pushed as data or as OP_1..OP_16; null when neither. */
export function scriptNumber(x: Instruction | undefined): number | null {
  if (x === undefined) return null;
  if ('op' in x) return x.op >= OP_1 && x.op <= OP_16 ? x.op - OP_1 + 1 : x.op === OP_1NEGATE ? -1 : null;
  const b = x.push;
  if (b.length === 0) return 0;
  if (b.length > 4) return null;
  let n = 0;
  for (let i = 0; i < b.length; i++) n += (i === b.length - 1 ? b[i]! & 0x7f : b[i]!) * 2 ** (8 * i);
  return b[b.length - 1]! & 0x80 ? -n : n;
}

/** An output's owner as the token indexes key balances: its address, or `script:<hex>` for outputs without one; null for OP_RETURN. */
export function ownerOf(out: Pick<EsploraVout, 'scriptpubkey' | 'scriptpubkey_type' | 'scriptpubkey_address'>): string | null {
  if (out.scriptpubkey_type === 'op_return' || out.scriptpubkey.startsWith('6a')) return null;
  return out.scriptpubkey_address ?? `script:${out.scriptpubkey}`;
}
