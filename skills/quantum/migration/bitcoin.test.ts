import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { NETWORK, OutScript, p2pkh, p2wpkh, Transaction } from '@scure/btc-signer';
import type { EsploraTx } from '../../../chain/esplora.js';
import { parsedAddress } from '../exposure/address.js';
import { FAKE_SIG, FixtureEsplora, fixtureKey } from '../exposure/fixtures.js';
import { rawTxFromEsplora, sweepFeeRate, sweepPsbt, txidOf } from './bitcoin.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const btc = (a: string) => parsedAddress(a) as Extract<ReturnType<typeof parsedAddress>, { kind: 'bitcoin' }>;

/** A transaction signed by btc-signer, described as Esplora's JSON describes it. */
function signedAsEsplora(kind: 'p2wpkh' | 'p2pkh'): { tx: Transaction; json: EsploraTx } {
  const secret = new Uint8Array(createHash('sha256').update(`signer:${kind}`).digest());
  const pub = secp256k1.getPublicKey(secret, true);
  const pay = kind === 'p2wpkh' ? p2wpkh(pub) : p2pkh(pub);
  const tx = new Transaction({ allowLegacyWitnessUtxo: true });
  tx.addInput({ txid: 'ab'.repeat(32), index: 1, witnessUtxo: { script: pay.script, amount: 50_000n }, sequence: 0xfffffffd });
  tx.addOutputAddress(fixtureKey('out').p2wpkh, 40_000n, NETWORK);
  tx.sign(secret);
  tx.finalize();
  const i = tx.getInput(0);
  const json = {
    txid: tx.id, version: tx.version, locktime: tx.lockTime, size: 0, weight: 0, fee: 10_000, status: { confirmed: true },
    vin: [{ txid: 'ab'.repeat(32), vout: 1, prevout: null, scriptsig: hex(i.finalScriptSig ?? new Uint8Array()), scriptsig_asm: '', ...(i.finalScriptWitness && { witness: i.finalScriptWitness.map(hex) }), is_coinbase: false, sequence: 0xfffffffd }],
    vout: [{ scriptpubkey: hex(tx.getOutput(0).script!), scriptpubkey_asm: '', scriptpubkey_type: 'v0_p2wpkh', value: 40_000 }],
  } satisfies EsploraTx;
  return { tx, json };
}

describe('bitcoin sweep PSBT (pqc-migration/v1)', () => {
  it.each(['p2wpkh', 'p2pkh'] as const)('a %s transaction rebuilt from Esplora JSON is byte for byte what was signed, and hashes to its id', (kind) => {
    const { tx, json } = signedAsEsplora(kind);
    expect(hex(rawTxFromEsplora(json))).toBe(hex(tx.extract()));
    expect(txidOf(json)).toBe(tx.id);
  });

  it('sweeps every confirmed UTXO of an exposed P2WPKH address to a fresh P2WPKH, unsigned, fee at the rate asked', async () => {
    const alice = fixtureKey('alice');
    const dest = fixtureKey('fresh').p2wpkh;
    const c = new FixtureEsplora()
      .mine(1, [{ name: 'cb', vout: [{ to: alice.p2wpkh, value: 100_000 }, { to: alice.p2wpkh, value: 30_000 }, { to: alice.p2wpkh, value: 5_000 }] }])
      .mine(2, [{ name: 'spend', vin: [{ spends: 'cb:2', witness: [FAKE_SIG, alice.pub] }], vout: [{ to: fixtureKey('x').p2wpkh, value: 4_000 }] }])
      .pend([{ name: 'incoming', vout: [{ to: alice.p2wpkh, value: 7_000 }] }]);
    const r = await sweepPsbt(c, btc(alice.p2wpkh), btc(dest), 5);
    expect(r.ok).toBe(true);
    const s = (r as Extract<typeof r, { ok: true }>).sweep;
    // By hand: 10.5 overhead + 2 P2WPKH inputs of 68 vB + one P2WPKH output of 31 vB = 177.5 -> 178 vB at 5 sat/vB.
    expect(s).toMatchObject({ inputSats: 130_000, vsize: 178, feeSats: 890, amountSats: 129_110, destination: dest });
    const decoded = Transaction.fromPSBT(Buffer.from(s.psbt, 'base64'));
    expect(decoded.inputsLength).toBe(2);
    expect(decoded.isFinal).toBe(false);
    const inputs = [0, 1].map((k) => decoded.getInput(k));
    expect(inputs.map((i) => [hex(i.txid!), i.index, i.witnessUtxo!.amount])).toEqual([[c.txid('cb'), 0, 100_000n], [c.txid('cb'), 1, 30_000n]]);
    expect(inputs.every((i) => hex(i.witnessUtxo!.script) === hex(OutScript.encode({ type: 'wpkh', hash: (btc(alice.p2wpkh).payload) })))).toBe(true);
    expect(inputs.every((i) => !i.finalScriptWitness && !i.partialSig)).toBe(true);
    expect(decoded.outputsLength).toBe(1);
    expect(decoded.getOutput(0).amount).toBe(129_110n);
    expect(hex(decoded.getOutput(0).script!)).toBe(hex(OutScript.encode({ type: 'wpkh', hash: btc(dest).payload })));
  });

  it('refuses dust, an empty address and a taproot destination', async () => {
    const k = fixtureKey('small');
    const c = new FixtureEsplora().mine(1, [{ name: 'cb', vout: [{ to: k.p2wpkh, value: 600 }] }]);
    expect(await sweepPsbt(c, btc(k.p2wpkh), btc(fixtureKey('d').p2wpkh), 5)).toMatchObject({ ok: false, reason: expect.stringMatching(/dust/) });
    expect(await sweepPsbt(c, btc(fixtureKey('none').p2wpkh), btc(fixtureKey('d').p2wpkh), 5)).toMatchObject({ ok: false, reason: expect.stringMatching(/no confirmed UTXO/) });
    expect(await sweepPsbt(c, btc(k.p2wpkh), btc(fixtureKey('d').p2tr), 1)).toMatchObject({ ok: false, reason: expect.stringMatching(/P2WPKH or P2WSH/) });
  });

  it('the feerate is the server\'s 6-block estimate, rounded up', async () => {
    expect(await sweepFeeRate(new FixtureEsplora())).toBe(8);
  });
});
