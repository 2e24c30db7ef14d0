/** Mempool projection and recommendations on a histogram worked out by hand. */
import { describe, expect, it } from 'vitest';
import { TestChain } from '../../../indexer/bitcoin/test-chain.js';
import type { BitcoinSource } from '../../../chain/bitcoin.js';
import { BitcoinIndexer } from '../../../indexer/bitcoin/indexer.js';
import { arrivalsFloor, blockCapacity, clearingFeerates, congestionLevel, feerateFor, mempoolIntelligence, projectBlocks } from './engine.js';

// Buckets (sat/vB, vB): ≥50: 400; [20,50): 800; [10,20): 1,200; [2,10): 600 — 3,000 vB in 30 transactions.
const MEMPOOL = { count: 30, vsize: 3000, total_fee: 0, fee_histogram: [[50, 400], [20, 800], [10, 1200], [2, 600]] as [number, number][] };

describe('mempool projection', () => {
  it('learns the block capacity from the fullest recent block', () => {
    expect(blockCapacity([{ weight: 2000 }, { weight: 3999 }, { weight: 40 }])).toBe(1000);
  });

  it('cuts the histogram into blocks of the capacity, highest feerate first', () => {
    const blocks = projectBlocks(MEMPOOL, 1000);
    // 1: 400@50 + 600@20; 2: 200@20 + 800@10; 3: 400@10 + 600@2.
    expect(blocks.map((b) => [b.vsize, b.feerateRange, b.medianFeerate])).toEqual([
      [1000, [20, 50], 20],
      [1000, [10, 20], 10],
      [1000, [2, 10], 2],
    ]);
    expect(blocks[0]).toMatchObject({ index: 1, txCount: null, txCountEstimate: 10 });
    expect(projectBlocks(MEMPOOL, 1000, 2)).toHaveLength(2);
    expect(projectBlocks(MEMPOOL, 2500).map((b) => b.vsize)).toEqual([2500, 500]);
  });

  it('recommends the feerate where what pays more fills the target blocks', () => {
    // 1 block: 400 vB above 50, then 600 of the 800 in [20,50) fit: 50 - 0.75 × 30.
    expect(feerateFor(MEMPOOL, 1000, 1)).toBeCloseTo(27.5, 10);
    // 2 blocks: 1,200 above 20, then 800 of the 1,200 in [10,20): 20 - 2/3 × 10.
    expect(feerateFor(MEMPOOL, 1000, 2)).toBeCloseTo(40 / 3, 10);
    // 3 blocks hold the whole mempool: the relay floor.
    expect(feerateFor(MEMPOOL, 1000, 3)).toBe(1);
    expect(feerateFor({ ...MEMPOOL, fee_histogram: [] }, 1000, 1)).toBe(1);
  });

  it('names congestion by backlog', () => {
    expect([0.5, 1, 2.9, 3, 11, 12].map(congestionLevel)).toEqual(['clear', 'busy', 'busy', 'congested', 'congested', 'severe']);
  });

  it('answers from the API: capacity from recent blocks, server estimates beside ours', async () => {
    const chain = new TestChain([0, 1, 2].map((i) => ({ time: 1_700_000_000 + 600 * i, weight: i === 1 ? 4000 : 2000, txs: [{ outputs: [{ address: 'M', value: 1 }] }] })));
    chain.mempoolAnswer = MEMPOOL;
    chain.estimates = { '1': 30, '2': 15, '3': 2, '6': 1, '144': 1 };
    const bitcoin: BitcoinSource = { kind: 'embedded', esplora: chain, prices: { source: 'test', at: () => null }, entities: [] };
    const a = await mempoolIntelligence(bitcoin, 2);
    expect(a.blockCapacityVsize).toBe(1000);
    expect(a.capacityFrom).toEqual({ blocks: 3, fullestHeight: 1 });
    expect(a.congestion).toEqual({ level: 'congested', backlogBlocks: 3, recentAverageBlockVsize: 667, recentFullnessPct: 66.7, backlogVsRecentAverage: 4.5 });
    // Without an index the blocks' feerates are unknown: the mempool alone decides.
    expect(a.recommendations).toEqual([
      { targetBlocks: 1, feerate: 27.5, fromMempool: 27.5, fromRecentBlocks: null, serverEstimate: 30 },
      { targetBlocks: 2, feerate: 13.33, fromMempool: 13.33, fromRecentBlocks: null, serverEstimate: 15 },
      { targetBlocks: 3, feerate: 1, fromMempool: 1, fromRecentBlocks: null, serverEstimate: 2 },
      { targetBlocks: 6, feerate: 1, fromMempool: 1, fromRecentBlocks: null, serverEstimate: 1 },
      { targetBlocks: 144, feerate: 1, fromMempool: 1, fromRecentBlocks: null, serverEstimate: 1 },
    ]);
    expect(a.projectedBlocks).toHaveLength(2);
    expect(a.projectedBlocksTotal).toBe(3);
    expect(a.provenance).toMatchObject({ source: 'embedded', esplora: 'test://chain', asOf: { height: 2, hash: chain.main[2] }, blockRange: { from: 0, to: 2 } });
  });

  it('raises the floor to what recent full blocks cleared at, less for longer targets', () => {
    const blocks = [
      { height: 1, weight: 4000, time: 0, txCount: 5, minFeerate: 8 }, // full: cleared at 8
      { height: 2, weight: 3800, time: 0, txCount: 5, minFeerate: 4 }, // 950 vB > 1,000 - 100: full
      { height: 3, weight: 2000, time: 0, txCount: 2, minFeerate: 30 }, // room left: the floor
      { height: 4, weight: 4000, time: 0, txCount: 1, minFeerate: null }, // coinbase only
    ];
    expect(clearingFeerates(blocks, 1000, 100)).toEqual([8, 4, 1, 1]);
    expect(clearingFeerates([{ ...blocks[0]!, minFeerate: undefined }], 1000, 100)).toBeNull();
    // Ten blocks cleared at 1..10: one block must take it with p 0.9 (the 9th value); 4 blocks count as √4 = 2 draws, quantile 1 - 0.1^(1/2) = 0.684 (the 7th);
    // 144 as 12 draws, quantile 1 - 0.1^(1/12) = 0.175 (the 2nd).
    const ten = [5, 3, 9, 1, 7, 2, 10, 4, 8, 6];
    expect(arrivalsFloor(ten, 1)).toBe(9);
    expect(arrivalsFloor(ten, 4)).toBe(7);
    expect(arrivalsFloor(ten, 144)).toBe(2);
    expect(arrivalsFloor([], 1)).toBe(1);
  });

  it('with an index at the tip: recent blocks\' clearing feerates beside the mempool', async () => {
    // Three full blocks (1,000 vB: a coinbase and one 680 vB transaction paying 3, 5 and 7 sat/vB), the mempool nearly empty.
    const chain = new TestChain([{ time: 1_700_000_000, txs: [{ name: 'cb', outputs: [{ address: 'M', value: 3_000_000 }] }] }]);
    for (const [i, rate] of [3, 5, 7].entries()) {
      chain.mine({ time: 1_700_000_600 + 600 * i, weight: 4000, txs: [{ outputs: [{ address: 'M', value: 1 }] }, { name: `t${i}`, spends: [i === 0 ? 'cb:0' : `t${i - 1}:0`], weight: 2720, outputs: [{ address: 'M', value: 3_000_000 - 680 * [3, 8, 15][i]! }] }] });
    }
    chain.mempoolAnswer = { count: 1, vsize: 150, total_fee: 300, fee_histogram: [[2, 150]] };
    const index = new BitcoinIndexer({ esplora: chain, prices: { source: 'test', at: () => null }, entities: [] });
    await index.sync();
    const a = await mempoolIntelligence({ kind: 'embedded', esplora: chain, prices: { source: 'test', at: () => null }, entities: [], index }, 5);
    expect(index.blocks().slice(1).map((b) => b.feerate!.min)).toEqual([3, 5, 7]);
    // Clearing: 1 (the first block had room), 3, 5, 7. Quantile 1 - 0.1^(1/√N): N=1 0.9 → 4th of four (7); N=2 0.804 → 4th (7); N=3 0.736 → 3rd (5);
    // N=6 0.609 → 3rd (5); N=144 0.175 → 1st (1).
    expect(a.recommendations.map((r) => [r.targetBlocks, r.fromMempool, r.fromRecentBlocks, r.feerate])).toEqual([[1, 1, 7, 7], [2, 1, 7, 7], [3, 1, 5, 5], [6, 1, 5, 5], [144, 1, 1, 1]]);
    expect(a.capacityFrom.blocks).toBe(4);
  });
});
