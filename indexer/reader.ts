/** Read access to one chain's index, for the engines. Writes happen only in the indexer. */
import type { ConnectedChain } from '../chain/runtime.js';
import type { Store } from '../store/store.js';
import { BALANCE_MARK_FIELD, indexKeys, rowScore, type IndexKeys, type Row } from './rows.js';

export interface Checkpoint {
  readonly block: number;
  readonly hash: string;
  readonly timestamp: number;
}

/** Whether a chain's index stands within `slack` blocks of the chain's head as it is now. */
export async function indexedToHead(store: Store, chain: ConnectedChain, slack = 0): Promise<boolean> {
  const [checkpoint, head] = await Promise.all([new IndexReader(store, chain.spec.chainId).checkpoint(), chain.client.getBlockNumber({ cacheTime: 0 })]);
  return checkpoint !== null && checkpoint.block >= Number(head) - slack;
}

export class IndexReader {
  readonly keys: IndexKeys;

  constructor(
    private readonly store: Store,
    readonly chainId: number,
  ) {
    this.keys = indexKeys(chainId);
  }

  async checkpoint(): Promise<Checkpoint | null> {
    const raw = await this.store.get(this.keys.checkpoint);
    return raw ? (JSON.parse(raw) as Checkpoint) : null;
  }

  private async rows<E extends Row['event']>(key: string, min: number, max: number, limit?: number): Promise<Row<E>[]> {
    return (await this.store.sortedRange(key, min, max, limit)).map((e) => JSON.parse(e.member) as Row<E>);
  }

  pairs(): Promise<Row<'pairCreated'>[]> {
    return this.rows(this.keys.sets.pairs, -Infinity, Infinity);
  }

  /** The first indexed block at or after `ts` (unix seconds), or null when none is that late. */
  async firstBlockAtOrAfter(ts: number): Promise<number | null> {
    const [first] = await this.store.sortedRange(this.keys.times, ts, Infinity, 1);
    return first ? Number(first.member) : null;
  }

  /** Unix time of the earliest indexed block with logs: where the index's history begins (null when empty). */
  async historyStart(): Promise<number | null> {
    const [first] = await this.store.sortedRange(this.keys.times, -Infinity, Infinity, 1);
    return first ? first.score : null;
  }

  swaps(fromBlock: number, toBlock: number): Promise<Row<'swap'>[]> {
    return this.rows(this.keys.sets.swaps, rowScore(fromBlock, 0), rowScore(toBlock + 1, 0) - 1);
  }

  liquidity(fromBlock: number, toBlock: number): Promise<Row<'mint' | 'burn'>[]> {
    return this.rows(this.keys.sets.liquidity, rowScore(fromBlock, 0), rowScore(toBlock + 1, 0) - 1);
  }

  /** Bonding-curve venue rows (TokenLaunched, Trade, Graduated) in block order. */
  launchpad(fromBlock: number, toBlock: number): Promise<Row<'tokenLaunched' | 'curveTrade' | 'graduated'>[]> {
    return this.rows(this.keys.sets.launchpad, rowScore(fromBlock, 0), rowScore(toBlock + 1, 0) - 1);
  }

  transfers(fromBlock: number, toBlock: number): Promise<Row<'transfer'>[]> {
    return this.rows(this.keys.sets.transfers, rowScore(fromBlock, 0), rowScore(toBlock + 1, 0) - 1);
  }

  /** Every holder's replayed balance of `token` (lower-case addresses, raw units as strings). */
  async balances(token: string): Promise<Record<string, string>> {
    const { [BALANCE_MARK_FIELD]: _mark, ...holders } = await this.store.hashGetAll(this.keys.balances(token));
    return holders;
  }

  /** Every token `holder` has held, with its replayed balance now (raw units as strings; zero when spent). */
  holdings(holder: string): Promise<Record<string, string>> {
    return this.store.hashGetAll(this.keys.holdings(holder));
  }

  async balance(token: string, holder: string): Promise<bigint> {
    return BigInt((await this.store.hashGet(this.keys.balances(token), holder.toLowerCase())) ?? '0');
  }

  syncs(pair: string, fromBlock: number, toBlock: number): Promise<Row<'sync'>[]> {
    return this.rows(this.keys.syncs(pair), rowScore(fromBlock, 0), rowScore(toBlock + 1, 0) - 1);
  }

  /** The pool's first indexed Sync (its first price), or null. */
  async firstSync(pair: string): Promise<Row<'sync'> | null> {
    const [first] = await this.rows<'sync'>(this.keys.syncs(pair), -Infinity, Infinity, 1);
    return first ?? null;
  }

  /** The pool's last Sync before `block`, searching back in widening steps. */
  async lastSyncBefore(pair: string, block: number): Promise<Row<'sync'> | null> {
    let step = 256;
    let hi = rowScore(block, 0) - 1;
    while (hi >= 0) {
      const lo = Math.max(0, hi - rowScore(step, 0));
      const rows = await this.rows<'sync'>(this.keys.syncs(pair), lo, hi);
      if (rows.length) return rows[rows.length - 1]!;
      if (lo === 0) return null;
      hi = lo - 1;
      step *= 4;
    }
    return null;
  }

  /** Current reserves of every pool the index has seen sync, keyed by lower-case pair address. */
  async reserves(): Promise<Map<string, { r0: bigint; r1: bigint; block: number }>> {
    const raw = await this.store.hashGetAll(this.keys.reserves);
    return new Map(Object.entries(raw).map(([pair, v]) => {
      const { r0, r1, block } = JSON.parse(v) as { r0: string; r1: string; block: number };
      return [pair, { r0: BigInt(r0), r1: BigInt(r1), block }];
    }));
  }
}
