/**
 * Flash-loan opportunities, methodology `flashloan/v1`: the `arbitrage/v1` cycles whose input a
 * known ERC-3156 lender can lend (its maxFlashLoan covers the amount), net of the lender's own
 * flashFee for that amount as it answers on chain. Lenders are probed, not assumed: an address
 * without code is not a lender.
 */
import { formatUnits, parseAbi, type Address } from 'viem';
import { EMBEDDED_FLASH_LENDER } from '../../chain/chains.js';
import { findArbitrage, type Opportunity } from '../arbitrage/engine.js';
import type { Market } from '../data/market.js';

export const FLASHLOAN_METHODOLOGY = 'flashloan/v1 (arbitrage/v1 cycles financed by an ERC-3156 lender whose maxFlashLoan covers the input; net of its flashFee and gas)';

const lenderAbi = parseAbi([
  'function maxFlashLoan(address token) view returns (uint256)',
  'function flashFee(address token, uint256 amount) view returns (uint256)',
]);

export interface FlashOpportunity extends Opportunity {
  lender: Address;
  flashFeeUsd: number | null;
}

export async function flashLenders(market: Market): Promise<Address[]> {
  const candidates: Address[] = [EMBEDDED_FLASH_LENDER];
  const codes = await Promise.all(candidates.map((a) => market.chain.client.getCode({ address: a })));
  return candidates.filter((_, i) => codes[i] && codes[i] !== '0x');
}

export async function flashLoanOpportunities(market: Market): Promise<{ lenders: Address[]; opportunities: FlashOpportunity[] }> {
  const lenders = await flashLenders(market);
  if (!lenders.length) return { lenders, opportunities: [] };
  const cycles = (await findArbitrage(market)).filter((o) => o.grossProfitUsd !== null && o.grossProfitUsd > 0);
  const out: FlashOpportunity[] = [];
  for (const o of cycles) {
    const decimals = market.decimals(o.tokenIn) ?? 18;
    const amount = BigInt(Math.floor(o.amountIn * 10 ** Math.min(decimals, 12))) * 10n ** BigInt(Math.max(0, decimals - 12));
    for (const lender of lenders) {
      const [max, fee] = await Promise.all([
        market.chain.client.readContract({ address: lender, abi: lenderAbi, functionName: 'maxFlashLoan', args: [o.tokenIn as Address] }),
        market.chain.client.readContract({ address: lender, abi: lenderAbi, functionName: 'flashFee', args: [o.tokenIn as Address, amount] }),
      ]);
      if (max < amount) continue;
      const price = market.priceNow(o.tokenIn)?.usd ?? null;
      const flashFeeUsd = price === null ? null : Number(formatUnits(fee, decimals)) * price;
      out.push({
        ...o,
        lender,
        flashFeeUsd,
        feeUsd: flashFeeUsd ?? 0,
        netProfitUsd: o.grossProfitUsd === null || o.gasUsd === null || flashFeeUsd === null ? null : o.grossProfitUsd - o.gasUsd - flashFeeUsd,
      });
      break;
    }
  }
  return { lenders, opportunities: out.sort((a, b) => (b.netProfitUsd ?? -Infinity) - (a.netProfitUsd ?? -Infinity)) };
}
