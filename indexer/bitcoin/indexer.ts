/**
 * The Bitcoin index: follows a chain ONLY through its Esplora API, block by block from a start
 * height, and keeps in memory the UTXO set (value, creation height, time and price of every
 * output), per-block and per-day figures (ledger.ts, days.ts) and its plug-ins' state (each
 * `BitcoinTxObserver` sees every confirmed block's transactions once, in order).
 *
 * It lives in memory and is rebuilt from the API at start. Reads are concurrent (a window of
 * blocks ahead, each block's 25-tx pages at once) and applied in order. A block whose parent is
 * not the block read before it means a reorganisation: the index walks back to the fork (the
 * heights whose hash the API still agrees with), unwinds the ledger and tells every observer to
 * forget from there, then reads the new branch. Deeper than its undo depth, it starts over.
 */
import { EsploraUnavailableError, type Esplora, type EsploraBlock, type EsploraTx } from '../../chain/esplora.js';
import type { BitcoinDay, BitcoinEntity, BitcoinIndex, BitcoinTxObserver, BtcPrices, IndexedBlock, IndexedUtxo } from '../../chain/bitcoin.js';
import { summariseDays } from './days.js';
import { Ledger } from './ledger.js';

export interface BitcoinIndexerOptions {
  readonly esplora: Esplora;
  readonly prices: BtcPrices;
  readonly entities: readonly BitcoinEntity[];
  readonly observers?: readonly BitcoinTxObserver[];
  /**
   * Where to begin: a height (0 = genesis, the whole UTXO set), or a number of blocks behind the
   * tip at the first read (a real chain: the UTXO set is then partial).
   */
  readonly from?: number | { readonly blocksBehindTip: number };
  /** Blocks read ahead of the one being applied (default 16). */
  readonly window?: number;
  /** Deepest reorganisation unwound in place (default 144 blocks); deeper ones rebuild. */
  readonly reorgDepth?: number;
  /** Polling period once started (default 10 s). */
  readonly pollMs?: number;
  readonly onError?: (err: Error) => void;
}

const PAGE = 25;
/** Rounds of a sync that may meet a changed chain without reading a block before it gives up. */
const MAX_STALLED_ROUNDS = 5;
/** Headers per GET /blocks/:start_height (Esplora's page). */
const HEADER_PAGE = 10;

/**
 * Esplora's GET /blocks/:start_height (ten headers, newest first), where the client offers it:
 * one call for ten blocks' headers instead of two per block.
 */

interface FetchedBlock {
  readonly block: EsploraBlock;
  readonly txs: EsploraTx[];
}

export class BitcoinIndexer implements BitcoinIndex {
  readonly esploraUrl: string;
  private readonly esplora: Esplora;
  private readonly observers: ReadonlyMap<string, BitcoinTxObserver>;
  private ledger: Ledger;
  private start: number | null;
  private syncing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private daysCache: BitcoinDay[] | null = null;
  private lastSynced: number | null = null;
  private readonly window: number;
  private readonly reorgDepth: number;
  /** Blocks applied since the start (rebuilds included): tests and health read it. */
  blocksApplied = 0;
  reorgs = 0;

  constructor(private readonly o: BitcoinIndexerOptions) {
    this.esplora = o.esplora;
    this.esploraUrl = o.esplora.baseUrl;
    this.window = o.window ?? 16;
    this.reorgDepth = o.reorgDepth ?? 144;
    this.start = typeof o.from === 'object' ? null : (o.from ?? 0);
    this.ledger = this.newLedger();
    const observers = new Map<string, BitcoinTxObserver>();
    for (const ob of o.observers ?? []) {
      if (observers.has(ob.name)) throw new Error(`two Bitcoin observers named ${ob.name}`);
      observers.set(ob.name, ob);
    }
    this.observers = observers;
  }

  private newLedger() {
    return new Ledger({ priceAt: (t) => this.o.prices.at(t), entities: this.o.entities, reorgDepth: this.reorgDepth });
  }

  get fromHeight(): number {
    return this.start ?? 0;
  }

  get utxoSetComplete(): boolean {
    return this.start === 0;
  }

  indexedHeight(): number | null {
    return this.ledger.records.at(-1)?.block.height ?? null;
  }

  indexedTip(): IndexedBlock | null {
    return this.ledger.records.at(-1)?.block ?? null;
  }

  observer<T extends BitcoinTxObserver>(name: string): T | undefined {
    return this.observers.get(name) as T | undefined;
  }

  blocks(): readonly IndexedBlock[] {
    return this.ledger.records.map((r) => r.block);
  }

  days(): readonly BitcoinDay[] {
    const last = this.ledger.records.at(-1);
    return (this.daysCache ??= summariseDays(this.ledger.records, () => (last ? this.ledger.dormantAt(last.clockTime) : 0)));
  }

  utxos(): Iterable<IndexedUtxo> {
    return this.ledger.utxos();
  }

  /** Satoshis unspent and the realised cap (USD; null when some output has no creation price). */
  get supply() {
    return { sats: this.ledger.supply, realizedCap: this.ledger.realizedCap, outputs: this.ledger.size };
  }

  /** Reads up to the tip now; a read already running is joined, not repeated. */
  sync(): Promise<void> {
    return (this.syncing ??= this.catchUp()
      .then(() => {
        this.lastSynced = Date.now();
      })
      .finally(() => {
        this.syncing = null;
      }));
  }

  syncedAt(): number | null {
    return this.lastSynced;
  }

  /** Polls the tip every `pollMs` (errors go to onError; the next poll retries). */
  follow(): this {
    if (this.timer) return this;
    this.timer = setInterval(() => {
      this.sync().catch((err: Error) => this.o.onError?.(err));
    }, this.o.pollMs ?? 10_000);
    this.timer.unref();
    return this;
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async catchUp(): Promise<void> {
    // Rounds that met a changing chain without reading a block: an API that keeps contradicting itself is not followed forever.
    let stalled = 0;
    for (;; stalled++) {
      if (stalled > MAX_STALLED_ROUNDS) throw new EsploraUnavailableError(this.esploraUrl, `the chain kept changing under the index (${stalled} rounds without a block read)`);
      const before = this.blocksApplied;
      const tipHash = await this.esplora.tipHash();
      if (tipHash === this.indexedTip()?.hash) return;
      const tipHeight = await this.esplora.tipHeight();
      if (this.start === null) {
        const behind = (this.o.from as { blocksBehindTip: number }).blocksBehindTip;
        this.start = Math.max(0, tipHeight - behind);
      }
      const tip = this.indexedTip();
      // Our tip left the chain (a reorganisation to a branch no longer than ours): unwind first.
      if (tip && (await this.esplora.blockHashAt(tip.height)) !== tip.hash) {
        await this.unwindToFork();
        continue;
      }
      if (!(await this.readTo(tipHeight))) {
        if (this.blocksApplied > before) stalled = -1;
        continue; // a reorganisation was unwound, or the tip moved: read the new branch
      }
      if ((this.indexedHeight() ?? -1) >= tipHeight) return;
      stalled = -1;
    }
  }

  /** Reads and applies blocks up to `tipHeight`; false when it met a reorganisation (and unwound it). */
  private async readTo(tipHeight: number): Promise<boolean> {
    const next = (this.indexedHeight() ?? this.fromHeight - 1) + 1;
    const ahead = new Map<number, Promise<FetchedBlock | null>>();
    const headers = new Map<number, Promise<EsploraBlock | null>>();
    const pages = this.esplora.blocks?.bind(this.esplora);
    const headerAt = (k: number): Promise<EsploraBlock | null> => {
      if (!pages) return this.headerAt(k);
      if (!headers.has(k)) {
        // One page of headers from k up (the API lists newest first, down from its start height).
        const top = Math.min(tipHeight, k + HEADER_PAGE - 1);
        const page = pages(top);
        for (let j = k; j <= top; j++) headers.set(j, page.then((list) => list.find((b) => b.height === j) ?? null));
      }
      return headers.get(k)!;
    };
    const fetchAhead = (h: number) => {
      for (let k = h; k <= Math.min(tipHeight, h + this.window - 1); k++) if (!ahead.has(k)) ahead.set(k, this.fetchBlock(headerAt(k)));
    };
    try {
      for (let h = next; h <= tipHeight; h++) {
        fetchAhead(h);
        const got = await ahead.get(h)!;
        ahead.delete(h);
        headers.delete(h);
        if (!got) return false; // the tip moved back under us: look again
        const parent = this.indexedTip();
        if (parent && got.block.previousblockhash !== parent.hash) {
          await this.unwindToFork();
          return false;
        }
        this.applyBlock(got);
      }
      return true;
    } finally {
      // Reads already started are left to settle: nothing awaits them, so they must not reject unhandled.
      for (const p of [...ahead.values(), ...headers.values()]) p.catch(() => {});
    }
  }

  private applyBlock({ block, txs }: FetchedBlock): void {
    this.ledger.apply(block, txs);
    // A failing plug-in must not stop the index (nor the other plug-ins): it is reported, and keeps its own consistency.
    for (const ob of this.observers.values()) {
      try {
        ob.onBlock(block, txs);
      } catch (err) {
        this.o.onError?.(new Error(`Bitcoin observer ${ob.name} failed on block ${block.height}: ${(err as Error).message}`));
      }
    }
    this.blocksApplied++;
    this.daysCache = null;
  }

  private async headerAt(height: number): Promise<EsploraBlock | null> {
    const hash = await this.esplora.blockHashAt(height);
    return hash ? this.esplora.block(hash) : null;
  }

  private async fetchBlock(header: Promise<EsploraBlock | null>): Promise<FetchedBlock | null> {
    const block = await header;
    if (!block) return null;
    const pages: Promise<EsploraTx[]>[] = [];
    for (let start = 0; start < block.tx_count; start += PAGE) pages.push(this.esplora.blockTxs(block.id, start));
    const txs = (await Promise.all(pages)).flat();
    // A page that came back short: the block was replaced between our reads.
    if (txs.length !== block.tx_count) return null;
    return { block, txs };
  }

  /** Walks back to the last block the API still has at its height, unwinding (or rebuilding past the undo depth). */
  private async unwindToFork(): Promise<void> {
    this.reorgs++;
    let depth = 0;
    const records = this.ledger.records;
    while (depth < records.length) {
      const r = records[records.length - 1 - depth]!;
      if ((await this.esplora.blockHashAt(r.block.height)) === r.block.hash) break;
      depth++;
    }
    if (!this.ledger.canUnwind(depth) || depth === records.length) {
      this.ledger = this.newLedger();
      for (const ob of this.observers.values()) ob.rewind?.(this.fromHeight);
    } else {
      for (let k = 0; k < depth; k++) this.ledger.unwind();
      const from = (this.indexedHeight() ?? this.fromHeight - 1) + 1;
      for (const ob of this.observers.values()) ob.rewind?.(from);
    }
    this.daysCache = null;
  }
}
