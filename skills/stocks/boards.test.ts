import { describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import type { Execution } from '../data/executions.js';
import { actionKind, earningsFromFeed } from './event-risk.js';
import { fairValue } from './fair-value.js';
import { floatRow } from './float.js';
import type { FeedRound, MultiplierChange } from './history.js';
import { stockPairs } from './pairs.js';
import { capWeights, readIntent } from './portfolio.js';
import { earlyBuyers, traderRecords, walletResult } from './records.js';
import type { ListedStock, StockMarkets } from './stock-market.js';
import { multiplierLags } from './trust.js';

const MONDAY_NOON = Date.UTC(2026, 10, 30, 12) / 1000;
const SATURDAY_NOON = MONDAY_NOON - 2 * 86_400;
const issuer = { address: '0x00000000000000000000000000000000000000a1' as Address, name: 'Issuer A' };

function stock(over: Partial<ListedStock> & { address: string }): ListedStock {
  return {
    chain: 'stockchain', symbol: 'AAPL', name: 'Apple', decimals: 18, underlying: 'AAPL', issuer, multiplier: 1, pending: null,
    totalSupplyRaw: 1_000n * 10n ** 18n, supplyShares: 1_000, paused: false, owner: issuer.address, attestation: null,
    priceUsd: 100, pricedBy: '0xpool', dex: 'uniswap-v2', liquidityUsd: 100_000, volume24hUsd: 0, trades24h: 0, fair: null, lag: null, premiumAtOwnMultiplierPct: null,
    ...over, address: over.address as Address,
  };
}

const exec = (wallet: string, ts: number, bought: number, sold: number, priceUsd: number, token = 't'): Execution =>
  ({ wallet, token, block: ts, logIndex: 0, ts, tx: `0x${ts}`, bought, sold, priceUsd, roundTripBlock: false });

describe('fair value and premium', () => {
  it('values a raw token at the underlying times its multiplier, so a 2:1 split leaves the token\'s fair price where it was', () => {
    const feed = { underlying: 'NVDA', feed: '0x' as Address, description: 'NVDA / USD', priceUsd: 100, roundId: 1n, updatedAt: MONDAY_NOON - 60, decimals: 8 };
    const before = fairValue({ multiplier: 1 }, { ...feed, priceUsd: 200 }, 202, MONDAY_NOON);
    const after = fairValue({ multiplier: 2 }, feed, 202, MONDAY_NOON);
    expect(before.fairUsd).toBe(200);
    expect(after.fairUsd).toBe(200);
    expect(after.premiumPct).toBeCloseTo(1, 10);
    expect(after.session).toBe('open');
    expect(after.feedAgeSeconds).toBe(60);
    expect(fairValue({ multiplier: 1 }, feed, 100, SATURDAY_NOON).session).toBe('closed');
  });
});

describe('stock pairs', () => {
  it('groups wrappers by underlying, widest premium first, leaves dust pools out and narrows to one venue', () => {
    const feeds = new Map([['AAPL', { underlying: 'AAPL', feed: '0x' as Address, description: '', priceUsd: 100, roundId: 1n, updatedAt: MONDAY_NOON, decimals: 8 }],
      ['MSFT', { underlying: 'MSFT', feed: '0x' as Address, description: '', priceUsd: 400, roundId: 1n, updatedAt: MONDAY_NOON, decimals: 8 }]]);
    const fv = (price: number, u: number, m = 1) => fairValue({ multiplier: m }, { ...feeds.get('AAPL')!, priceUsd: u }, price, MONDAY_NOON);
    const stocks = [
      stock({ address: '0x1', priceUsd: 101, fair: fv(101, 100) }),
      stock({ address: '0x2', chain: 'base', dex: 'sushiswap-v2', priceUsd: 99, fair: fv(99, 100) }),
      stock({ address: '0x3', underlying: 'MSFT', symbol: 'MSFT', priceUsd: 412, fair: fv(412, 400) }),
      stock({ address: '0x4', priceUsd: 150, liquidityUsd: 10, fair: fv(150, 100) }),
    ];
    const markets = { stocks, feeds } as unknown as StockMarkets;
    const pairs = stockPairs(markets);
    expect(pairs.map((p) => p.underlying)).toEqual(['MSFT', 'AAPL']);
    expect(pairs[1]!.wrappers.map((w) => w.token)).toEqual(['0x1', '0x2']);
    expect(pairs[1]!.spreadPct).toBeCloseTo(2, 6);
    expect(stockPairs(markets, 'sushiswap-v2').flatMap((p) => p.wrappers.map((w) => w.token))).toEqual(['0x2']);
  });
});

describe('multiplier lag', () => {
  const wrappers: { address: Address; underlying: string; symbol: string; chain: string; listedAt: number }[] = [
    { address: '0xa', underlying: 'NVDA', symbol: 'NVDA', chain: 'stockchain', listedAt: 0 },
    { address: '0xb', underlying: 'NVDA', symbol: 'NVDAon', chain: 'ethereum', listedAt: 0 },
    { address: '0xc', underlying: 'NVDA', symbol: 'NVDAx', chain: 'base', listedAt: 0 },
    { address: '0xd', underlying: 'NVDA', symbol: 'NVDAx', chain: 'arbitrum', listedAt: 2_000_000 },
  ];
  const change = (token: string, effectiveAt: number): MultiplierChange => ({ token: token as Address, from: 1, to: 4, setAt: effectiveAt - 86_400, effectiveAt, block: 1 });

  it('flags the wrapper that applied a split a day after its peer, and the one that has not applied it, never one listed after it', () => {
    const lags = multiplierLags(wrappers, [change('0xa', 1_000_000), change('0xb', 1_000_000 + 3_600), change('0xc', 1_000_000 + 86_400)], 1_000_000 + 3 * 86_400);
    expect(lags.has('0xa')).toBe(false);
    expect(lags.has('0xb')).toBe(false);
    expect(lags.get('0xc')!.hours).toBe(24);
    expect(lags.has('0xd')).toBe(false);
    const missing = multiplierLags(wrappers.slice(0, 2), [change('0xa', 1_000_000)], 1_000_000 + 86_400);
    expect(missing.get('0xb')).toMatchObject({ hours: null, peer: 'NVDA on stockchain' });
  });
});

describe('float and corner', () => {
  it('counts shares (raw x multiplier), keeps the issuer out of the float, and scores concentration and pools', () => {
    const s = stock({ address: '0xt', multiplier: 2, totalSupplyRaw: 1_000n * 10n ** 18n });
    const e18 = (n: number) => (BigInt(n) * 10n ** 18n).toString();
    const row = floatRow(s, { [issuer.address.toLowerCase()]: e18(500), '0xpool': e18(200), '0xw1': e18(200), '0xw2': e18(100) }, new Set(['0xpool']));
    expect(row.supplyShares).toBe(2_000);
    expect(row.floatShares).toBe(1_000);
    expect(row.inPoolsPct).toBe(40);
    expect(row.topHoldersPct).toBe(60);
    expect(row.squeezable).toBe(true);
    expect(row.cornerScore).toBe(52);
  });
});

describe('records', () => {
  it('average cost: realised on sells, unrealised at the price now', () => {
    const r = walletResult('w', [exec('w', 1, 100, 0, 1), exec('w', 2, 100, 0, 3), exec('w', 3, 0, 150, 4)], () => 5);
    expect(r).toMatchObject({ realizedUsd: 300, unrealizedUsd: 150, pnlUsd: 450, boughtUsd: 400, returnPct: 112.5, winRate: 1 });
  });

  it('early buyers are the first distinct wallets after liquidity, within the window', () => {
    const liq = 1_000;
    const buyers = earlyBuyers([exec('a', 900, 1, 0, 1), exec('b', 1_010, 2, 0, 1), exec('b', 1_020, 1, 0, 1), exec('c', 1_030, 1, 0, 2), exec('d', liq + 25 * 3600, 1, 0, 3)], liq, 2, 3);
    expect(buyers.map((b) => b.wallet)).toEqual(['b', 'c']);
    expect(buyers[0]).toMatchObject({ firstBuyShares: 4, minutesAfterLiquidity: 0.2, holding: true, pnlUsd: 6 });
  });

  it('a trader needs three trades for a record; best first', () => {
    const all = [exec('x', 1, 1, 0, 1), exec('x', 2, 0, 1, 2), exec('x', 3, 1, 0, 2), exec('y', 1, 1, 0, 2), exec('y', 2, 0, 1, 1), exec('y', 3, 1, 0, 1), exec('z', 1, 1, 0, 1)];
    expect(traderRecords(all, () => 1.5).map((r) => r.wallet)).toEqual(['x', 'y']);
  });
});

describe('event risk', () => {
  it('names an action by its ratio, and reads earnings from a large in-session round that is not a split', () => {
    expect([actionKind(2), actionKind(1.004), actionKind(0.1)]).toEqual(['split', 'dividend', 'reverse-split']);
    const r = (priceUsd: number, updatedAt: number): FeedRound => ({ priceUsd, updatedAt, block: 0 });
    const rounds = [r(100, MONDAY_NOON), r(107, MONDAY_NOON + 3_600), r(53.5, MONDAY_NOON + 4 * 3_600), r(54, SATURDAY_NOON + 7 * 86_400)];
    expect(earningsFromFeed(rounds, [MONDAY_NOON + 4 * 3_600])).toEqual([MONDAY_NOON + 3_600]);
  });
});

describe('portfolio', () => {
  it('reads sectors, tickers and a stance from plain words', () => {
    expect(readIntent('tech exposure, low drawdown')).toMatchObject({ sectors: ['tech'], stance: 'cautious', broad: false });
    expect(readIntent('aggressive growth in TSLA and banks')).toMatchObject({ sectors: ['finance'], tickers: ['TSLA'], stance: 'bold' });
    expect(readIntent(undefined)).toMatchObject({ broad: true, stance: 'balanced' });
  });

  it('caps weights and spreads the excess', () => {
    const w = capWeights([0.7, 0.1, 0.1, 0.1], 0.35);
    expect(w.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    expect(Math.max(...w)).toBeCloseTo(0.35, 10);
  });
});
