import { describe, expect, it } from 'vitest';
import { curveActivity, NO_POOL_TRADES } from './engine.js';
import { FixtureCurveFeed } from '../data/testing/fixtures.js';

const HEAD = 1_000_000;
/** SOL is $100 until HEAD − 500, $110 after, unknown at exactly HEAD − 300, $120 at the head. */
const solUsd = (t: number) => (t === HEAD - 300 ? null : t === HEAD ? 120 : t < HEAD - 500 ? 100 : 110);

function feed(withPoolTrades: boolean) {
  const f = new FixtureCurveFeed(HEAD, solUsd, withPoolTrades ? [
    { signature: 'p1', mint: 'MIGRATED', pool: 'POOL', trader: 'x', side: 'buy', sol: 4, tokens: 1, time: HEAD - 100, slot: 1, reserveSol: 90, reserveTokens: 200_000_000 },
    { signature: 'p2', mint: 'MIGRATED', pool: 'POOL', trader: 'y', side: 'sell', sol: 1, tokens: 1, time: HEAD - 50, slot: 2, reserveSol: 89, reserveTokens: 200_000_000 },
  ] : undefined);
  f.launchList.push({ mint: 'CURVE', creator: 'maker', name: 'Curve', symbol: 'CRV', time: HEAD - 5_000, slot: 1, signature: 'l1' });
  f.trade('CURVE', 'a', 'buy', 9, HEAD - 2_000) // before the window
    .trade('CURVE', 'a', 'buy', 2, HEAD - 900)
    .trade('CURVE', 'b', 'sell', 0.5, HEAD - 400)
    .trade('CURVE', 'b', 'buy', 1, HEAD - 300) // no SOL price at its time
    .trade('MIGRATED', 'c', 'buy', 3, HEAD - 800);
  f.state('CURVE', { virtualSol: 40, virtualTokens: 800_000_000, progressPct: 34.4, lastTradeTime: HEAD - 300 });
  f.state('MIGRATED', { graduated: { time: HEAD - 600, slot: 9 }, progressPct: 100, migration: { pool: 'POOL', time: HEAD - 600, reserveSol: 90, reserveTokens: 200_000_000 } });
  return f;
}

describe('curve/v2', () => {
  it('window activity, SOL valued at each trade\'s time, price from virtual reserves, market cap at SOL now', async () => {
    const { rows, solUsdNow } = await curveActivity(feed(true), HEAD - 1_000, HEAD);
    expect(solUsdNow).toBe(120);
    const curve = rows.find((r) => r.mint === 'CURVE')!;
    // 2 SOL at $100 + 0.5 at $110; the 1 SOL trade has no price and is left out of USD.
    expect(curve).toMatchObject({ symbol: 'CRV', creator: 'maker', trades: 3, buys: 2, sells: 1, traders: 2, volumeSol: 3.5, volumeUsd: 255, progressPct: 34.4, graduated: false, migration: null });
    // 40 SOL / 800M tokens = 5e-8 SOL; × 1B supply × $120.
    expect(curve.priceSol).toBeCloseTo(5e-8, 20);
    expect(curve.marketCapUsd).toBe(6_000);
  });

  it('a migrated token is priced by its pool, with the pool\'s trading beside the curve\'s', async () => {
    const { rows } = await curveActivity(feed(true), HEAD - 1_000, HEAD);
    const m = rows.find((r) => r.mint === 'MIGRATED')!;
    expect(m.priceSol).toBeCloseTo(90 / 200_000_000, 20);
    expect(m.migration).toEqual({ available: true, address: 'POOL', migratedAt: new Date((HEAD - 600) * 1000).toISOString(), trades: 2, traders: 2, volumeSol: 5, volumeUsd: 550, reserveSol: 90, reserveTokens: 200_000_000 });
  });

  it('a feed without pool trades says so instead of reporting none', async () => {
    const { rows } = await curveActivity(feed(false), HEAD - 1_000, HEAD);
    expect(rows.find((r) => r.mint === 'MIGRATED')!.migration).toEqual({ available: false, address: 'POOL', migratedAt: new Date((HEAD - 600) * 1000).toISOString(), reason: NO_POOL_TRADES });
  });

  it('an empty window has no rows', async () => {
    expect((await curveActivity(feed(true), HEAD - 10, HEAD)).rows).toEqual([]);
  });
});
