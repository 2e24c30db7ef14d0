/**
 * Mempool intelligence from the Esplora API alone: the mempool's feerate histogram cut into
 * projected blocks of the chain's own block capacity (learnt from the fullest recent block, so a
 * real chain gives ~1M vB and a scaled one its own), the feerate to pay to be in the first N of
 * them, congestion relative to the chain's own scale (backlog in blocks of its own capacity, and
 * what the next block costs against the feerate its recent blocks cleared at), the tip's age
 * (stale past twice the block target), and the server's own /fee-estimates beside ours.
 */
import type { EsploraMempool } from '../../../chain/esplora.js';
import type { BitcoinSource } from '../../../chain/bitcoin.js';
import { vsizeOf } from '../../../indexer/bitcoin/ledger.js';
import { iso, type BitcoinProvenance } from '../../../indexer/bitcoin/provenance.js';

export const FEE_TARGETS = [1, 2, 3, 6, 144] as const;
/** Recent blocks whose weights teach the block capacity and the recent average. */
export const RECENT_BLOCKS = 144;
/** Read through the API when no index is given (a past height, or no index): fewer, to stay quick. */
export const RECENT_BLOCKS_API = 12;
/** Nobody relays below this (Bitcoin Core's default minimum relay feerate, sat/vB). */
export const MIN_RELAY_FEERATE = 1;
/** Bitcoin's block target (seconds); the world mines at the same mean (world/bitcoin/economy.ts). */
export const TARGET_BLOCK_SECONDS = 600;
/**
 * A tip older than this many targets is stale. Blocks come as a Poisson process: a healthy chain
 * goes past 2 targets without a block about one time in 7.4 (e^-2), so stale says "blocks are late
 * or the node is behind: the backlog has grown since and confirmations take longer", not "broken".
 */
export const STALE_AFTER_TARGETS = 2;
/** A queue is congested only when the next block costs at least this many times the chain's usual clearing feerate. */
export const CONGESTED_FEE_PREMIUM = 2;

/** Recent blocks whose clearing feerates say what new arrivals will compete at. */
export const CLEARING_BLOCKS = 12;
/** The chance of confirming within the target that the arrivals' floor aims at. */
export const CONFIDENCE = 0.9;

export const MEMPOOL_METHODOLOGY =
  'sibyl bitcoin-mempool v2: the Esplora /mempool fee_histogram ([feerate, vsize], each bucket holding transactions paying at least its feerate and less than the bucket above) filled highest feerate first into projected blocks of the chain\'s block capacity (the fullest of the recent blocks\' weights / 4); ' +
  'recommendation for N blocks: the higher of (a) the feerate at which the vsize already waiting and paying more reaches N blocks (interpolated inside the bucket that crosses it; the minimum relay feerate when the whole mempool fits) and ' +
  `(b) for transactions still to arrive, the feerate that cleared recent blocks: each of the last ${CLEARING_BLOCKS} blocks cleared at its lowest included feerate when full (no room for a mean transaction), at the relay floor when not; ` +
  `the quantile 1 - (1 - ${CONFIDENCE})^(1/√N) of those: at least one of √N independent such blocks would take the transaction with probability ${CONFIDENCE} (√N, not N: congestion lasts, so N blocks in a row are not N independent draws) (needs the index at the tip; from the API alone only (a)); ` +
  'congestion, relative to the chain itself: the backlog in blocks of its capacity (under 1 clear; from 1 busy; from 3 congested; from 12 severe), ' +
  `and congested or severe only when the next block costs at least ${CONGESTED_FEE_PREMIUM}x the chain's usual feerate (the median of what its recent blocks cleared at, as above; the relay floor when the blocks' feerates are unknown), else busy; ` +
  `the tip's age against the ${TARGET_BLOCK_SECONDS / 60}-minute target, stale past ${STALE_AFTER_TARGETS}x.`;

export interface RecentBlock {
  readonly height: number;
  readonly weight: number;
  readonly time: number;
  readonly txCount: number;
  /** Lowest feerate it included (null: coinbase only, or unknown when read from the API alone). */
  readonly minFeerate: number | null | undefined;
}

export interface ProjectedBlock {
  readonly index: number;
  readonly vsize: number;
  /** Lowest and highest feerate in it (bucket bounds; the top bucket's is its own lower bound). */
  readonly feerateRange: [number, number];
  /** Vsize-weighted median of its buckets' feerates. */
  readonly medianFeerate: number;
  /** The histogram carries no counts: null; the estimate divides by the mempool's mean transaction vsize. */
  readonly txCount: null;
  readonly txCountEstimate: number;
}

/** Block capacity in vbytes: the fullest recent block. */
export function blockCapacity(blocks: readonly Pick<RecentBlock, 'weight'>[]): number {
  return vsizeOf(Math.max(...blocks.map((b) => b.weight)));
}

interface Bucket {
  readonly low: number;
  readonly high: number;
  readonly vsize: number;
}

/** Histogram buckets with both bounds (Esplora gives lower bounds, highest first). */
function buckets(histogram: EsploraMempool['fee_histogram']): Bucket[] {
  return histogram.filter(([, v]) => v > 0).map(([low, vsize], i, all) => ({ low, high: i === 0 ? low : all[i - 1]![0], vsize }));
}

/** The mempool cut into blocks of `capacity` vbytes, highest feerate first. */
export function projectBlocks(m: EsploraMempool, capacity: number, maxBlocks = Infinity): ProjectedBlock[] {
  const meanTx = m.count > 0 ? m.vsize / m.count : 0;
  const out: ProjectedBlock[] = [];
  let parts: { rate: number; high: number; vsize: number }[] = [];
  let filled = 0;
  const close = () => {
    if (!parts.length) return;
    const vsize = parts.reduce((s, p) => s + p.vsize, 0);
    let seen = 0, median = parts[0]!.rate;
    for (const p of parts) {
      seen += p.vsize;
      if (seen >= vsize / 2) {
        median = p.rate;
        break;
      }
    }
    // A bucket split across blocks: its part here lies below what the block before took.
    const above = out.at(-1)?.feerateRange[0] ?? Infinity;
    out.push({
      index: out.length + 1,
      vsize,
      feerateRange: [parts.at(-1)!.rate, Math.min(parts[0]!.high, above)],
      medianFeerate: median,
      txCount: null,
      txCountEstimate: meanTx > 0 ? Math.max(1, Math.round(vsize / meanTx)) : 0,
    });
    parts = [];
    filled = 0;
  };
  for (const b of buckets(m.fee_histogram)) {
    let left = b.vsize;
    while (left > 0 && out.length < maxBlocks) {
      const take = Math.min(left, capacity - filled);
      parts.push({ rate: b.low, high: b.high, vsize: take });
      filled += take;
      left -= take;
      if (filled >= capacity) close();
    }
  }
  if (out.length < maxBlocks) close();
  return out;
}

/** The feerate that puts a transaction within the first `target` blocks of `capacity`. */
export function feerateFor(m: EsploraMempool, capacity: number, target: number): number {
  const budget = target * capacity;
  let ahead = 0;
  for (const b of buckets(m.fee_histogram)) {
    if (ahead + b.vsize > budget) {
      // Inside this bucket only its top part fits: interpolate between its bounds (the top bucket has none above: its own floor).
      const fits = (budget - ahead) / b.vsize;
      return Math.max(MIN_RELAY_FEERATE, b.high - fits * (b.high - b.low));
    }
    ahead += b.vsize;
  }
  return MIN_RELAY_FEERATE;
}

/**
 * What each recent block cleared at: its lowest included feerate when it was full (less room
 * left than a mean transaction), the relay floor when it had room; null when unknown.
 */
export function clearingFeerates(blocks: readonly RecentBlock[], capacity: number, meanTxVsize: number): number[] | null {
  if (blocks.some((b) => b.minFeerate === undefined)) return null;
  return blocks.map((b) => (vsizeOf(b.weight) > capacity - meanTxVsize && b.minFeerate !== null ? b.minFeerate! : MIN_RELAY_FEERATE));
}

/**
 * The feerate at which one of `target` blocks like the recent ones would take a transaction with
 * probability CONFIDENCE. Blocks in a row are not independent (a congested hour stays congested):
 * they count as √target independent draws.
 */
export function arrivalsFloor(clearing: readonly number[], target: number): number {
  if (!clearing.length) return MIN_RELAY_FEERATE;
  const q = 1 - (1 - CONFIDENCE) ** (1 / Math.sqrt(target));
  const sorted = [...clearing].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export type CongestionLevel = 'clear' | 'busy' | 'congested' | 'severe';

/**
 * Backlog in blocks of the chain's own capacity: under 1 clear (the next block takes it all),
 * under 3 busy, under 12 congested, else severe; but a queue the next block clears at less than
 * CONGESTED_FEE_PREMIUM times the chain's usual feerate is busy however long it is (it waits at
 * prices the chain clears every day: a sender paying the usual is not held up by it).
 */
export function congestionLevel(backlogBlocks: number, feePremium: number): CongestionLevel {
  if (backlogBlocks < 1) return 'clear';
  if (backlogBlocks < 3 || feePremium < CONGESTED_FEE_PREMIUM) return 'busy';
  return backlogBlocks < 12 ? 'congested' : 'severe';
}

/** The median of the feerates recent blocks cleared at: what the chain usually asks. */
export function typicalFeerate(clearing: readonly number[]): number | null {
  if (!clearing.length) return null;
  const sorted = [...clearing].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** How old the tip is against the block target, and whether that is stale. */
export function tipAge(height: number, timeSeconds: number, nowMs: number) {
  const ageSeconds = Math.max(0, Math.round(nowMs / 1000 - timeSeconds));
  const staleAfterSeconds = STALE_AFTER_TARGETS * TARGET_BLOCK_SECONDS;
  return { height, time: iso(timeSeconds), ageSeconds, targetSeconds: TARGET_BLOCK_SECONDS, staleAfterSeconds, stale: ageSeconds > staleAfterSeconds };
}

/** Recent blocks, oldest first: from the index when it stands at the API's tip, else read through the API. */
async function recentBlocks(bitcoin: BitcoinSource, tipHeight: number, tipHash: string): Promise<RecentBlock[]> {
  const index = bitcoin.index;
  if (index && index.indexedTip()?.hash === tipHash) {
    return index.blocks().slice(-RECENT_BLOCKS).map((b) => ({ height: b.height, weight: b.weight, time: b.time, txCount: b.txCount, minFeerate: b.feerate?.min ?? null }));
  }
  const heights = Array.from({ length: Math.min(RECENT_BLOCKS_API, tipHeight + 1) }, (_, i) => tipHeight - i);
  const blocks = await Promise.all(
    heights.map(async (h) => {
      const hash = h === tipHeight ? tipHash : await bitcoin.esplora.blockHashAt(h);
      return hash ? bitcoin.esplora.block(hash) : null;
    }),
  );
  return blocks.filter((b) => b !== null).map((b) => ({ height: b.height, weight: b.weight, time: b.timestamp, txCount: b.tx_count, minFeerate: undefined })).reverse();
}

export interface MempoolAnswer {
  readonly provenance: BitcoinProvenance;
  readonly blockCapacityVsize: number;
  readonly capacityFrom: { readonly blocks: number; readonly fullestHeight: number };
  readonly mempool: { readonly count: number; readonly vsize: number; readonly totalFee: number };
  readonly congestion: {
    readonly level: CongestionLevel;
    readonly backlogBlocks: number;
    readonly recentAverageBlockVsize: number;
    readonly recentFullnessPct: number;
    readonly backlogVsRecentAverage: number | null;
    readonly nextBlockFeerate: number;
    readonly typicalFeerate: number | null;
    readonly baselineFeerate: number;
    readonly feePremium: number;
    readonly baseline: string;
  };
  readonly tip: ReturnType<typeof tipAge>;
  readonly recommendations: { targetBlocks: number; feerate: number; fromMempool: number; fromRecentBlocks: number | null; serverEstimate: number | null }[];
  readonly projectedBlocks: ProjectedBlock[];
  readonly projectedBlocksTotal: number;
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** The whole answer from the API (and the index's recent blocks when it stands at the tip). */
export async function mempoolIntelligence(bitcoin: BitcoinSource, limit: number, options: { now?: number } = {}): Promise<MempoolAnswer> {
  const { esplora } = bitcoin;
  const [tipHeight, tipHash] = await Promise.all([esplora.tipHeight(), esplora.tipHash()]);
  const [m, estimates, recent, tip] = await Promise.all([esplora.mempool(), esplora.feeEstimates(), recentBlocks(bitcoin, tipHeight, tipHash), esplora.block(tipHash)]);
  const capacity = blockCapacity(recent);
  const fullest = recent.reduce((a, b) => (b.weight > a.weight ? b : a));
  const avgVsize = recent.reduce((s, b) => s + vsizeOf(b.weight), 0) / recent.length;
  const projected = projectBlocks(m, capacity);
  const meanTx = m.count > 0 ? m.vsize / m.count : recent.reduce((s, b) => s + vsizeOf(b.weight), 0) / Math.max(1, recent.reduce((s, b) => s + b.txCount, 0));
  const clearing = clearingFeerates(recent.slice(-CLEARING_BLOCKS), capacity, meanTx);
  const backlog = m.vsize / capacity;
  // What the chain usually clears at: every recent block's clearing feerate (a day of them with the index).
  const typical = typicalFeerate(clearingFeerates(recent, capacity, meanTx) ?? []);
  const baseline = typical ?? MIN_RELAY_FEERATE;
  const nextBlock = feerateFor(m, capacity, 1);
  const premium = nextBlock / baseline;
  return {
    provenance: {
      source: bitcoin.kind,
      chain: 'bitcoin',
      esplora: esplora.baseUrl,
      asOf: { height: tipHeight, hash: tipHash, timestamp: iso(tip?.timestamp ?? 0) },
      blockRange: { from: recent[0]!.height, to: recent.at(-1)!.height },
      index: null,
      priceSource: null,
      methodology: MEMPOOL_METHODOLOGY,
    },
    blockCapacityVsize: capacity,
    capacityFrom: { blocks: recent.length, fullestHeight: fullest.height },
    mempool: { count: m.count, vsize: m.vsize, totalFee: m.total_fee },
    congestion: {
      level: congestionLevel(backlog, premium),
      backlogBlocks: round(backlog),
      recentAverageBlockVsize: Math.round(avgVsize),
      recentFullnessPct: round((100 * avgVsize) / capacity, 1),
      backlogVsRecentAverage: avgVsize > 0 ? round(m.vsize / avgVsize) : null,
      nextBlockFeerate: round(nextBlock),
      typicalFeerate: typical === null ? null : round(typical),
      baselineFeerate: round(baseline),
      feePremium: round(premium),
      baseline: typical === null
        ? `the relay floor (${MIN_RELAY_FEERATE} sat/vB): the recent blocks' feerates are unknown without the index at the tip`
        : `the median feerate the last ${recent.length} blocks cleared at`,
    },
    tip: tipAge(tipHeight, tip?.timestamp ?? 0, options.now ?? Date.now()),
    recommendations: FEE_TARGETS.map((n) => {
      const fromMempool = feerateFor(m, capacity, n);
      const fromRecentBlocks = clearing ? arrivalsFloor(clearing, n) : null;
      return {
        targetBlocks: n,
        feerate: round(Math.max(fromMempool, fromRecentBlocks ?? 0)),
        fromMempool: round(fromMempool),
        fromRecentBlocks: fromRecentBlocks === null ? null : round(fromRecentBlocks),
        serverEstimate: estimates[String(n)] === undefined ? null : round(estimates[String(n)]!),
      };
    }),
    projectedBlocks: projected.slice(0, limit).map((p) => ({ ...p, feerateRange: [round(p.feerateRange[0]), round(p.feerateRange[1])], medianFeerate: round(p.medianFeerate) })),
    projectedBlocksTotal: projected.length,
  };
}
