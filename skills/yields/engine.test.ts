import { describe, expect, it } from 'vitest';
import { addr, Fixture, moved, T0, TKN, units } from '../data/testing/fixtures.js';
import { poolYields } from './engine.js';

const SPAN = 1_200; // T0 − 1,000 to the head at T0 + 200

/** TKN/USDC from $5 to $20 at block 50 ($100,000 of USDC, so $200,000 deep); 100 TKN sold at block 60. */
async function world(extra?: (fx: Fixture) => void) {
  const fx = new Fixture();
  const pool = moved(fx, TKN, 'TKN', 5, 20, 100_000);
  fx.swap(60, pool, { to: addr(0x111), a0In: units(100, 18), a1Out: units(1_990, 6) });
  extra?.(fx);
  const market = await fx.market(100);
  const fromBlock = (await market.reader.firstBlockAtOrAfter(T0 - 1_000))!;
  return { pool, rows: await poolYields(market, fromBlock, { from: T0 - 1_000, to: T0 + 200, periodFrom: T0 - 1_000, complete: true }) };
}

describe('lp-yield/v1', () => {
  it('fees are 0.3% of the volume, annualised over the span; impermanent loss from the price ratio\'s move', async () => {
    const { pool, rows } = await world();
    expect(rows).toHaveLength(1);
    // Volume: 100 TKN at $20 = $2,000; fees $6 on $200,000 of liquidity.
    const periodReturn = 6 / 200_000;
    // TKN/USDC went ×4: IL = 2·√4 / (1 + 4) − 1 = −20%.
    expect(rows[0]).toMatchObject({ pool, pair: 'TKN/USDC', stableSides: 1, liquidityUsd: 200_000, volumeUsd: 2_000, feesUsd: 6, impermanentLossPct: -20 });
    expect(rows[0]!.feeAprPct).toBe(Math.round(periodReturn * (365 * 86_400 / SPAN) * 100 * 100) / 100);
    expect(rows[0]!.netPeriodReturnPct).toBeCloseTo((periodReturn - 0.2) * 100, 4);
  });

  it('a pool under $10,000 of liquidity is left out; a flat pool has no impermanent loss', async () => {
    const { rows } = await world((fx) => {
      moved(fx, addr(0x5a), 'SMALL', 1, 2, 4_000); // $8,000 deep
      moved(fx, addr(0x5b), 'FLAT', 3, 3);
    });
    expect(rows.map((r) => r.pair)).toEqual(['TKN/USDC', 'FLAT/USDC']);
    expect(rows[1]).toMatchObject({ volumeUsd: 0, feeAprPct: 0, impermanentLossPct: 0 });
  });
});
