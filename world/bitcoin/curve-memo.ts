/**
 * Curve results already computed (public keys, taproot tweaks, signatures), kept for the
 * process and saved between runs. Every entry is a pure function of its key (the signing
 * nonces are deterministic), so a hit is exactly what the computation would have produced:
 * a chain rebuilt from its seed with a saved memo is the same chain, built without the ~0.25 ms
 * base-point multiplication each key and signature costs. This is how the Bitcoin world is
 * cached: the simulation replays, the curve work does not.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Reader, Writer } from './bytes.js';

export class CurveMemo {
  private readonly entries = new Map<string, Uint8Array>();
  private readonly used = new Set<string>();
  hits = 0;
  misses = 0;

  get(key: string, compute: () => Uint8Array): Uint8Array {
    let v = this.entries.get(key);
    if (v) this.hits++;
    else {
      this.misses++;
      v = compute();
      this.entries.set(key, v);
    }
    this.used.add(key);
    return v;
  }

  /** Adds the entries saved at `path` (a missing or unreadable file adds none). */
  async load(path: string): Promise<number> {
    let buf: Uint8Array;
    try {
      buf = await readFile(path);
    } catch {
      return 0;
    }
    const r = new Reader(buf);
    let n = 0;
    try {
      while (!r.done) {
        const key = Buffer.from(r.varbytes()).toString('latin1');
        const value = Uint8Array.from(r.varbytes());
        if (!this.entries.has(key)) this.entries.set(key, value);
        n++;
      }
    } catch {
      // A truncated file: what was read is still valid.
    }
    return n;
  }

  /** Saves the entries used since the process started (those the latest builds need). */
  async save(path: string): Promise<number> {
    const w = new Writer(1 << 20);
    for (const key of this.used) w.varbytes(Buffer.from(key, 'latin1')).varbytes(this.entries.get(key)!);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp-${process.pid}`;
    await writeFile(tmp, w.finish());
    await rename(tmp, path);
    return this.used.size;
  }
}

/** The process's memo: shared by every build (entries are pure, so sharing is safe). */
export const curveMemo = new CurveMemo();
