/**
 * The embedded perp venue (world/perps): its plan holds together as a ledger (every account's
 * balance is its deposit plus closed PnL less fees and funding), marks track the reference paths,
 * liquidations happen where the margin rule puts them, market makers trade far beyond their
 * accounts, and the `/info` answers in Hyperliquid's shapes are the plan's state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HyperliquidVenue, USER_FILLS_LIMIT } from '../../world/perps/hyperliquid-api.js';
import { PERP_COINS, PerpPlan, liquidationPx, maintenanceRate, type PerpAccount } from '../../world/perps/plan.js';
import { ReferencePaths } from '../../world/reference.js';
import { servePerpVenue, type PerpVenueUrls } from '../../world/perps/server.js';

const SEED = 'perp-venue';
const NOW = Math.floor(Date.UTC(2026, 11, 1, 12, 0, 0) / 1000);
const ORIGIN = NOW - 30 * 86_400;
const paths = new ReferencePaths(SEED, ORIGIN);
const plan = new PerpPlan(SEED, ORIGIN, (asset, t) => paths.priceUsd(asset, t));
const state = plan.through(NOW);
const venue = new HyperliquidVenue(plan);
const info = (body: unknown) => venue.handle(body, NOW);
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const realised = (a: PerpAccount) => sum(a.fills.map((f) => f.closedPnl));
/** Equal to the ten significant digits the venue's strings carry. */
const near = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-8 * Math.max(1, Math.abs(want)));

describe('the perp venue plan', () => {
  it('is the same plan whenever it is asked, and stands at the hour', () => {
    const again = new PerpPlan(SEED, ORIGIN, (asset, t) => paths.priceUsd(asset, t)).through(NOW + 59);
    expect(again.through).toBe(state.through);
    expect(again.accounts.map((a) => [a.user, a.balance, a.fills.length])).toEqual(state.accounts.map((a) => [a.user, a.balance, a.fills.length]));
  });

  it('marks track the reference paths within a small premium, and funding follows the premium\'s sign', () => {
    for (const { name } of PERP_COINS) {
      const hours = state.hours.get(name)!;
      expect(hours.length).toBeGreaterThan(30 * 24);
      for (const h of hours) {
        expect(h.oraclePx).toBeCloseTo(paths.priceUsd(name, h.time), 8);
        expect(Math.abs(h.markPx / h.oraclePx - 1)).toBeLessThan(0.01);
      }
      const rich = hours.filter((h) => h.premium > 0.001);
      for (const h of rich) expect(h.fundingRate).toBeGreaterThan(0);
    }
  });

  it('every account is a ledger: balance = deposit + closed PnL - fees - funding', () => {
    for (const a of state.accounts) {
      expect(a.balance).toBeCloseTo(a.deposit + realised(a) - sum(a.fills.map((f) => f.fee)) - a.fundingPaid, 4);
    }
  });

  it('liquidates a position where its equity meets the maintenance margin, once the mark crosses there', () => {
    expect(state.liquidations.length).toBeGreaterThan(0);
    for (const l of state.liquidations) {
      const account = state.accounts.find((a) => a.user === l.user)!;
      const fill = account.fills.find((f) => f.time === l.time && f.dir.startsWith('Liquidated'))!;
      expect(fill.px).toBeCloseTo(l.liquidationPx, 6);
      expect(l.szi > 0 ? l.markPx <= l.liquidationPx : l.markPx >= l.liquidationPx).toBe(true);
      expect(Math.sign(fill.startPosition)).toBe(Math.sign(l.szi));
    }
    // The rule itself: at the liquidation price equity equals the maintenance margin.
    const pos = { coin: 'ETH' as const, szi: 10, entryPx: 3_000 };
    const px = liquidationPx(5_000, pos)!;
    expect(5_000 + 10 * (px - 3_000)).toBeCloseTo(10 * px * maintenanceRate('ETH'), 6);
  });

  it('market makers trade many times their accounts, on resting orders, and hold nothing; skilled whales out-earn poor ones', () => {
    const volume = (a: PerpAccount) => sum(a.fills.map((f) => f.sz * f.px));
    const makers = state.accounts.filter((a) => a.role === 'market-maker');
    const whales = state.accounts.filter((a) => a.role.startsWith('whale'));
    for (const m of makers) {
      expect(m.position).toBeNull();
      expect(m.fills.every((f) => !f.crossed)).toBe(true);
      expect(volume(m) / m.deposit).toBeGreaterThan(1_000);
    }
    for (const w of whales) {
      expect(w.deposit).toBeGreaterThanOrEqual(500_000);
      expect(w.fills.every((f) => f.crossed)).toBe(true);
    }
    const total = (role: string) => sum(state.accounts.filter((a) => a.role === role).map(realised));
    expect(total('whale-skilled')).toBeGreaterThan(0);
    expect(total('whale-skilled')).toBeGreaterThan(total('whale-poor'));
  });
});

describe('the venue answers /info as Hyperliquid does', () => {
  it('metaAndAssetCtxs: the universe and each coin\'s context at the hour', () => {
    const { status, body } = info({ type: 'metaAndAssetCtxs' });
    expect(status).toBe(200);
    const [meta, ctxs] = body as [{ universe: { name: string }[] }, { markPx: string; oraclePx: string; funding: string; openInterest: string }[]];
    expect(meta.universe.map((u) => u.name)).toEqual(PERP_COINS.map((c) => c.name));
    for (const [i, c] of PERP_COINS.entries()) {
      const hour = state.hours.get(c.name)!.at(-1)!;
      expect(Number(ctxs[i]!.markPx) / hour.markPx).toBeCloseTo(1, 8);
      expect(Number(ctxs[i]!.funding)).toBeCloseTo(hour.fundingRate, 10);
      const longs = sum(state.accounts.filter((a) => a.position?.coin === c.name && a.position.szi > 0).map((a) => a.position!.szi));
      expect(Number(ctxs[i]!.openInterest)).toBeCloseTo(longs, 4);
    }
  });

  it('clearinghouseState: each account\'s position and margin, an unreadable one a 500, a bad user a 422', () => {
    let read = 0;
    for (const a of state.accounts) {
      const { status, body } = info({ type: 'clearinghouseState', user: a.user });
      if (a.unreadable) {
        expect(status).toBe(500);
        continue;
      }
      expect(status).toBe(200);
      const b = body as { marginSummary: { accountValue: string }; assetPositions: { position: { coin: string; szi: string; entryPx: string; liquidationPx: string | null } }[] };
      if (!a.position) {
        expect(b.assetPositions).toEqual([]);
        expect(Number(b.marginSummary.accountValue) / a.balance).toBeCloseTo(1, 8);
        continue;
      }
      read++;
      const p = b.assetPositions[0]!.position;
      expect(p.coin).toBe(a.position.coin);
      expect(Number(p.szi)).toBeCloseTo(a.position.szi, 4);
      expect(Number(p.entryPx) / a.position.entryPx).toBeCloseTo(1, 5);
    }
    expect(read).toBeGreaterThan(0);
    expect(state.accounts.filter((a) => a.unreadable).length).toBeGreaterThan(0);
    expect(info({ type: 'clearinghouseState', user: 'nobody' }).status).toBe(422);
    expect(info({ type: 'nonsense' }).status).toBe(422);
    // An address the venue never saw is an empty account, as on Hyperliquid.
    expect(info({ type: 'clearinghouseState', user: `0x${'ab'.repeat(20)}` }).body).toMatchObject({ assetPositions: [], marginSummary: { accountValue: '0' } });
  });

  it('userFills: newest first, at most 2,000, their closed PnL the account\'s', () => {
    const busy = state.accounts.filter((a) => !a.unreadable).sort((x, y) => y.fills.length - x.fills.length)[0]!;
    const fills = info({ type: 'userFills', user: busy.user }).body as { time: number; closedPnl: string; dir: string }[];
    expect(fills.length).toBe(Math.min(USER_FILLS_LIMIT, busy.fills.length));
    for (let i = 1; i < fills.length; i++) expect(fills[i - 1]!.time).toBeGreaterThanOrEqual(fills[i]!.time);
    if (busy.fills.length <= USER_FILLS_LIMIT) expect(sum(fills.map((f) => Number(f.closedPnl)))).toBeCloseTo(realised(busy), -1);
  });

  it('fundingHistory and candleSnapshot: hourly rows and buckets of the plan', () => {
    const start = (NOW - 2 * 86_400) * 1000;
    const funding = info({ type: 'fundingHistory', coin: 'ETH', startTime: start }).body as { time: number; fundingRate: string }[];
    expect(funding.length).toBe(49);
    for (const f of funding) expect(Number(f.fundingRate)).toBeCloseTo(state.hours.get('ETH')!.find((h) => h.time * 1000 === f.time)!.fundingRate, 10);
    const candles = info({ type: 'candleSnapshot', req: { coin: 'BTC', interval: '4h', startTime: start } }).body as { t: number; o: string; c: string; h: string; l: string }[];
    expect(candles.length).toBeGreaterThanOrEqual(12);
    for (const c of candles) {
      expect(c.t % (4 * 3_600_000)).toBe(0);
      expect(Number(c.h)).toBeGreaterThanOrEqual(Math.max(Number(c.o), Number(c.c)) * 0.99999);
      expect(Number(c.l)).toBeLessThanOrEqual(Math.min(Number(c.o), Number(c.c)) * 1.00001);
    }
    expect(info({ type: 'candleSnapshot', req: { coin: 'BTC', interval: '7m', startTime: start } }).status).toBe(422);
    expect(info({ type: 'fundingHistory', coin: 'DOGE', startTime: start }).status).toBe(422);
  });
});

describe('the venue on loopback', () => {
  let served: { urls: PerpVenueUrls; close(): Promise<void> };
  beforeAll(async () => {
    served = await servePerpVenue(venue, () => NOW);
  });
  afterAll(async () => served?.close());

  it('answers POST /info with JSON bodies, and refuses what Hyperliquid refuses', async () => {
    const post = (body: string) => fetch(`${served.urls.api}/info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const res = await post(JSON.stringify({ type: 'metaAndAssetCtxs' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(info({ type: 'metaAndAssetCtxs' }).body);
    expect((await post('{not json')).status).toBe(422);
    expect((await post(JSON.stringify({ type: 'x'.repeat(70_000) }))).status).toBe(413);
    expect((await fetch(`${served.urls.api}/info`)).status).toBe(405);
    expect((await fetch(`${served.urls.api}/exchange`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('serves the leaderboard: each account\'s value and each window\'s PnL from its equity, and volume from its fills', async () => {
    const res = await fetch(`${served.urls.stats}/Mainnet/leaderboard`);
    expect(res.status).toBe(200);
    const { leaderboardRows } = (await res.json()) as { leaderboardRows: { ethAddress: string; accountValue: string; windowPerformances: [string, { pnl: string; roi: string; vlm: string }][] }[] };
    expect(leaderboardRows).toHaveLength(state.accounts.length);
    for (const row of leaderboardRows) {
      const a = state.accounts.find((x) => x.user === row.ethAddress)!;
      const w = Object.fromEntries(row.windowPerformances);
      expect(Object.keys(w)).toEqual(['day', 'week', 'month', 'allTime']);
      expect(Number(row.accountValue) / a.equity.at(-1)!).toBeCloseTo(1, 8);
      near(Number(w.allTime!.pnl), a.equity.at(-1)! - a.equity[0]!);
      near(Number(w.day!.pnl), a.equity.at(-1)! - a.equity.at(-25)!);
      if (a.role === 'market-maker') expect(Number(w.month!.vlm)).toBeGreaterThan(30 * Number(row.accountValue));
    }
  });
});
