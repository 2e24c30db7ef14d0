/** The staking index on hand-written Babylon-style transactions: stakes, withdrawals, early unbonding, slashing. */
import { schnorr } from '@noble/curves/secp256k1.js';
import { p2tr } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import type { EsploraVout } from '../../../chain/esplora.js';
import { block, coinbase, hex, opReturn, pay, push, scriptPathWitness, spend, tx, utf8 } from '../observers/fixtures.js';
import { exitPath, StakingIndex, stakingDataOf } from './indexer.js';

const staker = [...schnorr.getPublicKey(Uint8Array.from(new Array(32).fill(3)))];
const fp = [...schnorr.getPublicKey(Uint8Array.from(new Array(32).fill(4)))];
const covenant = new Array(32).fill(5);

/** "bbn1" | version | staker | finality provider | staking time (u16 BE). */
const stakingOpReturn = (time: number, tag = 'bbn1') => opReturn([0x6a, ...push([...utf8(tag), 0, ...staker, ...fp, time >> 8, time & 0xff])]);
const taproot = (script: Uint8Array | number[], value: number, address: string): EsploraVout => ({ scriptpubkey: hex([...script]), scriptpubkey_asm: '', scriptpubkey_type: 'v1_p2tr', scriptpubkey_address: address, value });
const stakingOutput = (value: number) => taproot([0x51, 0x20, ...new Array(32).fill(0xab)], value, 'bc1pstake');
const change = (value: number) => taproot(p2tr(Uint8Array.from(staker)).script, value, 'bc1pstaker');

// Leaves: timelock <staker> CHECKSIGVERIFY <n> CSV; unbonding <staker> CHECKSIGVERIFY <covenant> CHECKSIG; slashing names the finality provider.
const timelockLeaf = (n: number) => [...push(staker), 0xad, ...push([n & 0xff, n >> 8]), 0xb2];
const unbondingLeaf = [...push(staker), 0xad, ...push(covenant), 0xac];
const slashingLeaf = [...push(staker), 0xad, ...push(fp), 0xad, ...push(covenant), 0xac];

describe('staking OP_RETURN', () => {
  it('reads the 71-byte payload', () => {
    expect(stakingDataOf(stakingOpReturn(0x1234).scriptpubkey)).toEqual({ version: 0, stakerPk: hex(staker), finalityProviderPk: hex(fp), stakingTime: 0x1234 });
    expect(stakingDataOf(stakingOpReturn(10, 'bbn2').scriptpubkey)).toBeNull();
    expect(stakingDataOf(hex([0x6a, ...push([...utf8('bbn1'), 0, 1, 2])]))).toBeNull();
  });

  it('tells the exit path from the leaf revealed', () => {
    expect(exitPath(scriptPathWitness(timelockLeaf(1000)), hex(fp))).toBe('timelock');
    expect(exitPath(scriptPathWitness([...push(staker), 0xad, 0x5a, 0xb2]), hex(fp))).toBe('timelock');
    expect(exitPath(scriptPathWitness(unbondingLeaf), hex(fp))).toBe('unbonding');
    expect(exitPath(scriptPathWitness(slashingLeaf), hex(fp))).toBe('slashing');
  });
});

describe('staking index', () => {
  it('follows stakes through withdrawal, early unbonding and slashing', () => {
    const index = new StakingIndex();
    const funding = pay('bc1qfunder', 3_000_000, 'v0_p2wpkh');
    // Change before the staking output: the staker's own key-path output is not the stake.
    const a = tx([spend('aa'.repeat(32), 0, funding)], [change(100_000), stakingOutput(1_000_000), stakingOpReturn(150)]);
    const b = tx([spend('aa'.repeat(32), 1, funding)], [stakingOutput(2_000_000), stakingOpReturn(64_000), change(5_000)]);
    const c = tx([spend('aa'.repeat(32), 2, funding)], [stakingOutput(500_000), stakingOpReturn(1_000)]);
    const noise = tx([spend('aa'.repeat(32), 3, funding)], [stakingOutput(7), opReturn([0x6a, ...push(utf8('hello'))])]);
    index.onBlock(block(100), [coinbase(), a, b, c, noise]);
    expect(index.stakes().map((s) => [s.vout, s.sats, s.stakingTime, s.state, s.funder])).toEqual([
      [1, 1_000_000, 150, 'active', 'bc1qfunder'], [0, 2_000_000, 64_000, 'active', 'bc1qfunder'], [0, 500_000, 1_000, 'active', 'bc1qfunder'],
    ]);

    const withdrawA = tx([spend(a.txid, 1, a.vout[1]!, scriptPathWitness(timelockLeaf(150)))], [pay('bc1qback', 999_000)]);
    const unbondB = tx([spend(b.txid, 0, b.vout[0]!, scriptPathWitness(unbondingLeaf))], [stakingOutput(1_999_000)]);
    const slashC = tx([spend(c.txid, 0, c.vout[0]!, scriptPathWitness(slashingLeaf))], [pay('bc1qburn', 400_000)]);
    index.onBlock(block(260), [coinbase(), withdrawA, unbondB, slashC]);
    expect(index.stakes().map((s) => [s.state, s.endedAt, s.endTxid])).toEqual([['withdrawn', 260, withdrawA.txid], ['unbonding', 260, unbondB.txid], ['slashed', 260, slashC.txid]]);

    const exitB = tx([spend(unbondB.txid, 0, unbondB.vout[0]!, scriptPathWitness(timelockLeaf(144)))], [pay('bc1qback', 1_998_000)]);
    index.onBlock(block(410), [coinbase(), exitB]);
    expect(index.stakes()[1]).toMatchObject({ state: 'unbonded', endedAt: 260, unbondedAt: 410 });

    index.rewind(260);
    expect(index.stakes().map((s) => s.state)).toEqual(['active', 'active', 'active']);
    expect(index.coverage.toHeight).toBe(100);
  });
});
