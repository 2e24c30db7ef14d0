/**
 * The chain as stored in memory: blocks, every transaction (confirmed or in the mempool, with
 * the second it reached the mempool), who spent which output, and which transactions touch each
 * address. The Esplora server reads it through a `ChainView`, which can stand at an earlier
 * height: the chain as it was then, with the mempool of that moment.
 */
import { scriptAddress } from './script.js';
import { txMetrics, vsizeOf, type Tx, type TxOutput } from './tx.js';
import type { BlockHeader } from './block.js';

export interface ChainTx {
  readonly txid: string;
  readonly wtxid: string;
  readonly tx: Tx;
  readonly raw: Uint8Array;
  readonly size: number;
  readonly weight: number;
  /** Satoshis (0 for a coinbase). */
  readonly fee: number;
  readonly coinbase: boolean;
  /** Unix seconds the transaction reached the mempool (a coinbase: its block's time). */
  readonly seenAt: number;
  /** Height of the block that confirmed it; undefined while it waits in the mempool. */
  height?: number;
  /** Position in that block. */
  position?: number;
}

export interface ChainBlock {
  readonly hash: string;
  readonly height: number;
  readonly header: BlockHeader;
  readonly txids: readonly string[];
  readonly size: number;
  readonly weight: number;
  readonly mediantime: number;
}

export interface Spender {
  readonly txid: string;
  readonly vin: number;
}

export const feerateOf = (t: Pick<ChainTx, 'fee' | 'weight'>) => t.fee / vsizeOf(t.weight);

export class BitcoinChain {
  readonly blocks: ChainBlock[] = [];
  readonly byHash = new Map<string, ChainBlock>();
  readonly txs = new Map<string, ChainTx>();
  /** Unconfirmed transactions in arrival order. */
  readonly mempool = new Map<string, ChainTx>();
  /** `txid:vout` → the transaction input that spends it (confirmed or in the mempool). */
  readonly spends = new Map<string, Spender>();
  /** Address → txids that fund or spend it, in the order they reached the chain or the mempool. */
  readonly addressTxs = new Map<string, string[]>();
  /** Listeners told of each new block (the live chain). */
  private readonly blockListeners: ((b: ChainBlock) => void)[] = [];

  get tip(): ChainBlock {
    return this.blocks[this.blocks.length - 1]!;
  }

  output(txid: string, vout: number): TxOutput | undefined {
    return this.txs.get(txid)?.tx.outputs[vout];
  }

  /** Builds the record of a signed transaction (fee from the outputs it spends, all of which must exist and be unspent). */
  record(tx: Tx, seenAt: number, coinbase = false): ChainTx {
    const m = txMetrics(tx);
    let fee = 0;
    if (!coinbase) {
      let inSum = 0;
      for (const i of tx.inputs) {
        const prev = this.output(i.prevTxid, i.vout);
        if (!prev) throw new Error(`tx ${m.txid} spends missing output ${i.prevTxid}:${i.vout}`);
        if (this.spends.has(`${i.prevTxid}:${i.vout}`)) throw new Error(`tx ${m.txid} double-spends ${i.prevTxid}:${i.vout}`);
        inSum += prev.value;
      }
      fee = inSum - tx.outputs.reduce((a, o) => a + o.value, 0);
      if (fee < 0) throw new Error(`tx ${m.txid} spends more than its inputs`);
    }
    return { txid: m.txid, wtxid: m.wtxid, tx, raw: m.raw, size: m.size, weight: m.weight, fee, coinbase, seenAt };
  }

  /** A transaction reaches the mempool. */
  addToMempool(t: ChainTx): void {
    this.index(t);
    this.mempool.set(t.txid, t);
  }

  /** A mined block: its transactions (coinbase first) leave the mempool or enter directly. */
  addBlock(header: BlockHeader, hash: string, txs: readonly ChainTx[], mediantime: number): ChainBlock {
    const height = this.blocks.length;
    let size = 80 + (txs.length < 0xfd ? 1 : 3);
    let weight = size * 4;
    txs.forEach((t, position) => {
      size += t.size;
      weight += t.weight;
      const waited = this.mempool.delete(t.txid);
      t.height = height;
      t.position = position;
      if (!waited) this.index(t);
    });
    const block: ChainBlock = { hash, height, header, txids: txs.map((t) => t.txid), size, weight, mediantime };
    this.blocks.push(block);
    this.byHash.set(hash, block);
    for (const l of this.blockListeners) l(block);
    return block;
  }

  onBlock(listener: (b: ChainBlock) => void): void {
    this.blockListeners.push(listener);
  }

  private index(t: ChainTx): void {
    this.txs.set(t.txid, t);
    const touched = new Set<string>();
    if (!t.coinbase) {
      t.tx.inputs.forEach((i, vin) => {
        this.spends.set(`${i.prevTxid}:${i.vout}`, { txid: t.txid, vin });
        const a = scriptAddress(this.output(i.prevTxid, i.vout)!.script);
        if (a) touched.add(a);
      });
    }
    for (const o of t.tx.outputs) {
      const a = scriptAddress(o.script);
      if (a) touched.add(a);
    }
    for (const a of touched) {
      let list = this.addressTxs.get(a);
      if (!list) this.addressTxs.set(a, (list = []));
      list.push(t.txid);
    }
  }
}

/**
 * The chain as of a height: blocks up to it, and as the mempool the transactions that had
 * arrived by that block's time and were not yet mined in it or before. Without a height, the
 * live chain and its current mempool.
 */
export class ChainView {
  readonly tipHeight: number;
  private readonly cut: boolean;
  private readonly cutTime: number;

  constructor(readonly chain: BitcoinChain, asOfHeight?: number) {
    const top = chain.blocks.length - 1;
    this.cut = asOfHeight !== undefined && asOfHeight < top;
    this.tipHeight = this.cut ? Math.max(0, asOfHeight!) : top;
    this.cutTime = chain.blocks[this.tipHeight]!.header.time;
  }

  get tip(): ChainBlock {
    return this.chain.blocks[this.tipHeight]!;
  }

  block(hash: string): ChainBlock | undefined {
    const b = this.chain.byHash.get(hash);
    return b && b.height <= this.tipHeight ? b : undefined;
  }

  confirmed(t: ChainTx): boolean {
    return t.height !== undefined && t.height <= this.tipHeight;
  }

  /** In the mempool as of this view (a block takes txs seen before its second; those of its second wait). */
  pending(t: ChainTx): boolean {
    if (!this.cut) return t.height === undefined;
    return !this.confirmed(t) && !t.coinbase && t.seenAt <= this.cutTime;
  }

  visible(t: ChainTx): boolean {
    return this.confirmed(t) || this.pending(t);
  }

  tx(txid: string): ChainTx | undefined {
    const t = this.chain.txs.get(txid);
    return t && this.visible(t) ? t : undefined;
  }

  spender(txid: string, vout: number): (Spender & { tx: ChainTx }) | undefined {
    const s = this.chain.spends.get(`${txid}:${vout}`);
    if (!s) return undefined;
    const tx = this.tx(s.txid);
    return tx ? { ...s, tx } : undefined;
  }

  /** Mempool transactions in arrival order. */
  mempool(): ChainTx[] {
    if (!this.cut) return [...this.chain.mempool.values()];
    // Everything that arrived by then and was mined after: found from the later blocks and the live mempool.
    const out: ChainTx[] = [];
    for (let h = this.tipHeight + 1; h < this.chain.blocks.length; h++) {
      for (const id of this.chain.blocks[h]!.txids) {
        const t = this.chain.txs.get(id)!;
        if (this.pending(t)) out.push(t);
      }
      if (this.chain.blocks[h]!.header.time > this.cutTime + 86_400 * 3) break; // nothing waits that long here
    }
    for (const t of this.chain.mempool.values()) if (t.seenAt <= this.cutTime) out.push(t);
    return out.sort((a, b) => a.seenAt - b.seenAt);
  }

  /** Txids touching an address as of this view, oldest first. */
  addressTxids(address: string): string[] {
    const all = this.chain.addressTxs.get(address) ?? [];
    return this.cut ? all.filter((id) => this.visible(this.chain.txs.get(id)!)) : all;
  }
}
