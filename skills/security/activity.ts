/**
 * How much a token has traded and for how long, for the security verdict: the Swap events of its
 * pools in the index up to the checkpoint, and the time of its oldest pool's first Sync (its first
 * liquidity). Swaps are counted once per Market for every pool (one read of the index).
 */
import type { Market } from '../data/market.js';

export interface Activity {
  /** Swap events of the token's pools the index holds up to the checkpoint. */
  trades: number;
  /** Unix time of the first Sync of the token's oldest pool, null when none is indexed. */
  firstLiquidityTs: number | null;
  /** Hours from that first liquidity to the checkpoint. */
  ageHours: number | null;
  /** Unix time where the index's history begins: trades and age are counted from there. */
  historyStart: number | null;
}

const counted = new WeakMap<Market, Promise<Map<string, number>>>();

function swapsByPool(market: Market): Promise<Map<string, number>> {
  let done = counted.get(market);
  if (!done) {
    done = market.reader.swaps(0, market.head.block).then((swaps) => {
      const out = new Map<string, number>();
      for (const s of swaps) out.set(s.pair.toLowerCase(), (out.get(s.pair.toLowerCase()) ?? 0) + 1);
      return out;
    });
    counted.set(market, done);
    done.catch(() => counted.delete(market));
  }
  return done;
}

export async function activity(market: Market, token: string): Promise<Activity> {
  const t = token.toLowerCase();
  const pools = market.pools.filter((p) => p.token0 === t || p.token1 === t);
  const [swaps, firsts] = await Promise.all([swapsByPool(market), Promise.all(pools.map((p) => market.reader.firstSync(p.pair)))]);
  const times = firsts.flatMap((s) => (s ? [s.ts] : []));
  const firstLiquidityTs = times.length ? Math.min(...times) : null;
  return {
    trades: pools.reduce((n, p) => n + (swaps.get(p.pair) ?? 0), 0),
    firstLiquidityTs,
    ageHours: firstLiquidityTs === null ? null : Math.round(((market.head.timestamp - firstLiquidityTs) / 3600) * 10) / 10,
    historyStart: market.historyStart,
  };
}
