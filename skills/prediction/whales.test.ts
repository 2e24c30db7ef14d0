import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoAccount } from '../../chain/accounts.js';
import { ChainRuntime } from '../../chain/runtime.js';
import { MemoryStore } from '../../store/memory.js';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import type { SkillContext } from '../core/context.js';
import { assertAnswer } from '../core/output-check.js';
import { snapshotStoreKey } from '../core/snapshots.js';
import { IndexedFunding } from './funding.js';
import { fundedPolygon, type FundedChain } from './funding-devnet.js';
import { insiderScan } from './insiders.js';
import { servePlan, type ServedPlan } from './markets-served.js';
import { WHALE_RULES } from './whales.js';
import { predictionWhalesSnapshotJob, predictionWhalesTool } from './whales-tool.js';

const DAY = 86_400;
const NOW = ORIGIN + 16 * DAY + 3_600;

describe('get_prediction_whales', () => {
  let served: ServedPlan;
  let chain: FundedChain;
  let sentByOne: Set<string>;
  beforeAll(async () => {
    served = await servePlan('whales-h', ORIGIN, priceAt, NOW);
    const accounts = served.plan.through(NOW).trading.accounts.filter((a) => a.fundedAt <= NOW).sort((a, b) => a.fundedAt - b.fundedAt);
    chain = await fundedPolygon(accounts[0]!.fundedAt - 2 * DAY);
    // A funder that is not a mint: the last two insiders of the scan's window are sent their USDC by the same demo account.
    sentByOne = new Set(served.plan.through(NOW).trading.insiders.filter((i) => i.time <= NOW && i.time > NOW - 6 * DAY).slice(-2).map((i) => i.account.toLowerCase()));
    expect(sentByOne.size).toBe(2);
    await chain.fund(accounts.map((a, i) => ({ to: a.address, at: a.fundedAt + i, usd: 50_000, ...(sentByOne.has(a.address.toLowerCase()) && { fromDemo: 5 }) })));
  }, 120_000);
  afterAll(async () => {
    await served?.close();
    await chain?.stop();
  });
  afterEach(() => vi.useRealTimers());

  const ctx = (over: Partial<SkillContext> = {}) => ({ prediction: served.venues, chains: chain.chains, store: chain.store, ...over }) as unknown as SkillContext;
  const atNow = () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW * 1000);
  };

  it('reports the insider scan\'s flags, the large positions\' recent trades, the markets and clusters, and what it read', async () => {
    atNow();
    const snapshot = await predictionWhalesSnapshotJob.build(ctx()) as any;
    const scan = await insiderScan(served.source.polymarket, new IndexedFunding(chain.store, chain.chains), { now: NOW });
    const insiders = new Set(served.plan.through(NOW).trading.insiders.map((i) => i.account.toLowerCase()));
    const report = snapshot.insiderScanReport;
    expect(snapshot.alertCount).toBe(scan.alerts.length);
    expect(snapshot.alertCount).toBeGreaterThan(0);
    expect(snapshot.highRiskCount).toBe(scan.alerts.filter((a) => a.level === 'high').length);
    expect(report.alerts.every((a: any) => insiders.has(a.wallet))).toBe(true);
    expect(report.walletsFlagged).toBe(new Set(scan.alerts.map((a) => a.account.address)).size);
    expect(report.marketsAnalyzed).toBe(scan.markets.length);
    expect(report.walletsScanned).toBe(scan.walletsScanned);
    expect(new Set(report.marketAnomalies.map((m: any) => m.conditionId))).toEqual(new Set(scan.alerts.map((a) => a.market.conditionId)));
    // The recent trades of the large positions: within the window, largest first, each from an examined position.
    const transfers = report.whaleTransfers as { usd: number; at: string; wallet: string }[];
    expect(transfers.length).toBeGreaterThan(0);
    expect(transfers.map((t) => t.usd)).toEqual([...transfers.map((t) => t.usd)].sort((a, b) => b - a));
    expect(transfers.every((t) => Date.parse(t.at) / 1000 > NOW - WHALE_RULES.recentHours * 3_600)).toBe(true);
    const examined = new Set(scan.candidates.map((c) => c.account.address));
    expect(transfers.every((t) => examined.has(t.wallet))).toBe(true);
    expect(report.dataSourcesUsed).toEqual([...served.venues.polymarket.origins().map((o) => `polymarket ${o.api}: ${o.url}`), expect.stringMatching(/^polygon \(chain 137\) index:polygon@\d+/)]);
    expect(snapshot.asOf.timestamp).toBe(new Date(NOW * 1000).toISOString());
  });

  it('groups wallets funded by one sender that is not a mint', async () => {
    atNow();
    const snapshot = await predictionWhalesSnapshotJob.build(ctx()) as any;
    const clusters = snapshot.insiderScanReport.walletClusters.filter((c: any) => c.basis === 'funder');
    expect(clusters).toHaveLength(1);
    expect(new Set(clusters[0].wallets)).toEqual(sentByOne);
    expect(clusters[0]).toMatchObject({ funder: demoAccount(5).address.toLowerCase(), flagged: 2 });
  });

  it('the tool serves its snapshot cut to the limit; nothing where the venues are off or the chain is not read', async () => {
    atNow();
    const store = new MemoryStore();
    const c = ctx({ store });
    expect(await predictionWhalesTool.handler({ limit: 2 }, c)).toMatchObject({ available: false, reason: 'snapshot_not_warm' });
    await store.set(snapshotStoreKey(predictionWhalesSnapshotJob.id), JSON.stringify({ data: await predictionWhalesSnapshotJob.build(ctx()), fetchedAt: Date.now() }));
    const warm = await predictionWhalesTool.handler({ limit: 1 }, c) as any;
    assertAnswer(predictionWhalesTool.id, predictionWhalesTool.output, warm);
    expect(warm).toMatchObject({ available: true, stale: false, limit: 1 });
    expect(warm.insiderScanReport.alerts.length).toBe(1);
    expect(warm.alertCount).toBeGreaterThanOrEqual(1);
    expect(await predictionWhalesTool.handler({ limit: 2 }, ctx({ prediction: undefined }))).toMatchObject({ available: false, reason: 'domain_disabled' });
    expect(await predictionWhalesSnapshotJob.build(ctx({ prediction: undefined }))).toMatchObject({ available: false, reason: 'domain_disabled' });
    expect(await predictionWhalesSnapshotJob.build(ctx({ chains: new ChainRuntime() }))).toMatchObject({ available: false, reason: 'chain_unavailable' });
  });
});
