/** The majors the background jobs forecast, their horizons, and where each is priced best. */
import type { ChainName } from '../../chain/chains.js';
import { resolveToken } from '../data/resolve.js';
import { loadMarket } from '../data/load.js';
import type { SkillContext } from '../core/context.js';

export const PRECOMPUTE_ASSETS = ['BTC', 'ETH', 'SOL', 'BNB'] as const;
/** Each horizon is cut into candles small enough for 16+ of them in two weeks, so a short history still forecasts. */
export const PRECOMPUTE_INTERVALS = {
  '4h': { candleSeconds: 3_600, steps: 4 },
  '1d': { candleSeconds: 14_400, steps: 6 },
  '1w': { candleSeconds: 28_800, steps: 21 },
  '1M': { candleSeconds: 43_200, steps: 60 },
} as const;
export type PrecomputeInterval = keyof typeof PRECOMPUTE_INTERVALS;

/** The indexed chain and token standing for `asset` with the deepest priced pool. */
export async function locateMajor(ctx: SkillContext, asset: string) {
  let best: { chain: ChainName; token: string; depth: number; market: Awaited<ReturnType<typeof loadMarket>>['market'] } | undefined;
  for (const chain of ctx.chains.list()) {
    try {
      const { market } = await loadMarket(ctx, chain.name);
      const token = resolveToken(market, asset);
      const depth = market.mainPool(token)?.quoteUsd ?? -1;
      if (!best || depth > best.depth) best = { chain: chain.name, token, depth, market };
    } catch {
      // not indexed, or no such token there
    }
  }
  return best;
}

