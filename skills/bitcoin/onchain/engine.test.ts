/**
 * On-chain analytics and the cycle position on the hand-written chain of the index's tests
 * (test/bitcoin/indexer.test.ts), every figure worked out by hand from its four blocks.
 */
import { describe, expect, it } from 'vitest';
import { BitcoinIndexer } from '../../../indexer/bitcoin/indexer.js';
import { TestChain, type TestBlock } from '../../../indexer/bitcoin/test-chain.js';
import type { BitcoinSource, BtcPrices } from '../../../chain/bitcoin.js';
import { cyclePosition, flowSignal, mvrvSignal } from '../cycle/engine.js';
import { coinAgeBands, onchainAnalytics } from './engine.js';

const BTC = 100_000_000;
const DAY = 86_400;
const T0 = Date.UTC(2024, 0, 1) / 1000;
const T1 = T0 + 200 * DAY;
const T2 = T1 + 3600;
const T3 = T0 + 400 * DAY;
const prices: BtcPrices = { source: 'test prices', at: (t) => (t >= T3 ? 500 : t >= T2 ? 200 : t >= T1 ? 300 : 100) };
const entities = [{ name: 'Binance', kind: 'exchange' as const, addresses: ['X'] }];

const BLOCKS: TestBlock[] = [
  { time: T0, txs: [{ name: 'cb0', outputs: [{ address: 'A', value: 40 * BTC }, { address: 'D', value: 10 * BTC }] }] },
  { time: T1, txs: [{ name: 'cb1', outputs: [{ address: 'M', value: 50 * BTC + 10_000 }] }, { name: 'tx1', spends: ['cb0:0'], outputs: [{ address: 'B', value: 30 * BTC }, { address: 'A', value: 10 * BTC - 10_000 }] }] },
  { time: T2, txs: [{ name: 'cb2', outputs: [{ address: 'M2', value: 50 * BTC + 5_000 }] }, { name: 'tx2', spends: ['tx1:0'], outputs: [{ address: 'X', value: 30 * BTC - 5_000 }] }] },
  { time: T3, txs: [{ name: 'cb3', outputs: [{ address: 'M', value: 50 * BTC + 1_000 }] }, { name: 'tx3', spends: ['tx2:0'], outputs: [{ address: 'C', value: 20 * BTC }, { address: 'X', value: 10 * BTC - 6_000 }] }] },
];

async function source(o: { prices?: BtcPrices; from?: { blocksBehindTip: number } } = {}): Promise<BitcoinSource> {
  const chain = new TestChain(BLOCKS);
  const index = new BitcoinIndexer({ esplora: chain, prices: o.prices ?? prices, entities, from: o.from });
  await index.sync();
  return { kind: 'embedded', esplora: chain, prices: o.prices ?? prices, entities, index };
}

// After block 3: supply 200 BTC; realised 10@100 + 60@300 + 50.00005@200 + (20 + 9.99994 + 50.00001)@500.
const REALIZED = 1_000 + 18_000 + 10_000.01 + 39_999.975;

describe('on-chain analytics', () => {
  it('values the UTXO set: realised cap, MVRV, realised price', async () => {
    const a = onchainAnalytics(await source(), 10);
    expect(a.priceUsd).toBe(500);
    expect(a.supplyBtc).toBe(200);
    expect(a.utxoCount).toBe(7);
    expect(a.valuation).toEqual({ available: true, realizedCap: Math.round(REALIZED * 100) / 100, marketCap: 100_000, mvrv: Math.round((100_000 / REALIZED) * 1e4) / 1e4, realizedPrice: Math.round((REALIZED / 200) * 100) / 100 });
    expect(a.provenance).toMatchObject({ source: 'embedded', chain: 'bitcoin', esplora: 'test://chain', asOf: { height: 3 }, blockRange: { from: 0, to: 3 }, priceSource: 'test prices' });
    expect(a.daily.map((d) => [d.day, d.complete, d.marketCap, d.mvrv])).toEqual([
      ['2024-01-01', true, 5_000, 1],
      ['2024-07-19', true, 30_000, Math.round((30_000 / 35_000) * 1e4) / 1e4],
      ['2025-02-04', false, 100_000, Math.round((100_000 / REALIZED) * 1e4) / 1e4],
    ]);
  });

  it('gives SOPR per day and for long- and short-term holders', async () => {
    const a = onchainAnalytics(await source(), 2);
    if (!a.sopr.available) throw new Error('sopr unavailable');
    // 2024-07-19: 40 BTC (200 d old) bought at 100 sold at 300; 30 BTC (1 h) bought at 300 sold at 200. 2025-02-04: 29.99995 BTC bought at 200 sold at 500.
    expect(a.sopr.daily).toEqual([
      { day: '2024-07-19', complete: true, sopr: Math.round((18_000 / 13_000) * 1e4) / 1e4, longTermSopr: 3, shortTermSopr: Math.round((6_000 / 9_000) * 1e4) / 1e4, spentBtc: 70 },
      { day: '2025-02-04', complete: false, sopr: 2.5, longTermSopr: 2.5, shortTermSopr: null, spentBtc: 29.99995 },
    ]);
  });

  it('bands the supply by age with each band\'s realised price', async () => {
    const a = onchainAnalytics(await source(), 10);
    if (!a.coinAgeBands.available) throw new Error('bands unavailable');
    const bands = Object.fromEntries(a.coinAgeBands.bands.filter((b) => b.outputs > 0).map((b) => [b.band, [b.supplyBtc, b.realizedPrice]]));
    expect(bands).toEqual({
      '<1d': [79.99995, 500],
      '6m-12m': [110.00005, Math.round((28_000.01 / 110.00005) * 100) / 100],
      '1y-2y': [10, 100],
    });
    expect(a.coinAgeBands.bands.find((b) => b.band === '6m-12m')!.sharePct).toBeCloseTo(55.000025, 3);
    expect(a.coinAgeBands.bands).toHaveLength(12);
    expect(coinAgeBands([{ txid: 't', vout: 0, value: BTC, address: null, height: 0, time: 0, price: null, coinbase: true }], 11 * 365 * DAY).at(-1)).toEqual({ band: '>10y', supplyBtc: 1, sharePct: 100, outputs: 1, realizedPrice: null });
  });

  it('sums exchange flows over the last 7 days and by day', async () => {
    const a = onchainAnalytics(await source(), 10);
    expect(a.exchangeFlows.exchanges).toEqual(['Binance']);
    expect(a.exchangeFlows.last7d).toEqual({ from: '2024-01-01', to: '2025-02-04', inflowBtc: 29.99995, outflowBtc: 20.00001, netBtc: 9.99994, byExchange: [{ exchange: 'Binance', inflowBtc: 29.99995, outflowBtc: 20.00001, netBtc: 9.99994 }] });
    expect(a.exchangeFlows.daily.map((d) => d.netBtc)).toEqual([0, 29.99995, -20.00001]);
  });

  it('says what it cannot give: a partial UTXO set, no prices', async () => {
    const partial = onchainAnalytics(await source({ from: { blocksBehindTip: 1 } }), 10);
    expect(partial.valuation).toEqual({ available: false, reason: 'utxo_set_partial' });
    expect(partial.sopr).toEqual({ available: false, reason: 'utxo_set_partial' });
    expect(partial.coinAgeBands).toEqual({ available: false, reason: 'utxo_set_partial' });
    expect(partial.exchangeFlows.last7d.inflowBtc).toBe(29.99995);
    expect(partial.daily.every((d) => d.realizedCap === null && d.mvrv === null)).toBe(true);
    const unpriced = onchainAnalytics(await source({ prices: { source: 'none', at: () => null } }), 10);
    expect(unpriced.valuation).toEqual({ available: false, reason: 'no_price_history' });
    expect(unpriced.priceUsd).toBeNull();
  });
});

describe('cycle position', () => {
  it('places MVRV in its band, with the last complete day\'s activity', async () => {
    const r = cyclePosition(await source());
    expect(r).toMatchObject({
      available: true,
      stale: false,
      mvrv: { value: Math.round((100_000 / REALIZED) * 1e4) / 1e4, signal: 'neutral', trend7d: null },
      realizedCap: Math.round(REALIZED * 100) / 100,
      marketCap: 100_000,
      priceUsd: 500,
      // The last complete day is 2024-07-19.
      day: '2024-07-19',
      activeAddresses: 5,
      txCount: 4,
      txVolume: 59.99995,
      minerRevenue: 100.00015,
      totalFees: 0.00015,
      dormantSupplyPct: 5,
      exchangeFlow: { inflow: 29.99995, outflow: 0, net: 29.99995, signal: 'net_inflow' },
    });
    // NVT: market cap / mean daily USD volume of the complete days (0 on 2024-01-01, 59.99995 BTC at 200 on 2024-07-19).
    expect(r.nvt).toBeCloseTo(100_000 / ((59.99995 * 200) / 2), 2);
    // Days within a year of the tip.
    expect(r.timeSeries).toEqual([
      { time: '2024-07-19T00:00:00.000Z', marketCap: 30_000, mvrv: Math.round((30_000 / 35_000) * 1e4) / 1e4, activeAddresses: 5, txCount: 4 },
      { time: '2025-02-04T00:00:00.000Z', marketCap: 100_000, mvrv: Math.round((100_000 / REALIZED) * 1e4) / 1e4, activeAddresses: 3, txCount: 2 }, // M, X, C
    ]);
    expect(new Date(r.fetchedAt as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('names bands and flow signals at their bounds, and answers unavailable without data', async () => {
    expect([0.99, 1, 2.39, 2.4, 3.69, 3.7, 10].map(mvrvSignal)).toEqual(['undervalued', 'neutral', 'neutral', 'heated', 'heated', 'overheated', 'overheated']);
    expect([flowSignal(100, 96), flowSignal(100, 80), flowSignal(80, 100), flowSignal(0, 0)]).toEqual(['balanced', 'net_inflow', 'net_outflow', 'balanced']);
    expect(cyclePosition(undefined)).toMatchObject({ available: false, reason: 'domain_disabled' });
    const s = await source();
    expect(cyclePosition({ ...s, index: undefined })).toMatchObject({ available: false, reason: 'index_not_ready' });
    expect(cyclePosition(await source({ from: { blocksBehindTip: 1 } }))).toMatchObject({ available: false, reason: 'utxo_set_partial' });
    expect(cyclePosition(s, Date.now() + 120_000)).toMatchObject({ available: true, stale: true });
  });
});
