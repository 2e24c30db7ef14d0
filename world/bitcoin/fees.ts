/**
 * The fee market: blocks take the mempool's highest-feerate transactions first, and the
 * estimates, histogram and projected blocks Esplora and mempool.space serve are read from the
 * same order.
 *
 * The world's blocks are scaled down from mainnet's 4,000,000 weight units so that a modest
 * number of signed transactions (the build budget) still fills them and congestion comes and
 * goes with the daily cycle; every size-based figure Esplora derives from block capacity (the
 * histogram's bin width, projected blocks) is scaled by the same factor.
 */
import { vsizeOf } from './tx.js';
import { feerateOf, type ChainTx } from './chain.js';

/** Mainnet's block weight limit. */
export const MAINNET_BLOCK_WEIGHT = 4_000_000;
/** The world's block weight limit: mainnet's / BLOCK_SCALE. */
export const BLOCK_SCALE = 1_000;
export const BLOCK_WEIGHT_LIMIT = MAINNET_BLOCK_WEIGHT / BLOCK_SCALE;
/** Weight kept free for the header, the tx count and the coinbase (with its witness commitment). */
export const COINBASE_RESERVE_WEIGHT = 1_000;
export const BLOCK_VSIZE_LIMIT = BLOCK_WEIGHT_LIMIT / 4;
/** Esplora's histogram bins are 50,000 vB for 1,000,000 vB blocks: a twentieth of a block. */
export const HISTOGRAM_BIN_VSIZE = BLOCK_VSIZE_LIMIT / 20;
/** The relay floor (sat/vB). */
export const MIN_RELAY_FEERATE = 1;

/** Highest feerate first; ties by arrival, then txid (a total order, so every build agrees). */
export function byFeerate(a: ChainTx, b: ChainTx): number {
  return feerateOf(b) - feerateOf(a) || a.seenAt - b.seenAt || (a.txid < b.txid ? -1 : 1);
}

/**
 * A block's transactions: the highest feerates that fit, stopping at the first that does not
 * (so nothing left behind pays more than the cheapest included, when the block is full).
 * `candidates` may only spend confirmed outputs.
 */
export function selectBlockTxs(candidates: readonly ChainTx[]): { txs: ChainTx[]; full: boolean } {
  const sorted = [...candidates].sort(byFeerate);
  const txs: ChainTx[] = [];
  let weight = COINBASE_RESERVE_WEIGHT;
  for (const t of sorted) {
    if (weight + t.weight > BLOCK_WEIGHT_LIMIT) return { txs, full: true };
    txs.push(t);
    weight += t.weight;
  }
  return { txs, full: false };
}

export interface ProjectedBlock {
  readonly txs: readonly ChainTx[];
  readonly vsize: number;
  readonly fees: number;
}

/** The mempool cut into the blocks it would make, in order (mempool.space's projected blocks). */
export function projectBlocks(mempool: readonly ChainTx[], max = 8): ProjectedBlock[] {
  const sorted = [...mempool].sort(byFeerate);
  const blocks: ProjectedBlock[] = [];
  let cur: ChainTx[] = [];
  let weight = COINBASE_RESERVE_WEIGHT;
  const close = () => {
    blocks.push({ txs: cur, vsize: cur.reduce((a, t) => a + vsizeOf(t.weight), 0), fees: cur.reduce((a, t) => a + t.fee, 0) });
    cur = [];
    weight = COINBASE_RESERVE_WEIGHT;
  };
  for (const t of sorted) {
    if (weight + t.weight > BLOCK_WEIGHT_LIMIT && cur.length) {
      if (blocks.length === max - 1) {
        // The last projected block holds everything else, as mempool.space's does.
        cur.push(...sorted.slice(sorted.indexOf(t)));
        break;
      }
      close();
    }
    cur.push(t);
    weight += t.weight;
  }
  if (cur.length) close();
  return blocks;
}

/** Esplora's fee histogram: [feerate, vsize] bins of about HISTOGRAM_BIN_VSIZE, highest feerate first. */
export function feeHistogram(mempool: readonly ChainTx[]): [number, number][] {
  const entries = mempool.map((t) => [feerateOf(t), vsizeOf(t.weight)] as const).sort((a, b) => b[0] - a[0]);
  const out: [number, number][] = [];
  let bin = 0;
  let last = 0;
  for (const [rate, vsize] of entries) {
    if (bin > HISTOGRAM_BIN_VSIZE && last !== rate) {
      out.push([round(last), bin]);
      bin = 0;
    }
    last = rate;
    bin += vsize;
  }
  if (bin > 0) out.push([round(last), bin]);
  return out;
}

export const FEE_TARGETS = [...Array.from({ length: 25 }, (_, i) => i + 1), 144, 504, 1008];

/**
 * Feerate (sat/vB) to confirm within each target, from the mempool: the cheapest rate still in
 * the target's projected block when the mempool fills that many blocks, else the relay floor
 * raised by what recent blocks charged at the margin (the lowest rate they included, for the
 * short targets that still compete with new arrivals).
 */
export function feeEstimates(mempool: readonly ChainTx[], recentMinFeerates: readonly number[]): Record<string, number> {
  const blocks = projectBlocks(mempool, 30);
  const recent = [...recentMinFeerates].sort((a, b) => a - b);
  const recentMedian = recent.length ? recent[Math.floor(recent.length / 2)]! : MIN_RELAY_FEERATE;
  const out: Record<string, number> = {};
  let prev = Infinity;
  for (const n of FEE_TARGETS) {
    const block = blocks[n - 1];
    const full = block && n < blocks.length; // a later block exists: this one is full
    let rate = full ? feerateOf(block.txs[block.txs.length - 1]!) : MIN_RELAY_FEERATE;
    if (!full && n <= 3) rate = Math.max(rate, recentMedian);
    rate = Math.min(prev, Math.max(MIN_RELAY_FEERATE, rate));
    prev = rate;
    out[String(n)] = round(rate);
  }
  return out;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
