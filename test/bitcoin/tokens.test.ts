/**
 * BRC-20, runes and staking end to end: the embedded Bitcoin chain served as an Esplora API, the
 * Bitcoin index reading it with the token and staking observers, and the three skills answering
 * from them, checked against the world's labels (its ground truth, recomputed here from the
 * labelled operations, never from the observers' code).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EsploraClient, type Esplora, type EsploraBlock, type EsploraTx } from '../../chain/esplora.js';
import { BitcoinIndexer } from '../../indexer/bitcoin/indexer.js';
import { brc20AnalyticsSkill } from '../../skills/bitcoin/brc20/brc20.js';
import { runesAnalyticsSkill } from '../../skills/bitcoin/runes/runes.js';
import type { BitcoinSource } from '../../chain/bitcoin.js';
import { bitcoinStakingSkill } from '../../skills/bitcoin/staking/staking.js';
import type { SkillContext } from '../../skills/core/context.js';
import type { Brc20Index } from '../../skills/bitcoin/brc20/indexer.js';
import { brc20Report } from '../../skills/bitcoin/brc20/report.js';
import { runesReport } from '../../skills/bitcoin/runes/report.js';
import { stakingReport } from '../../skills/bitcoin/staking/report.js';
import { bitcoinObservers, BRC20_OBSERVER, RUNES_OBSERVER, STAKING_OBSERVER } from '../../skills/bitcoin/observers/observers.js';
import type { RunesIndex } from '../../skills/bitcoin/runes/indexer.js';
import type { StakingIndex } from '../../skills/bitcoin/staking/indexer.js';
import { startEmbeddedBitcoin, type BitcoinLabels, type EmbeddedBitcoin } from '../../world/bitcoin/index.js';
import { ReferencePaths } from '../../world/reference.js';

const SEED = 'btc-tokens-test';
const ORIGIN = 1_790_000_000;
const E18 = 10n ** 18n;

let btc: EmbeddedBitcoin;
let labels: BitcoinLabels;
let esplora: EsploraClient;
let index: BitcoinIndexer;
let source: BitcoinSource;
const ctx = () => ({ bitcoin: source }) as unknown as SkillContext;

beforeAll(async () => {
  btc = await startEmbeddedBitcoin({ seed: SEED, days: 3, origin: ORIGIN, reference: new ReferencePaths(SEED, ORIGIN), port: 0, liveBlocks: false });
  labels = btc.labels;
  esplora = new EsploraClient(btc.url);
  index = new BitcoinIndexer({ esplora, prices: btc.prices, entities: btc.entities, observers: bitcoinObservers(), from: 0 });
  await index.sync();
  source = { kind: 'embedded', esplora, prices: btc.prices, entities: btc.entities, index };
}, 180_000);
afterAll(async () => {
  index?.close();
  await btc?.close();
});

/** Adds to a balance map (address → amount). */
const credit = (m: Map<string, bigint>, who: string, v: bigint) => m.set(who, (m.get(who) ?? 0n) + v);
const positive = (m: Map<string, bigint>) => Object.fromEntries([...m].filter(([, v]) => v > 0n).sort(([a], [b]) => a.localeCompare(b)));

describe('the index read the whole chain', () => {
  it('reached the labels\' tip', () => {
    expect(index.indexedHeight()).toBe(labels.tipHeight);
    for (const name of [BRC20_OBSERVER, RUNES_OBSERVER, STAKING_OBSERVER]) {
      expect(index.observer<Brc20Index>(name)!.coverage).toMatchObject({ fromHeight: 0, toHeight: labels.tipHeight, toHash: labels.tipHash, consistent: true });
    }
  });
});

describe('BRC-20', () => {
  const brc = () => index.observer<Brc20Index>(BRC20_OBSERVER)!;

  it('has the world\'s deployed tickers with their max and lim', () => {
    const deploys = labels.inscriptions.filter((i) => i.op === 'deploy' && i.valid);
    expect(deploys.length).toBeGreaterThan(0);
    const mine = Object.fromEntries(brc().tickers().map((t) => [t.tick, { max: t.max, lim: t.lim, deployInscription: t.deployInscription }]));
    expect(mine).toEqual(Object.fromEntries(deploys.map((d) => [d.ticker, { max: BigInt(d.amount) * E18, lim: BigInt(d.lim!) * E18, deployInscription: d.inscriptionId }])));
  });

  it('counts the valid mints and their supply, and refuses the invalid ones', () => {
    const mints = labels.inscriptions.filter((i) => i.op === 'mint');
    expect(mints.some((m) => !m.valid)).toBe(true);
    for (const t of brc().tickers()) {
      const valid = mints.filter((m) => m.ticker === t.tick && m.valid);
      expect(t.mints, t.tick).toBe(valid.length);
      expect(t.invalidMints, t.tick).toBe(mints.filter((m) => m.ticker === t.tick && !m.valid).length);
      expect(t.minted, t.tick).toBe(valid.reduce((s, m) => s + BigInt(m.amount), 0n) * E18);
    }
  });

  it('has every holder\'s balance from the mints and the transfers sent', () => {
    const transfers = labels.inscriptions.filter((i) => i.op === 'transfer' && i.sentTo);
    expect(transfers.length).toBeGreaterThan(0);
    for (const t of brc().tickers()) {
      const expected = new Map<string, bigint>();
      for (const i of labels.inscriptions.filter((x) => x.ticker === t.tick && x.valid)) {
        if (i.op === 'mint') credit(expected, i.owner, BigInt(i.amount) * E18);
        if (i.op === 'transfer' && i.sentTo) {
          credit(expected, i.owner, -BigInt(i.amount) * E18);
          credit(expected, i.sentTo, BigInt(i.amount) * E18);
        }
      }
      const mine = new Map(brc().holders(t.tick).map((h) => [h.address, h.balance]));
      expect(positive(mine), t.tick).toEqual(positive(expected));
    }
    expect(new Set(brc().recentTransfers().map((t) => t.txid))).toEqual(new Set(transfers.map((t) => t.sentTxid)));
    expect(brc().pendingTransfers()).toBe(labels.inscriptions.filter((i) => i.op === 'transfer' && i.valid && !i.sentTo).length);
  });
});

describe('runes', () => {
  const runes = () => index.observer<RunesIndex>(RUNES_OBSERVER)!;

  it('has the world\'s etchings, with their terms', () => {
    expect(labels.runes.length).toBeGreaterThan(0);
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    const mine = runes().runes().map((r) => ({ id: r.id, spacedName: r.spacedName, divisibility: r.divisibility, symbol: r.symbol, premine: r.premine.toString(), amount: r.terms?.amount?.toString() ?? null, cap: r.terms?.cap?.toString() ?? null, etchingTxid: r.etchingTxid }));
    expect(mine.sort(byId)).toEqual(labels.runes.map((r) => ({ id: r.id, spacedName: r.spacedName, divisibility: r.divisibility, symbol: r.symbol, premine: r.premine, amount: r.amount, cap: r.cap, etchingTxid: r.etchingTxid })).sort(byId));
  });

  it('counts the mints within each cap, and has every holder\'s balance', async () => {
    expect(labels.runes.some((r) => r.transfers.length > 0)).toBe(true);
    const balances = runes().balances();
    for (const r of labels.runes) {
      const entry = runes().runes().find((x) => x.id === r.id)!;
      expect(entry.mints, r.spacedName).toBe(r.mints.length);
      expect(entry.mints).toBeLessThanOrEqual(Number(r.cap));
      const expected = new Map<string, bigint>();
      // The premine goes to the etching's first output that is not an OP_RETURN (read here from the API).
      const etching = (await esplora.tx(r.etchingTxid))!;
      if (BigInt(r.premine) > 0n) credit(expected, etching.vout.find((o) => o.scriptpubkey_type !== 'op_return')!.scriptpubkey_address!, BigInt(r.premine));
      for (const m of r.mints) credit(expected, m.to, BigInt(r.amount!));
      for (const t of r.transfers) {
        credit(expected, t.from, -BigInt(t.amount));
        credit(expected, t.to, BigInt(t.amount));
      }
      expect(positive(balances.get(r.id) ?? new Map()), r.spacedName).toEqual(positive(expected));
    }
  });
});

describe('staking', () => {
  const staking = () => index.observer<StakingIndex>(STAKING_OBSERVER)!;

  it('has every stake with its amount, keys and timelock', () => {
    expect(labels.staking.length).toBeGreaterThan(0);
    const byTxid = (a: { txid: string }, b: { txid: string }) => a.txid.localeCompare(b.txid);
    const mine = staking().stakes().map((s) => ({ txid: s.txid, sats: s.sats, stakerPk: s.stakerPk, finalityProviderPk: s.finalityProviderPk, timelock: s.stakingTime, height: s.height }));
    expect(mine.sort(byTxid)).toEqual(labels.staking.map((s) => ({ txid: s.txid, sats: s.sats, stakerPk: s.stakerPk, finalityProviderPk: s.finalityProviderPk, timelock: s.timelock, height: s.height })).sort(byTxid));
  });

  it('tells unbondings from withdrawals at the heights they happened', () => {
    expect(labels.staking.some((s) => s.unbondedAt !== null)).toBe(true);
    const byTxid = new Map(staking().stakes().map((s) => [s.txid, s]));
    for (const l of labels.staking) {
      const s = byTxid.get(l.txid)!;
      if (l.unbondedAt !== null) {
        expect(s.state, l.txid).toBe(l.withdrawnAt !== null ? 'unbonded' : 'unbonding');
        expect(s.endedAt).toBe(l.unbondedAt);
        expect(s.unbondedAt).toBe(l.withdrawnAt);
      } else if (l.withdrawnAt !== null) {
        expect(s.state, l.txid).toBe('withdrawn');
        expect(s.endedAt).toBe(l.withdrawnAt);
      } else expect(s.state, l.txid).toBe('active');
    }
  });
});

describe('the skills', () => {
  it('brc20-analytics answers from the index, with provenance', async () => {
    await brc20AnalyticsSkill.admit!({ limit: 5 }, ctx());
    const r = await brc20AnalyticsSkill.handler({ limit: 5 }, ctx());
    expect(r).toMatchObject({ available: true, source: 'embedded', chain: 'bitcoin', esplora: btc.url, asOf: { height: labels.tipHeight, hash: labels.tipHash }, blockRange: { from: 0, to: labels.tipHeight } });
    const deployed = labels.inscriptions.filter((i) => i.op === 'deploy' && i.valid);
    expect(r.totals!.tickers).toBe(deployed.length);
    for (const t of r.tickers) {
      const max = BigInt(deployed.find((d) => d.ticker === t.tick)!.amount);
      const minted = labels.inscriptions.filter((i) => i.op === 'mint' && i.valid && i.ticker === t.tick).reduce((s, m) => s + BigInt(m.amount), 0n);
      expect(t.minted).toBe(minted.toString());
      expect(t.mintProgressPct).toBeCloseTo((Number(minted) / Number(max)) * 100, 3);
      expect(t.topHolders.length).toBeLessThanOrEqual(5);
    }
    expect(brc20AnalyticsSkill.summarize!(r)).toMatch(/BRC-20 tickers/);
  });

  it('runes-analytics and bitcoin-staking-analysis answer with the labelled totals', async () => {
    const runes = await runesAnalyticsSkill.handler({ limit: 10 }, ctx());
    expect(runes.available).toBe(true);
    expect(runes.totals!.mints).toBe(labels.runes.reduce((s, r) => s + r.mints.length, 0));
    expect(new Set(runes.recentEtchings.map((e) => e.name))).toEqual(new Set(labels.runes.map((r) => r.spacedName)));
    const staking = await bitcoinStakingSkill.handler({ limit: 10 }, ctx());
    const active = labels.staking.filter((s) => s.unbondedAt === null && s.withdrawnAt === null);
    expect(staking).toMatchObject({ available: true, activeStakes: active.length, totalStaked: { sats: active.reduce((s, x) => s + x.sats, 0) } });
    expect(staking.timelocks!.reduce((s, b) => s + b.sats, 0)).toBe(staking.totalStaked!.sats);
    const early = labels.staking.filter((s) => s.unbondedAt !== null);
    expect(staking.unbonding!.inProgress.count + staking.unbonding!.completed.count).toBe(early.length);
    expect(staking.finalityProviders!.count).toBe(new Set(active.map((s) => s.finalityProviderPk)).size);
  });

  it('refuses before payment without a Bitcoin chain, an index or its plug-in', async () => {
    await expect(brc20AnalyticsSkill.admit!({ limit: 5 }, {} as SkillContext)).rejects.toMatchObject({ code: 'domain_disabled' });
    const { index: _i, ...noIndex } = source;
    await expect(runesAnalyticsSkill.admit!({ limit: 5 }, { bitcoin: noIndex } as unknown as SkillContext)).rejects.toMatchObject({ code: 'domain_disabled' });
    const bare = new BitcoinIndexer({ esplora, prices: btc.prices, entities: btc.entities, from: labels.tipHeight });
    await expect(bitcoinStakingSkill.admit!({ limit: 5 }, { bitcoin: { ...source, index: bare } } as unknown as SkillContext)).rejects.toMatchObject({ code: 'domain_disabled' });
    const unread = new BitcoinIndexer({ esplora, prices: btc.prices, entities: btc.entities, observers: bitcoinObservers(), from: 0 });
    await expect(bitcoinStakingSkill.admit!({ limit: 5 }, { bitcoin: { ...source, index: unread } } as unknown as SkillContext)).rejects.toMatchObject({ code: 'upstream_unavailable' });
  });

  it('refuses before payment, and says it is not available, when the index began after the chain\'s start', async () => {
    const late = new BitcoinIndexer({ esplora, prices: btc.prices, entities: btc.entities, observers: bitcoinObservers(), from: { blocksBehindTip: 20 } });
    await late.sync();
    const lateCtx = { bitcoin: { ...source, index: late } } as unknown as SkillContext;
    for (const skill of [brc20AnalyticsSkill, runesAnalyticsSkill, bitcoinStakingSkill] as const) {
      await expect(skill.admit!({ limit: 5 }, lateCtx), skill.id).rejects.toMatchObject({ code: 'domain_disabled', message: expect.stringContaining(`began reading at height ${labels.tipHeight - 20}`) });
    }
    for (const skill of [brc20AnalyticsSkill, runesAnalyticsSkill, bitcoinStakingSkill] as const) {
      const r = await (skill.handler as (i: { limit: number }, c: SkillContext) => Promise<{ available: boolean; reason?: string; blockRange: { from: number } }>)({ limit: 5 }, lateCtx);
      expect(r.available, skill.id).toBe(false);
      expect(r.reason).toMatch(`began reading at height ${labels.tipHeight - 20}`);
      expect(r.blockRange.from).toBe(labels.tipHeight - 20);
    }
  });
});

/**
 * The real chain, or a view of it: capped at a height, or with the blocks above a height replaced
 * by a longer branch of coinbase-only blocks (a reorganisation, as the API would show one).
 */
class ViewedEsplora implements Esplora {
  view: { kind: 'real' } | { kind: 'capped'; at: number } | { kind: 'fork'; above: number; to: number } = { kind: 'real' };
  readonly baseUrl: string;
  constructor(private readonly real: EsploraClient) {
    this.baseUrl = real.baseUrl;
  }

  private fakeHash = (h: number) => h.toString(16).padStart(64, 'f');
  private isFake = (hash: string) => hash.startsWith('ffff');
  private fakeHeight = (hash: string) => parseInt(hash.replace(/^f+/, '') || '0', 16);

  tipHeight = async () => (this.view.kind === 'capped' ? this.view.at : this.view.kind === 'fork' ? this.view.to : this.real.tipHeight());
  tipHash = async () => (await this.blockHashAt(await this.tipHeight()))!;
  blockHashAt = async (h: number) => {
    if (this.view.kind === 'capped' && h > this.view.at) return null;
    if (this.view.kind === 'fork' && h > this.view.above) return h <= this.view.to ? this.fakeHash(h) : null;
    return this.real.blockHashAt(h);
  };
  block = async (hash: string): Promise<EsploraBlock | null> => {
    if (!this.isFake(hash)) return this.real.block(hash);
    const h = this.fakeHeight(hash);
    const above = (this.view as { above: number }).above;
    const prev = h - 1 > above ? this.fakeHash(h - 1) : (await this.real.blockHashAt(h - 1))!;
    return { id: hash, height: h, version: 0x20000000, timestamp: ORIGIN + 4 * 86_400 + h * 600, tx_count: 1, size: 300, weight: 1_200, merkle_root: hash, previousblockhash: prev, nonce: 0, bits: 0 };
  };
  blockTxs = async (hash: string, start = 0): Promise<EsploraTx[]> => {
    if (!this.isFake(hash)) return this.real.blockTxs(hash, start);
    const coinbase: EsploraTx = {
      txid: hash.replace(/^f/, 'e'), version: 2, locktime: 0, size: 100, weight: 400, fee: 0, status: { confirmed: true },
      vin: [{ txid: '00'.repeat(32), vout: 0xffffffff, prevout: null, scriptsig: '', scriptsig_asm: '', is_coinbase: true, sequence: 0xffffffff }],
      vout: [{ scriptpubkey: '0014' + '00'.repeat(20), scriptpubkey_asm: '', scriptpubkey_type: 'v0_p2wpkh', scriptpubkey_address: 'bc1qfork', value: 312_500_000 }],
    };
    return start === 0 ? [coinbase] : [];
  };
  blockTxids = (hash: string) => this.real.blockTxids(hash);
  tx = (txid: string) => this.real.tx(txid);
  outspends = (txid: string) => this.real.outspends(txid);
  address = (a: string) => this.real.address(a);
  addressUtxo = (a: string) => this.real.addressUtxo(a);
  addressTxs = (a: string, after?: string) => this.real.addressTxs(a, after);
  mempool = () => this.real.mempool();
  mempoolRecent = () => this.real.mempoolRecent();
  mempoolTxids = () => this.real.mempoolTxids();
  feeEstimates = () => this.real.feeEstimates();
}

describe('a reorganisation', () => {
  /** Everything the three reports say, at a height. */
  function reports(ix: BitcoinIndexer, height: number) {
    return {
      brc20: brc20Report(ix.observer<Brc20Index>(BRC20_OBSERVER)!, 1_000),
      runes: runesReport(ix.observer<RunesIndex>(RUNES_OBSERVER)!, height, 1_000),
      staking: stakingReport(ix.observer<StakingIndex>(STAKING_OBSERVER)!, height, 1_000),
    };
  }

  it('undoes the dropped blocks\' tokens and stakes, and reads the winning branch back the same', async () => {
    const fork = labels.tipHeight - 100;
    // Protocol activity in the dropped blocks, so undoing it is tested.
    expect(labels.inscriptions.filter((i) => i.height > fork).length).toBeGreaterThan(0);
    expect(labels.staking.filter((s) => s.height > fork || (s.unbondedAt ?? 0) > fork).length).toBeGreaterThan(0);
    const viewed = new ViewedEsplora(esplora);
    const followed = new BitcoinIndexer({ esplora: viewed, prices: btc.prices, entities: btc.entities, observers: bitcoinObservers(), from: 0 });
    await followed.sync();
    const before = reports(followed, labels.tipHeight);

    // A longer branch from the fork: the observers must hold exactly what an index of the chain up to the fork holds.
    viewed.view = { kind: 'fork', above: fork, to: labels.tipHeight + 1 };
    await followed.sync();
    expect(followed.indexedHeight()).toBe(labels.tipHeight + 1);
    viewed.view = { kind: 'capped', at: fork };
    const upToFork = new BitcoinIndexer({ esplora: viewed, prices: btc.prices, entities: btc.entities, observers: bitcoinObservers(), from: 0 });
    await upToFork.sync();
    const atFork = reports(upToFork, fork);
    const rewound = reports(followed, fork);
    expect(rewound.brc20).toEqual(atFork.brc20);
    expect(rewound.runes).toEqual(atFork.runes);
    expect(rewound.staking).toEqual(atFork.staking);
    expect(rewound.brc20).not.toEqual(before.brc20);

    // The real chain wins again (it is longer than the fork by then, as far as the index can tell: its tip differs).
    viewed.view = { kind: 'real' };
    await followed.sync();
    expect(followed.indexedHeight()).toBe(labels.tipHeight);
    expect(reports(followed, labels.tipHeight)).toEqual(before);
    for (const name of [BRC20_OBSERVER, RUNES_OBSERVER, STAKING_OBSERVER]) expect(followed.observer<Brc20Index>(name)!.coverage.consistent).toBe(true);
    followed.close();
    upToFork.close();
  }, 120_000);
});
