import { describe, expect, it } from 'vitest';
import { FAKE_SIG, FixtureEsplora, fixtureKey } from '../exposure/fixtures.js';
import type { ChainExposure } from '../exposure/engine.js';
import { ExposureObserver } from './observer.js';
import { walletScore } from './engine.js';

const a = fixtureKey('a'), b = fixtureKey('b'), t = fixtureKey('t'), early = fixtureKey('early');

function feed(c: FixtureEsplora, o: ExposureObserver, from = 0) {
  for (const blk of c.mined.slice(from)) o.onBlock(blk.block, blk.txs);
}

describe('exposure plug-in of the Bitcoin index', () => {
  it('supply by who can read its key: P2PK and P2TR by construction, reused addresses by their spend', () => {
    const c = new FixtureEsplora()
      .mine(1, [{ name: 'cb0', vout: [{ to: `script:${early.p2pkScript}`, value: 5_000 }, { to: a.p2wpkh, value: 1_000 }, { to: a.p2wpkh, value: 700 }, { to: b.p2pkh, value: 400 }, { to: 'script:6a0568656c6c6f', value: 0 }] }])
      .mine(2, [{ name: 's1', vin: [{ spends: 'cb0:1', witness: [FAKE_SIG, a.pub] }], vout: [{ to: t.p2tr, value: 300 }, { to: b.p2pkh, value: 650 }] }]);
    const o = new ExposureObserver();
    feed(c, o);
    const s = o.supply();
    // By hand: P2PK 5,000; a (spent once, 700 left) reused; b 1,050 never spent; P2TR 300. Fee 50 left the supply.
    expect(s).toMatchObject({ supplySats: 7_050, p2pkSats: 5_000, p2trSats: 300, reusedSats: 700, exposedSats: 6_000, holders: 4, exposedHolders: 3, fromHeight: 0, toHeight: 1, consistent: true });
    expect(s.byType).toEqual({ p2pk: 5_000, v0_p2wpkh: 700, p2pkh: 1_050, v1_p2tr: 300 });
  });

  it('a reorg undoes the blocks it drops; a rewind to the start clears everything', () => {
    const c = new FixtureEsplora()
      .mine(1, [{ name: 'cb0', vout: [{ to: a.p2wpkh, value: 1_000 }, { to: a.p2wpkh, value: 700 }] }])
      .mine(2, [{ name: 's1', vin: [{ spends: 'cb0:1', witness: [FAKE_SIG, a.pub] }], vout: [{ to: b.p2pkh, value: 650 }] }]);
    const o = new ExposureObserver();
    feed(c, o, 0);
    const before = new ExposureObserver();
    feed(new FixtureEsplora().mine(1, [{ name: 'cb0', vout: [{ to: a.p2wpkh, value: 1_000 }, { to: a.p2wpkh, value: 700 }] }]), before);
    o.rewind(1);
    expect(o.supply()).toEqual(before.supply());
    o.rewind(0);
    expect(o.supply()).toMatchObject({ supplySats: 0, holders: 0, fromHeight: null });
  });
});

const row = (over: Partial<ChainExposure>): ChainExposure => ({
  chain: 'x', provenance: { source: 's', chainId: null, asOf: { block: '1', timestamp: 't' }, methodology: 'm' }, accountType: 'eoa', keyRevealed: false, exposed: false, why: null,
  status: 'hidden', explanation: '', evidence: null, owners: null, holdings: [], sats: null, pendingSats: null, valueUsd: 0, unpriced: 0, atRiskUsd: 0, ...over,
});

describe('wallet readiness score (its rule)', () => {
  it('value-weighted over chains: $300 exposed of $1,000 scores 70 (partial)', () => {
    const s = walletScore([row({ chain: 'base', exposed: true, keyRevealed: true, status: 'exposed', valueUsd: 300, atRiskUsd: 300 }), row({ chain: 'ethereum', valueUsd: 700 })]);
    expect(s).toMatchObject({ score: 70, grade: 'partial' });
    expect(s.chains.map((c) => c.score)).toEqual([0, 100]);
  });

  it('nothing held: 100, or 50 with the key revealed; the overall is the lowest', () => {
    expect(walletScore([row({ chain: 'base', keyRevealed: true, status: 'revealed-empty' }), row({ chain: 'bsc', status: 'unused' })])).toMatchObject({ score: 50, grade: 'partial' });
  });

  it('unpriced bitcoin weighs by satoshis; a contract wallet by its owners', () => {
    expect(walletScore([row({ chain: 'bitcoin', exposed: true, keyRevealed: true, status: 'exposed', sats: 1_000 })])).toMatchObject({ score: 0, grade: 'at-risk' });
    const safe = row({ chain: 'base', accountType: 'contract', status: 'contract-wallet', valueUsd: 10, owners: [{ address: '0x1', nonce: 3, keyRevealed: true }, { address: '0x2', nonce: 0, keyRevealed: false }] });
    expect(walletScore([safe])).toMatchObject({ score: 75, grade: 'partial' });
  });
});
