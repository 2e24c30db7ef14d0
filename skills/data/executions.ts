/**
 * Swaps as trades of a wallet: every indexed swap attributed to the wallet that received its
 * output (never a pool), as a buy or a sell of the pool's traded token (the side whose main pool
 * is quoted by the other side) at its execution price: quote paid or received per token, in USD
 * at that moment, fees and impact included. Smart money and wallet PnL both read these.
 */
import { formatUnits } from 'viem';
import { rowScore } from '../../indexer/rows.js';
import type { Row } from '../../indexer/rows.js';
import { valueAt, type Market, type Pool } from './market.js';

export interface Execution {
  readonly wallet: string;
  readonly token: string;
  readonly block: number;
  readonly logIndex: number;
  readonly ts: number;
  readonly tx: string;
  /** Token amount bought (0 for a sell) and sold (0 for a buy). */
  readonly bought: number;
  readonly sold: number;
  readonly priceUsd: number;
  /** The wallet both bought and sold this token in this block (arbitrage or sandwich legs). */
  readonly roundTripBlock: boolean;
}

const cached = new WeakMap<Market, Promise<Execution[]>>();

/** Every execution of the whole index, computed once per Market (one index checkpoint). */
export function allExecutions(market: Market): Promise<Execution[]> {
  let done = cached.get(market);
  if (!done) {
    cached.set(market, (done = market.reader.swaps(0, market.head.block).then((swaps) => executions(market, swaps))));
    done.catch(() => cached.delete(market));
  }
  return done;
}

export async function executions(market: Market, swaps: readonly Row<'swap'>[]): Promise<Execution[]> {
  const pools = new Map(market.pools.map((p) => [p.pair, p]));
  const tradedToken = (pool: Pool): string | null => {
    if (market.mainPool(pool.token0)?.quote === pool.token1) return pool.token0;
    return market.mainPool(pool.token1)?.quote === pool.token0 ? pool.token1 : null;
  };
  const sides = new Map<string, number>();
  for (const s of swaps) {
    const pool = pools.get(s.pair.toLowerCase());
    const token = pool && tradedToken(pool);
    if (!token) continue;
    const key = `${s.block}:${s.to.toLowerCase()}:${token}`;
    const buys = BigInt(token === pool.token0 ? s.amount0Out : s.amount1Out) > 0n;
    sides.set(key, (sides.get(key) ?? 0) | (buys ? 1 : 2));
  }
  const out: Execution[] = [];
  for (const s of swaps) {
    const pool = pools.get(s.pair.toLowerCase());
    const wallet = s.to.toLowerCase();
    if (!pool || pools.has(wallet)) continue;
    const token = tradedToken(pool);
    if (!token) continue;
    const quote = token === pool.token0 ? pool.token1 : pool.token0;
    const [decimals, quoteDecimals] = [market.decimals(token), market.decimals(quote)];
    const quoteUsd = quote === market.chain.spec.usdc.toLowerCase() ? 1 : valueAt(await market.timeline(quote, 0), rowScore(s.block, s.logIndex));
    if (decimals === null || quoteDecimals === null || quoteUsd === null) continue;
    const is0 = token === pool.token0;
    const bought = Number(formatUnits(BigInt(is0 ? s.amount0Out : s.amount1Out), decimals));
    const sold = Number(formatUnits(BigInt(is0 ? s.amount0In : s.amount1In), decimals));
    const quoteMoved = Number(formatUnits(BigInt(is0 ? (bought > 0 ? s.amount1In : s.amount1Out) : (bought > 0 ? s.amount0In : s.amount0Out)), quoteDecimals));
    const traded = bought > 0 ? bought : sold;
    if (traded <= 0) continue;
    out.push({
      wallet, token, block: s.block, logIndex: s.logIndex, ts: s.ts, tx: s.tx, bought, sold,
      priceUsd: (quoteMoved / traded) * quoteUsd,
      roundTripBlock: sides.get(`${s.block}:${wallet}:${token}`) === 3,
    });
  }
  return out;
}
