/**
 * A chain's index (a StoreDump, 10-15 MB) in the world cache as JSON lines of at most
 * CHUNK entries each, written and read a piece at a time: one JSON.stringify or JSON.parse of
 * the whole held the event loop for a quarter to half a second per chain at start-up.
 * Lines: ["s", key, value], ["h", key, {field: value…}], ["z", key, [[score, member]…]]; the
 * lines of one hash or sorted set follow each other and are merged on reading.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { SortedEntry, StoreDump } from '../store/store.js';

const CHUNK = 2_000;
/** Bytes gathered before a write (each write gives the event loop back). */
const WRITE_BYTES = 256 * 1024;

function* lines(dump: StoreDump): Generator<string> {
  for (const [key, value] of dump.strings) yield JSON.stringify(['s', key, value]);
  for (const [key, fields] of dump.hashes) {
    const all = Object.entries(fields);
    if (!all.length) yield JSON.stringify(['h', key, {}]);
    for (let i = 0; i < all.length; i += CHUNK) yield JSON.stringify(['h', key, Object.fromEntries(all.slice(i, i + CHUNK))]);
  }
  for (const [key, entries] of dump.sorted) {
    if (!entries.length) yield JSON.stringify(['z', key, []]);
    for (let i = 0; i < entries.length; i += CHUNK) yield JSON.stringify(['z', key, entries.slice(i, i + CHUNK).map((e) => [e.score, e.member])]);
  }
}

export async function writeDumpFile(path: string, dump: StoreDump): Promise<void> {
  const file = await open(path, 'w');
  try {
    let pending = '';
    for (const line of lines(dump)) {
      pending += `${line}\n`;
      if (pending.length >= WRITE_BYTES) {
        await file.write(pending);
        pending = '';
      }
    }
    if (pending) await file.write(pending);
  } finally {
    await file.close();
  }
}

export async function readDumpFile(path: string): Promise<StoreDump> {
  const strings: [string, string][] = [];
  const hashes = new Map<string, Record<string, string>>();
  const sorted = new Map<string, SortedEntry[]>();
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
    if (!line) continue;
    const [kind, key, value] = JSON.parse(line) as ['s', string, string] | ['h', string, Record<string, string>] | ['z', string, [number, string][]];
    if (kind === 's') strings.push([key, value]);
    else if (kind === 'h') Object.assign(hashes.get(key) ?? hashes.set(key, {}).get(key)!, value);
    else {
      const entries = sorted.get(key) ?? sorted.set(key, []).get(key)!;
      for (const [score, member] of value) entries.push({ score, member });
    }
  }
  return { strings, hashes: [...hashes], sorted: [...sorted] };
}
