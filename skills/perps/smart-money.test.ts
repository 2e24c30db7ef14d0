import { describe, expect, it } from 'vitest';
import { isSmart, tradeRecord, SM_MIN_CLOSED } from './smart-money.js';
import type { PerpFillRead } from './source.js';

const close = (closedPnl: number, notional = 100_000): PerpFillRead => ({ coin: 'ETH', px: 1_000, sz: notional / 1_000, side: 'A', time: 1, dir: 'Close Long', closedPnl, fee: 0, crossed: true });
const open: PerpFillRead = { coin: 'ETH', px: 1_000, sz: 100, side: 'B', time: 1, dir: 'Open Long', closedPnl: 0, fee: 35, crossed: true };

describe('perp-smart-money/v1 records', () => {
  it('each closing fill is a trade, its result net of fees; opening fills are not trades', () => {
    const r = tradeRecord([open, { ...close(3_000), fee: 35 }, close(-1_000), { ...close(-500), dir: 'Liquidated Long' }]);
    expect(r).toMatchObject({ closedTrades: 3, wins: 1, winRate: 0.3333, realisedUsd: 1_465 });
  });

  it(`three lucky trades never make a record; ${SM_MIN_CLOSED}+ steady wins with a t-statistic >= 2 do`, () => {
    expect(isSmart(tradeRecord([close(40_000), close(30_000), close(50_000)]))).toBe(false);
    const steady = Array.from({ length: 12 }, (_, i) => close(i % 4 === 3 ? -800 : 2_500 + i * 100));
    const r = tradeRecord(steady);
    expect(r.closedTrades).toBe(12);
    expect(r.tStat!).toBeGreaterThan(2);
    expect(isSmart(r)).toBe(true);
    // The same record with its losses as large as its wins is noise, whatever the total.
    const noisy = tradeRecord(Array.from({ length: 12 }, (_, i) => close(i % 3 === 2 ? -9_000 : 6_000)));
    expect(noisy.tStat!).toBeLessThan(2);
    expect(isSmart(noisy)).toBe(false);
  });
});
