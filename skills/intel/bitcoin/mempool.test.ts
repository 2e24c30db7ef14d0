/** Mempool projection and recommendations on a histogram worked out by hand. */
import { describe, expect, it } from 'vitest';
import { TestChain } from '../../../indexer/bitcoin/test-chain.js';
import type { BitcoinSource } from '../../bitcoin/source.js';
import { blockCapacity, congestionLevel, feerateFor, mempoolIntelligence, projectBlocks } from './mempool.js';

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
    expect(a.recommendations).toEqual([
      { targetBlocks: 1, feerate: 27.5, serverEstimate: 30 },
      { targetBlocks: 2, feerate: 13.33, serverEstimate: 15 },
      { targetBlocks: 3, feerate: 1, serverEstimate: 2 },
      { targetBlocks: 6, feerate: 1, serverEstimate: 1 },
      { targetBlocks: 144, feerate: 1, serverEstimate: 1 },
    ]);
    expect(a.projectedBlocks).toHaveLength(2);
    expect(a.projectedBlocksTotal).toBe(3);
    expect(a.provenance).toMatchObject({ source: 'embedded', esplora: 'test://chain', asOf: { height: 2, hash: chain.main[2] }, blockRange: { from: 0, to: 2 } });
  });
});
