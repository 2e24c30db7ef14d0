import { describe, expect, it } from 'vitest';
import { parsedAddress } from './address.js';
import { bitcoinExposure } from './bitcoin.js';
import { FAKE_SIG, FixtureEsplora, fixtureKey, p2pkhScriptSig, type FixtureTx } from './fixtures.js';

const alice = fixtureKey('alice');
const bob = fixtureKey('bob');
const carol = fixtureKey('carol');
const dave = fixtureKey('dave');
const erin = fixtureKey('erin');
const frank = fixtureKey('frank');
const mallory = fixtureKey('mallory');
const sink = fixtureKey('sink');
const PRICE = 50_000;
const prices = { source: 'fixed', at: () => PRICE };
const T0 = 1_700_000_000;

function chain() {
  const c = new FixtureEsplora();
  c.mine(T0, [
    { name: 'cb0', vout: [{ to: alice.p2wpkh, value: 1_000_000 }, { to: alice.p2wpkh, value: 2_000_000 }, { to: bob.p2wpkh, value: 500_000 }, { to: dave.p2pkh, value: 300_000 }, { to: erin.p2pkh, value: 400_000 }, { to: frank.p2wpkh, value: 700_000 }, { to: frank.p2wpkh, value: 100_000 }, { to: mallory.p2wpkh, value: 90_000 }, { to: mallory.p2wpkh, value: 10_000 }] },
  ]);
  c.mine(T0 + 600, [
    { name: 'cb1', vout: [{ to: carol.p2tr, value: 250_000 }] },
    // Alice spends one of her two outputs: the witness shows her key; the other stays behind it.
    { name: 'a-spend', vin: [{ spends: 'cb0:0', witness: [FAKE_SIG, alice.pub] }], vout: [{ to: sink.p2wpkh, value: 990_000 }] },
    // Dave spends everything he had (revealed, but nothing left behind the key).
    { name: 'd-spend', vin: [{ spends: 'cb0:3', scriptsig: p2pkhScriptSig(dave.pub) }], vout: [{ to: sink.p2wpkh, value: 290_000 }] },
    // Erin spends to herself: the change returns to the address whose key is now public.
    { name: 'e-spend', vin: [{ spends: 'cb0:4', scriptsig: p2pkhScriptSig(erin.pub) }], vout: [{ to: sink.p2wpkh, value: 100_000 }, { to: erin.p2pkh, value: 290_000 }] },
    // A witness whose key is not the one the address hashes (the fixture lies; a node would reject it).
    { name: 'm-spend', vin: [{ spends: 'cb0:8', witness: [FAKE_SIG, sink.pub] }], vout: [{ to: sink.p2wpkh, value: 9_000 }] },
  ]);
  c.pend([{ name: 'f-pending', vin: [{ spends: 'cb0:6', witness: [FAKE_SIG, frank.pub] }], vout: [{ to: sink.p2wpkh, value: 90_000 }] }]);
  return c;
}

const scan = (c: FixtureEsplora, a: string) => bitcoinExposure(c, prices, parsedAddress(a) as Extract<ReturnType<typeof parsedAddress>, { kind: 'bitcoin' }>);

describe('bitcoin exposure (quantum-exposure/v1)', () => {
  it('an address that spent and still holds coins: reused after spend, with the key its witness revealed, checked against the address', async () => {
    const c = chain();
    const r = await scan(c, alice.p2wpkh);
    expect(r).toMatchObject({ keyRevealed: true, exposed: true, why: 'reused-after-spend', status: 'exposed', sats: 2_000_000, utxos: 1, pendingSats: 0 });
    expect(r.evidence).toMatchObject({ tx: c.txid('a-spend'), block: 1, first: true, publicKeys: [alice.pub], verified: true });
    expect(r.valueUsd).toBe(0.02 * PRICE);
    expect(r.atRiskUsd).toBe(r.valueUsd);
    expect(r.tip.height).toBe(1);
  });

  it('P2PKH: the scriptSig\'s key, change back to the same address exposed', async () => {
    const c = chain();
    const r = await scan(c, erin.p2pkh);
    expect(r).toMatchObject({ exposed: true, why: 'reused-after-spend', sats: 290_000 });
    expect(r.evidence).toMatchObject({ tx: c.txid('e-spend'), publicKeys: [erin.pub], verified: true });
  });

  it('never spent: only a hash on chain, nothing at risk', async () => {
    const r = await scan(chain(), bob.p2wpkh);
    expect(r).toMatchObject({ keyRevealed: false, exposed: false, why: null, status: 'hidden', sats: 500_000, evidence: null, atRiskUsd: 0 });
    expect(r.valueUsd).toBe(0.005 * PRICE);
  });

  it('taproot: exposed by construction, the output key read from the address, evidence the first output paying it', async () => {
    const c = chain();
    const r = await scan(c, carol.p2tr);
    expect(r).toMatchObject({ exposed: true, why: 'taproot-key-path', sats: 250_000 });
    const xonly = Buffer.from(parsedAddress(carol.p2tr).kind === 'bitcoin' ? (parsedAddress(carol.p2tr) as { payload: Uint8Array }).payload : []).toString('hex');
    expect(r.evidence).toMatchObject({ tx: c.txid('cb1'), publicKeys: [xonly], verified: true });
  });

  it('spent everything: revealed but empty, nothing at risk', async () => {
    const r = await scan(chain(), dave.p2pkh);
    expect(r).toMatchObject({ keyRevealed: true, exposed: false, status: 'revealed-empty', sats: 0, atRiskUsd: 0 });
    expect(r.evidence!.publicKeys).toEqual([dave.pub]);
  });

  it('a pending spend already broadcast the key', async () => {
    const r = await scan(chain(), frank.p2wpkh);
    expect(r).toMatchObject({ keyRevealed: true, exposed: true, sats: 800_000, pendingSats: -100_000, utxos: 1 });
    expect(r.evidence).toMatchObject({ block: null, publicKeys: [frank.pub], verified: true });
    expect(r.evidence!.note).toMatch(/mempool/);
  });

  it('a key that does not hash to the address is reported unverified', async () => {
    const r = await scan(chain(), mallory.p2wpkh);
    expect(r.evidence).toMatchObject({ publicKeys: [sink.pub], verified: false });
  });

  it('an address no transaction used', async () => {
    const r = await scan(chain(), fixtureKey('nobody').p2wpkh);
    expect(r).toMatchObject({ status: 'unused', keyRevealed: false, sats: 0, evidence: null });
  });

  it('the first spend is found pages back in a long history, and no USD without a price', async () => {
    const c = new FixtureEsplora();
    const k = fixtureKey('busy');
    const receipts: FixtureTx[] = Array.from({ length: 70 }, (_, i) => ({ name: `r${i}`, vout: [{ to: k.p2wpkh, value: 1_000 + i }] }));
    c.mine(T0, receipts.slice(0, 5));
    c.mine(T0 + 600, [{ name: 'first-spend', vin: [{ spends: 'r0:0', witness: [FAKE_SIG, k.pub] }], vout: [{ to: sink.p2wpkh, value: 500 }] }]);
    c.mine(T0 + 1200, receipts.slice(5));
    c.mine(T0 + 1800, [{ name: 'later-spend', vin: [{ spends: 'r1:0', witness: [FAKE_SIG, k.pub] }], vout: [{ to: sink.p2wpkh, value: 500 }] }]);
    const r = await bitcoinExposure(c, { source: 'none', at: () => null }, parsedAddress(k.p2wpkh) as never);
    expect(r.evidence).toMatchObject({ tx: c.txid('first-spend'), block: 1, first: true });
    expect(c.calls.get('addressTxs')).toBe(3); // 72 transactions: pages of 25
    expect(r).toMatchObject({ exposed: true, utxos: 68, valueUsd: null, atRiskUsd: null });
  });
});
