/**
 * Ordinal inscriptions as ord writes them: a commit output pays a taproot address whose one
 * leaf holds the envelope, and the reveal spends it through that leaf, so the envelope sits in
 * the reveal's witness:
 *   <key> OP_CHECKSIG OP_FALSE OP_IF "ord" 01 <content type> OP_0 <body...> OP_ENDIF
 * (tag 1, content type, pushed as the one byte 0x01 like ord's encoder; the body in pushes of at
 * most 520 bytes). The inscription lands on the first sat of the reveal's first output.
 */
import { concat } from './bytes.js';
import { OP, push, script } from './script.js';

export const ORD_PROTOCOL_ID = new TextEncoder().encode('ord');
export const BRC20_CONTENT_TYPE = 'text/plain;charset=utf-8';
/** Sats an inscription's output carries (ord's default postage). */
export const INSCRIPTION_POSTAGE = 10_000;

export function envelopeLeaf(xonly: Uint8Array, contentType: string, body: Uint8Array): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < body.length; i += 520) chunks.push(push(body.subarray(i, i + 520)));
  return script(
    push(xonly), OP.OP_CHECKSIG,
    OP.OP_0, OP.OP_IF, push(ORD_PROTOCOL_ID), push(Uint8Array.of(1)), push(new TextEncoder().encode(contentType)),
    OP.OP_0, concat(...chunks), OP.OP_ENDIF,
  );
}

export type Brc20Op =
  | { readonly op: 'deploy'; readonly tick: string; readonly max: string; readonly lim: string }
  | { readonly op: 'mint' | 'transfer'; readonly tick: string; readonly amt: string };

/** The JSON body of a BRC-20 operation, keys in the order the standard shows them. */
export function brc20Body(o: Brc20Op): Uint8Array {
  const json = o.op === 'deploy'
    ? { p: 'brc-20', op: 'deploy', tick: o.tick, max: o.max, lim: o.lim }
    : { p: 'brc-20', op: o.op, tick: o.tick, amt: o.amt };
  return new TextEncoder().encode(JSON.stringify(json));
}
