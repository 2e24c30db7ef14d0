import { describe, expect, it } from 'vitest';
import { EMBEDDED_FLASH_LENDER } from '../../chain/chains.js';
import { twoDexes, v2CycleOptimum } from '../data/testing/fixtures.js';
import { flashLoanOpportunities } from './engine.js';

/** The $2,000 / $2,200 WETH gap, with a 0.09% lender that lends `maxUsdc` raw USDC and any WETH. */
function world(maxUsdc: bigint, lenderHasCode = true) {
  const fx = twoDexes(2_000, 2_200);
  if (lenderHasCode) fx.code.set(EMBEDDED_FLASH_LENDER.toLowerCase(), '0x6080604052');
  fx.answer(EMBEDDED_FLASH_LENDER, 'maxFlashLoan', ([token]) => (String(token).toLowerCase() === fx.usdc ? maxUsdc : 10n ** 30n));
  fx.answer(EMBEDDED_FLASH_LENDER, 'flashFee', ([, amount]) => ((amount as bigint) * 9n) / 10_000n);
  return fx;
}

describe('flashloan/v1', () => {
  it('each cycle financed by the lender, net of its own flashFee and the gas', async () => {
    const fx = world(10n ** 30n);
    const { lenders, opportunities } = await flashLoanOpportunities(await fx.market());
    expect(lenders).toEqual([EMBEDDED_FLASH_LENDER]);
    expect(opportunities).toHaveLength(2);
    const usdc = opportunities.find((o) => o.tokenIn === fx.usdc)!;
    const best = v2CycleOptimum(200_000, 100, 100, 220_000);
    // 0.09% of the borrowed USDC, at $1; gas 0.0003 ETH at $2,200.
    expect(usdc.lender).toBe(EMBEDDED_FLASH_LENDER);
    expect(usdc.flashFeeUsd!).toBeCloseTo(usdc.amountIn * 0.0009, 5);
    expect(usdc.feeUsd).toBe(usdc.flashFeeUsd);
    expect(usdc.netProfitUsd!).toBeCloseTo(best.profit - 0.66 - best.input * 0.0009, 2);
  });

  it('a cycle larger than the lender can lend is left out', async () => {
    const fx = world(1_000_000n); // $1 of USDC
    const { opportunities } = await flashLoanOpportunities(await fx.market());
    expect(opportunities.map((o) => o.tokenIn)).toEqual([fx.weth]);
  });

  it('an address without code is no lender, and nothing is offered', async () => {
    expect(await flashLoanOpportunities(await world(10n ** 30n, false).market())).toEqual({ lenders: [], opportunities: [] });
  });
});
