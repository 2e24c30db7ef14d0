/**
 * Cross-DEX arbitrage, methodology `arbitrage/v1`: for every token pair quoted by pools on two
 * DEXes, the trade that buys on the cheaper pool and sells on the dearer one, sized (closed form) for the
 * largest profit under both pools' constant-product curves and 0.3% fees at their current
 * reserves (from the index), valued in USD and net of the gas of two swaps at the chain's
 * current gas price. A flash-loan variant charges the lender's fee on the borrowed input.
 */
import { formatUnits } from 'viem';
import type { Market, Pool } from '../data/market.js';

export const ARBITRAGE_METHODOLOGY = 'arbitrage/v1 (two-pool cycles across DEXes at indexed reserves; optimal size under V2 curves with 0.3% fees; net of two swaps\' gas at the current gas price)';
/** Gas of a router swap on a V2 pool, a conservative figure for two of them. */
export const SWAP_GAS = 150_000n;

export interface Opportunity {
  tokenIn: string;
  tokenOut: string;
  symbolIn: string | null;
  symbolOut: string | null;
  buyPool: { pair: string; dex: string };
  sellPool: { pair: string; dex: string };
  priceGapPct: number;
  amountIn: number;
  amountInUsd: number | null;
  grossProfitUsd: number | null;
  gasUsd: number | null;
  feeUsd: number;
  netProfitUsd: number | null;
}

/** Uniswap-V2 output for an input, 0.3% fee. */
export function out(amountIn: bigint, rin: bigint, rout: bigint): bigint {
  if (amountIn <= 0n || rin <= 0n || rout <= 0n) return 0n;
  return (amountIn * 997n * rout) / (rin * 1000n + amountIn * 997n);
}

/** A pool's reserves as (in, out) for a swap paying `tokenIn`. */
export function sides(pool: Pool, tokenIn: string): [bigint, bigint] {
  return pool.token0 === tokenIn ? [pool.r0, pool.r1] : [pool.r1, pool.r0];
}

/** Profit (in tokenIn) of buying tokenOut on `buy` and selling it back on `sell`. */
function cycle(buy: Pool, sell: Pool, tokenIn: string, amountIn: bigint): bigint {
  const [bi, bo] = sides(buy, tokenIn);
  const got = out(amountIn, bi, bo);
  const tokenOut = buy.token0 === tokenIn ? buy.token1 : buy.token0;
  const [si, so] = sides(sell, tokenOut);
  return out(got, si, so) - amountIn;
}

/**
 * The most profitable input of a two-pool cycle, in closed form: maximising
 * out(out(x, bi, bo), si, so) − x with fee factor g = 997/1000 gives
 * x* = (g·√(bi·bo·si·so) − bi·si) / (g·(si + g·bo)), here in integers scaled by 1000².
 */
function bestInput(buy: Pool, sell: Pool, tokenIn: string): bigint {
  const [bi, bo] = sides(buy, tokenIn);
  const tokenOut = buy.token0 === tokenIn ? buy.token1 : buy.token0;
  const [si, so] = sides(sell, tokenOut);
  const numerator = 1000n * 997n * sqrt(bi * bo * si * so) - 1000n * 1000n * bi * si;
  if (numerator <= 0n) return 0n;
  const best = numerator / (997n * (1000n * si + 997n * bo));
  return cycle(buy, sell, tokenIn, best) > 0n ? best : 0n;
}

/** Integer square root, floor (Newton's method from above). */
function sqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) >> 1n;
  while (y < x) {
    x = y;
    y = (x + n / x) >> 1n;
  }
  return x;
}

export async function findArbitrage(market: Market, flashFeeBps = 0): Promise<Opportunity[]> {
  const gasPrice = await market.chain.client.getGasPrice();
  const nativeUsd = market.priceNow(market.chain.spec.wrappedNative)?.usd ?? null;
  const gasUsd = nativeUsd === null ? null : Number(formatUnits(gasPrice * SWAP_GAS * 2n, 18)) * nativeUsd;
  const byTokens = new Map<string, Pool[]>();
  for (const p of market.pools) {
    if (p.r0 === 0n || p.r1 === 0n) continue;
    const key = `${p.token0}:${p.token1}`;
    byTokens.set(key, [...(byTokens.get(key) ?? []), p]);
  }
  const found: Opportunity[] = [];
  for (const pools of byTokens.values()) {
    for (const a of pools) {
      for (const b of pools) {
        if (a === b || a.dex === b.dex) continue;
        for (const tokenIn of [a.token0, a.token1]) {
          const amount = bestInput(a, b, tokenIn);
          if (amount === 0n) continue;
          const profit = cycle(a, b, tokenIn, amount);
          const decimals = market.decimals(tokenIn) ?? 18;
          const price = market.priceNow(tokenIn)?.usd ?? null;
          const amountIn = Number(formatUnits(amount, decimals));
          const gross = price === null ? null : Number(formatUnits(profit, decimals)) * price;
          const fee = price === null ? 0 : (amountIn * price * flashFeeBps) / 10_000;
          const tokenOut = a.token0 === tokenIn ? a.token1 : a.token0;
          const [ai, ao] = sides(a, tokenIn);
          // tokenOut per tokenIn on the buy pool against the same rate on the sell pool.
          const [bIn, bOut] = sides(b, tokenIn);
          const gap = (Number(ao) / Number(ai)) / (Number(bOut) / Number(bIn)) - 1;
          found.push({
            tokenIn, tokenOut,
            symbolIn: market.tokens.get(tokenIn)?.symbol ?? null,
            symbolOut: market.tokens.get(tokenOut)?.symbol ?? null,
            buyPool: { pair: a.pair, dex: a.dex },
            sellPool: { pair: b.pair, dex: b.dex },
            priceGapPct: Math.round(gap * 1_000_000) / 10_000,
            amountIn,
            amountInUsd: price === null ? null : amountIn * price,
            grossProfitUsd: gross,
            gasUsd,
            feeUsd: fee,
            netProfitUsd: gross === null || gasUsd === null ? null : gross - gasUsd - fee,
          });
        }
      }
    }
  }
  return found.sort((x, y) => (y.netProfitUsd ?? -Infinity) - (x.netProfitUsd ?? -Infinity));
}
