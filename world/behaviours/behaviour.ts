/**
 * A market behaviour: one kind of actor in the world's own market (retail orders, snipers, rug
 * pulls, the launchpad…), with its state and the labels it writes. Unlike a world module, which
 * draws from a generator of its own, every behaviour draws from the market's one generator, in a
 * fixed order within each block (index.ts): that order is part of what makes a seed's world.
 */
import type { Address } from 'viem';
import type { Rng } from '../../lib/random.js';
import type { Market, Pool } from '../market.js';
import type { WorldHost } from '../modules/module.js';
import type { TokenInfo } from '../world.js';

/** What the world lends its market's behaviours: a module's view plus the market's own generator and state. */
export interface MarketHost extends Omit<WorldHost, 'actorAddress' | 'labelActor' | 'listingSchedule' | 'mineSetupBlock'> {
  /** The market's generator (never a module's). */
  readonly rng: Rng;
  /** The mirror of the V2 pools. */
  readonly market: Market;
  /** Each DEX's V2 router, by dex index. */
  readonly routers: readonly Address[];
  /** The history's first second. */
  readonly startTimestamp: number;
  /** Timestamp of the last mined block. */
  lastBlockTime(): number;
  /** A market actor derived from the seed; labelled by whoever makes it (module actors are labelled apart). */
  actorAddress(role: string, i: number): Address;
  addToken(info: TokenInfo): void;
  /** The next number of a new token (listings and curve launches count together). */
  nextListingNumber(): number;
  /** A person trades once per block: whether `actor` has in the block being assembled, and marking it. */
  hasTraded(actor: Address): boolean;
  markTraded(actor: Address): void;
  /** A pool the chain may move beyond the mirror's math (liquidity, taxes): re-read after the block. */
  touch(pool: Pool): void;
  /** How many transactions the block being assembled holds so far (the next one queued gets this index). */
  queued(): number;
  /**
   * Runs `fn` once the block being assembled is mined, with its number and whether each of `txs`
   * (indices as `queued()` counts them) succeeded on chain: for labels that must say what the chain did.
   */
  onSettled(txs: readonly number[], fn: (block: number, succeeded: readonly boolean[]) => void): void;
}

export interface MarketBehaviour {
  /** Unique; also names its saved state. */
  readonly name: string;
  /** During the world's setup, with its own contracts (before the actors are funded). */
  deploy?(host: MarketHost): void;
  /** Every block, in the behaviours' order, before the modules. `dt`: seconds since the last block. */
  step(host: MarketHost, t: number, dt: number): Promise<void> | void;
  /** Once the backfill is written (labels that describe the whole history). */
  finishBackfill?(host: MarketHost): void;
  /** What it keeps besides the chain, as plain JSON (amounts as strings), and its restore. */
  toState?(): unknown;
  restore?(state: unknown, host: MarketHost): void;
}
