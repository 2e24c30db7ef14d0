/**
 * The Bitcoin index on a hand-written chain whose figures are worked out by hand below:
 * supply, realised cap, SOPR split at 155 days, exchange flows, volume without change, active
 * addresses, dormant supply, and a reorganisation unwound (observers told to forget).
 */
import { describe, expect, it } from 'vitest';
import { EsploraUnavailableError, type EsploraBlock, type EsploraTx } from '../../chain/esplora.js';
import type { BitcoinTxObserver, BtcPrices } from '../../chain/bitcoin.js';
import { BitcoinIndexer } from '../../indexer/bitcoin/indexer.js';
import { TestChain, type TestBlock } from '../../indexer/bitcoin/test-chain.js';

const BTC = 100_000_000;
const DAY = 86_400;
const T0 = Date.UTC(2024, 0, 1) / 1000;
const T1 = T0 + 200 * DAY;
const T2 = T1 + 3600;
const T3 = T0 + 400 * DAY;

/** BTC/USD by time: 100 at T0, 300 at T1, 200 at T2, 500 from T3. */
const prices: BtcPrices = { source: 'test', at: (t) => (t >= T3 ? 500 : t >= T2 ? 200 : t >= T1 ? 300 : 100) };
const entities = [{ name: 'Binance', kind: 'exchange' as const, addresses: ['X'] }];

const BLOCKS: TestBlock[] = [
  { time: T0, txs: [{ name: 'cb0', outputs: [{ address: 'A', value: 40 * BTC }, { address: 'D', value: 10 * BTC }] }] },
  {
    time: T1,
    txs: [
      { name: 'cb1', outputs: [{ address: 'M', value: 50 * BTC + 10_000 }] },
      // A pays B 30 and keeps 9.9999 as change (fee 10,000 sats).
      { name: 'tx1', spends: ['cb0:0'], outputs: [{ address: 'B', value: 30 * BTC }, { address: 'A', value: 10 * BTC - 10_000 }] },
    ],
  },
  {
    time: T2,
    txs: [
      { name: 'cb2', outputs: [{ address: 'M2', value: 50 * BTC + 5_000 }] },
      // B deposits to the exchange.
      { name: 'tx2', spends: ['tx1:0'], outputs: [{ address: 'X', value: 30 * BTC - 5_000 }, { address: null, value: 0 }] },
    ],
  },
  {
    time: T3,
    txs: [
      { name: 'cb3', outputs: [{ address: 'M', value: 50 * BTC + 1_000 }] },
      // The exchange pays C 20 and keeps 9.99994 (fee 1,000).
      { name: 'tx3', spends: ['tx2:0'], outputs: [{ address: 'C', value: 20 * BTC }, { address: 'X', value: 10 * BTC - 6_000 }] },
    ],
  },
];

class Recorder implements BitcoinTxObserver {
  readonly name = 'recorder';
  seen: number[] = [];
  rewinds: number[] = [];
  onBlock(b: EsploraBlock, txs: readonly EsploraTx[]) {
    expect(txs).toHaveLength(b.tx_count);
    this.seen.push(b.height);
  }
  rewind(h: number) {
    this.rewinds.push(h);
    this.seen = this.seen.filter((x) => x < h);
  }
}

const indexOf = (chain: TestChain, o: Partial<ConstructorParameters<typeof BitcoinIndexer>[0]> = {}) =>
  new BitcoinIndexer({ esplora: chain, prices, entities, ...o });

describe('BitcoinIndexer on a hand-made chain', () => {
  it('keeps supply and realised cap by creation price', async () => {
    const chain = new TestChain(BLOCKS.slice(0, 3));
    const idx = indexOf(chain);
    await idx.sync();
    expect(idx.indexedHeight()).toBe(2);
    expect(idx.utxoSetComplete).toBe(true);
    // 10@100 + (50.0001 + 9.9999)@300 + (50.00005 + 29.99995)@200; the OP_RETURN is not supply.
    expect(idx.supply.sats).toBe(150 * BTC);
    expect(idx.supply.realizedCap).toBeCloseTo(1_000 + 18_000 + 16_000, 6);
    expect(idx.supply.outputs).toBe(5);
    const utxos = [...idx.utxos()];
    expect(utxos.find((u) => u.address === 'D')).toMatchObject({ value: 10 * BTC, height: 0, time: T0, price: 100, coinbase: true });
    expect(idx.syncedAt()).not.toBeNull();
  });

  it('sums days: SOPR split at 155 days, exchange flows, volume without change, active addresses, dormant supply', async () => {
    const idx = indexOf(new TestChain(BLOCKS));
    await idx.sync();
    const days = idx.days();
    expect(days.map((d) => d.day)).toEqual(['2024-01-01', '2024-07-19', '2025-02-04']);
    const [d0, d1, d3] = days as [typeof days[0], typeof days[0], typeof days[0]];
    expect(d0).toMatchObject({ fromHeight: 0, toHeight: 0, txCount: 1, txVolume: 0, supply: 50 * BTC, dormantSupply: 0, activeAddresses: 2 });
    // Day of T1 and T2: cb0:0 (40 BTC, 200 days old: long-term) sold at 300 bought at 100; tx1:0 (30 BTC, 1 h) sold at 200 bought at 300.
    expect(d1.spentLongTerm).toEqual({ sats: 40 * BTC, atSpend: 12_000, atCreation: 4_000, unpriced: 0 });
    expect(d1.spentShortTerm).toEqual({ sats: 30 * BTC, atSpend: 6_000, atCreation: 9_000, unpriced: 0 });
    expect(d1.spent.atSpend / d1.spent.atCreation).toBeCloseTo(18_000 / 13_000, 12);
    expect(d1).toMatchObject({ fromHeight: 1, toHeight: 2, txCount: 4, fees: 15_000, minerRevenue: 100 * BTC + 15_000, priceUsd: 200 });
    // B's 30 (A's change left out) and the deposit; addresses M, A, B, M2, X.
    expect(d1.txVolume).toBe(30 * BTC + 30 * BTC - 5_000);
    expect(d1.activeAddresses).toBe(5);
    expect(d1.exchange).toEqual({ inflow: 30 * BTC - 5_000, outflow: 0, byExchange: { Binance: { inflow: 30 * BTC - 5_000, outflow: 0 } } });
    expect(d1.dormantSupply).toBe(0);
    // T3: the exchange's 29.99995 left for C 20 and change 9.99994: outflow 20.00001 (fee included); the spent coin was 200 days old.
    expect(d3.exchange.byExchange).toEqual({ Binance: { inflow: 0, outflow: 20 * BTC + 1_000 } });
    expect(d3.spentLongTerm.atSpend).toBeCloseTo(((30 * BTC - 5_000) / BTC) * 500, 9);
    expect(d3.spentLongTerm.atCreation).toBeCloseTo(((30 * BTC - 5_000) / BTC) * 200, 9);
    expect(d3.txVolume).toBe(20 * BTC);
    // D's 10 BTC from T0 is over a year old at T3.
    expect(d3.dormantSupply).toBe(10 * BTC);
    expect(d3.supply).toBe(200 * BTC);
    expect(d3.realizedCap).toBeCloseTo(35_000 - 5_999.99 + 10_000 + 4_999.97 + 25_000.005, 6);
    const tip = idx.indexedTip()!;
    expect(tip).toMatchObject({ height: 3, txCount: 2, fees: 1_000, minerRevenue: 50 * BTC + 1_000 });
    expect(tip.feerate).toEqual({ min: 5, median: 5, max: 5 }); // 1,000 sats / 200 vB
  });

  it('unwinds a reorganisation and tells observers to forget from the fork', async () => {
    const chain = new TestChain(BLOCKS);
    const rec = new Recorder();
    const idx = indexOf(chain, { observers: [rec] });
    await idx.sync();
    expect(rec.seen).toEqual([0, 1, 2, 3]);
    expect(idx.observer<Recorder>('recorder')).toBe(rec);
    expect(idx.observer('nobody')).toBeUndefined();
    // Block 3 is replaced: tx3 never happened, two new coinbases at 500.
    chain.reorg(3);
    chain.mine({ time: T3, salt: 'b', txs: [{ name: 'cb3b', outputs: [{ address: 'N', value: 50 * BTC }] }] });
    chain.mine({ time: T3 + 600, txs: [{ name: 'cb4b', outputs: [{ address: 'N', value: 50 * BTC }] }] });
    await idx.sync();
    expect(idx.reorgs).toBe(1);
    expect(rec.rewinds).toEqual([3]);
    expect(rec.seen).toEqual([0, 1, 2, 3, 4]);
    expect(idx.indexedTip()!.hash).toBe(chain.main[4]);
    expect(idx.supply.sats).toBe(250 * BTC);
    expect(idx.supply.realizedCap).toBeCloseTo(35_000 + 50_000, 6);
    expect([...idx.utxos()].some((u) => u.address === 'C')).toBe(false);
    expect(idx.days().at(-1)!.exchange.outflow).toBe(0);
    // The same chain read from scratch gives the same state.
    const fresh = indexOf(chain);
    await fresh.sync();
    expect(fresh.supply).toEqual(idx.supply);
    expect(fresh.days()).toEqual(idx.days());
  });

  it('unwinds a tip replaced by a shorter branch, and rebuilds past its undo depth', async () => {
    const chain = new TestChain(BLOCKS);
    const rec = new Recorder();
    const idx = indexOf(chain, { observers: [rec], reorgDepth: 1 });
    await idx.sync();
    // Blocks 2 and 3 replaced by one block: deeper than the one block of undo data kept.
    chain.reorg(2);
    chain.mine({ time: T2, salt: 'c', txs: [{ name: 'cb2c', outputs: [{ address: 'Q', value: 50 * BTC }] }] });
    await idx.sync();
    expect(rec.rewinds).toEqual([0]);
    expect(rec.seen).toEqual([0, 1, 2]);
    expect(idx.indexedHeight()).toBe(2);
    expect(idx.supply.sats).toBe(150 * BTC);
    // B's 30 from tx1 is unspent again: 10@100, (50.0001 + 9.9999 + 30)@300, 50@200.
    expect(idx.supply.realizedCap).toBeCloseTo(1_000 + 27_000 + 10_000, 6);
  });

  it('from a later height: the UTXO set is partial, spends of older outputs are unpriced', async () => {
    const chain = new TestChain(BLOCKS);
    const idx = indexOf(chain, { from: { blocksBehindTip: 1 } });
    await idx.sync();
    expect(idx.fromHeight).toBe(2);
    expect(idx.utxoSetComplete).toBe(false);
    expect(idx.blocks().map((b) => b.height)).toEqual([2, 3]);
    const d1 = idx.days()[0]!;
    expect(d1.spent).toEqual({ sats: 30 * BTC, atSpend: 0, atCreation: 0, unpriced: 30 * BTC });
    // Flows and volume come from the prevouts the API gives, set or not.
    expect(d1.exchange.inflow).toBe(30 * BTC - 5_000);
  });

  it('reads each block with one header call and one page per 25 transactions, and does nothing when the tip has not moved', async () => {
    // 60 transactions: pages at 0, 25 and 50.
    const many: TestBlock = { time: T3 + 60, txs: Array.from({ length: 60 }, (_, i) => ({ outputs: [{ address: `P${i}`, value: BTC }] })) };
    const chain = new TestChain([...BLOCKS, many]);
    const idx = indexOf(chain);
    await idx.sync();
    expect(chain.calls.get('block')).toBe(5);
    expect(chain.calls.get('blockTxs')).toBe(4 + 3);
    expect(idx.indexedTip()!.txCount).toBe(60);
    const before = chain.calls.get('blockHashAt');
    await idx.sync();
    expect(chain.calls.get('blockHashAt')).toBe(before);
    expect(chain.calls.get('tipHash')).toBe(2);
  });

  it('reads headers ten at a time where the API lists blocks (GET /blocks/:start_height), with the same result', async () => {
    const blocks: TestBlock[] = [...BLOCKS, ...Array.from({ length: 21 }, (_, i) => ({ time: T3 + 600 * (i + 1), txs: [{ outputs: [{ address: 'M', value: 50 * BTC }] }] }))];
    const paged = new TestChain(blocks, { headerPages: true });
    const idx = indexOf(paged);
    await idx.sync();
    expect(paged.calls.get('blocks')).toBe(3); // 25 blocks
    expect(paged.calls.get('block')).toBeUndefined();
    const plain = indexOf(new TestChain(blocks));
    await plain.sync();
    expect(idx.days()).toEqual(plain.days());
    expect(idx.blocks()).toEqual(plain.blocks());
  });

  it('goes on past a failing plug-in (reported), and gives up on an API that keeps contradicting itself', async () => {
    const errors: string[] = [];
    const broken: BitcoinTxObserver = { name: 'broken', onBlock: (b) => { if (b.height === 1) throw new Error('bad script'); } };
    const rec = new Recorder();
    const idx = indexOf(new TestChain(BLOCKS), { observers: [broken, rec], onError: (e) => errors.push(e.message) });
    await idx.sync();
    expect(idx.indexedHeight()).toBe(3);
    expect(rec.seen).toEqual([0, 1, 2, 3]);
    expect(errors).toEqual(['Bitcoin observer broken failed on block 1: bad script']);
    // The API says the tip is at 3 but has no block there.
    const liar = new TestChain(BLOCKS);
    liar.blockHashAt = async (h: number) => (h === 3 ? null : liar.main[h] ?? null);
    await expect(indexOf(liar).sync()).rejects.toBeInstanceOf(EsploraUnavailableError);
  });
});
