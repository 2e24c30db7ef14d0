/**
 * Sandwich bots: front-run a victim's buy, let it fill at a worse price, back-run, all in one
 * block. Like a real bot, the attacker sizes the front leg for the best profit on the pool as it
 * stands and attacks only when that profit is positive. Victims come from the order flow (orders.ts).
 * An attack is labelled once its block is mined, and only if all three legs succeeded on chain.
 */
import type { Address } from 'viem';
import { v2AmountOut, type Pool } from '../market.js';
import type { MarketHost } from './behaviour.js';

export interface SandwichLabels {
  sandwiches: { pool: Address; attacker: Address; victim: Address; victimUsd: number; block: number }[];
}

export function emptySandwichLabels(): SandwichLabels {
  return { sandwiches: [] };
}

export class Sandwichers {
  /** Fills the victim's buy of `victimIn` through `pool`, sandwiched when that pays. */
  around(host: MarketHost, victim: Address, pool: Pool, quoteIn: Address, victimIn: bigint, victimUsd: number): void {
    const attacker = host.rng.pick(host.actors('sandwicher'));
    const [rq, rt] = host.market.sides(pool, quoteIn);
    let best = 0n;
    let bestProfit = 0n;
    for (const tenths of [2, 5, 10, 15, 20, 30, 40, 60, 80]) {
      const frontIn = (victimIn * BigInt(tenths)) / 10n;
      const bought = v2AmountOut(frontIn, rq, rt);
      const victimOut = v2AmountOut(victimIn, rq + frontIn, rt - bought);
      const back = v2AmountOut(bought, rt - bought - victimOut, rq + frontIn + victimIn);
      if (back - frontIn > bestProfit) {
        bestProfit = back - frontIn;
        best = frontIn;
      }
    }
    if (best === 0n || host.balance(attacker, quoteIn) < best) return void host.swap(victim, pool, quoteIn, victimIn);
    const tokenOut = quoteIn.toLowerCase() === pool.token0.toLowerCase() ? pool.token1 : pool.token0;
    const legs: number[] = [];
    const leg = (actor: Address, tokenIn: Address, amountIn: bigint): bigint => {
      const before = host.queued();
      const out = host.swap(actor, pool, tokenIn, amountIn);
      legs.push(host.queued() > before ? host.queued() - 1 : -1); // the swap is the last transaction it queues
      return out;
    };
    const bought = leg(attacker, quoteIn, best);
    leg(victim, quoteIn, victimIn);
    leg(attacker, tokenOut, bought);
    // A sandwich only if the chain sealed all three legs: the mirror can run ahead of the chain, and
    // a back leg selling more than the front bought reverts (that attack only front-ran its victim).
    const label = { pool: pool.pair, attacker, victim, victimUsd: Math.round(victimUsd) };
    host.onSettled(legs, (block, succeeded) => {
      if (succeeded.every(Boolean)) host.labels.sandwiches.push({ ...label, block });
    });
  }
}
