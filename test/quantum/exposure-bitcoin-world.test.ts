/**
 * The exposure skills against the embedded Bitcoin chain, read only through its Esplora API, and
 * checked against the world's own labels (which addresses have a key on chain, why, and the sats
 * behind it): the scan's precision and recall, the migration PSBT's inputs against the address's
 * UTXOs, and the monitor's memory across two calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Transaction } from '@scure/btc-signer';
import { EsploraClient } from '../../chain/esplora.js';
import { ChainRuntime } from '../../chain/runtime.js';
import type { SkillContext } from '../../skills/core/context.js';
import { SibylError } from '../../skills/core/errors.js';
import { fixtureKey } from '../../skills/quantum/exposure/fixtures.js';
import { pqcWalletScanSkill } from '../../skills/quantum/exposure/exposure.js';
import { pqcMigrationPlannerSkill } from '../../skills/quantum/migration/migration.js';
import { pqcReadinessAssessmentSkill } from '../../skills/quantum/readiness/readiness.js';
import { ExposureObserver } from '../../skills/quantum/readiness/observer.js';
import { BitcoinIndexer } from '../../indexer/bitcoin/indexer.js';
import { quantumPortfolioMonitorSkill } from '../../skills/quantum/monitor/monitor.js';
import { MemoryStore } from '../../store/memory.js';
import { startEmbeddedBitcoin, type EmbeddedBitcoin } from '../../world/bitcoin/index.js';
import { worldOrigin } from '../../world/index.js';
import { ReferencePaths } from '../../world/reference.js';

const SEED = 'pqc-exposure';
const DAYS = 2;
let bitcoin: EmbeddedBitcoin;
let ctx: SkillContext;

beforeAll(async () => {
  const origin = worldOrigin(DAYS);
  bitcoin = await startEmbeddedBitcoin({ seed: SEED, days: DAYS, origin, reference: new ReferencePaths(SEED, origin), port: 0, liveBlocks: false });
  ctx = { chains: new ChainRuntime(), store: new MemoryStore(), bitcoin: { kind: 'embedded', esplora: new EsploraClient(bitcoin.url), prices: bitcoin.prices, entities: bitcoin.entities } };
}, 120_000);
afterAll(async () => bitcoin?.close());

type Scan = Awaited<ReturnType<typeof pqcWalletScanSkill.handler>>;
const scan = async (address: string) => (await pqcWalletScanSkill.handler(pqcWalletScanSkill.input.parse({ address }), ctx)) as Scan;

describe('quantum exposure on the embedded Bitcoin chain', () => {
  it('every labelled exposed address (with an address) is found exposed, for the labelled reason, with the labelled sats', { timeout: 120_000 }, async () => {
    const labelled = bitcoin.labels.exposed.filter((e) => !e.address.startsWith('p2pk:'));
    expect(labelled.length).toBeGreaterThan(5);
    const misses: string[] = [];
    for (const e of labelled) {
      const r = await scan(e.address);
      const row = r.chains[0]!;
      if (!row.exposed || row.why !== e.why || row.sats !== e.sats) misses.push(`${e.address}: labelled ${e.why} ${e.sats}, scanned ${row.status} ${row.why} ${row.sats}`);
      // The evidence's key hashes to the address (checked by the engine), and the USD is the sats at the feed's price.
      if (row.evidence) expect(row.evidence.verified, `${e.address} evidence`).toBe(true);
    }
    expect(misses).toEqual([]);
  });

  it('funded addresses the labels do not call exposed are not found exposed (hidden behind a hash), unless a pending spend broadcast the key', { timeout: 120_000 }, async () => {
    const exposed = new Set(bitcoin.labels.exposed.map((e) => e.address));
    const others = [...bitcoin.labels.actors.holders, ...bitcoin.labels.actors.traders].filter((a) => !exposed.has(a)).slice(0, 40);
    const wrong: string[] = [];
    for (const a of others) {
      const row = (await scan(a)).chains[0]!;
      // The labels describe the confirmed chain; a spend still in the mempool has broadcast the key already.
      if (row.exposed && row.evidence?.block !== null) wrong.push(`${a}: ${row.why} ${row.sats} ${JSON.stringify(row.evidence)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a reused address\'s evidence is a spend from it, and the USD at risk is its sats at the feed\'s price at the tip', async () => {
    const reused = bitcoin.labels.exposed.find((e) => e.why === 'reused-after-spend')!;
    const r = await scan(reused.address);
    const row = r.chains[0]!;
    const spend = await ctx.bitcoin!.esplora.tx(row.evidence!.tx);
    expect(spend!.vin.some((i) => i.prevout?.scriptpubkey_address === reused.address)).toBe(true);
    const price = bitcoin.prices.at(Date.parse(row.provenance.asOf.timestamp) / 1000)!;
    expect(row.atRiskUsd).toBeCloseTo((reused.sats / 1e8) * price, 1);
    expect(r.totals.atRiskUsd).toBe(row.atRiskUsd);
  });

  it('the migration PSBT spends exactly the address\'s confirmed UTXOs to the fresh destination', async () => {
    // A legacy address if the world has one exposed (its inputs carry whole previous transactions, rebuilt and checked).
    const exposed = bitcoin.labels.exposed.filter((e) => e.why === 'reused-after-spend');
    const source = exposed.find((e) => e.address.startsWith('1')) ?? exposed[0]!;
    const dest = fixtureKey(`fresh:${SEED}`).p2wpkh;
    const r = await pqcMigrationPlannerSkill.handler(pqcMigrationPlannerSkill.input.parse({ address: source.address, destinations: { bitcoin: dest }, feeRate: 3 }), ctx);
    const plan = r.plans[0]!;
    expect(plan).toMatchObject({ chain: 'bitcoin', exposed: true, blocked: null, destination: { address: dest, placeholder: false, fresh: true } });
    const utxos = (await ctx.bitcoin!.esplora.addressUtxo(source.address)).filter((u) => u.status.confirmed);
    const tx = Transaction.fromPSBT(Buffer.from(plan.psbt!.base64, 'base64'));
    const spent = Array.from({ length: tx.inputsLength }, (_, k) => tx.getInput(k)).map((i) => `${Buffer.from(i.txid!).toString('hex')}:${i.index}`).sort();
    expect(spent).toEqual(utxos.map((u) => `${u.txid}:${u.vout}`).sort());
    const held = utxos.reduce((s, u) => s + u.value, 0);
    expect(plan.psbt!.inputSats).toBe(held);
    expect(Number(tx.getOutput(0).amount)).toBe(held - plan.psbt!.feeSats);
    expect(plan.psbt!.feeSats).toBeGreaterThanOrEqual(plan.psbt!.vsize * 3);
  });

  it('without a destination: a placeholder and no transaction; a P2TR destination is refused by the schema', async () => {
    const source = bitcoin.labels.exposed.find((e) => !e.address.startsWith('p2pk:'))!;
    const r = await pqcMigrationPlannerSkill.handler(pqcMigrationPlannerSkill.input.parse({ address: source.address }), ctx);
    expect(r.plans[0]).toMatchObject({ psbt: null, destination: { placeholder: true } });
    expect(pqcMigrationPlannerSkill.input.safeParse({ address: source.address, destinations: { bitcoin: fixtureKey('x').p2tr } }).success).toBe(false);
  });

  it('the monitor remembers the list: a first call says so, the same list in another order compares with it', async () => {
    const list = bitcoin.labels.exposed.filter((e) => !e.address.startsWith('p2pk:')).slice(0, 3).map((e) => e.address);
    const first = await quantumPortfolioMonitorSkill.handler(quantumPortfolioMonitorSkill.input.parse({ addresses: list }), ctx);
    expect(first).toMatchObject({ firstCall: true, previousAt: null });
    expect(first.totals.exposedChains).toBe(3);
    const second = await quantumPortfolioMonitorSkill.handler(quantumPortfolioMonitorSkill.input.parse({ addresses: [...list].reverse() }), ctx);
    expect(second).toMatchObject({ firstCall: false, previousAt: first.watchList.length ? expect.any(String) : null, changes: { newlyExposed: [], noLongerExposed: [], valueChanges: [] } });
  });

  it('a Bitcoin address without a Bitcoin chain is refused before payment; a malformed one by the schema', async () => {
    const bare: SkillContext = { chains: new ChainRuntime(), store: new MemoryStore() };
    const a = bitcoin.labels.exposed.find((e) => !e.address.startsWith('p2pk:'))!.address;
    await expect(pqcWalletScanSkill.admit!(pqcWalletScanSkill.input.parse({ address: a }), bare)).rejects.toMatchObject({ code: 'chain_unavailable' } satisfies Partial<SibylError>);
    expect(pqcWalletScanSkill.input.safeParse({ address: `${a.slice(0, -1)}${a.endsWith('q') ? 'p' : 'q'}` }).success).toBe(false);
    expect(pqcWalletScanSkill.input.safeParse({ address: a, chain: 'base' }).success).toBe(false);
  });

  it('readiness of the chain: the index\'s exposure plug-in finds the labelled exposed supply to the satoshi', { timeout: 120_000 }, async () => {
    const source = ctx.bitcoin!;
    const index = new BitcoinIndexer({ esplora: source.esplora, prices: source.prices, entities: source.entities, from: 0, observers: [new ExposureObserver()] });
    try {
      await index.sync();
      const withIndex: SkillContext = { ...ctx, bitcoin: { ...source, index } };
      const r = await pqcReadinessAssessmentSkill.handler(pqcReadinessAssessmentSkill.input.parse({}), withIndex);
      const supply = [...index.utxos()].reduce((s, u) => s + u.value, 0);
      const labelled = (why: string) => bitcoin.labels.exposed.filter((e) => e.why === why).reduce((s, e) => s + e.sats, 0);
      const pctOf = (sats: number) => Math.round((1000 * sats) / supply) / 10;
      expect(r.bitcoin).toMatchObject({ available: true, basis: 'index-observer', asOfHeight: bitcoin.labels.tipHeight, supplyBtc: supply / 1e8 });
      expect(r.bitcoin!.shares).toEqual({ p2pkPct: pctOf(labelled('p2pk')), p2trPct: pctOf(labelled('taproot-key-path')), reusedPct: pctOf(labelled('reused-after-spend')), exposedPct: pctOf(bitcoin.labels.exposed.reduce((s, e) => s + e.sats, 0)) });
      const plug = index.observer<ExposureObserver>('quantum-exposure')!.supply();
      expect([plug.p2pkSats, plug.p2trSats, plug.reusedSats, plug.supplySats]).toEqual([labelled('p2pk'), labelled('taproot-key-path'), labelled('reused-after-spend'), supply]);
      expect(r.bitcoin!.score).toBe(Math.round((100 - r.bitcoin!.shares!.exposedPct) * 10) / 10);
    } finally {
      index.close();
    }
  });
});
