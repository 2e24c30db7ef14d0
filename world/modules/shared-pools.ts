/**
 * V2 pools that one module opens and other modules trade. A module keeps a mirror of its pools'
 * reserves (a `Pool`, applied to as it swaps through WorldHost.swap and re-read by the world after
 * every block that touched it), and a mirror is only exact while every swap on the pool goes
 * through it: a second module trading the pool through a mirror of its own would leave the first
 * one's stale (wrong outputs credited to its actors, then sells of what they do not hold). So the
 * module that opens a pool publishes its mirror here, and a module that trades the pool finds it
 * here and swaps through that very object; each then sees the other's swaps as they are queued.
 * A module only trades a pool its opener published. One registry per world (keyed by its host).
 */
import type { Address } from 'viem';
import type { Pool } from '../market.js';
import type { WorldHost } from './module.js';

const published = new WeakMap<WorldHost, Map<string, Pool>>();

/** The opener's mirror of `pool`, for other modules to trade through (again after a restore: the new object replaces the old). */
export function publishPool(host: WorldHost, pool: Pool): void {
  let pools = published.get(host);
  if (!pools) published.set(host, (pools = new Map()));
  pools.set(pool.pair.toLowerCase(), pool);
}

/** The mirror its opener published for `pair`, or undefined (then the pool is not to be traded). */
export function publishedPool(host: WorldHost, pair: Address): Pool | undefined {
  return published.get(host)?.get(pair.toLowerCase());
}
