import { describe, expect, it } from 'vitest';
import { dexCapital } from './engine.js';
import { addr, TKN, units, withNative } from '../data/testing/fixtures.js';

const [SUSHI_POOL, LATE_POOL, LP] = [addr(0x5001), addr(0x5002), addr(0x1b)];

/**
 * Uniswap: WETH/USDC, 100 WETH / $200,000 (WETH $2,000). Sushi: TKN/WETH, 10,000 TKN / 10 WETH
 * (TKN $2). The period starts at block 50; at block 60 LP adds 1,000 TKN + 1 WETH on Sushi, at
 * block 70 someone sells 1 WETH on Uniswap; at block 80 a new Sushi pool opens.
 */
async function world() {
  const fx = withNative(2_000);
  fx.token(TKN, 'TKN', 18);
  fx.pool(SUSHI_POOL, TKN, fx.weth, units(10_000, 18), units(10, 18), { dex: 'sushi' });
  const add = fx.tx(LP);
  fx.mint(60, SUSHI_POOL, units(1_000, 18), units(1, 18), add);
  fx.sync(60, SUSHI_POOL, units(11_000, 18), units(11, 18), add);
  fx.swap(70, addr(0xe0), { to: addr(0x111), a0In: units(1, 18), a1Out: units(1_990, 6) });
  fx.pool(LATE_POOL, TKN, fx.usdc, units(1_000, 18), units(2_000, 6), { dex: 'sushi', block: 80 });
  return dexCapital(await fx.market(), 50);
}

describe('dex-capital/v1', () => {
  it('per DEX: TVL now and at the period start, Mint capital and Swap volume at their block\'s prices', async () => {
    const { dexes, pools } = await world();
    expect(dexes.map(({ topPools: _, ...d }) => d)).toEqual([
      // 100 WETH · $2,000 + $200,000; one swap of 1 WETH at $2,000.
      { dex: 'uniswap-v2', pools: 1, unpricedPools: 0, tvlUsd: 400_000, tvlStartUsd: 400_000, addedUsd: 0, removedUsd: 0, netFlowUsd: 0, volumeUsd: 2_000, swaps: 1 },
      // Now 11,000 TKN · $2 + 11 WETH · $2,000 = $44,000, plus the new pool's 2 · $2,000; at the start $40,000
      // (the new pool held nothing yet); added 1,000 · $2 + 1 · $2,000.
      { dex: 'sushiswap-v2', pools: 2, unpricedPools: 0, tvlUsd: 48_000, tvlStartUsd: 40_000, addedUsd: 4_000, removedUsd: 0, netFlowUsd: 4_000, volumeUsd: 0, swaps: 0 },
    ]);
    expect(pools.find((p) => p.pool === LATE_POOL)).toMatchObject({ pair: 'TKN/USDC', tvlStartUsd: 0, tvlUsd: 4_000 });
  });
});
