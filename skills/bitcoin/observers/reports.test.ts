/** The token and staking reports' figures on hand-fed indexes, worked out by hand. */
import { describe, expect, it } from 'vitest';
import type { EsploraTx } from '../../../chain/esplora.js';
import { block, coinbase, opReturn, pay, push, runestone, scriptPathWitness, spend, tx } from './fixtures.js';
import { RunesIndex } from '../runes/indexer.js';
import { runeAmount, runesReport } from '../runes/report.js';
import { runeCommitment } from '../runes/runestone.js';
import { StakingIndex } from '../staking/indexer.js';
import { stakingReport } from '../staking/report.js';

describe('rune amounts', () => {
  it('apply the divisibility', () => {
    expect(runeAmount(123_456n, 2)).toBe('1234.56');
    expect(runeAmount(5n, 3)).toBe('0.005');
    expect(runeAmount(1_000n, 3)).toBe('1');
    expect(runeAmount(42n, 0)).toBe('42');
  });
});

describe('runes report', () => {
  it('gives issued, circulating, burned and mint progress', () => {
    const index = new RunesIndex();
    const leaf = [...push(new Array(32).fill(9)), 0xac, 0x00, 0x63, ...push([...runeCommitment(100n)]), 0x68];
    const etch = tx([spend('cc'.repeat(32), 0, pay('c', 1), scriptPathWitness(leaf))], [opReturn(runestone([2, 0b11, 4, 100, 1, 1, 6, 50, 10, 20, 8, 4])), pay('etcher', 1)]);
    index.onBlock(block(10), [coinbase(), etch]);
    const mint = (who: string): EsploraTx => tx([spend('ab'.repeat(32), 0, pay(who, 1))], [opReturn(runestone([20, 10, 20, 1])), pay(who, 1)]);
    index.onBlock(block(11), [coinbase(), mint('a'), mint('b'), mint('a')]);
    // The etcher burns 10 of its premine in an OP_RETURN.
    index.onBlock(block(12), [coinbase(), tx([spend(etch.txid, 1, etch.vout[1]!)], [opReturn(runestone([0, 10, 1, 10, 0])), pay('etcher', 1)])]);
    const r = runesReport(index, 12, 10).topRunes[0]!;
    expect(r).toMatchObject({
      name: 'CW', mints: 3, mintProgressPct: 75, mintable: true, mintStatus: 'open', holders: 3,
      premine: '5', maxSupply: '13', issued: '11', burned: '1', circulating: '10',
    });
    expect(r.topHolders.map((h) => [h.address, h.balance, h.sharePct])).toEqual([['a', '4', 40], ['etcher', '4', 40], ['b', '2', 20]]);
  });
});

describe('staking report', () => {
  it('bands active stakes by timelock and flags the expired ones', () => {
    const index = new StakingIndex();
    const staker = '11'.repeat(32);
    const stake = (sats: number, time: number) => tx([spend('aa'.repeat(32), 0, pay('f', 10_000_000, 'v0_p2wpkh'))], [
      { scriptpubkey: `5120${'ab'.repeat(32)}`, scriptpubkey_asm: '', scriptpubkey_type: 'v1_p2tr', scriptpubkey_address: 'bc1pstake', value: sats },
      opReturn([0x6a, ...push([...Buffer.from('bbn1'), 0, ...Buffer.from(staker, 'hex'), ...new Array(32).fill(time % 7), time >> 8, time & 0xff])]),
    ]);
    const [a, b, c] = [stake(100, 150), stake(200, 5_000), stake(300, 64_000)];
    index.onBlock(block(1_000), [coinbase(), a, b, c]);
    const unbond = tx([spend(b.txid, 0, b.vout[0]!, scriptPathWitness([...push(new Array(32).fill(1)), 0xad, ...push(new Array(32).fill(9)), 0xac]))], [pay('x', 190)]);
    index.onBlock(block(1_200), [coinbase(), unbond]);
    const r = stakingReport(index, 1_200, 10);
    expect(r.totalStaked).toEqual({ sats: 400, btc: '0.000004' });
    expect(r.timelocks.filter((t) => t.count).map((t) => [t.band, t.sats])).toEqual([['under 1 week', 100], ['12 months and more', 300]]);
    // Stake a: 1,000 + 150 <= 1,200.
    expect(r.timelockExpired).toMatchObject({ count: 1, sats: 100 });
    expect(r.unbonding.inProgress).toEqual({ count: 1, sats: 200, btc: '0.000002' });
    expect(r.stakers).toMatchObject({ count: 1, top: [{ stakes: 2, sats: 400, funders: ['f'] }] });
    expect(r.finalityProviders.count).toBe(2);
  });
});
