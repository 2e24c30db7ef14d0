/**
 * Sandwich detection, methodology `sandwich/v2`, on assembled trades (skills/data/trades.ts): on
 * one pool, a trader's front leg and back leg in opposite directions around at least one victim
 * whose trade crossed the pool in the front leg's direction, in that order. A leg or a victim may
 * be one hop of a multi-hop route (the route is one trade of its sender, so a victim routed
 * through two pools is one victim and a router is never taken for an attacker). The back leg
 * closes in the front's block, or opens the next block on that pool (a next-block back-run) when it
 * sells back what the front bought (within 1%) and neither leg is an arbitrageur's (sold on another
 * pool in its block what it bought on this one).
 * Profit is what the back trade returned less what the front trade paid, in the token the front
 * paid (the routes' end tokens when they match, the pool's side otherwise), valued in USD net of
 * both legs' gas; a pair of legs that returns less than it paid is a trader's round trip, not a
 * sandwich. Joined on blocks and log order, never on time.
 */
import { formatUnits, type Address, type Hash } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import type { Row } from '../../indexer/rows.js';
import type { Market } from '../data/market.js';
import { assembleTrades, type Hop, type Trade } from '../data/trades.js';

export const SANDWICH_METHODOLOGY = 'sandwich/v2 (trades/v1 routes; on one pool, front and back legs of one sender reversed around >=1 victim crossing the pool in the front direction; the back leg in the front\'s block, or first on the pool in the next selling back what the front bought (within 1%) with neither leg hedged on another pool in its block; the back returning more than the front paid; profit net of gas)';

export interface Sandwich {
  /** The front leg's block. */
  block: number;
  /** The back leg's block: `block`, or the next one for a next-block back-run. */
  backBlock: number;
  pool: string;
  attacker: Address;
  frontTx: Hash;
  backTx: Hash;
  victims: { address: Address; tx: Hash }[];
  profitToken: string;
  grossProfit: number;
  gasUsd: number | null;
  netProfitUsd: number | null;
}

/** One trade's crossing of one pool. */
interface Leg {
  readonly trade: Trade & { sender: Address };
  readonly hop: Hop;
}

const order = (a: Leg, b: Leg) => a.hop.swap.block - b.hop.swap.block || a.hop.swap.logIndex - b.hop.swap.logIndex;

/**
 * What the front paid and the back returned, in one token: the routes' own ends when the back
 * returns what the front paid in (a multi-hop attacker's true round trip), the pool's side otherwise.
 */
function roundTrip(front: Leg, back: Leg): { token: string; paid: bigint; got: bigint } {
  if (front.trade.tokenIn === back.trade.tokenOut) return { token: front.trade.tokenIn, paid: front.trade.amountIn, got: back.trade.amountOut };
  return { token: front.hop.tokenIn, paid: front.hop.amountIn, got: back.hop.amountOut };
}

/**
 * The sandwiches among `swaps` (Swap rows of any pools; a route's hops must all be there to be
 * assembled). `pool` keeps only sandwiches on that pool.
 */
export async function detectSandwiches(chain: ConnectedChain, market: Market, swaps: readonly Row<'swap'>[], opts: { pool?: string } = {}): Promise<Sandwich[]> {
  // Candidate pools: three or more legs within two consecutive blocks.
  const perBlock = new Map<string, number>();
  for (const s of swaps) perBlock.set(`${s.pair.toLowerCase()}:${s.block}`, (perBlock.get(`${s.pair.toLowerCase()}:${s.block}`) ?? 0) + 1);
  const busy = (s: Row<'swap'>) => {
    const n = (b: number) => perBlock.get(`${s.pair.toLowerCase()}:${b}`) ?? 0;
    return n(s.block) + Math.max(n(s.block - 1), n(s.block + 1)) >= 3;
  };
  // Every trade of those blocks and the next (their senders come a block at a time anyway): a leg's
  // hedge on another pool is among them.
  const blocks = new Set(swaps.filter(busy).flatMap((s) => [s.block, s.block + 1]));
  if (!blocks.size) return [];
  const trades = await assembleTrades(chain, swaps.filter((s) => blocks.has(s.block)), market.pools);
  // An arbitrageur sells on another pool, in the same block, what it bought on this one: such a leg
  // carries no risk across blocks, so it never opens or closes a next-block back-run.
  const soldOn = new Map<string, Set<string>>();
  for (const t of trades) {
    for (const h of t.hops) {
      const key = `${h.swap.block}:${t.sender}:${h.tokenIn}`;
      soldOn.set(key, (soldOn.get(key) ?? new Set()).add(h.pool));
    }
  }
  // A sandwicher holding across blocks sells back what its front leg bought (a token's own transfer
  // tax aside); a trader's round trip over two blocks comes back in another size.
  const unwinds = (front: Leg, back: Leg) => back.hop.amountIn <= front.hop.amountOut && back.hop.amountIn * 100n >= front.hop.amountOut * 99n;
  const hedged = (l: Leg) => [...(soldOn.get(`${l.hop.swap.block}:${l.trade.sender}:${l.hop.tokenOut}`) ?? [])].some((pool) => pool !== l.hop.pool);

  const byPool = new Map<string, Leg[]>();
  for (const trade of trades) {
    if (!trade.sender) continue;
    for (const hop of trade.hops) {
      if (opts.pool && hop.pool !== opts.pool.toLowerCase()) continue;
      const list = byPool.get(hop.pool) ?? [];
      list.push({ trade: trade as Leg['trade'], hop });
      byPool.set(hop.pool, list);
    }
  }

  // One attack per pair of legs: routes may cross several pools where the victim's route also
  // crossed; the attack is on the pool where the front bought what the attacker held across the victim.
  const attacks = new Map<string, { front: Leg; back: Leg; trip: ReturnType<typeof roundTrip>; victims: Leg[] }>();
  for (const legs of byPool.values()) {
    if (legs.length < 3) continue;
    legs.sort(order);
    const used = new Set<number>();
    for (let i = 0; i < legs.length; i++) {
      const front = legs[i]!;
      const attacker = front.trade.sender;
      if (used.has(i)) continue;
      for (let j = i + 2; j < legs.length; j++) {
        const back = legs[j]!;
        const block = back.hop.swap.block;
        if (block > front.hop.swap.block + 1) break;
        // A next-block back-run opens the block on this pool: nothing on it before the back leg.
        if (block !== front.hop.swap.block && legs[j - 1]!.hop.swap.block === block) break;
        if (back.trade.sender !== attacker || back.hop.tokenOut !== front.hop.tokenIn || back.trade.tx === front.trade.tx || used.has(j)) continue;
        if (block !== front.hop.swap.block && (hedged(front) || hedged(back) || !unwinds(front, back))) continue;
        const victims = legs.slice(i + 1, j).filter((v) => v.trade.sender !== attacker && v.hop.tokenOut === front.hop.tokenOut);
        const trip = roundTrip(front, back);
        if (!victims.length || trip.got <= trip.paid) continue;
        used.add(i).add(j);
        const key = `${front.trade.tx}:${back.trade.tx}`;
        const held = (l: Leg) => l.hop === l.trade.hops[l.trade.hops.length - 1];
        if (!attacks.has(key) || (held(front) && !held(attacks.get(key)!.front))) attacks.set(key, { front, back, trip, victims });
        break;
      }
    }
  }
  const found: Sandwich[] = [];
  for (const { front, back, trip, victims } of attacks.values()) {
    // One victim per trade, however many of its hops crossed the pool.
    const victimTrades = [...new Map(victims.map((v) => [v.trade.tx, { address: v.trade.sender, tx: v.trade.tx }])).values()];
    found.push(await price(chain, market, front, back, trip, victimTrades));
  }
  return found.sort((a, b) => a.block - b.block || a.pool.localeCompare(b.pool));
}

async function price(chain: ConnectedChain, market: Market, front: Leg, back: Leg, trip: { token: string; paid: bigint; got: bigint }, victims: Sandwich['victims']): Promise<Sandwich> {
  const decimals = market.decimals(trip.token) ?? 18;
  const grossProfit = Number(formatUnits(trip.got - trip.paid, decimals));
  const usd = market.priceNow(trip.token)?.usd ?? null;
  const nativeUsd = market.priceNow(chain.spec.wrappedNative)?.usd ?? null;
  const receipts = await Promise.all([front.trade.tx, back.trade.tx].map((hash) => chain.client.getTransactionReceipt({ hash })));
  const gasWei = receipts.reduce((sum, r) => sum + r.gasUsed * r.effectiveGasPrice, 0n);
  const gasUsd = nativeUsd === null ? null : Number(formatUnits(gasWei, 18)) * nativeUsd;
  return {
    block: front.hop.swap.block,
    backBlock: back.hop.swap.block,
    pool: front.hop.swap.pair,
    attacker: front.trade.sender,
    frontTx: front.trade.tx,
    backTx: back.trade.tx,
    victims,
    profitToken: trip.token,
    grossProfit,
    gasUsd,
    netProfitUsd: usd === null || gasUsd === null ? null : grossProfit * usd - gasUsd,
  };
}
