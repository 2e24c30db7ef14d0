/**
 * Proof of reserves on a stub Esplora that answers only /address and the tip: the custodian's
 * confirmed balance (funded − spent, the mempool left out) against the wrapped supply.
 */
import { describe, expect, it } from 'vitest';
import type { Esplora, EsploraAddress } from '../../../chain/esplora.js';
import type { BitcoinEntity, BitcoinSource } from '../../../chain/bitcoin.js';
import { proofOfReserves } from './reserves.js';

const stats = (funded: number, spent: number) => ({ funded_txo_count: 1, funded_txo_sum: funded, spent_txo_count: 1, spent_txo_sum: spent, tx_count: 2 });

/** An Esplora holding the given balances (sats), with 1 BTC unconfirmed on every address. */
function stub(balances: Record<string, [number, number]>): Esplora & { asked: string[] } {
  const asked: string[] = [];
  const fail = () => {
    throw new Error('not used by proof of reserves');
  };
  return {
    baseUrl: 'http://esplora.test', asked,
    tipHeight: async () => 840_000,
    address: async (a: string): Promise<EsploraAddress> => {
      asked.push(a);
      const [funded, spent] = balances[a] ?? [0, 0];
      return { address: a, chain_stats: stats(funded, spent), mempool_stats: stats(100_000_000, 0) };
    },
    tipHash: fail, blockHashAt: fail, block: fail, blockTxs: fail, blockTxids: fail, tx: fail, outspends: fail,
    addressUtxo: fail, addressTxs: fail, mempool: fail, mempoolRecent: fail, mempoolTxids: fail, feeEstimates: fail,
  } as Esplora & { asked: string[] };
}

const source = (esplora: Esplora, entities: BitcoinEntity[]): BitcoinSource => ({ kind: 'embedded', esplora, prices: { source: 'test', at: () => null }, entities });

const ENTITIES: BitcoinEntity[] = [
  { name: 'BitGo', kind: 'custodian', backs: 'WBTC', addresses: ['bc1qcold', 'bc1qwarm'] },
  { name: 'Binance custody', kind: 'custodian', backs: 'BTCB', addresses: ['bc1qbinance'] },
  { name: 'An exchange', kind: 'exchange', addresses: ['bc1qexchange'] },
];

describe('proof of reserves', () => {
  it('sums the confirmed balances of the custodian\'s addresses and divides by the wrapped supply', async () => {
    const esplora = stub({ bc1qcold: [6_000_000_000, 0], bc1qwarm: [5_000_000_000, 650_000_000], bc1qbinance: [9e9, 0] });
    const r = await proofOfReserves(source(esplora, ENTITIES), 'wbtc', { amount: '104', chains: ['base', 'ethereum'], complete: true }, 10);
    // 60 + (50 - 6.5) = 103.5 BTC against 104 wrapped.
    expect(r).toMatchObject({ available: true, reason: null, btc: '103.5', wrapped: '104', wrappedChains: ['base', 'ethereum'], wrappedComplete: true, custodians: ['BitGo'], addressCount: 2 });
    expect(r.ratio).toBeCloseTo(103.5 / 104, 6);
    expect(r.addresses).toEqual([{ address: 'bc1qcold', btc: '60' }, { address: 'bc1qwarm', btc: '43.5' }]);
    expect(r.bitcoin).toEqual({ kind: 'embedded', esplora: 'http://esplora.test', tipHeight: 840_000 });
    expect(esplora.asked.sort()).toEqual(['bc1qcold', 'bc1qwarm']);
  });

  it('caps the listed addresses at the limit but sums them all', async () => {
    const r = await proofOfReserves(source(stub({ bc1qcold: [1e8, 0], bc1qwarm: [3e8, 0] }), ENTITIES), 'WBTC', { amount: '4', chains: ['base'], complete: true }, 1);
    expect(r.btc).toBe('4');
    expect(r.ratio).toBe(1);
    expect(r.addresses).toEqual([{ address: 'bc1qwarm', btc: '3' }]);
  });

  it('is unavailable, with the reason, without a Bitcoin chain or without a published custody address', async () => {
    const off = await proofOfReserves(undefined, 'WBTC', { amount: '104', chains: ['base'], complete: true }, 10);
    expect(off).toMatchObject({ available: false, btc: null, ratio: null, wrapped: '104', bitcoin: null });
    expect(off.reason).toContain('no Bitcoin chain');
    const unknown = await proofOfReserves(source(stub({}), ENTITIES), 'tBTC', { amount: '3', chains: ['base'], complete: false }, 10);
    expect(unknown).toMatchObject({ available: false, btc: null, ratio: null, wrappedComplete: false });
    expect(unknown.reason).toContain('no custody address of tBTC');
  });
});
