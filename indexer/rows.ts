/** What the indexer stores: one row per event (addresses lower-case), and the store keys that hold them. */
import type { Address, Hash } from 'viem';
import type { EventName } from './events.js';

interface Base {
  block: number;
  logIndex: number;
  txIndex: number;
  tx: Hash;
  /** Block timestamp, unix seconds. */
  ts: number;
}

interface Rows {
  pairCreated: { factory: Address; pair: Address; token0: Address; token1: Address };
  swap: { pair: Address; sender: Address; to: Address; amount0In: string; amount1In: string; amount0Out: string; amount1Out: string };
  sync: { pair: Address; reserve0: string; reserve1: string };
  mint: { pair: Address; sender: Address; to: Address | null; amount0: string; amount1: string };
  burn: { pair: Address; sender: Address; to: Address | null; amount0: string; amount1: string };
  transfer: { token: Address; from: Address; to: Address; value: string };
  tokenLaunched: { venue: Address; token: Address; creator: Address; name: string; symbol: string };
  curveTrade: { venue: Address; token: Address; trader: Address; isBuy: boolean; ethAmount: string; tokenAmount: string; realEth: string; progressBps: number };
  graduated: { venue: Address; token: Address; pair: Address; ethAmount: string; tokenAmount: string };
  flashLoan: { lender: Address; receiver: Address; token: Address; amount: string; fee: string };
}

/** Deposit and Withdrawal of the wrapped native are stored as transfers, so they have no row of their own. */
export type RowEvent = Exclude<EventName, 'deposit' | 'withdrawal'>;
export type Row<E extends RowEvent = RowEvent> = E extends RowEvent ? { event: E } & Base & Rows[E] : never;

/** Rows sort by block, then by position in the block: the score is block * 100,000 + logIndex. */
export function rowScore(block: number, logIndex: number): number {
  return block * 100_000 + logIndex;
}

/**
 * Version of what the index stores. Raised whenever rows or keys change meaning, so an index an
 * older Sibyl left in Redis is not read as complete: v2 added per-holder balances.
 */
export const INDEX_SCHEMA_VERSION = 2;

/**
 * The field of a token's balances hash that is not a holder: the last block whose transfers the
 * balances include (see balances.ts). Never an address, so it cannot collide with a holder.
 */
export const BALANCE_MARK_FIELD = '#through-block';

/** Every key of one chain's index starts with this. */
export function indexPrefix(chainId: number): string {
  return `idx:v${INDEX_SCHEMA_VERSION}:${chainId}:`;
}

export function indexKeys(chainId: number) {
  const p = indexPrefix(chainId);
  return {
    checkpoint: `${p}checkpoint`,
    lease: `${p}lease`,
    /** Recent block hashes and times (member `block:hash:ts`, score block), for reorg repair and time lookups. */
    blocks: `${p}blocks`,
    /** Block times (score unix seconds, member block number) of every block with logs, for time lookups. */
    times: `${p}times`,
    reserves: `${p}reserves`,
    /** One token's holders (field holder, raw units), plus BALANCE_MARK_FIELD. */
    balances: (token: string) => `${p}bal:${token.toLowerCase()}`,
    /** One holder's balances (field token, raw units): the same figures as `balances`, by wallet. */
    holdings: (holder: string) => `${p}held:${holder.toLowerCase()}`,
    /** One pool's Sync rows: its reserves over time, the source of its price history. */
    syncs: (pair: string) => `${p}syncs:${pair.toLowerCase()}`,
    sets: {
      pairs: `${p}pairs`,
      swaps: `${p}swaps`,
      liquidity: `${p}liquidity`,
      transfers: `${p}transfers`,
      launchpad: `${p}launchpad`,
      flashLoans: `${p}flashloans`,
    },
  } as const;
}

export type IndexKeys = ReturnType<typeof indexKeys>;
