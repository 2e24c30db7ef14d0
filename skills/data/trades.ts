/**
 * Trade assembly, methodology `trades/v1`: the one step that turns Swap logs into trades. A
 * route through several pools in one transaction (a router's multi-hop swap) leaves one Swap log
 * per pool; it is ONE trade by the transaction's sender, from the first hop's token in to the
 * last hop's token out. Every engine that reads swaps as trades (smart money and wallet PnL
 * through executions.ts, sandwiches, snipers, whales) reads them from here, so a route is never
 * counted as several trades nor credited to the router or pool that held the token between hops.
 *
 * Hops are linked within a transaction, in log order: a swap continues the open route whose last
 * output is its input token, when that output went to the swap's own pool (a V2 router's path)
 * or to the contract that called it (a router holding the token between hops), and no more
 * arrived than left. Anything else starts a new trade, so two separate trades batched in one
 * transaction stay two.
 */
import type { Address, Hash } from 'viem';
import type { Row } from '../../indexer/rows.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { txSenders } from './senders.js';

export const TRADES_METHODOLOGY = 'trades/v1 (a transaction\'s Swap logs linked into routes: a hop continues the route whose output it spends (sent to its pool or held by its caller); one route is one trade by the transaction\'s sender, first token in to last token out)';

/** One pool of a route: the swap, and which way it went through the pool. */
export interface Hop {
  readonly swap: Row<'swap'>;
  /** Lower-case pool. */
  readonly pool: string;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

export interface Trade {
  readonly tx: Hash;
  readonly block: number;
  /** The first hop's log index (trades of a block sort by it). */
  readonly logIndex: number;
  readonly ts: number;
  /** The transaction's sender (lower-case); null when the chain did not name it (unattributed). */
  readonly sender: Address | null;
  /** Where the last hop's output went (lower-case): usually the sender, a router when it unwraps or forwards. */
  readonly recipient: Address;
  readonly tokenIn: string;
  readonly amountIn: bigint;
  readonly tokenOut: string;
  readonly amountOut: bigint;
  /** The pools in route order (one for a direct swap). */
  readonly hops: readonly Hop[];
}

type PoolTokens = { readonly pair: string; readonly token0: string; readonly token1: string };

/** The swap as one hop: what the pool received and what it paid out (null when the log says neither one way). */
function hopOf(s: Row<'swap'>, pool: PoolTokens): Hop | null {
  const net0 = BigInt(s.amount0In) - BigInt(s.amount0Out);
  const net1 = BigInt(s.amount1In) - BigInt(s.amount1Out);
  // The pool gains one side and pays out the other; a log with both sides in or both out is no trade.
  if (net0 > 0n && net1 < 0n) return { swap: s, pool: pool.pair, tokenIn: pool.token0, tokenOut: pool.token1, amountIn: net0, amountOut: -net1 };
  if (net1 > 0n && net0 < 0n) return { swap: s, pool: pool.pair, tokenIn: pool.token1, tokenOut: pool.token0, amountIn: net1, amountOut: -net0 };
  return null;
}

/** Whether `next` spends what the route's last hop paid out. */
function continues(last: Hop, next: Hop): boolean {
  const to = last.swap.to.toLowerCase();
  return last.tokenOut === next.tokenIn && next.amountIn <= last.amountOut && (to === next.pool || to === next.swap.sender.toLowerCase());
}

/**
 * The swaps' trades, without senders: hops linked per transaction. Swaps on pools not in `pools`
 * are left out (their tokens are unknown). Trades come in block and log order.
 */
export function linkTrades(swaps: readonly Row<'swap'>[], pools: readonly PoolTokens[]): Omit<Trade, 'sender'>[] {
  const byPair = new Map(pools.map((p) => [p.pair.toLowerCase(), p]));
  const byTx = new Map<Hash, Hop[]>();
  for (const s of swaps) {
    const pool = byPair.get(s.pair.toLowerCase());
    const hop = pool && hopOf(s, pool);
    if (!hop) continue;
    const list = byTx.get(s.tx);
    if (list) list.push(hop);
    else byTx.set(s.tx, [hop]);
  }
  const out: Omit<Trade, 'sender'>[] = [];
  for (const hops of byTx.values()) {
    hops.sort((a, b) => a.swap.block - b.swap.block || a.swap.logIndex - b.swap.logIndex);
    const routes: Hop[][] = [];
    for (const hop of hops) {
      // The most recent open route this hop spends from; otherwise a trade of its own.
      const route = routes.findLast((r) => continues(r[r.length - 1]!, hop));
      if (route) route.push(hop);
      else routes.push([hop]);
    }
    for (const route of routes) {
      const [first, last] = [route[0]!, route[route.length - 1]!];
      out.push({
        tx: first.swap.tx, block: first.swap.block, logIndex: first.swap.logIndex, ts: first.swap.ts,
        recipient: last.swap.to.toLowerCase() as Address,
        tokenIn: first.tokenIn, amountIn: first.amountIn, tokenOut: last.tokenOut, amountOut: last.amountOut,
        hops: route,
      });
    }
  }
  return out.sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
}

/** The swaps' trades, each by its transaction's sender (read from the chain, cached by hash). */
export async function assembleTrades(chain: ConnectedChain, swaps: readonly Row<'swap'>[], pools: readonly PoolTokens[]): Promise<Trade[]> {
  const linked = linkTrades(swaps, pools);
  const senders = await txSenders(chain, linked);
  return linked.map((t) => ({ ...t, sender: senders.get(t.tx) ?? null }));
}
