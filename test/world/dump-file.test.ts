/**
 * The world cache's index file (docs/operations.md, "Faults": start-up stalls): a StoreDump written and read as JSON lines
 * comes back equal, and neither direction holds the event loop the way one JSON.stringify or
 * JSON.parse of a 10-15 MB index did.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StoreDump } from '../../store/store.js';
import { readDumpFile, writeDumpFile } from '../../world/dump-file.js';
import { longestStall, loopTurns } from '../helpers/stall.js';

describe('index dump file', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('reads back what was written: strings, hashes and sorted sets across chunk edges, empty ones too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sibyl-dump-'));
    dirs.push(dir);
    const dump: StoreDump = {
      strings: [['idx:cp', '{"block":42}'], ['idx:line\nbreak', 'a"b']],
      hashes: [['idx:bal', Object.fromEntries(Array.from({ length: 4_001 }, (_, i) => [`0x${i.toString(16)}`, String(i * 7)]))], ['idx:empty', {}]],
      sorted: [['idx:rows', Array.from({ length: 4_001 }, (_, i) => ({ score: i, member: `row-${i}` }))], ['idx:none', []]],
    };
    await writeDumpFile(join(dir, 'i.jsonl'), dump);
    expect(await readDumpFile(join(dir, 'i.jsonl'))).toEqual(dump);
  });

  it('writes and reads a 20 MB index without holding the event loop', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sibyl-dump-'));
    dirs.push(dir);
    const member = (i: number) => JSON.stringify({ block: i, tx: `0x${i.toString(16).padStart(64, '0')}`, from: `0x${'ab'.repeat(20)}`, amount: String(i * 1e6) });
    const dump: StoreDump = {
      strings: [],
      hashes: [['idx:bal', Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`0x${i.toString(16).padStart(40, '0')}`, String(i)]))]],
      sorted: Array.from({ length: 4 }, (_, k) => [`idx:rows:${k}`, Array.from({ length: 30_000 }, (_, i) => ({ score: i, member: member(i) }))] as [string, { score: number; member: string }[]]),
    };
    const path = join(dir, 'big.jsonl');
    // Done in pieces: the loop turns between them (one JSON.stringify of the whole dump lets it turn none).
    expect(await loopTurns(() => writeDumpFile(path, dump))).toBeGreaterThan(20);
    let read: StoreDump | undefined;
    expect(await loopTurns(async () => (read = await readDumpFile(path)))).toBeGreaterThan(20);
    expect(read!.sorted.map(([k, e]) => [k, e.length])).toEqual(dump.sorted.map(([k, e]) => [k, e.length]));
    expect(await loopTurns(async () => JSON.stringify(dump))).toBeLessThanOrEqual(1);
    // And no piece is long: one JSON.stringify / JSON.parse of this dump (25.6 MB) held the loop
    // 90-360 ms / 170-220 ms here; a piece takes a few ms. The bound is loose because the probe
    // counts the whole process's CPU (a garbage collection of a long-lived test worker included).
    expect(await longestStall(() => writeDumpFile(path, dump))).toBeLessThan(250);
    expect(await longestStall(() => readDumpFile(path))).toBeLessThan(250);
  });
});
