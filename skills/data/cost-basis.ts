/**
 * Average-cost positions: a buy adds its quantity at its price to the cost; a sell takes from the
 * position at the average cost and realises the difference with its own price. A sale beyond what
 * is held (tokens received by transfer) realises nothing for the excess: it has no cost basis.
 */
import type { Execution } from './executions.js';

export interface Position {
  qty: number;
  cost: number;
}

export const emptyPosition = (): Position => ({ qty: 0, cost: 0 });

/** Applies one execution to `p`; what a sell matched against the position and the profit it realised. */
export function applyExecution(p: Position, e: Pick<Execution, 'bought' | 'sold' | 'priceUsd'>): { matched: number; realized: number } {
  if (e.bought > 0) {
    p.qty += e.bought;
    p.cost += e.bought * e.priceUsd;
  }
  if (e.sold <= 0 || p.qty <= 0) return { matched: 0, realized: 0 };
  const matched = Math.min(e.sold, p.qty);
  const avg = p.cost / p.qty;
  p.cost -= matched * avg;
  p.qty -= matched;
  return { matched, realized: matched * (e.priceUsd - avg) };
}
