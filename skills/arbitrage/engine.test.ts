import { describe, expect, it } from 'vitest';
import { findArbitrage, out } from './engine.js';
import { addr, CHEAP_POOL, DEAR_POOL, twoDexes, units, v2CycleOptimum } from '../data/testing/fixtures.js';

describe('arbitrage/v1', () => {
  it('the V2 output formula with the 0.3% fee, worked out', () => {
    // 1000·997·10000 / (10000·1000 + 1000·997) = 9,970,000,000 / 10,997,000 = 906.6…
    expect(out(1_000n, 10_000n, 10_000n)).toBe(906n);
    expect(out(0n, 10_000n, 10_000n)).toBe(0n);
    expect(out(1_000n, 0n, 10_000n)).toBe(0n);
  });

  it('WETH at $2,000 on one DEX and $2,200 on the other: both cycles, sized at the calculus optimum, net of two swaps\' gas', async () => {
    const fx = twoDexes(2_000, 2_200);
    const market = await fx.market();
    const found = await findArbitrage(market);
    expect(found).toHaveLength(2);
    // WETH is priced by its deepest pool (Sushi, $220,000 of USDC): $2,200. Gas: 2 × 150,000 × 1 gwei = 0.0003 ETH.
    const gasUsd = 0.0003 * 2_200;
    const usdcIn = found.find((o) => o.tokenIn === fx.usdc)!;
    const usdcBest = v2CycleOptimum(200_000, 100, 100, 220_000);
    expect(usdcIn).toMatchObject({ tokenOut: fx.weth, symbolIn: 'USDC', buyPool: { pair: CHEAP_POOL, dex: 'uniswap-v2' }, sellPool: { pair: DEAR_POOL, dex: 'sushiswap-v2' }, priceGapPct: 10 });
    expect(usdcIn.amountIn).toBeCloseTo(usdcBest.input, 0);
    expect(usdcIn.grossProfitUsd!).toBeCloseTo(usdcBest.profit, 3);
    expect(usdcIn.gasUsd!).toBeCloseTo(gasUsd, 9);
    expect(usdcIn.netProfitUsd!).toBeCloseTo(usdcBest.profit - gasUsd, 3);
    const wethIn = found.find((o) => o.tokenIn === fx.weth)!;
    const wethBest = v2CycleOptimum(100, 220_000, 200_000, 100);
    expect(wethIn).toMatchObject({ buyPool: { pair: DEAR_POOL }, sellPool: { pair: CHEAP_POOL }, priceGapPct: 10, feeUsd: 0 });
    expect(wethIn.amountIn).toBeCloseTo(wethBest.input, 3);
    expect(wethIn.grossProfitUsd!).toBeCloseTo(wethBest.profit * 2_200, 2);
    // Best net profit first.
    expect(found[0]!.netProfitUsd!).toBeGreaterThanOrEqual(found[1]!.netProfitUsd!);
  });

  it('a gap smaller than two 0.3% fees is no opportunity', async () => {
    const market = await twoDexes(2_000, 2_010).market();
    expect(await findArbitrage(market)).toEqual([]);
  });

  it('pools on the same DEX are not compared', async () => {
    const market = await twoDexes(2_000, 2_200, ['uni', 'uni']).market();
    expect(await findArbitrage(market)).toEqual([]);
  });

  it('a pool with zero liquidity is left out', async () => {
    const fx = twoDexes(2_000, 2_000);
    fx.pool(addr(0xc0c), fx.weth, fx.usdc, 0n, units(1, 6), { dex: 'sushi' });
    expect(await findArbitrage(await fx.market())).toEqual([]);
  });

  it('a flash fee is charged on the borrowed input', async () => {
    const market = await twoDexes(2_000, 2_200).market();
    const plain = (await findArbitrage(market)).find((o) => o.symbolIn === 'USDC')!;
    const financed = (await findArbitrage(market, 9)).find((o) => o.symbolIn === 'USDC')!;
    expect(financed.feeUsd).toBeCloseTo(plain.amountIn * 0.0009, 6);
    expect(financed.netProfitUsd!).toBeCloseTo(plain.netProfitUsd! - plain.amountIn * 0.0009, 6);
  });

  // With WETH at $2,000 and $4,000 the optimum (~41,200 USDC) lies past a tenth of the buy pool.
  it('a wide gap is sized at the optimum, past a tenth of the buy pool', async () => {
    const best = v2CycleOptimum(200_000, 100, 100, 400_000);
    expect(best.input).toBeGreaterThan(20_000);
    const usdcIn = (await findArbitrage(await twoDexes(2_000, 4_000).market())).find((o) => o.symbolIn === 'USDC')!;
    expect(usdcIn.amountIn).toBeCloseTo(best.input, 0);
  });
});
