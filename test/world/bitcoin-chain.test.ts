/**
 * The embedded Bitcoin chain is a real chain: blocks and transactions parse with
 * @scure/btc-signer, txids, merkle roots and proof of work check out with independent hashing,
 * signatures verify over btc-signer's own sighash preimages, no output is spent twice, fees add
 * up, and blocks are filled by feerate. Deterministic per seed.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { Transaction } from '@scure/btc-signer';
import { secp256k1, schnorr } from '@noble/curves/secp256k1';
import { BitcoinWorld } from '../../world/bitcoin/bitcoin-world.js';
import { BLOCK_WEIGHT_LIMIT } from '../../world/bitcoin/fees.js';
import type { ChainTx } from '../../world/bitcoin/chain.js';
import { ReferencePaths } from '../../world/reference.js';

const SEED = 'btc-chain-test';
const DAYS = 2;
const ORIGIN = 1_790_000_000;

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest();
const dsha = (b: Uint8Array) => sha(sha(b));
const rev = (hex: string) => Buffer.from(hex, 'hex').reverse();
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function build() {
  return BitcoinWorld.build({ seed: SEED, days: DAYS, origin: ORIGIN, reference: new ReferencePaths(SEED, ORIGIN) });
}

let world: BitcoinWorld;
beforeAll(async () => {
  world = await build();
}, 60_000);

describe('embedded bitcoin chain', () => {
  it('is the same chain for the same seed', async () => {
    const again = await build();
    expect(again.engine.chain.tip.hash).toBe(world.engine.chain.tip.hash);
    expect(again.engine.chain.mempool.size).toBe(world.engine.chain.mempool.size);
  }, 60_000);

  it('has real headers: linked, merkle roots of the txids, proof of work under the target, increasing times', () => {
    const chain = world.engine.chain;
    let prev = '00'.repeat(32);
    for (const b of chain.blocks) {
      const header = Buffer.alloc(80);
      header.writeInt32LE(b.header.version, 0);
      rev(prev).copy(header, 4);
      // Merkle root recomputed here, not with the world's code.
      let level: Buffer[] = b.txids.map(rev);
      while (level.length > 1) {
        const next: Buffer[] = [];
        for (let i = 0; i < level.length; i += 2) next.push(dsha(Buffer.concat([level[i]!, level[i + 1] ?? level[i]!])));
        level = next;
      }
      expect(hex(Buffer.from(level[0]!).reverse())).toBe(b.header.merkleRoot);
      level[0]!.copy(header, 36);
      header.writeUInt32LE(b.header.time, 68);
      header.writeUInt32LE(b.header.bits, 72);
      header.writeUInt32LE(b.header.nonce, 76);
      const hash = hex(dsha(header).reverse());
      expect(hash).toBe(b.hash);
      const exp = b.header.bits >>> 24;
      const target = BigInt(b.header.bits & 0x7fffff) << BigInt(8 * (exp - 3));
      expect(BigInt(`0x${hash}`) <= target).toBe(true);
      if (b.height > 0) expect(b.header.time).toBeGreaterThan(chain.blocks[b.height - 1]!.header.time);
      prev = hash;
    }
  });

  it('has transactions that parse with btc-signer to the same txid, and blocks carry the witness commitment', () => {
    const chain = world.engine.chain;
    for (const b of chain.blocks) {
      const wtxids: Buffer[] = [];
      b.txids.forEach((id, i) => {
        const t = chain.txs.get(id)!;
        const parsed = Transaction.fromRaw(t.raw, { allowUnknownOutputs: true, allowUnknownInputs: true, disableScriptCheck: true, allowLegacyWitnessUtxo: true });
        expect(parsed.id).toBe(id);
        expect(parsed.weight).toBe(t.weight);
        wtxids.push(i === 0 ? Buffer.alloc(32) : rev(t.wtxid));
      });
      const cb = chain.txs.get(b.txids[0]!)!;
      const hasWitness = b.txids.slice(1).some((id) => chain.txs.get(id)!.tx.inputs.some((i) => i.witness.length));
      const commitment = cb.tx.outputs.find((o) => hex(o.script).startsWith('6a24aa21a9ed'));
      if (!hasWitness) continue;
      let level: Buffer[] = wtxids;
      while (level.length > 1) {
        const next: Buffer[] = [];
        for (let i = 0; i < level.length; i += 2) next.push(dsha(Buffer.concat([level[i]!, level[i + 1] ?? level[i]!])));
        level = next;
      }
      expect(hex(commitment!.script).slice(12)).toBe(hex(dsha(Buffer.concat([level[0]!, Buffer.alloc(32)]))));
    }
  });

  it('spends only existing, unspent, mature outputs; inputs = outputs + fee; coinbases claim no more than subsidy + fees after the pre-history', () => {
    const chain = world.engine.chain;
    const unspent = new Map<string, { value: number; coinbaseHeight: number | null }>();
    for (const b of chain.blocks) {
      let fees = 0;
      for (const id of b.txids) {
        const t = chain.txs.get(id)!;
        let inSum = 0;
        if (!t.coinbase) for (const i of t.tx.inputs) {
          const key = `${i.prevTxid}:${i.vout}`;
          const prev = unspent.get(key);
          expect(prev, `${id} spends ${key}`).toBeDefined();
          if (prev!.coinbaseHeight !== null) expect(b.height - prev!.coinbaseHeight).toBeGreaterThanOrEqual(100);
          unspent.delete(key);
          inSum += prev!.value;
        }
        const outSum = t.tx.outputs.reduce((a, o) => a + o.value, 0);
        if (!t.coinbase) {
          expect(inSum).toBe(outSum + t.fee);
          expect(t.fee).toBeGreaterThan(0);
          fees += t.fee;
        }
        t.tx.outputs.forEach((o, vout) => unspent.set(`${id}:${vout}`, { value: o.value, coinbaseHeight: t.coinbase ? b.height : null }));
      }
      if (b.height >= world.denseFromHeight) {
        const cb = chain.txs.get(b.txids[0]!)!;
        expect(cb.tx.outputs.reduce((a, o) => a + o.value, 0)).toBeLessThanOrEqual(312_500_000 + fees);
      }
    }
    // The mempool spends confirmed outputs only, and none twice.
    const seen = new Set<string>();
    for (const t of chain.mempool.values()) for (const i of t.tx.inputs) {
      const key = `${i.prevTxid}:${i.vout}`;
      expect(unspent.has(key)).toBe(true);
      expect(seen.has(key)).toBe(false);
      seen.add(key);
    }
  });

  it('signs every input validly (btc-signer preimages, noble verification)', () => {
    const chain = world.engine.chain;
    let checked = 0;
    const all = [...chain.txs.values()].filter((t) => !t.coinbase);
    for (const t of all.filter((_, k) => k % 7 === 0)) {
      const parsed = Transaction.fromRaw(t.raw, { allowUnknownOutputs: true, allowUnknownInputs: true, disableScriptCheck: true });
      const prevs = t.tx.inputs.map((i) => chain.output(i.prevTxid, i.vout)!);
      t.tx.inputs.forEach((input, idx) => {
        const prev = prevs[idx]!;
        const s = hex(prev.script);
        if (s.startsWith('0014')) {
          const [sig, pub] = input.witness;
          const scriptCode = Buffer.concat([Buffer.from('76a914', 'hex'), Buffer.from(prev.script.subarray(2)), Buffer.from('88ac', 'hex')]);
          const digest = parsed.preimageWitnessV0(idx, scriptCode, 1, BigInt(prev.value));
          expect(secp256k1.verify(sig!.subarray(0, -1), digest, pub!, { format: 'der' } as never)).toBe(true);
          checked++;
        } else if (s.startsWith('5120')) {
          const leaf = input.witness.length >= 3 ? input.witness[input.witness.length - 2] : undefined;
          const digest = parsed.preimageWitnessV1(idx, prevs.map((p) => p.script), 0, prevs.map((p) => BigInt(p.value)), undefined, leaf, leaf ? 0xc0 : undefined);
          const key = leaf ? leaf.subarray(1, 33) : prev.script.subarray(2);
          expect(schnorr.verify(input.witness[leaf ? input.witness.length - 3 : 0]!, digest, key)).toBe(true);
          checked++;
        }
      });
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('fills blocks by feerate: nothing left waiting pays more than the cheapest included, and a block leaves txs behind only when full', () => {
    const chain = world.engine.chain;
    let fullBlocks = 0;
    for (const b of chain.blocks.filter((x) => x.height >= world.denseFromHeight)) {
      const included = b.txids.slice(1).map((id) => chain.txs.get(id)!);
      const waiting = [...chain.txs.values()].filter((t) => !t.coinbase && t.seenAt < b.header.time && (t.height === undefined || t.height > b.height));
      if (!waiting.length) continue;
      fullBlocks++;
      const rate = (t: ChainTx) => t.fee / Math.ceil(t.weight / 4);
      const minIncluded = Math.min(...included.map(rate));
      const best = waiting.reduce((a, t) => (rate(t) > rate(a) || (rate(t) === rate(a) && t.seenAt < a.seenAt) ? t : a));
      if (included.length) expect(rate(best)).toBeLessThanOrEqual(minIncluded);
      // The block stopped at the best waiting tx because it did not fit (1,000 WU kept for header and coinbase).
      expect(1000 + included.reduce((a, t) => a + t.weight, 0) + best.weight).toBeGreaterThan(BLOCK_WEIGHT_LIMIT);
    }
    expect(fullBlocks).toBeGreaterThan(5);
  });
});
