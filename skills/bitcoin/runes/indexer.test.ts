/** The runes index on hand-written blocks: committed etchings, mints within terms, edicts, pointers, cenotaphs. */
import { describe, expect, it } from 'vitest';
import type { EsploraTx } from '../../../chain/esplora.js';
import { block, coinbase, opReturn, pay, push, runestone, scriptPathWitness, spend, tx } from '../observers/fixtures.js';
import { mintWindow, RunesIndex, unmintableReason } from './indexer.js';
import { runeCommitment } from './runestone.js';

const NAME = 2055900680524219742n; // UNCOMMONGOODS
const commitLeaf = (rune: bigint) => [...push(new Array(32).fill(9)), 0xac, 0x00, 0x63, ...push([...runeCommitment(rune)]), 0x68];
const taprootCommit = pay('etcher-commit', 20_000);

/** An etching revealing its commitment from a taproot output of `commitTxid` (unknown to the index = old enough unless fed recently). */
function etching(ints: (number | bigint)[], rune: bigint, commitTxid = 'cc'.repeat(32), to = 'etcher'): EsploraTx {
  return tx([spend(commitTxid, 0, taprootCommit, scriptPathWitness(commitLeaf(rune)))], [opReturn(runestone(ints)), pay(to, 10_000)]);
}

function feed(index: RunesIndex, height: number, txs: EsploraTx[]) {
  index.onBlock(block(height), [coinbase(), ...txs]);
}
const holders = (index: RunesIndex, id: string) => Object.fromEntries(index.balances().get(id) ?? []);

describe('runes index', () => {
  it('etches with a premine, mints within the cap, and moves balances with edicts and the pointer', () => {
    const index = new RunesIndex();
    // Etching + terms: premine 1,000, amount 100, cap 2, spacer after the 8th letter, divisibility 2.
    const etch = etching([2, 0b11, 4, NAME, 3, 128, 1, 2, 5, 0x24, 6, 1000, 10, 100, 8, 2], NAME);
    feed(index, 10, [etch]);
    const [rune] = index.runes();
    expect(rune).toMatchObject({ id: '10:1', spacedName: 'UNCOMMON•GOODS', divisibility: 2, symbol: '$', premine: 1000n, mints: 0, etchingTxid: etch.txid });
    expect(holders(index, '10:1')).toEqual({ etcher: 1000n });

    const mintTo = (who: string) => tx([spend('ab'.repeat(32), 0, pay(who, 50_000))], [opReturn(runestone([20, 10, 20, 1])), pay(who, 10_000)]);
    feed(index, 11, [mintTo('m1'), mintTo('m2'), mintTo('m3')]);
    expect(index.runes()[0]).toMatchObject({ mints: 2, lastMintHeight: 11 });
    expect(holders(index, '10:1')).toEqual({ etcher: 1000n, m1: 100n, m2: 100n });

    // The etcher sends 250 to bob with an edict; the rest returns through the pointer (output 2).
    const send = tx([spend(etch.txid, 1, etch.vout[1]!)], [opReturn(runestone([22, 2, 0, 10, 1, 250, 1])), pay('bob', 10_000), pay('etcher2', 5_000)]);
    feed(index, 12, [send]);
    expect(holders(index, '10:1')).toEqual({ bob: 250n, etcher2: 750n, m1: 100n, m2: 100n });
    expect(index.runes()[0]!.transfers).toBe(1);

    // Split: amount 0 to output = number of outputs divides among the non-OP_RETURN outputs (remainder to the first).
    const split = tx([spend(send.txid, 2, send.vout[2]!)], [pay('p', 1), opReturn(runestone([0, 10, 1, 0, 4])), pay('q', 1), pay('r', 1)]);
    feed(index, 13, [split]);
    expect(holders(index, '10:1')).toMatchObject({ p: 250n, q: 250n, r: 250n });

    // No runestone: everything goes to the first non-OP_RETURN output.
    const plain = tx([spend(split.txid, 0, split.vout[0]!), spend(split.txid, 2, split.vout[2]!)], [opReturn([0x6a, ...push([1])]), pay('s', 2)]);
    feed(index, 14, [plain]);
    expect(holders(index, '10:1')).toMatchObject({ s: 500n, r: 250n });
  });

  it('refuses an etching whose commitment is too young, a taken name, a reserved name, or no commitment', () => {
    const index = new RunesIndex();
    const commit = tx([spend('ab'.repeat(32), 0, pay('w', 30_000))], [taprootCommit]);
    feed(index, 20, [commit]);
    // Confirmations at height 24 = 24 - 20 + 1 = 5: one short.
    feed(index, 24, [etching([2, 1, 4, NAME], NAME, commit.txid)]);
    expect(index.runes()).toEqual([]);
    feed(index, 25, [etching([2, 1, 4, NAME], NAME, commit.txid)]);
    expect(index.runes().map((r) => r.id)).toEqual(['25:1']);
    feed(index, 26, [etching([2, 1, 4, NAME], NAME)]);
    feed(index, 27, [etching([2, 1, 4, 6402364363415443603228541259936211926n], 6402364363415443603228541259936211926n)]);
    const uncommitted = tx([spend('ab'.repeat(32), 1, pay('w', 30_000))], [opReturn(runestone([2, 1, 4, 77])), pay('x', 1)]);
    const commitOnSegwit = tx([spend('ab'.repeat(32), 2, pay('w', 30_000, 'v0_p2wpkh'), scriptPathWitness(commitLeaf(78n)))], [opReturn(runestone([2, 1, 4, 78])), pay('x', 1)]);
    feed(index, 28, [uncommitted, commitOnSegwit]);
    expect(index.runes().map((r) => r.id)).toEqual(['25:1']);
    // No name: a reserved one from block and position, no commitment needed.
    feed(index, 29, [tx([spend('ab'.repeat(32), 3, pay('w', 1))], [opReturn(runestone([2, 1])), pay('x', 1)])]);
    expect(index.runes()[1]!.id).toBe('29:1');
    expect(index.runes()[1]!.rune).toBe(6402364363415443603228541259936211926n + (29n << 32n) + 1n);
  });

  it('burns input runes in a cenotaph, counts its mint, and etches an unmintable rune', () => {
    const index = new RunesIndex();
    const etch = etching([2, 0b11, 4, NAME, 6, 500, 10, 7, 8, 5], NAME);
    feed(index, 30, [etch]);
    const cenotaph = tx([spend(etch.txid, 1, etch.vout[1]!)], [opReturn(runestone([20, 30, 20, 1, 126, 1])), pay('y', 1)]);
    feed(index, 31, [cenotaph]);
    expect(index.runes()[0]).toMatchObject({ mints: 1, burned: 500n + 7n });
    expect(holders(index, '30:1')).toEqual({});
    feed(index, 32, [etching([2, 1, 4, 1234, 126, 0], 1234n)]);
    expect(index.runes()[1]).toMatchObject({ id: '32:1', cenotaph: true, premine: 0n, terms: null });
  });

  it('burns runes sent to an OP_RETURN or left with no output to go to', () => {
    const index = new RunesIndex();
    const etch = etching([2, 1, 4, NAME, 6, 100], NAME);
    feed(index, 40, [etch]);
    const toOpReturn = tx([spend(etch.txid, 1, etch.vout[1]!)], [opReturn(runestone([0, 40, 1, 30, 0])), pay('z', 1)]);
    feed(index, 41, [toOpReturn]);
    expect(index.runes()[0]!.burned).toBe(30n);
    expect(holders(index, '40:1')).toEqual({ z: 70n });
  });

  it('keeps mints inside the height and offset window, and rewinds', () => {
    expect(mintWindow({ block: 100, terms: { amount: 1n, cap: 10n, height: [150n, 400n], offset: [10n, 200n] } })).toEqual({ start: 150n, end: 300n });
    const entry = { block: 100, mints: 0, terms: { amount: 1n, cap: 1n, height: [null, null] as const, offset: [5n, 8n] as const } };
    expect([104, 105, 107, 108].map((h) => unmintableReason(entry, h))).toEqual(['not-started', null, null, 'ended']);
    expect(unmintableReason({ ...entry, mints: 1 }, 106)).toBe('cap-reached');
    expect(unmintableReason({ ...entry, terms: null }, 106)).toBe('no-terms');

    const index = new RunesIndex();
    feed(index, 50, [etching([2, 0b11, 4, NAME, 10, 5, 8, 3], NAME)]);
    feed(index, 51, [tx([spend('ab'.repeat(32), 0, pay('m', 1))], [opReturn(runestone([20, 50, 20, 1])), pay('m', 1)])]);
    expect(index.runes()[0]!.mints).toBe(1);
    index.rewind(51);
    expect(index.runes()[0]!.mints).toBe(0);
    expect(index.balances().size).toBe(0);
    index.rewind(50);
    expect(index.runes()).toEqual([]);
  });
});
