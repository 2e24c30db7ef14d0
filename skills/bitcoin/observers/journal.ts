import type { BitcoinTxObserver } from '../../../chain/bitcoin.js';
import type { EsploraBlock, EsploraTx } from '../../../chain/esplora.js';

/**
 * Undo journal of an observer's state, kept per block for the last `depth` blocks, so a reorg
 * (`rewind(height)`) undoes exactly the blocks it drops. Every mutation of an observer's state
 * goes through these helpers while a block is being read.
 */
export class Journal {
  private readonly blocks: { height: number; undo: (() => void)[] }[] = [];
  private current: (() => void)[] | null = null;
  /** Lowest height still undoable (blocks below it have left the journal). */
  private floor = 0;

  constructor(private readonly depth = 288) {}

  begin(height: number): void {
    const entry = { height, undo: [] as (() => void)[] };
    this.blocks.push(entry);
    this.current = entry.undo;
    while (this.blocks.length > this.depth) this.floor = this.blocks.shift()!.height + 1;
  }

  record(undo: () => void): void {
    this.current?.push(undo);
  }

  /** Undoes the blocks from `height` on, newest first; false when that goes deeper than the journal keeps. */
  rewind(height: number): boolean {
    if (height < this.floor) return false;
    while (this.blocks.length && this.blocks[this.blocks.length - 1]!.height >= height) {
      const undo = this.blocks.pop()!.undo;
      for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
    }
    this.current = null;
    return true;
  }

  set<K, V>(map: Map<K, V>, key: K, value: V): void {
    const had = map.has(key);
    const old = map.get(key);
    map.set(key, value);
    this.record(() => (had ? map.set(key, old as V) : map.delete(key)));
  }

  delete<K, V>(map: Map<K, V>, key: K): void {
    if (!map.has(key)) return;
    const old = map.get(key) as V;
    map.delete(key);
    this.record(() => map.set(key, old));
  }

  push<T>(list: T[], item: T): void {
    list.push(item);
    this.record(() => list.pop());
  }

  assign<T extends object, F extends keyof T>(target: T, field: F, value: T[F]): void {
    const old = target[field];
    target[field] = value;
    this.record(() => (target[field] = old));
  }
}

/** Heights an observer has read: where it began (its first block) and its last block. */
export interface ObserverCoverage {
  readonly fromHeight: number | null;
  readonly toHeight: number | null;
  readonly toHash: string | null;
  /** Unix seconds of the last block read. */
  readonly toTime: number | null;
  /** False after a reorg deeper than the journal: the state no longer matches the chain. */
  readonly consistent: boolean;
}

/** Tracks an observer's coverage across blocks and rewinds. */
export class CoverageTracker {
  private from: number | null = null;
  private last: { height: number; hash: string; time: number }[] = [];
  private broken = false;

  onBlock(height: number, hash: string, time: number): void {
    if (this.from === null) this.from = height;
    this.last.push({ height, hash, time });
    if (this.last.length > 300) this.last.shift();
  }

  rewind(height: number, undone: boolean): void {
    if (!undone) this.broken = true;
    this.last = this.last.filter((b) => b.height < height);
    if (this.from !== null && height <= this.from) this.from = null;
  }

  get coverage(): ObserverCoverage {
    const tip = this.last[this.last.length - 1];
    return { fromHeight: this.from, toHeight: tip?.height ?? null, toHash: tip?.hash ?? null, toTime: tip?.time ?? null, consistent: !this.broken };
  }
}

/**
 * An index plug-in whose state changes go through a journal: each block opens a journal entry
 * and extends the coverage; a rewind undoes the dropped blocks, or (back to the first block read)
 * clears everything so the index reads it all again. Subclasses read a block and clear their state.
 */
export abstract class JournaledObserver implements BitcoinTxObserver {
  abstract readonly name: string;
  protected journal = new Journal();
  private tracker = new CoverageTracker();

  onBlock(block: EsploraBlock, txs: readonly EsploraTx[]): void {
    this.journal.begin(block.height);
    this.tracker.onBlock(block.height, block.id, block.timestamp);
    this.readBlock(block, txs);
  }

  rewind(height: number): void {
    const from = this.tracker.coverage.fromHeight;
    if (from === null || height <= from) {
      this.journal = new Journal();
      this.tracker = new CoverageTracker();
      return this.clear();
    }
    this.forget(height);
    this.tracker.rewind(height, this.journal.rewind(height));
  }

  get coverage(): ObserverCoverage {
    return this.tracker.coverage;
  }

  /** Reads one block's transactions (its journal entry is open). */
  protected abstract readBlock(block: EsploraBlock, txs: readonly EsploraTx[]): void;
  /** Drops all state: the index reads everything again. */
  protected abstract clear(): void;
  /** Drops what the journal does not track, from `height` on (default: nothing). */
  protected forget(_height: number): void {}
}
