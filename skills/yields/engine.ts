/**
 * Liquidity-provider yields (`lp-yield/v1`): what each indexed V2 pool paid its liquidity over a
 * period, from the swap fees its volume generated, set against what the price move cost a
 * provider (impermanent loss). Realised figures of the period, annualised for comparison;
 * never a promise of the next one.
 */
import type { Coverage } from '../data/coverage.js';
import { round, TRADEABLE_LIQUIDITY_USD, type Market } from '../data/market.js';
import { openingPrice } from '../data/pricing.js';

/** The Uniswap-V2 fee every indexed pool charges (0.3%, the `997/1000` of the pair contract). */
export const V2_FEE = 0.003;
/** USD stablecoins by symbol: a pool of two of them carries no price risk to speak of. */
export const USD_STABLECOINS = ['USDC', 'USDT', 'DAI', 'USDBC', 'USDC.E', 'FDUSD', 'BUSD', 'TUSD', 'USDE', 'USDS', 'PYUSD', 'FRAX', 'LUSD'];
export const YIELD_METHODOLOGY = `lp-yield/v1 (fees = ${V2_FEE * 100}% of each pool's swap volume in the period at market/v1 prices; fee APR = fees / liquidity now, annualised over the span the index's history covers of the period; impermanent loss from the change of the two sides' price ratio over that span; pools under $${TRADEABLE_LIQUIDITY_USD.toLocaleString('en-US')} liquidity left out)`;
const MIN_POOL_LIQUIDITY_USD = TRADEABLE_LIQUIDITY_USD;

/** Yields over the `coverage` of the period: its fees are annualised over that span, not the period's nominal length. */
export async function poolYields(market: Market, fromBlock: number, coverage: Coverage) {
  const spanSeconds = Math.max(1, coverage.to - coverage.from);
  const volumes = await market.poolVolumes(fromBlock);
  const rows = [];
  for (const pool of market.pools) {
    const liquidity = market.liquidityUsd(pool);
    if (liquidity === null || liquidity < MIN_POOL_LIQUIDITY_USD) continue;
    const [s0, s1] = [market.tokens.get(pool.token0)?.symbol ?? null, market.tokens.get(pool.token1)?.symbol ?? null];
    const stable = [s0, s1].filter((s) => s && USD_STABLECOINS.includes(s.toUpperCase())).length;
    const volume = volumes.get(pool.pair)?.usd ?? 0;
    const fees = volume * V2_FEE;
    const ratioNow = ratio(market.priceNow(pool.token0)?.usd, market.priceNow(pool.token1)?.usd);
    const [open0, open1] = [await openingPrice(market, pool.token0, fromBlock, coverage.periodFrom), await openingPrice(market, pool.token1, fromBlock, coverage.periodFrom)];
    const ratioThen = ratio(open0?.usd, open1?.usd);
    const move = ratioNow !== null && ratioThen !== null ? ratioNow / ratioThen : null;
    const impermanentLoss = move === null ? null : (2 * Math.sqrt(move)) / (1 + move) - 1;
    const periodFeeReturn = fees / liquidity;
    rows.push({
      pool: pool.pair,
      dex: pool.dex,
      pair: `${s0 ?? pool.token0}/${s1 ?? pool.token1}`,
      stableSides: stable,
      liquidityUsd: round(liquidity, 2),
      volumeUsd: round(volume, 2),
      feesUsd: round(fees, 2),
      feeAprPct: round(periodFeeReturn * (365 * 86_400 / spanSeconds) * 100, 2),
      impermanentLossPct: impermanentLoss === null ? null : round(impermanentLoss * 100, 4),
      netPeriodReturnPct: impermanentLoss === null ? null : round((periodFeeReturn + impermanentLoss) * 100, 4),
    });
  }
  return rows.sort((a, b) => b.feeAprPct - a.feeAprPct);
}

function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  return a && b ? a / b : null;
}
