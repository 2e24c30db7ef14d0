/**
 * The Bitcoin index and the mempool, on-chain and cycle engines against the embedded chain's
 * Esplora API: realised cap and MVRV recomputed here from the raw API (blocks → pages → outputs,
 * not with the index) and the supply checked against the chain itself; the same answers from a
 * second server of the same chain on another port (the engines only speak the API); the skills'
 * answers parsed by their output schemas; and the fee recommendations checked against what the
 * next blocks really included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EsploraClient, type Esplora, type EsploraTx } from '../../chain/esplora.js';
import { BitcoinIndexer } from '../../indexer/bitcoin/indexer.js';
import type { BitcoinSource } from '../../chain/bitcoin.js';
import { bitcoinCycleTool } from '../../skills/bitcoin/cycle/cycle.js';
import { bitcoinMempoolSkill } from '../../skills/bitcoin/mempool/mempool.js';
import { bitcoinOnchainSkill } from '../../skills/bitcoin/onchain/onchain.js';
import type { SkillContext } from '../../skills/core/context.js';
import { SibylError } from '../../skills/core/errors.js';
import { cyclePosition } from '../../skills/bitcoin/cycle/engine.js';
import { mempoolIntelligence } from '../../skills/bitcoin/mempool/engine.js';
import { evaluateFees, spreadHeights } from '../../skills/bitcoin/mempool/eval.js';
import { onchainAnalytics } from '../../skills/bitcoin/onchain/engine.js';
import { serveEsplora, startEmbeddedBitcoin, type EmbeddedBitcoin } from '../../world/bitcoin/index.js';
import { ReferencePaths } from '../../world/reference.js';

const SEED = 'btc-engines-test';
const DAYS = 3;
const ORIGIN = 1_790_000_000;

let btc: EmbeddedBitcoin;
let second: { url: string; close(): Promise<void> };
let source: BitcoinSource;
let sourceB: BitcoinSource;

async function indexed(esplora: Esplora): Promise<BitcoinSource> {
  const index = new BitcoinIndexer({ esplora, prices: btc.prices, entities: btc.entities });
  await index.sync();
  return { kind: 'embedded', esplora, prices: btc.prices, entities: btc.entities, index };
}

beforeAll(async () => {
  btc = await startEmbeddedBitcoin({ seed: SEED, days: DAYS, origin: ORIGIN, reference: new ReferencePaths(SEED, ORIGIN), port: 0, liveBlocks: false });
  second = await serveEsplora(btc.chain, { port: 0 });
  source = await indexed(new EsploraClient(btc.url));
  sourceB = await indexed(new EsploraClient(second.url));
}, 120_000);
afterAll(async () => {
  await second?.close();
  await btc?.close();
});

/** The whole chain read block by block through the API, by hand: every confirmed transaction in order, with its block's time. */
async function walk(api: Esplora): Promise<{ time: number; txs: EsploraTx[] }[]> {
  const tip = await api.tipHeight();
  const out = [];
  for (let h = 0; h <= tip; h++) {
    const hash = (await api.blockHashAt(h))!;
    const block = (await api.block(hash))!;
    const txs: EsploraTx[] = [];
    for (let start = 0; start < block.tx_count; start += 25) txs.push(...(await api.blockTxs(hash, start)));
    out.push({ time: block.timestamp, txs });
  }
  return out;
}

describe('the Bitcoin index on the embedded chain', () => {
  it('has the realised cap and supply recomputed from the raw API, and the supply the chain itself holds', async () => {
    const unspent = new Map<string, { value: number; price: number }>();
    for (const { time, txs } of await walk(new EsploraClient(btc.url))) {
      const price = btc.prices.at(time)!;
      for (const tx of txs) {
        for (const i of tx.vin) if (!i.is_coinbase) unspent.delete(`${i.txid}:${i.vout}`);
        tx.vout.forEach((o, n) => {
          if (o.scriptpubkey_type !== 'op_return') unspent.set(`${tx.txid}:${n}`, { value: o.value, price });
        });
      }
    }
    let supply = 0, realized = 0;
    for (const u of unspent.values()) {
      supply += u.value;
      realized += (u.value / 1e8) * u.price;
    }
    // The chain's own books: every confirmed output no confirmed input spends.
    const chain = btc.chain;
    let chainSupply = 0;
    for (const t of chain.txs.values()) {
      if (t.height === undefined) continue;
      t.tx.outputs.forEach((o, n) => {
        const s = chain.spends.get(`${t.txid}:${n}`);
        const spentInBlock = s && chain.txs.get(s.txid)!.height !== undefined;
        if (!spentInBlock && o.value > 0) chainSupply += o.value;
      });
    }
    const last = source.index!.days().at(-1)!;
    expect(last.supply).toBe(supply);
    expect(supply).toBe(chainSupply);
    expect([...source.index!.utxos()].length).toBe(unspent.size);
    expect(last.realizedCap! / realized).toBeCloseTo(1, 9);

    const a = onchainAnalytics(source, 30);
    if (!a.valuation.available) throw new Error(`valuation unavailable: ${a.valuation.reason}`);
    const tip = source.index!.indexedTip()!;
    const price = btc.prices.at(tip.time)!;
    expect(a.valuation.mvrv).toBeCloseTo(((supply / 1e8) * price) / realized, 3);
    expect(a.valuation.realizedPrice).toBeCloseTo(realized / (supply / 1e8), 1);
    if (!a.coinAgeBands.available) throw new Error('bands unavailable');
    expect(a.coinAgeBands.bands.reduce((s, b) => s + b.supplyBtc, 0)).toBeCloseTo(supply / 1e8, 4);
    // The embedded chain has exchanges moving coins every day.
    expect(a.exchangeFlows.last7d.inflowBtc).toBeGreaterThan(0);
    expect(a.exchangeFlows.last7d.outflowBtc).toBeGreaterThan(0);
  });

  it('gives the same answers through a second server of the same chain (the engines only speak the API)', async () => {
    const strip = <T extends { provenance: { esplora: string } }>(x: T) => ({ ...x, provenance: { ...x.provenance, esplora: '', index: '' } });
    expect(strip(onchainAnalytics(sourceB, 100))).toEqual(strip(onchainAnalytics(source, 100)));
    // One clock for both: the tip's age is measured against it.
    const now = Date.now();
    expect(strip(await mempoolIntelligence(sourceB, 100, { now }))).toEqual(strip(await mempoolIntelligence(source, 100, { now })));
    const cycle = (s: BitcoinSource) => ({ ...cyclePosition(s), source: '', fetchedAt: '' });
    expect(cycle(sourceB)).toEqual(cycle(source));
    expect(sourceB.index!.blocks()).toEqual(source.index!.blocks());
  });

  it('answers through the skills (outputs parsed by their schemas), and refuses before payment without a chain or index', async () => {
    const ctx = { bitcoin: source } as unknown as SkillContext;
    const mempool = await bitcoinMempoolSkill.handler({ limit: 3 }, ctx);
    expect(mempool.projectedBlocks.length).toBeLessThanOrEqual(3);
    expect(mempool.blockCapacityVsize).toBeLessThanOrEqual(btc.labels.blockWeightLimit / 4);
    expect(mempool.blockCapacityVsize).toBeGreaterThan((0.8 * btc.labels.blockWeightLimit) / 4);
    // A chain built and left still: its tip ages, and the summary says so before anything else.
    expect(mempool.tip.stale).toBe(mempool.tip.ageSeconds > 2 * 600);
    expect(bitcoinMempoolSkill.summarize!(mempool)).toMatch(mempool.tip.stale ? /^Stale: the Bitcoin tip \(height \d+\) is \d+ min old.* Bitcoin mempool (clear|busy|congested|severe): / : /^Bitcoin mempool (clear|busy|congested|severe): /);
    const onchain = await bitcoinOnchainSkill.handler({ limit: 5 }, ctx);
    expect(onchain.daily).toHaveLength(5);
    expect(onchain.blockRange).toEqual({ from: 0, to: btc.labels.tipHeight });
    expect(bitcoinOnchainSkill.summarize!(onchain)).toMatch(/MVRV \d/);
    const cycle = await bitcoinCycleTool.handler({}, ctx);
    expect(cycle).toMatchObject({ available: true, limit: null, mvrv: { signal: expect.any(String) } });
    expect(cycle.timeSeries!.length).toBeGreaterThanOrEqual(DAYS);

    const refused = async (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);
    const none = { bitcoin: undefined } as unknown as SkillContext;
    expect(await refused(bitcoinMempoolSkill.admit!({ limit: 3 }, none))).toMatchObject({ code: 'domain_disabled' });
    expect(await refused(bitcoinOnchainSkill.admit!({ limit: 3 }, none))).toBeInstanceOf(SibylError);
    const building = new BitcoinIndexer({ esplora: new EsploraClient(btc.url), prices: btc.prices, entities: [] });
    const notYet = { bitcoin: { ...source, index: building } } as unknown as SkillContext;
    expect(await refused(bitcoinOnchainSkill.admit!({ limit: 3 }, notYet))).toMatchObject({ code: 'upstream_unavailable' });
    expect(await bitcoinCycleTool.handler({}, none)).toMatchObject({ available: false, reason: 'domain_disabled' });
  });

  it('recommends feerates that the next blocks really cleared (most of the time, more often than the floor)', async () => {
    const { labels } = btc;
    const heights = spreadHeights(labels.denseFromHeight + 144, labels.tipHeight - 6, 16);
    const scores = await evaluateFees({ serveAt: (h) => serveEsplora(btc.chain, { asOfHeight: h, port: 0 }), blocks: labels.blocks, heights, targets: [1, 3, 6] });
    for (const s of scores) {
      expect(s.samples).toBe(16);
      expect(s.hitRate.sibyl).toBeGreaterThanOrEqual(0.75);
      expect(s.hitRate.sibyl).toBeGreaterThanOrEqual(s.hitRate.floor);
      // Not by paying anything: a median overpayment under 2x what cleared.
      expect(s.medianOverpay.sibyl).toBeLessThan(2);
    }
  }, 120_000);
});
