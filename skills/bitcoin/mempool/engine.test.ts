/** Mempool projection and recommendations on a histogram worked out by hand. */
import { describe, expect, it } from 'vitest';
import { TestChain } from '../../../indexer/bitcoin/test-chain.js';
import type { BitcoinSource } from '../../../chain/bitcoin.js';
import { BitcoinIndexer } from '../../../indexer/bitcoin/indexer.js';
import { arrivalsFloor, blockCapacity, clearingFeerates, congestionLevel, feerateFor, mempoolIntelligence, projectBlocks } from './engine.js';
import { bitcoinMempoolSkill } from './mempool.js';

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

  it('names congestion by backlog when the next block costs twice the chain\'s usual or more; busy below that', () => {
    expect([0.5, 1, 2.9, 3, 11, 12].map((b) => congestionLevel(b, 2))).toEqual(['clear', 'busy', 'busy', 'congested', 'congested', 'severe']);
    expect([0.5, 1, 2.9, 3, 11, 12].map((b) => congestionLevel(b, 1.99))).toEqual(['clear', 'busy', 'busy', 'busy', 'busy', 'busy']);
  });

  it('answers from the API: capacity from recent blocks, server estimates beside ours', async () => {
    const chain = new TestChain([0, 1, 2].map((i) => ({ time: 1_700_000_000 + 600 * i, weight: i === 1 ? 4000 : 2000, txs: [{ outputs: [{ address: 'M', value: 1 }] }] })));
    chain.mempoolAnswer = MEMPOOL;
    chain.estimates = { '1': 30, '2': 15, '3': 2, '6': 1, '144': 1 };
    const bitcoin: BitcoinSource = { kind: 'embedded', esplora: chain, prices: { source: 'test', at: () => null }, entities: [] };
    const a = await mempoolIntelligence(bitcoin, 2);
    expect(a.blockCapacityVsize).toBe(1000);
    expect(a.capacityFrom).toEqual({ blocks: 3, fullestHeight: 1 });
    // The next block clears at 27.5 sat/vB; without the index the blocks' feerates are unknown: against the 1 sat/vB floor.
    expect(a.congestion).toEqual({
      level: 'congested', backlogBlocks: 3, recentAverageBlockVsize: 667, recentFullnessPct: 66.7, backlogVsRecentAverage: 4.5,
      nextBlockFeerate: 27.5, typicalFeerate: null, baselineFeerate: 1, feePremium: 27.5, baseline: expect.stringContaining('relay floor'),
    });
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

/**
 * Congestion is relative to the chain's own blocks and fees, and a stale tip is said (found before:
 * "Bitcoin mempool congested, pay 1.5 sat/vB" on blocks of 981 vB with the tip 18 minutes old).
 * A queue the next block clears at less than twice what the chain usually clears at is busy, not
 * congested; the tip's age is always stated, and flagged stale past twice the 10-minute target.
 */
describe('congestion against the chain\'s own scale, and the tip\'s age', () => {
  const T0 = 1_700_000_000;
  /** Blocks of 981 vB (weight 3,924), ten minutes apart, read from the API alone. */
  function apiChain(mempool: { count: number; vsize: number; total_fee: number; fee_histogram: [number, number][] }) {
    const chain = new TestChain([0, 1, 2, 3].map((i) => ({ time: T0 + 600 * i, weight: 3924, txs: [{ outputs: [{ address: 'M', value: 1 }] }] })));
    chain.mempoolAnswer = mempool;
    return { chain, tipTime: T0 + 1_800, bitcoin: { kind: 'embedded', esplora: chain, prices: { source: 'test', at: () => null }, entities: [] } as BitcoinSource };
  }
  // 3,281 vB waiting (3.34 blocks of 981 vB): one block's worth at 1.5 sat/vB, the rest at the 1 sat/vB floor.
  const FLOOR_QUEUE = { count: 33, vsize: 3281, total_fee: 0, fee_histogram: [[1.5, 981], [1, 2300]] as [number, number][] };

  it('the issue\'s case: 3.3 blocks of backlog the next block clears at 1.5 sat/vB is busy, not congested; the 18-minute-old tip is said', async () => {
    const { bitcoin, tipTime } = apiChain(FLOOR_QUEUE);
    const a = await mempoolIntelligence(bitcoin, 3, { now: (tipTime + 18 * 60) * 1000 });
    expect(a.blockCapacityVsize).toBe(981);
    expect(a.congestion).toMatchObject({ backlogBlocks: 3.34, nextBlockFeerate: 1.5, typicalFeerate: null, baselineFeerate: 1, feePremium: 1.5 });
    expect(a.congestion.level).toBe('busy');
    expect(a.tip).toEqual({ height: 3, time: new Date(tipTime * 1000).toISOString(), ageSeconds: 1_080, targetSeconds: 600, staleAfterSeconds: 1_200, stale: false });
    const text = bitcoinMempoolSkill.summarize!({ ...a, ...a.provenance } as never);
    expect(text).not.toMatch(/congested/);
    expect(text).toMatch(/^Bitcoin mempool busy: /);
    expect(text).toContain('blocks of 981 vB');
    expect(text).toContain('tip 18 min old');
    expect(text).not.toContain('stale');
  });

  it('past twice the target interval the tip is stale, and the summary says so first', async () => {
    const { bitcoin, tipTime } = apiChain(FLOOR_QUEUE);
    const fresh = await mempoolIntelligence(bitcoin, 3, { now: (tipTime + 1_200) * 1000 });
    expect(fresh.tip).toMatchObject({ ageSeconds: 1_200, stale: false });
    const stale = await mempoolIntelligence(bitcoin, 3, { now: (tipTime + 1_201) * 1000 });
    expect(stale.tip).toMatchObject({ ageSeconds: 1_201, stale: true });
    const text = bitcoinMempoolSkill.summarize!({ ...stale, ...stale.provenance } as never);
    expect(text).toMatch(/^Stale: the Bitcoin tip \(height 3\) is 20 min old, over twice the 10-minute block target/);
  });

  it('with the index at the tip, the baseline is the median feerate the chain\'s recent blocks cleared at: twice it and more over 3 blocks of backlog is congested, less is busy', async () => {
    // As above: blocks cleared at 1 (room left), 3, 5 and 7 sat/vB: the median is 4.
    const chain = new TestChain([{ time: T0, txs: [{ name: 'cb', outputs: [{ address: 'M', value: 3_000_000 }] }] }]);
    for (const [i, rate] of [3, 5, 7].entries()) {
      chain.mine({ time: T0 + 600 + 600 * i, weight: 4000, txs: [{ outputs: [{ address: 'M', value: 1 }] }, { name: `t${i}`, spends: [i === 0 ? 'cb:0' : `t${i - 1}:0`], weight: 2720, outputs: [{ address: 'M', value: 3_000_000 - 680 * [3, 8, 15][i]! }] }] });
      expect(rate).toBeGreaterThan(0);
    }
    const index = new BitcoinIndexer({ esplora: chain, prices: { source: 'test', at: () => null }, entities: [] });
    await index.sync();
    const bitcoin: BitcoinSource = { kind: 'embedded', esplora: chain, prices: { source: 'test', at: () => null }, entities: [], index };
    const now = (T0 + 1_800 + 60) * 1000;
    // 3,500 vB (3.5 blocks of 1,000): the top block's worth at 8 sat/vB, the rest at 2.
    chain.mempoolAnswer = { count: 35, vsize: 3500, total_fee: 0, fee_histogram: [[8, 1000], [2, 2500]] };
    const hot = await mempoolIntelligence(bitcoin, 3, { now });
    expect(hot.congestion).toMatchObject({ backlogBlocks: 3.5, nextBlockFeerate: 8, typicalFeerate: 4, baselineFeerate: 4, feePremium: 2, level: 'congested' });
    // The same queue bidding 7.9 at the top: under twice the chain's usual, busy.
    chain.mempoolAnswer = { count: 35, vsize: 3500, total_fee: 0, fee_histogram: [[7.9, 1000], [2, 2500]] };
    const usual = await mempoolIntelligence(bitcoin, 3, { now });
    expect(usual.congestion).toMatchObject({ nextBlockFeerate: 7.9, typicalFeerate: 4, level: 'busy' });
    // Twelve blocks of backlog at twice the usual: severe; under one block: clear whatever it pays.
    chain.mempoolAnswer = { count: 120, vsize: 12_000, total_fee: 0, fee_histogram: [[9, 1000], [2, 11_000]] };
    expect((await mempoolIntelligence(bitcoin, 3, { now })).congestion.level).toBe('severe');
    chain.mempoolAnswer = { count: 9, vsize: 999, total_fee: 0, fee_histogram: [[50, 999]] };
    expect((await mempoolIntelligence(bitcoin, 3, { now })).congestion.level).toBe('clear');
  });
});
