import { describe, expect, it } from 'vitest';
import { FILING_DEADLINE_DAYS, bandMidUsd, congressTrades, lawmakerRecords, tickerSignals } from './congress.js';
import type { PriceReader } from './prices.js';
import type { CongressTradeRead, RecordsSource } from './source.js';

const DAY = 86_400;
const T0 = Date.UTC(2026, 0, 5) / 1000;
const trade = (member: string, ticker: string, side: CongressTradeRead['side'], txDay: number, delayDays: number, band = { label: '$15,001 - $50,000', lowUsd: 15_001, highUsd: 50_000 }): CongressTradeRead => ({
  chamber: 'house', member, state: 'CA', district: 'CA01', party: null, ticker, assetDescription: ticker, side, band, owner: 'self',
  transactionDate: new Date((T0 + txDay * DAY) * 1000).toISOString().slice(0, 10), transactedAt: T0 + txDay * DAY,
  disclosureDate: new Date((T0 + (txDay + delayDays) * DAY) * 1000).toISOString().slice(0, 10), disclosedAt: T0 + (txDay + delayDays) * DAY, ptrLink: null,
});
/** Prices in memory: SPY flat, UP rises 1% a day, DOWN falls 1% a day. */
const prices: PriceReader = { source: 'fixture', priceUsd: async (t, time) => (t === 'SPY' ? 100 : t === 'UP' ? 100 * 1.01 ** ((time - T0) / DAY) : t === 'DOWN' ? 100 * 0.99 ** ((time - T0) / DAY) : null) };
const memory = (trades: CongressTradeRead[]): RecordsSource => ({
  urls: { congress: 'mem', usaspending: 'mem' },
  congressTrades: async () => ({ trades, feeds: [{ name: 'house-stock-watcher', url: 'mem', rows: trades.length, rejected: 0, fetchedAt: 'x' }] }),
  awards: async () => { throw new Error('not used'); },
  reachable: async () => true as const,
});

describe('congress-trades/v1', () => {
  it(`a filing is late only beyond ${FILING_DEADLINE_DAYS} days; a band counts its midpoint, an open one its floor`, async () => {
    const now = T0 + 200 * DAY;
    const r = await congressTrades(memory([trade('A', 'UP', 'purchase', 0, 45), trade('B', 'UP', 'purchase', 1, 46)]), prices, { limit: 10, now, lookbackDays: 365 });
    expect(r.trades.map((t) => [t.member, t.filingDelayDays, t.late])).toEqual([['B', 46, true], ['A', 45, false]]);
    expect(r.lateFilings).toBe(1);
    expect(bandMidUsd({ band: { label: 'Over $50,000,000', lowUsd: 50_000_001, highUsd: null } })).toBe(50_000_001);
    expect(r.trades[0]!.amountUsdEstimate).toBe(32_500.5);
  });

  it('a purchase of what rose and a sale of what fell both grade well; the better record ranks first', () => {
    const up = { fromAt: '', toAt: '', returnPct: 10, indexReturnPct: 0, excessPct: 10, source: 'f' };
    const down = { ...up, returnPct: -10, excessPct: -10 };
    const rows = [
      ...[0, 1, 2].map((d) => ({ trade: trade('good', 'UP', 'purchase', d, 5), move: { ...up, excessPct: 9 + d } })),
      ...[0, 1, 2].map((d) => ({ trade: trade('good', 'DOWN', 'sale_full', d, 5), move: { ...down, excessPct: -9 - d } })),
      ...[0, 1, 2].map((d) => ({ trade: trade('bad', 'UP', 'sale_partial', d, 5), move: { ...up, excessPct: 8 + d } })),
      ...[0, 1, 2].map((d) => ({ trade: trade('bad', 'DOWN', 'purchase', d, 5), move: { ...down, excessPct: -7 - d } })),
      { trade: trade('new', 'UP', 'purchase', 0, 5), move: up },
    ];
    const records = lawmakerRecords(rows);
    expect(records.map((r) => r.member)).toEqual(['good', 'bad', 'new']);
    expect(records[0]).toMatchObject({ measured: 6, meanExcessPct: 10, hitRate: 1 });
    expect(records[1]!.meanExcessPct).toBe(-8.5);
    expect(records[2]!.zScore).toBeNull();
  });

  it('signals net a ticker\'s purchases against its sales; more members and more money score higher', () => {
    const now = T0 + 40 * DAY;
    const big = { label: '$250,001 - $500,000', lowUsd: 250_001, highUsd: 500_000 };
    const { longs, shorts } = tickerSignals([
      trade('A', 'UP', 'purchase', 0, 10, big), trade('B', 'UP', 'purchase', 1, 10, big), trade('C', 'UP', 'purchase', 2, 10, big), trade('D', 'UP', 'sale_full', 2, 10),
      trade('A', 'LONE', 'purchase', 0, 10),
      trade('E', 'DOWN', 'sale_full', 0, 10, big), trade('F', 'DOWN', 'purchase', 0, 10),
    ], new Map(), now);
    expect(longs.map((s) => s.ticker)).toEqual(['UP', 'LONE']);
    expect(longs[0]).toMatchObject({ lawmakerCount: 3, totalUsd: 1_125_002 });
    expect(longs[0]!.score).toBeGreaterThan(longs[1]!.score);
    // DOWN's sales outweigh its purchase: a short, by the one seller.
    expect(shorts.map((s) => [s.ticker, s.lawmakerCount, s.totalUsd])).toEqual([['DOWN', 1, 375_001]]);
  });

  it('measures each trade against the index, names the price source, and filters by ticker', async () => {
    const now = T0 + 20 * DAY;
    const r = await congressTrades(memory([trade('A', 'UP', 'purchase', 0, 5), trade('B', 'DOWN', 'purchase', 0, 5), trade('C', 'ZZZ', 'purchase', 0, 5)]), prices, { limit: 10, now, ticker: 'up' });
    expect(r.ticker).toBe('UP');
    expect(r.trades.map((t) => t.member)).toEqual(['A']);
    expect(r.trades[0]!.sinceTransaction!.excessPct).toBeGreaterThan(15);
    expect(r.trades[0]!.sinceTransaction!.source).toBe('fixture');
    expect(r.sources.at(-1)).toEqual({ name: 'prices', source: 'fixture' });
    const all = await congressTrades(memory([trade('C', 'ZZZ', 'purchase', 0, 5)]), prices, { limit: 10, now });
    expect(all.trades[0]!.sinceTransaction).toBeNull();
  });
});
