/** The BRC-20 index on hand-written blocks: deploys, mints within max/lim, transfer inscriptions and their sends. */
import { describe, expect, it } from 'vitest';
import type { EsploraTx } from '../../../chain/esplora.js';
import { Brc20Index, satDestination } from './indexer.js';
import { block, coinbase, inscriptionLeaf, opReturn, pay, scriptPathWitness, spend, tx } from '../observers/fixtures.js';

const T = 10n ** 18n;
const funding = pay('commit', 20_000);

/** A reveal: spends a commit output through the envelope's leaf, the inscription landing on output 0 (to `owner`). */
function reveal(owner: string, body: string): EsploraTx {
  return tx([spend('cc'.repeat(32), 0, funding, scriptPathWitness(inscriptionLeaf('text/plain;charset=utf-8', body)))], [pay(owner, 10_000)]);
}
const deploy = (tick: string, max: string, lim: string) => `{"p":"brc-20","op":"deploy","tick":"${tick}","max":"${max}","lim":"${lim}"}`;
const mint = (tick: string, amt: string) => `{"p":"brc-20","op":"mint","tick":"${tick}","amt":"${amt}"}`;
const transfer = (tick: string, amt: string) => `{"p":"brc-20","op":"transfer","tick":"${tick}","amt":"${amt}"}`;

function feed(index: Brc20Index, height: number, txs: EsploraTx[]) {
  index.onBlock(block(height), [coinbase(), ...txs]);
}
const balanceOf = (index: Brc20Index, tick: string, who: string) => index.holders(tick).find((h) => h.address === who);

describe('sat flow', () => {
  it('puts a sat in the output covering its offset, or in fees', () => {
    const outs = [{ value: 100 }, { value: 0 }, { value: 50 }];
    expect(satDestination(outs, 0)).toEqual({ vout: 0, offset: 0 });
    expect(satDestination(outs, 100)).toEqual({ vout: 2, offset: 0 });
    expect(satDestination(outs, 149)).toEqual({ vout: 2, offset: 49 });
    expect(satDestination(outs, 150)).toBeNull();
  });
});

describe('BRC-20 index', () => {
  it('deploys once, mints within lim, and gives the last mint what remains under max', () => {
    const index = new Brc20Index();
    feed(index, 1, [reveal('alice', deploy('TEST', '2500', '1000')), reveal('bob', deploy('test', '9', '9'))]);
    feed(index, 2, [reveal('alice', mint('test', '1000')), reveal('bob', mint('test', '2000')), reveal('bob', mint('test', '1000'))]);
    feed(index, 3, [reveal('carol', mint('test', '1000')), reveal('carol', mint('test', '1'))]);
    const [t] = index.tickers();
    expect(index.tickers()).toHaveLength(1);
    expect(t).toMatchObject({ tick: 'test', max: 2500n * T, lim: 1000n * T, deployHeight: 1, mints: 3, invalidMints: 2, minted: 2500n * T, lastMintHeight: 3 });
    expect(index.holders('test').map((h) => [h.address, h.balance / T])).toEqual([['alice', 1000n], ['bob', 1000n], ['carol', 500n]]);
  });

  it('ignores mints of a ticker not deployed (yet)', () => {
    const index = new Brc20Index();
    feed(index, 1, [reveal('alice', mint('abcd', '1'))]);
    feed(index, 2, [reveal('alice', deploy('abcd', '10', '1'))]);
    expect(index.tickers()[0]!.minted).toBe(0n);
    expect(index.holders('abcd')).toEqual([]);
  });

  it('moves a transfer inscription\'s amount when its sat is sent; refuses one over the available balance', () => {
    const index = new Brc20Index();
    feed(index, 1, [reveal('alice', deploy('ordi', '21000', '1000'))]);
    feed(index, 2, [reveal('alice', mint('ordi', '1000'))]);
    const inscribed = reveal('alice', transfer('ordi', '300'));
    feed(index, 3, [inscribed, reveal('alice', transfer('ordi', '800'))]);
    expect(balanceOf(index, 'ordi', 'alice')).toMatchObject({ available: 700n * T, transferable: 300n * T, balance: 1000n * T });
    expect(index.tickers()[0]).toMatchObject({ transferInscriptions: 1, invalidTransfers: 1 });
    // Sent with a fee input after it: the inscribed sat (input 0, offset 0) lands in output 0, to bob.
    const send = tx([spend(inscribed.txid, 0, inscribed.vout[0]!), spend('dd'.repeat(32), 1, pay('alice', 50_000))], [pay('bob', 10_000), pay('alice', 45_000)]);
    feed(index, 4, [send]);
    expect(balanceOf(index, 'ordi', 'alice')).toMatchObject({ available: 700n * T, transferable: 0n });
    expect(balanceOf(index, 'ordi', 'bob')).toMatchObject({ available: 300n * T });
    expect(index.recentTransfers()).toEqual([{ tick: 'ordi', inscriptionId: `${inscribed.txid}i0`, from: 'alice', to: 'bob', outcome: 'sent', amount: 300n * T, txid: send.txid, height: 4, time: block(4).timestamp }]);
    // Spent again: a used transfer inscription moves nothing.
    feed(index, 5, [tx([spend(send.txid, 0, send.vout[0]!)], [pay('carol', 9_000)])]);
    expect(balanceOf(index, 'ordi', 'carol')).toBeUndefined();
    expect(index.pendingTransfers()).toBe(0);
  });

  it('follows the inscribed sat past other inputs, returns it to the sender from fees, burns it in an OP_RETURN', () => {
    const index = new Brc20Index();
    feed(index, 1, [reveal('alice', deploy('ordi', '21000', '1000'))]);
    feed(index, 2, [reveal('alice', mint('ordi', '1000'))]);
    const [a, b, c] = [reveal('alice', transfer('ordi', '100')), reveal('alice', transfer('ordi', '200')), reveal('alice', transfer('ordi', '300'))];
    feed(index, 3, [a, b, c]);
    // a is input 1 after a 5,000-sat input: its sat is at offset 5,000, in output 1 (outputs 4,000 then 10,000).
    const viaSecond = tx([spend('ee'.repeat(32), 0, pay('x', 5_000)), spend(a.txid, 0, a.vout[0]!)], [pay('dave', 4_000), pay('erin', 10_000)]);
    // b goes to fees: outputs hold fewer sats than the input before it.
    const asFee = tx([spend('ee'.repeat(32), 1, pay('x', 5_000)), spend(b.txid, 0, b.vout[0]!)], [pay('frank', 4_000)]);
    const burned = tx([spend(c.txid, 0, c.vout[0]!)], [opReturn([0x6a]), pay('gina', 9_000)]);
    (burned.vout[0] as { value: number }).value = 9_500;
    feed(index, 4, [viaSecond, asFee, burned]);
    expect(balanceOf(index, 'ordi', 'erin')?.available).toBe(100n * T);
    expect(balanceOf(index, 'ordi', 'dave')).toBeUndefined();
    expect(balanceOf(index, 'ordi', 'alice')).toMatchObject({ available: 600n * T, transferable: 0n });
    expect(index.tickers()[0]!.burned).toBe(300n * T);
    expect(index.recentTransfers().map((t) => t.outcome)).toEqual(['burned', 'returned', 'sent']);
  });

  it('rewinds the blocks a reorg drops', () => {
    const index = new Brc20Index();
    feed(index, 1, [reveal('alice', deploy('ordi', '21000', '1000'))]);
    feed(index, 2, [reveal('alice', mint('ordi', '1000'))]);
    feed(index, 3, [reveal('bob', mint('ordi', '1000')), reveal('alice', transfer('ordi', '10'))]);
    index.rewind(3);
    expect(index.tickers()[0]).toMatchObject({ minted: 1000n * T, mints: 1, transferInscriptions: 0 });
    expect(index.holders('ordi').map((h) => [h.address, h.available / T, h.transferable])).toEqual([['alice', 1000n, 0n]]);
    expect(index.coverage).toMatchObject({ fromHeight: 1, toHeight: 2, consistent: true });
    index.rewind(1);
    expect(index.tickers()).toEqual([]);
  });
});
