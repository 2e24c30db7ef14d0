/**
 * Trades as executions of a wallet: every indexed swap assembled into trades (trades.ts: a
 * multi-hop route is one trade of its transaction's sender, never a router's or a pool's), each
 * a buy of the token its route ended in and a sell of the token it started from, where that end's
 * pool trades the token against its quote (USDC, else the wrapped native, else the side whose main
 * pool is quoted by the other), at its execution price on that pool: quote paid or received per
 * token, in USD at that moment, fees and impact included. Smart money, wallet PnL and copy trading read these.
 */
import { formatUnits } from 'viem';
import { rowScore } from '../../indexer/rows.js';
import type { Row } from '../../indexer/rows.js';
import { valueAt, type Market, type Pool } from './market.js';
import { assembleTrades, type Hop } from './trades.js';

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
  const usdc = market.chain.spec.usdc.toLowerCase();
  const native = market.chain.spec.wrappedNative.toLowerCase();
  // USDC (the numeraire), then the wrapped native, is always a pool's quote, however the pair sorts;
  // between two other tokens, the side whose main pool is quoted by the other (e.g. VIRTUAL's agents).
  // Main pools alone cannot say it: USDC's deepest pool is "quoted" by the native, and the native's
  // may be a token it quotes itself, so the native's trades, or that token's, would read backwards.
  const tradedToken = (pool: Pool): string | null => {
    for (const quote of [usdc, native]) {
      if (pool.token0 === quote) return pool.token1;
      if (pool.token1 === quote) return pool.token0;
    }
    if (market.mainPool(pool.token0)?.quote === pool.token1) return pool.token0;
    return market.mainPool(pool.token1)?.quote === pool.token0 ? pool.token1 : null;
  };
  // A route's ends: it bought the token its last hop paid out, and sold the one its first hop took
  // in, each when that hop's pool trades the token against its quote (a direct swap is one of them).
  const legs: { wallet: string; hop: Hop; token: string; buys: boolean }[] = [];
  for (const trade of await assembleTrades(market.chain, swaps, market.pools)) {
    // A route whose output went on to a pool continues outside the index: not a trade we can price.
    if (!trade.sender || pools.has(trade.recipient)) continue;
    const [first, last] = [trade.hops[0]!, trade.hops[trade.hops.length - 1]!];
    if (tradedToken(pools.get(last.pool)!) === last.tokenOut) legs.push({ wallet: trade.sender, hop: last, token: last.tokenOut, buys: true });
    if (tradedToken(pools.get(first.pool)!) === first.tokenIn) legs.push({ wallet: trade.sender, hop: first, token: first.tokenIn, buys: false });
  }
  const sides = new Map<string, number>();
  for (const l of legs) {
    const key = `${l.hop.swap.block}:${l.wallet}:${l.token}`;
    sides.set(key, (sides.get(key) ?? 0) | (l.buys ? 1 : 2));
  }
  const out: Execution[] = [];
  for (const { wallet, hop, token, buys } of legs) {
    const s = hop.swap;
    const quote = buys ? hop.tokenIn : hop.tokenOut;
    const [decimals, quoteDecimals] = [market.decimals(token), market.decimals(quote)];
    const quoteUsd = quote === usdc ? 1 : valueAt(await market.timeline(quote, 0), rowScore(s.block, s.logIndex));
    if (decimals === null || quoteDecimals === null || quoteUsd === null) continue;
    const traded = Number(formatUnits(buys ? hop.amountOut : hop.amountIn, decimals));
    const quoteMoved = Number(formatUnits(buys ? hop.amountIn : hop.amountOut, quoteDecimals));
    if (traded <= 0) continue;
    out.push({
      wallet, token, block: s.block, logIndex: s.logIndex, ts: s.ts, tx: s.tx,
      bought: buys ? traded : 0, sold: buys ? 0 : traded,
      priceUsd: (quoteMoved / traded) * quoteUsd,
      roundTripBlock: sides.get(`${s.block}:${wallet}:${token}`) === 3,
    });
  }
  return out.sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
}
