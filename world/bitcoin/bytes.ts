/**
 * Byte plumbing of the Bitcoin wire format: little-endian integers, CompactSize varints, the
 * hashes Bitcoin uses (double SHA-256, HASH160, BIP340 tagged hashes). Hashing goes through
 * node:crypto (native), which is what keeps building thousands of transactions cheap.
 */
import { createHash } from 'node:crypto';

export function sha256(...parts: Uint8Array[]): Uint8Array {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

/** SHA-256 twice: txids, block hashes, legacy and BIP143 sighashes. */
export function hash256(...parts: Uint8Array[]): Uint8Array {
  return sha256(sha256(...parts));
}

/** RIPEMD-160 of SHA-256: the hash behind P2PKH and P2WPKH. */
export function hash160(data: Uint8Array): Uint8Array {
  return createHash('ripemd160').update(sha256(data)).digest();
}

const tagPrefixes = new Map<string, Uint8Array>();
/** BIP340 tagged hash: SHA256(SHA256(tag) || SHA256(tag) || msg). */
export function taggedHash(tag: string, ...parts: Uint8Array[]): Uint8Array {
  let prefix = tagPrefixes.get(tag);
  if (!prefix) {
    const t = sha256(new TextEncoder().encode(tag));
    prefix = concat(t, t);
    tagPrefixes.set(tag, prefix);
  }
  return sha256(prefix, ...parts);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}

export function toHex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}

export function fromHex(h: string): Uint8Array {
  return Buffer.from(h, 'hex');
}

/** A hash shown the way Bitcoin shows txids and block hashes: byte-reversed hex. */
export function hashToId(hash: Uint8Array): string {
  return toHex(Uint8Array.from(hash).reverse());
}

export function idToHash(id: string): Uint8Array {
  return fromHex(id).reverse();
}

export function bytesToBigInt(b: Uint8Array): bigint {
  return b.length ? BigInt(`0x${toHex(b)}`) : 0n;
}

export function bigIntTo32(n: bigint): Uint8Array {
  return fromHex(n.toString(16).padStart(64, '0'));
}

/** Appends wire-format fields to a growing buffer. */
export class Writer {
  private buf: Buffer;
  private len = 0;

  constructor(initial = 256) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  u8(v: number): this {
    this.room(1);
    this.buf[this.len++] = v;
    return this;
  }

  u16le(v: number): this {
    this.room(2);
    this.buf.writeUInt16LE(v, this.len);
    this.len += 2;
    return this;
  }

  u32le(v: number): this {
    this.room(4);
    this.buf.writeUInt32LE(v >>> 0, this.len);
    this.len += 4;
    return this;
  }

  i32le(v: number): this {
    this.room(4);
    this.buf.writeInt32LE(v, this.len);
    this.len += 4;
    return this;
  }

  u64le(v: number): this {
    this.room(8);
    this.buf.writeBigUInt64LE(BigInt(v), this.len);
    this.len += 8;
    return this;
  }

  /** CompactSize. */
  varint(v: number): this {
    if (v < 0xfd) return this.u8(v);
    if (v <= 0xffff) return this.u8(0xfd).u16le(v);
    if (v <= 0xffffffff) return this.u8(0xfe).u32le(v);
    return this.u8(0xff).u64le(v);
  }

  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
    return this;
  }

  /** Length-prefixed bytes. */
  varbytes(b: Uint8Array): this {
    return this.varint(b.length).bytes(b);
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

/** Reads wire-format fields (the cache and the tests' parsers). */
export class Reader {
  pos = 0;
  constructor(private readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  u8(): number {
    return this.buf[this.pos++]!;
  }

  u16le(): number {
    const v = this.buf[this.pos]! | (this.buf[this.pos + 1]! << 8);
    this.pos += 2;
    return v;
  }

  u32le(): number {
    const v = (this.buf[this.pos]! | (this.buf[this.pos + 1]! << 8) | (this.buf[this.pos + 2]! << 16)) + this.buf[this.pos + 3]! * 0x1000000;
    this.pos += 4;
    return v;
  }

  u64le(): number {
    const lo = this.u32le();
    const hi = this.u32le();
    return hi * 0x100000000 + lo;
  }

  varint(): number {
    const b = this.u8();
    if (b < 0xfd) return b;
    if (b === 0xfd) return this.u16le();
    if (b === 0xfe) return this.u32le();
    return this.u64le();
  }

  bytes(n: number): Uint8Array {
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  varbytes(): Uint8Array {
    return this.bytes(this.varint());
  }
}
