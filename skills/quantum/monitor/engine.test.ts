import { describe, expect, it } from 'vitest';
import { diffWatch, watchKey, watchList, type WatchRow } from './engine.js';
import { fixtureKey } from '../exposure/fixtures.js';

const btc = fixtureKey('m1').p2wpkh;
const evm = '0x52908400098527886E0F7030069857D2E4169EE7';
const row = (address: string, chain: string, exposed: boolean, valueUsd: number, sats: number | null = null): WatchRow =>
  ({ address, chain, exposed, why: exposed ? 'x' : null, valueUsd, atRiskUsd: exposed ? valueUsd : 0, sats });

describe('quantum monitor memory', () => {
  it('the same list in another order or case has the same key; another list another key', () => {
    expect(watchKey([btc, evm])).toBe(watchKey([evm.toLowerCase(), btc.toUpperCase(), btc]));
    expect(watchList([evm, btc, evm])).toEqual([evm.toLowerCase(), btc].sort());
    expect(watchKey([btc])).not.toBe(watchKey([btc, evm]));
  });

  it('newly exposed, no longer exposed and value moves, by address and chain', () => {
    const before = { at: 't0', rows: [row(btc, 'bitcoin', false, 100, 1000), row(evm, 'base', true, 50), row(evm, 'ethereum', false, 10), row(evm, 'bsc', true, 5)] };
    const after = { at: 't1', rows: [row(btc, 'bitcoin', true, 80, 800), row(evm, 'base', false, 0), row(evm, 'ethereum', false, 10), row(evm, 'polygon', true, 7)] };
    const d = diffWatch(before, after);
    expect(d.newlyExposed.map((c) => `${c.address}@${c.chain}`)).toEqual([`${btc}@bitcoin`]);
    expect(d.noLongerExposed.map((c) => `${c.address}@${c.chain}`)).toEqual([`${evm}@base`]);
    expect(d.valueChanges.map((c) => [c.chain, c.deltaUsd, c.deltaSats])).toEqual([['base', -50, null], ['bitcoin', -20, -200]]);
  });
});
