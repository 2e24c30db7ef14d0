import { describe, expect, it } from 'vitest';
import { coinLeans, fundingLeg, perpWhales, MIN_WHALES } from './whales.js';
import type { PerpAccountRead, PerpAssetContext, PerpFillRead, PerpLeaderRow, PerpSource } from './source.js';

const row = (user: string, accountValue: number, monthPnl: number, monthVolume: number): PerpLeaderRow => {
  const w = { pnl: monthPnl, roi: monthPnl / accountValue, volume: monthVolume };
  return { user, accountValue, windows: { day: w, week: w, month: w, allTime: w } };
};
const long = (user: string, coin: string, szi: number): PerpAccountRead => ({
  user, readable: true, accountValue: 1e6, totalNotional: Math.abs(szi) * 100,
  positions: [{ coin, szi, entryPx: 100, positionValue: Math.abs(szi) * 100, unrealizedPnl: 0, leverage: 3, liquidationPx: null, marginUsed: 0, fundingSinceOpen: 0 }],
});
/** A venue in memory: its leaderboard, fills per account, accounts it cannot read; every read account long 1 ETH. */
const memory = (v: { board: PerpLeaderRow[]; fills?: Record<string, PerpFillRead[]>; unreadable?: string[] }): PerpSource => ({
  urls: { api: 'mem', stats: 'mem' },
  leaderboard: async () => v.board,
  assets: async () => [asset('ETH', 0.00001)],
  account: async (user) => (v.unreadable?.includes(user) ? { user, readable: false, reason: 'the venue answered HTTP 500' } : long(user, 'ETH', 1)),
  fills: async (user) => (v.unreadable?.includes(user) ? { user, readable: false, reason: 'the venue answered HTTP 500' } : { user, readable: true, fills: v.fills?.[user] ?? [] }),
  funding: async () => [],
});
const asset = (coin: string, funding: number): PerpAssetContext => ({ coin, maxLeverage: 20, markPx: 100, oraclePx: 100, funding, premium: 0, openInterest: 0, dayNotionalVolume: 0, prevDayPx: 100 });

describe('perp-whales/v1', () => {
  it('whales are big accounts, best month first; a busy one whose fills rest on the book is a market maker', async () => {
    const fill = (crossed: boolean): PerpFillRead => ({ coin: 'ETH', px: 100, sz: 10, side: 'B', time: 1, dir: 'Open Long', closedPnl: 0, fee: 0, crossed });
    const source = memory({
      board: [row('a', 2e6, 10, 1e6), row('b', 1e6, 50, 1e6), row('maker', 3e6, 500, 3e6 * 201), row('small', 4e5, 999, 1e5), row('degen', 1e6, 5, 1e6 * 300)],
      fills: { maker: [fill(false), fill(false), fill(true)].concat(Array(20).fill(fill(false))), degen: [fill(true), fill(true), fill(false)] },
    });
    const { whales } = await perpWhales(source, 10);
    // A leveraged whale turns its account over as often as a maker, but takes liquidity.
    expect(whales.topTraders.map((w) => w.address)).toEqual(['b', 'a', 'degen']);
    expect(whales.marketMakersExcluded).toBe(1);
  });

  it(`a coin held by fewer than ${MIN_WHALES} read whales is NEUTRAL; two thirds one way (and the net) leans; unread accounts count nowhere`, () => {
    const marks = new Map([['ETH', 100], ['BTC', 100], ['SOL', 100]]);
    const unread: PerpAccountRead = { user: 'x', readable: false, reason: 'HTTP 500' };
    const leans = coinLeans([
      long('1', 'ETH', 5), long('2', 'ETH', 3), long('3', 'ETH', -1), unread, unread, unread,
      long('4', 'BTC', 1), long('5', 'BTC', 1),
      long('6', 'SOL', 1), long('7', 'SOL', -1), long('8', 'SOL', -1), long('9', 'SOL', 1),
    ], marks);
    const of = (coin: string) => leans.find((l) => l.coin === coin)!;
    expect(of('ETH')).toMatchObject({ lean: 'BULLISH', holders: 3, longs: 2, shorts: 1, netUsd: 700 });
    expect(of('BTC')).toMatchObject({ lean: 'NEUTRAL', holders: 2, reason: 'held by 2 read whales, fewer than 3' });
    expect(of('SOL')).toMatchObject({ lean: 'MIXED', holders: 4 });
  });

  it('funding: annualised, who pays, extremes, and whales leaning against the payers', () => {
    const leg = fundingLeg([asset('ETH', -0.0001), asset('BTC', 0.00006), asset('SOL', 0.00001)], [{ coin: 'ETH', lean: 'BULLISH', holders: 3, longs: 3, shorts: 0, longUsd: 1, shortUsd: 0, netUsd: 1, reason: '' }]);
    expect(leg.rates.find((r) => r.coin === 'ETH')).toMatchObject({ annualizedPct: -87.6, payer: 'shorts' });
    expect(leg.marketRegime).toBe('longs-paying');
    expect(leg.extremes).toEqual([{ coin: 'ETH', annualizedPct: -87.6 }, { coin: 'BTC', annualizedPct: 52.56 }]);
    expect(leg.divergences.map((d) => d.coin)).toEqual(['ETH']);
    expect(leg.opportunities.find((o) => o.coin === 'BTC')).toMatchObject({ side: 'short', annualizedPct: 52.56 });
  });

  it('reads every picked whale and reports the unread ones with their reason', async () => {
    const source = memory({ board: [row('a', 2e6, 3, 1e6), row('b', 2e6, 2, 1e6), row('c', 2e6, 1, 1e6), row('d', 2e6, 0, 1e6)], unreadable: ['c'] });
    const { whales } = await perpWhales(source, 4);
    expect(whales).toMatchObject({ tradersRequested: 4, tradersAnalyzed: 3, unreadTraders: [{ address: 'c', reason: 'the venue answered HTTP 500' }], consensus: 'BULLISH', bullishAssets: ['ETH'] });
    expect(whales.topTraders.find((t) => t.address === 'c')!.openPositions).toBe(0);
  });
});
