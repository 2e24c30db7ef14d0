import { describe, expect, it } from 'vitest';
import { backtest, type BacktestParams } from './backtest.js';
import { candlesFrom } from '../data/testing/fixtures.js';

const params = (p: Partial<BacktestParams>): BacktestParams => ({ strategy: 'buy-and-hold', fastWindow: 2, slowWindow: 3, feeBps: 0, candleSeconds: 3_600, ...p });
const r4 = (n: number) => Math.round(n * 10_000) / 10_000;

describe('backtest/v1', () => {
  it('buy and hold: bought at the second candle\'s open (no look-ahead), one fee paid', () => {
    const r = backtest(candlesFrom([100, 110, 121]), params({ feeBps: 10 }));
    // Signal on candle 0's close, filled at candle 1's open (100): 0.999 · 121/100.
    expect(r.totalReturnPct).toBe(r4((0.999 * 1.21 - 1) * 100));
    expect(r.buyAndHoldReturnPct).toBe(21);
    expect(r).toMatchObject({ candles: 3, maxDrawdownPct: 0, exposurePct: 100, tradeCount: 1, winRate: null });
    expect(r.trades).toEqual([{ entryTime: r.trades[0]!.entryTime, entryPrice: 100, exitTime: null, exitPrice: 100, returnPct: 21, open: true }]);
  });

  // Closes 10 10 10 13 16 10 7. SMA2 > SMA3 after candles 3 (11.5 > 11) and 4 (14.5 > 13); not after 5 (13 = 13).
  const cross = [10, 10, 10, 13, 16, 10, 7];

  it('moving-average cross: long from candle 4\'s open to candle 6\'s, drawdown from the peak', () => {
    const r = backtest(candlesFrom(cross), params({ strategy: 'moving-average-cross' }));
    // In at 13, marked 16 (peak 16/13), then 10, out at candle 6's open (10): 10/13.
    expect(r.totalReturnPct).toBe(r4((10 / 13 - 1) * 100));
    expect(r.maxDrawdownPct).toBe(37.5); // 1 − (10/13)/(16/13)
    expect(r.exposurePct).toBe(33.33); // long through 2 of 6 candle steps
    expect(r).toMatchObject({ tradeCount: 1, winRate: 0, buyAndHoldReturnPct: -30 });
    expect(r.trades[0]).toMatchObject({ entryPrice: 13, exitPrice: 10, open: false, returnPct: r4((10 / 13 - 1) * 100) });
  });

  it('fees are paid on both sides', () => {
    const r = backtest(candlesFrom(cross), params({ strategy: 'moving-average-cross', feeBps: 30 }));
    const net = 0.997 ** 2 * (10 / 13);
    expect(r.totalReturnPct).toBe(r4((net - 1) * 100));
    expect(r.trades[0]!.returnPct).toBe(r4((net - 1) * 100));
  });

  it('constant per-candle returns have no volatility: no Sharpe ratio', () => {
    expect(backtest(candlesFrom([100, 110, 121]), params({})).sharpe).toBeNull();
  });

  it('one candle: nothing to trade', () => {
    const r = backtest(candlesFrom([5]), params({}));
    expect(r).toMatchObject({ totalReturnPct: 0, buyAndHoldReturnPct: 0, tradeCount: 0, exposurePct: 0, sharpe: null, winRate: null });
  });

  it('breakout: enters above the slow window\'s high, leaves below the fast window\'s low', () => {
    // Highs of 10 10 10, close 12 breaks out (candle 3): in at candle 4's open (12); close 9 below
    // the last 2 lows (candle 5): out at candle 6's open (9).
    const r = backtest(candlesFrom([10, 10, 10, 12, 13, 9, 9]), params({ strategy: 'breakout' }));
    expect(r.trades).toEqual([expect.objectContaining({ entryPrice: 12, exitPrice: 9, open: false, returnPct: -25 })]);
    // Closing at the window's high is not above it: no breakout.
    expect(backtest(candlesFrom([10, 10, 10, 10, 10]), params({ strategy: 'breakout' })).tradeCount).toBe(0);
  });
});
