import { describe, expect, it } from 'vitest';
import { candleCoverage, describeCoverage, windowCoverage } from './coverage.js';
import { addr, T0, TKN, tokenUsdc, trade, units } from './testing/fixtures.js';

describe('coverage', () => {
  it('a window the index covers is complete; one it begins inside is not, by the index', () => {
    expect(windowCoverage(1_000, 5_000, null)).toEqual({ from: 1_000, to: 5_000, periodFrom: 1_000, complete: true });
    expect(windowCoverage(1_000, 5_000, 1_000)).toEqual({ from: 1_000, to: 5_000, periodFrom: 1_000, complete: true });
    expect(windowCoverage(1_000, 5_000, 4_000)).toEqual({ from: 4_000, to: 5_000, periodFrom: 1_000, complete: false, reason: 'index_history' });
    // History beginning after the head: nothing before `to`.
    expect(windowCoverage(1_000, 5_000, 9_000)).toMatchObject({ from: 5_000, complete: false });
  });

  it('candles: every candle of the period held, or which history began late', () => {
    // 0..3600 in minutes: 61 candles.
    expect(candleCoverage({ periodFrom: 0, to: 3_600, candleSeconds: 60, candles: 61, firstPriceTs: null, historyStart: 0 })).toMatchObject({ complete: true, candles: 61, periodCandles: 61 });
    // First price at 1800, the index from 0: the token is the limit.
    expect(candleCoverage({ periodFrom: 0, to: 3_600, candleSeconds: 60, candles: 31, firstPriceTs: 1_800, historyStart: 0 })).toEqual({ from: 1_800, to: 3_600, periodFrom: 0, complete: false, reason: 'token_history', candles: 31, periodCandles: 61 });
    // The index itself began within a candle of that price: the index is the limit.
    expect(candleCoverage({ periodFrom: 0, to: 3_600, candleSeconds: 60, candles: 31, firstPriceTs: 1_800, historyStart: 1_790 })).toMatchObject({ reason: 'index_history' });
  });

  it('the note says how much of the period is covered', () => {
    const body = describeCoverage({ from: 1_800, to: 3_600, periodFrom: 0, complete: false, reason: 'token_history' }, 'epoch');
    expect(body).toEqual({
      from: 1_800, to: 3_600, periodFrom: 0, complete: false, reason: 'token_history',
      note: 'history covers 30 minutes of the 1 hours asked for: the token\'s price history begins at 1970-01-01T00:30:00.000Z; figures are over that span, not the full period',
    });
    expect(describeCoverage({ from: 0, to: 60, periodFrom: 0, complete: true })).toEqual({ from: '1970-01-01T00:00:00.000Z', to: '1970-01-01T00:01:00.000Z', periodFrom: '1970-01-01T00:00:00.000Z', complete: true });
  });
});

describe('market/v1 candles over a period longer than the history', () => {
  // Blocks are 2 s apart from T0: block 100 (the head) is T0 + 200. A 1 h period begins at
  // T0 + 200 − 3600, as every ranking's does; its 1 min candles sit on the grid from
  // floor((T0 + 200 − 3600) / 60) · 60 and are 61.
  const end = T0 + 200;
  const start = Math.floor((end - 3_600) / 60) * 60;
  const bucket = (ts: number) => Math.floor((ts - start) / 60);

  it('an index that begins inside the period: candles only from its first price, reason index_history', async () => {
    const fx = tokenUsdc(); // TKN/USDC synced at block 1, the index's first block
    fx.sync(100, addr(0x7c0), units(10_000, 18), units(60_000, 6));
    const { candles, coverage } = await (await fx.market(100)).candles(TKN, '1h');
    const held = 60 - bucket(T0 + 2) + 1;
    expect(coverage).toEqual({ from: T0 + 2, to: end, periodFrom: end - 3_600, complete: false, reason: 'index_history', candles: held, periodCandles: 61 });
    expect(candles).toHaveLength(held);
    expect(candles[0]).toMatchObject({ open: 5, close: 5, trades: 0, time: new Date((start + bucket(T0 + 2) * 60) * 1000).toISOString() });
    expect(candles[candles.length - 1]).toMatchObject({ open: 5, high: 6, low: 5, close: 6 });
  });

  it('how many candles can hold history, from two rows; and the price at a moment', async () => {
    const fx = tokenUsdc();
    fx.sync(100, addr(0x7c0), units(10_000, 18), units(60_000, 6));
    const market = await fx.market(100);
    expect(await market.candlesAtMost(TKN, 3_600, 60)).toBe(60 - bucket(T0 + 2) + 1);
    expect(await market.candlesAtMost(addr(0x999), 3_600, 60)).toBe(0);
    expect(await market.priceAt(TKN, T0 + 199)).toBe(5);
    expect(await market.priceAt(TKN, T0 + 200)).toBe(6);
    expect(await market.priceAt(TKN, T0 + 1)).toBeNull(); // before its first price
    expect(await market.priceAt(TKN, T0 + 201)).toBeNull(); // after the head
  });

  it('a token listed after the index began: reason token_history', async () => {
    const fx = tokenUsdc();
    fx.token(addr(0x2222), 'NEW', 18);
    fx.pool(addr(0x2223), addr(0x2222), fx.usdc, units(1_000, 18), units(2_000, 6), { block: 60 });
    const { coverage } = await (await fx.market(100)).candles(addr(0x2222), '1h');
    expect(coverage).toMatchObject({ from: T0 + 120, complete: false, reason: 'token_history', candles: 60 - bucket(T0 + 120) + 1 });
  });

  it('history from before the period: every candle, forward-filled between trades', async () => {
    const fx = tokenUsdc();
    fx.at(1, T0 - 10_000); // the first Sync (price $5) long before the period
    trade(fx, 99, addr(0x111), 'buy', 10, 55);
    fx.sync(99, addr(0x7c0), units(9_990, 18), units(50_055, 6));
    const { candles, coverage } = await (await fx.market(100)).candles(TKN, '1h');
    expect(coverage).toMatchObject({ complete: true, candles: 61, periodCandles: 61 });
    expect(candles.filter((c) => c.trades > 0)).toHaveLength(1);
    expect(candles[0]).toMatchObject({ open: 5, close: 5, trades: 0, volumeUsd: 0 });
    const traded = candles.find((c) => c.trades > 0)!;
    // The swap precedes its Sync in block 99: its 10 TKN are valued at the price before it, $5.
    expect(traded).toMatchObject({ volumeToken: 10, volumeUsd: 50, close: 50_055 / 9_990 });
  });
});
