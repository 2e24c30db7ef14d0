/**
 * Output scripts of the kinds the world uses, their mainnet addresses (encoded by
 * @scure/btc-signer), Esplora's type names, and scripts shown as Esplora shows them (asm).
 */
import { Address, NETWORK, OutScript } from '@scure/btc-signer';
import { concat, toHex, Writer } from './bytes.js';

export const OP = {
  OP_0: 0x00, OP_PUSHDATA1: 0x4c, OP_PUSHDATA2: 0x4d, OP_1NEGATE: 0x4f, OP_1: 0x51, OP_13: 0x5d, OP_16: 0x60,
  OP_IF: 0x63, OP_ENDIF: 0x68, OP_VERIFY: 0x69, OP_RETURN: 0x6a, OP_DROP: 0x75, OP_DUP: 0x76,
  OP_EQUAL: 0x87, OP_EQUALVERIFY: 0x88, OP_HASH160: 0xa9, OP_CHECKSIG: 0xac, OP_CHECKSIGVERIFY: 0xad,
  OP_CHECKMULTISIG: 0xae, OP_CHECKLOCKTIMEVERIFY: 0xb1, OP_CHECKSEQUENCEVERIFY: 0xb2, OP_CHECKSIGADD: 0xba,
  OP_NUMEQUAL: 0x9c,
} as const;

/** A script push of `data` with the shortest opcode. */
export function push(data: Uint8Array): Uint8Array {
  const w = new Writer(data.length + 3);
  if (data.length < OP.OP_PUSHDATA1) w.u8(data.length);
  else if (data.length <= 0xff) w.u8(OP.OP_PUSHDATA1).u8(data.length);
  else w.u8(OP.OP_PUSHDATA2).u16le(data.length);
  return w.bytes(data).finish();
}

/** A minimal push of a small non-negative number (script integers, e.g. a timelock). */
export function pushNumber(n: number): Uint8Array {
  if (n === 0) return Uint8Array.of(OP.OP_0);
  if (n >= 1 && n <= 16) return Uint8Array.of(OP.OP_1 + n - 1);
  const bytes: number[] = [];
  let v = n;
  while (v > 0) {
    bytes.push(v & 0xff);
    v = Math.floor(v / 256);
  }
  if (bytes[bytes.length - 1]! & 0x80) bytes.push(0);
  return push(Uint8Array.from(bytes));
}

export function script(...parts: (number | Uint8Array)[]): Uint8Array {
  return concat(...parts.map((p) => (typeof p === 'number' ? Uint8Array.of(p) : p)));
}

export const outputScript = {
  p2pk: (pub: Uint8Array) => script(push(pub), OP.OP_CHECKSIG),
  p2pkh: (pkh: Uint8Array) => script(OP.OP_DUP, OP.OP_HASH160, push(pkh), OP.OP_EQUALVERIFY, OP.OP_CHECKSIG),
  p2wpkh: (pkh: Uint8Array) => script(OP.OP_0, push(pkh)),
  p2wsh: (scriptHash: Uint8Array) => script(OP.OP_0, push(scriptHash)),
  p2tr: (outputKey: Uint8Array) => script(OP.OP_1, push(outputKey)),
  opReturn: (...pushes: (number | Uint8Array)[]) => script(OP.OP_RETURN, ...pushes),
};

/** Esplora's scriptpubkey_type of an output script. */
export function scriptType(s: Uint8Array): string {
  const n = s.length;
  if (n > 0 && s[0] === OP.OP_RETURN) return 'op_return';
  if ((n === 35 && s[0] === 33 || n === 67 && s[0] === 65) && s[n - 1] === OP.OP_CHECKSIG) return 'p2pk';
  if (n === 25 && s[0] === OP.OP_DUP && s[1] === OP.OP_HASH160 && s[2] === 20 && s[23] === OP.OP_EQUALVERIFY && s[24] === OP.OP_CHECKSIG) return 'p2pkh';
  if (n === 23 && s[0] === OP.OP_HASH160 && s[1] === 20 && s[22] === OP.OP_EQUAL) return 'p2sh';
  if (n === 22 && s[0] === OP.OP_0 && s[1] === 20) return 'v0_p2wpkh';
  if (n === 34 && s[0] === OP.OP_0 && s[1] === 32) return 'v0_p2wsh';
  if (n === 34 && s[0] === OP.OP_1 && s[1] === 32) return 'v1_p2tr';
  if (n > 0 && s[n - 1] === OP.OP_CHECKMULTISIG) return 'multisig';
  return 'unknown';
}

const addressCache = new Map<string, string | null>();
/** Scripts are shared objects (an owner's script is reused by every output paying it): remembered by identity first. */
const addressOfObject = new WeakMap<Uint8Array, string | null>();
const mainnet = Address(NETWORK);
/** The mainnet address of an output script, or null (P2PK, OP_RETURN and bare scripts have none in Esplora). */
export function scriptAddress(s: Uint8Array): string | null {
  const known = addressOfObject.get(s);
  if (known !== undefined) return known;
  const key = toHex(s);
  let a = addressCache.get(key);
  if (a === undefined) {
    const type = scriptType(s);
    a = type === 'p2pkh' || type === 'p2sh' || type.startsWith('v0_') || type === 'v1_p2tr' ? mainnet.encode(OutScript.decode(s)) : null;
    if (addressCache.size > 200_000) addressCache.clear();
    addressCache.set(key, a);
  }
  addressOfObject.set(s, a);
  return a;
}

/** The output script of a mainnet address, or null when it is not one. */
export function addressScript(address: string): Uint8Array | null {
  try {
    return OutScript.encode(mainnet.decode(address));
  } catch {
    return null;
  }
}

/** Opcode names as rust-bitcoin (Esplora's asm) prints them. */
const NAMES: Record<number, string> = {
  0x00: 'OP_0', 0x4f: 'OP_PUSHNUM_NEG1', 0x50: 'OP_RESERVED', 0x61: 'OP_NOP', 0x62: 'OP_VER', 0x63: 'OP_IF', 0x64: 'OP_NOTIF',
  0x67: 'OP_ELSE', 0x68: 'OP_ENDIF', 0x69: 'OP_VERIFY', 0x6a: 'OP_RETURN', 0x6b: 'OP_TOALTSTACK', 0x6c: 'OP_FROMALTSTACK',
  0x73: 'OP_IFDUP', 0x74: 'OP_DEPTH', 0x75: 'OP_DROP', 0x76: 'OP_DUP', 0x77: 'OP_NIP', 0x78: 'OP_OVER', 0x7c: 'OP_SWAP',
  0x82: 'OP_SIZE', 0x87: 'OP_EQUAL', 0x88: 'OP_EQUALVERIFY', 0x8b: 'OP_1ADD', 0x93: 'OP_ADD', 0x94: 'OP_SUB',
  0x9a: 'OP_BOOLAND', 0x9c: 'OP_NUMEQUAL', 0x9d: 'OP_NUMEQUALVERIFY', 0xa0: 'OP_GREATERTHAN', 0xa2: 'OP_GREATERTHANOREQUAL',
  0xa8: 'OP_SHA256', 0xa9: 'OP_HASH160', 0xaa: 'OP_HASH256', 0xab: 'OP_CODESEPARATOR', 0xac: 'OP_CHECKSIG',
  0xad: 'OP_CHECKSIGVERIFY', 0xae: 'OP_CHECKMULTISIG', 0xaf: 'OP_CHECKMULTISIGVERIFY', 0xb0: 'OP_NOP1', 0xb1: 'OP_CLTV',
  0xb2: 'OP_CSV', 0xba: 'OP_CHECKSIGADD',
};

/** A script as Esplora's `*_asm` fields show it (OP_PUSHBYTES_n <hex>, OP_PUSHNUM_n, ...). */
export function scriptAsm(s: Uint8Array): string {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    const op = s[i++]!;
    let len = -1;
    let name: string;
    if (op >= 0x01 && op <= 0x4b) {
      len = op;
      name = `OP_PUSHBYTES_${op}`;
    } else if (op === 0x4c || op === 0x4d || op === 0x4e) {
      const w = op === 0x4c ? 1 : op === 0x4d ? 2 : 4;
      if (i + w > s.length) {
        out.push('<push past end>');
        break;
      }
      len = 0;
      for (let b = 0; b < w; b++) len += s[i + b]! * 256 ** b;
      i += w;
      name = `OP_PUSHDATA${w === 4 ? 4 : w}`;
    } else if (op >= 0x51 && op <= 0x60) {
      name = `OP_PUSHNUM_${op - 0x50}`;
    } else {
      name = NAMES[op] ?? (op >= 0xbb ? `OP_RETURN_${op}` : `OP_UNKNOWN_${op}`);
    }
    out.push(name);
    if (len >= 0) {
      if (i + len > s.length) {
        out.push('<push past end>');
        break;
      }
      if (len > 0) out.push(toHex(s.subarray(i, i + len)));
      i += len;
    }
  }
  return out.join(' ');
}
