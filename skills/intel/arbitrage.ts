/**
 * Cross-DEX arbitrage, methodology `arbitrage/v1`: for every token pair quoted by pools on two
 * DEXes, the trade that buys on the cheaper pool and sells on the dearer one, sized for the
 * largest profit under both pools' constant-product curves and 0.3% fees at their current
 * reserves (from the index), valued in USD and net of the gas of two swaps at the chain's
 * current gas price. A flash-loan variant charges the lender's fee on the borrowed input.
 */
import { formatUnits } from 'viem';
import type { Market, Pool } from './market.js';

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

/** Golden-section search for the most profitable input, up to a tenth of the buy pool's depth. */
function bestInput(buy: Pool, sell: Pool, tokenIn: string): bigint {
  let lo = 0;
  let hi = Number(sides(buy, tokenIn)[0] / 10n);
  for (let i = 0; i < 80 && hi - lo > 1; i++) {
    const m1 = lo + (hi - lo) / 3;
    const m2 = hi - (hi - lo) / 3;
    if (cycle(buy, sell, tokenIn, BigInt(Math.floor(m1))) < cycle(buy, sell, tokenIn, BigInt(Math.floor(m2)))) lo = m1;
    else hi = m2;
  }
  const best = BigInt(Math.floor((lo + hi) / 2));
  return cycle(buy, sell, tokenIn, best) > 0n ? best : 0n;
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
