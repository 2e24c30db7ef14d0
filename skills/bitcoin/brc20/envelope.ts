/**
 * Ordinal inscription envelopes, read as ord reads them (envelope.rs): in the tapscript of a
 * taproot script-path spend, `OP_FALSE OP_IF "ord" <tag> <value> ... OP_0 <body pushes> OP_ENDIF`.
 * Fields are (tag, value) push pairs until an empty push in a tag position starts the body;
 * OP_1..OP_16 and OP_1NEGATE count as pushes of their number. Several envelopes may share a script.
 */
import { instructions, isOp, isPush, OP_1, OP_16, OP_1NEGATE, OP_ENDIF, OP_IF, tapscriptOf, type Instruction } from '../observers/script.js';

const ORD = new TextEncoder().encode('ord');
const TAG_CONTENT_TYPE = 1;
const TAG_POINTER = 2;
const TAG_CONTENT_ENCODING = 9;

export interface Envelope {
  /** Index of the input whose witness holds it. */
  readonly input: number;
  readonly contentType: string | null;
  readonly contentEncoding: string | null;
  /** Tag 2: where in the transaction's outputs the inscription goes instead of its input's first sat. */
  readonly pointer: bigint | null;
  readonly body: Uint8Array | null;
  /** Anything that makes ord curse the inscription (pushnum, duplicate or incomplete fields, unrecognised even tags). */
  readonly flaws: readonly string[];
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** An OP_PUSHNUM read as the push ord takes it for. */
function pushnum(x: Instruction): Uint8Array | null {
  if (!('op' in x)) return null;
  if (x.op === OP_1NEGATE) return Uint8Array.of(0x81);
  if (x.op >= OP_1 && x.op <= OP_16) return Uint8Array.of(x.op - OP_1 + 1);
  return null;
}

/** Little-endian integer of a pointer field (ord ignores bytes past the eighth only if they are zero). */
function leInteger(b: Uint8Array): bigint | null {
  if (b.length > 8 && b.subarray(8).some((x) => x !== 0)) return null;
  let n = 0n;
  for (let i = Math.min(b.length, 8) - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i]!);
  return n;
}

/** The envelopes of one tapscript. */
export function envelopesInScript(script: Uint8Array, input: number): Envelope[] {
  const ins = instructions(script);
  if (!ins) return [];
  const out: Envelope[] = [];
  for (let i = 0; i < ins.length; i++) {
    const x = ins[i]!;
    if (!(isPush(x) && x.push.length === 0)) continue;
    if (!isOp(ins[i + 1], OP_IF)) continue;
    const id = ins[i + 2];
    if (!(isPush(id) && sameBytes(id.push, ORD))) continue;
    const payload: Uint8Array[] = [];
    let usedPushnum = false;
    let k = i + 3;
    let closed = false;
    for (; k < ins.length; k++) {
      const y = ins[k]!;
      if (isOp(y, OP_ENDIF)) {
        closed = true;
        break;
      }
      if (isPush(y)) payload.push(y.push);
      else {
        const n = pushnum(y);
        if (!n) break;
        usedPushnum = true;
        payload.push(n);
      }
    }
    if (!closed) continue;
    out.push(parsePayload(payload, input, usedPushnum));
    i = k;
  }
  return out;
}

function parsePayload(payload: readonly Uint8Array[], input: number, usedPushnum: boolean): Envelope {
  const flaws: string[] = usedPushnum ? ['pushnum'] : [];
  let bodyAt = -1;
  for (let i = 0; i < payload.length; i += 2) {
    if (payload[i]!.length === 0) {
      bodyAt = i;
      break;
    }
  }
  const fieldEnd = bodyAt >= 0 ? bodyAt : payload.length;
  const fields = new Map<string, Uint8Array[]>();
  for (let i = 0; i < fieldEnd; i += 2) {
    if (i + 1 >= fieldEnd) {
      flaws.push('incomplete-field');
      break;
    }
    const key = Array.from(payload[i]!).join(',');
    fields.set(key, [...(fields.get(key) ?? []), payload[i + 1]!]);
  }
  if ([...fields.values()].some((v) => v.length > 1)) flaws.push('duplicate-field');
  const take = (tag: number) => {
    const v = fields.get(String(tag));
    fields.delete(String(tag));
    return v?.[0] ?? null;
  };
  const text = (b: Uint8Array | null) => (b ? new TextDecoder().decode(b) : null);
  const contentType = text(take(TAG_CONTENT_TYPE));
  const contentEncoding = text(take(TAG_CONTENT_ENCODING));
  const pointerBytes = take(TAG_POINTER);
  if (pointerBytes) flaws.push('pointer');
  if ([...fields.keys()].some((k) => Number(k.split(',')[0]) % 2 === 0)) flaws.push('unrecognized-even-field');
  let body: Uint8Array | null = null;
  if (bodyAt >= 0) {
    const parts = payload.slice(bodyAt + 1);
    body = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
    let o = 0;
    for (const p of parts) {
      body.set(p, o);
      o += p.length;
    }
  }
  return { input, contentType, contentEncoding, pointer: pointerBytes ? leInteger(pointerBytes) : null, body, flaws };
}

/** Every envelope a transaction reveals, in input order (the order of its inscription ids: `<txid>i<n>`). */
export function envelopesInTx(tx: { readonly vin: readonly { readonly witness?: readonly string[] }[] }): Envelope[] {
  return tx.vin.flatMap((vin, input) => {
    const script = tapscriptOf(vin.witness);
    return script ? envelopesInScript(script, input) : [];
  });
}
