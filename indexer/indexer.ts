/**
 * The log indexer, one per chain. It reads ERC-20 Transfer, V2 PairCreated/Swap/Sync/Mint/Burn,
 * launchpad and flash-loan events with getLogs in block windows, incrementally from a
 * checkpoint kept in the store, so a restart resumes where it stopped and several instances
 * share one writer (a lease in the store). Passes of one indexer never overlap (single flight),
 * and balances record the blocks they include, so no window is counted twice. Before each pass it checks that the checkpoint's
 * block is still on the chain; if a reorganisation replaced it, it finds the fork point among
 * the block hashes it kept (up to the configured depth), removes everything indexed above it
 * (reversing balances, restoring reserves) and reads the new blocks. The same code reads a
 * real chain or the embedded one: nothing here knows the world is simulated.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeEventLog, toHex, zeroAddress, type Address, type Hash, type Hex, type RpcLog } from 'viem';
import type { ConnectedChain } from '../chain/runtime.js';
import type { Store } from '../store/store.js';
import { v2PairAbi } from '../chain/abis.js';
import { BalanceBook, recordTransfer, type BalanceMoves } from './balances.js';
import { ALL_TOPICS, EVENTS, NAME_BY_TOPIC, type EventName } from './events.js';
import { WriterLease } from './lease.js';
import { indexedToHead } from './reader.js';
import { indexKeys, rowScore, type IndexKeys, type Row } from './rows.js';
import { readInHalves } from '../chain/log-ranges.js';

export interface IndexerOptions {
  /** Blocks per getLogs call. */
  readonly range: number;
  /** The reorganisation depth expected (block hashes are kept for at least four times it, see KEPT_BLOCK_HASHES). */
  readonly reorgDepth: number;
  /** Where a first run starts on a chain with history (blocks back from head). */
  readonly lookbackBlocks: number;
  /** Hears each window written during a pass: the block reached, of the pass's [start, head]. */
  readonly onWindow?: (reached: number, start: number, head: number) => void;
}

export interface IndexProgress {
  readonly block: number;
  readonly hash: Hash;
}

export class ReorgTooDeepError extends Error {}

/**
 * Blocks below the head whose hashes are kept (those with indexed events, and each window's
 * last): how far back a fork is found. A busy embedded chain restarted from a dump ten seconds
 * old loses a few hundred blocks.
 */
const KEPT_BLOCK_HASHES = 4_096;

/** A log as the node sent it, numbers parsed; no client formatting on the hot path. */
interface RawLog {
  address: string;
  topics: Hex[];
  data: Hex;
  blockNumber: number;
  blockHash: Hash;
  blockTimestamp?: number;
  logIndex: number;
  transactionHash: Hash;
  transactionIndex: number;
}

interface FetchedWindow {
  to: number;
  logs: RawLog[];
  end: { hash: Hash; timestamp: number };
  times: Map<number, number>;
}

/** Pending logs (no block yet) and removed ones are not history: they are skipped. */
function parseLog(l: RpcLog): RawLog | null {
  if (l.blockNumber === null || l.logIndex === null || l.blockHash === null || l.transactionHash === null || l.transactionIndex === null || l.removed) return null;
  const ts = (l as RpcLog & { blockTimestamp?: Hex }).blockTimestamp;
  return {
    address: l.address,
    topics: l.topics as Hex[],
    data: l.data,
    blockNumber: parseInt(l.blockNumber, 16),
    blockHash: l.blockHash,
    ...(ts !== undefined && { blockTimestamp: parseInt(ts, 16) }),
    logIndex: parseInt(l.logIndex, 16),
    transactionHash: l.transactionHash,
    transactionIndex: parseInt(l.transactionIndex, 16),
  };
}

const LEASE_MS = 30_000;
export interface IndexerStatus {
  /** When the last pass ended without an error (ms since the epoch). */
  readonly lastPassAt: number | null;
  readonly failuresInRow: number;
  readonly lastError: string | null;
}

/** How long stop() waits for a running pass to reach a window's edge before returning anyway. */
const STOP_WAIT_MS = 5_000;
const ignore = () => {};

export class ChainIndexer {
  readonly keys: IndexKeys;
  private readonly lease: WriterLease;
  private readonly balances: BalanceBook;
  private readonly pairs = new Set<string>(); // lower-case pair addresses of the chain's factories
  private readonly factories: Set<string>;
  private loaded = false;
  /** The pass running now, and the one promised to callers that arrived during it. */
  private current?: Promise<number>;
  private next?: Promise<number>;
  private following = false;
  private stopped = false;
  private timer?: NodeJS.Timeout;
  /** How the passes went (health reads it). */
  private passes: IndexerStatus = { lastPassAt: null, failuresInRow: 0, lastError: null };

  constructor(
    readonly chain: ConnectedChain,
    private readonly store: Store,
    private readonly options: IndexerOptions,
  ) {
    this.keys = indexKeys(chain.spec.chainId);
    this.lease = new WriterLease(store, this.keys.lease, LEASE_MS);
    this.balances = new BalanceBook(store, this.keys);
    this.factories = new Set(chain.spec.dexes.map((d) => d.factory.toLowerCase()));
  }

  async checkpoint(): Promise<IndexProgress | null> {
    const raw = await this.store.get(this.keys.checkpoint);
    return raw ? (JSON.parse(raw) as IndexProgress) : null;
  }

  /**
   * One pass: repair a reorganisation if there was one, then index up to head. Returns logs read
   * (0 when another holder has the lease). Passes never overlap: a call made while one runs
   * waits for it and then shares one more pass with every other such caller (the running pass
   * may have read head before the caller's blocks), so each caller sees the index reach the
   * head as of its call.
   */
  sync(): Promise<number> {
    if (this.next) return this.next;
    if (this.current) {
      this.next = this.current.then(ignore, ignore).then(() => {
        this.next = undefined;
        return this.begin();
      });
      return this.next;
    }
    return this.begin();
  }

  /** When a pass last ended well, and how many have failed since. */
  status(): IndexerStatus {
    return { ...this.passes };
  }

  private begin(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    const pass = this.pass().then(
      (read) => {
        this.passes = { lastPassAt: Date.now(), failuresInRow: 0, lastError: null };
        return read;
      },
      (err: unknown) => {
        this.passes = { ...this.passes, failuresInRow: this.passes.failuresInRow + 1, lastError: ((err as Error)?.message ?? String(err)).split('\n')[0]! };
        throw err;
      },
    ).finally(() => (this.current = undefined));
    this.current = pass;
    return pass;
  }

  private async pass(): Promise<number> {
    const hold = await this.lease.hold();
    if (!hold) return 0;
    // Another holder may have written since this one last did: what it remembers is reloaded.
    if (hold === 'acquired') this.loaded = false;
    await this.loadPairs();
    const client = this.chain.client;
    const head = await client.getBlockNumber({ cacheTime: 0 });
    let cp = await this.checkpoint();
    if (cp) {
      const onChain = await client.getBlock({ blockNumber: BigInt(cp.block) }).catch(() => null);
      if (!onChain || onChain.hash !== cp.hash) cp = await this.repairReorg(cp);
    }
    const start = cp ? cp.block + 1 : Math.max(0, Number(head) - this.options.lookbackBlocks + 1);
    const windows: [number, number][] = [];
    for (let from = start; from <= Number(head); from += this.options.range) windows.push([from, Math.min(Number(head), from + this.options.range - 1)]);
    // A slow node may keep one window longer than the lease lives: it is renewed while the pass runs.
    let lost = false;
    const heartbeat = setInterval(() => void this.lease.hold().then((h) => { if (h !== 'renewed') lost = true; }, ignore), LEASE_MS / 3);
    heartbeat.unref();
    // The next window is fetched while the current one is written.
    let read = 0;
    let next = windows.length ? this.fetchWindow(...windows[0]!) : undefined;
    try {
      for (let i = 0; i < windows.length; i++) {
        const window = await next!;
        next = i + 1 < windows.length ? this.fetchWindow(...windows[i + 1]!) : undefined;
        // A window is written only by a holder that kept the lease throughout (one that lost it,
        // even if it took it back, may have been succeeded by a writer further ahead).
        const kept = !this.stopped && !lost && (await this.lease.hold()) === 'renewed';
        if (!kept) {
          if (!this.stopped) this.loaded = false;
          next?.catch(ignore);
          break;
        }
        read += await this.apply(window);
        this.options.onWindow?.(windows[i]![1], start, Number(head));
      }
    } finally {
      clearInterval(heartbeat);
    }
    return read;
  }

  /** Whether the index has reached the chain's head as it is now. */
  atHead(): Promise<boolean> {
    return indexedToHead(this.store, this.chain);
  }

  private async fetchWindow(from: number, to: number): Promise<FetchedWindow> {
    // One after the other: the client batches concurrent calls into one HTTP body, and a log
    // range too large for it would take the block request down with it.
    const raw = await this.getLogs(from, to);
    const end = await this.chain.client.getBlock({ blockNumber: BigInt(to) });
    const logs = raw.map(parseLog).filter((l): l is RawLog => l !== null);
    return { to, logs, end: { hash: end.hash, timestamp: Number(end.timestamp) }, times: await this.blockTimes(logs) };
  }

  /**
   * Follows the chain: a pass now, then each next one `intervalMs` after the previous ended, so
   * passes never pile up behind a slow node. Resolves with the first pass (logs read); later
   * failures go to `onError` and following goes on.
   */
  start(intervalMs: number, onError: (err: unknown) => void): Promise<number> {
    if (this.following || this.stopped) throw new Error(`indexer ${this.chain.name} is already ${this.stopped ? 'stopped' : 'following'}`);
    this.following = true;
    const schedule = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.sync().then(ignore, onError).finally(schedule), intervalMs);
      this.timer.unref();
    };
    const first = this.sync();
    first.then(schedule, schedule);
    return first;
  }

  /**
   * Stops for good: no pass is scheduled or started, a running one ends at its next window, and
   * the lease is given back once it has, so a successor never writes beside it.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const ended = Promise.all([this.current?.catch(ignore), this.next?.catch(ignore)]).then(() => this.lease.release()).catch(ignore);
    await Promise.race([ended, sleep(STOP_WAIT_MS, undefined, { ref: false })]);
  }

  private async loadPairs(): Promise<void> {
    if (this.loaded) return;
    this.pairs.clear();
    for (const row of await this.rows('pairs', -Infinity, Infinity)) this.pairs.add((row as Row<'pairCreated'>).pair.toLowerCase());
    this.loaded = true;
  }

  private async rows(set: keyof IndexKeys['sets'], min: number, max: number): Promise<Row[]> {
    return (await this.store.sortedRange(this.keys.sets[set], min, max)).map((e) => JSON.parse(e.member) as Row);
  }

  /** Raw logs of [from, to], in halves where a node refuses the range (chain/log-ranges.ts). */
  private getLogs(from: number, to: number): Promise<RpcLog[]> {
    return readInHalves(async (a, b) => (await this.chain.client.request({ method: 'eth_getLogs', params: [{ fromBlock: toHex(a), toBlock: toHex(b), topics: [ALL_TOPICS] }] })) as RpcLog[], from, to);
  }

  /** Stores every log of a fetched window; the checkpoint moves last. */
  private async apply({ to, logs, end, times }: FetchedWindow): Promise<number> {
    const sets = new Map<string, { score: number; member: string }[]>();
    const push = (key: string, row: Row) => {
      let list = sets.get(key);
      if (!list) sets.set(key, (list = []));
      list.push({ score: rowScore(row.block, row.logIndex), member: JSON.stringify(row) });
    };
    const k = this.keys.sets;
    const moves: BalanceMoves = new Map();
    const reserves: Record<string, string> = {};
    const hashes = new Map<number, Hash>([[to, end.hash]]);

    for (const log of logs) {
      const name = NAME_BY_TOPIC.get(log.topics[0] as `0x${string}`);
      if (!name) continue;
      const row = this.decode(name, log, times.get(log.blockNumber)!);
      if (!row) continue;
      hashes.set(log.blockNumber, log.blockHash);
      switch (row.event) {
        case 'pairCreated':
          this.pairs.add(row.pair.toLowerCase());
          push(k.pairs, row);
          break;
        case 'swap':
          push(k.swaps, row);
          break;
        case 'mint':
        case 'burn':
          push(k.liquidity, row);
          break;
        case 'sync':
          push(this.keys.syncs(row.pair), row);
          reserves[row.pair.toLowerCase()] = JSON.stringify({ r0: row.reserve0, r1: row.reserve1, block: row.block });
          break;
        case 'transfer':
          push(k.transfers, row);
          recordTransfer(moves, row);
          break;
        case 'tokenLaunched':
        case 'curveTrade':
        case 'graduated':
          push(k.launchpad, row);
          break;
        case 'flashLoan':
          push(k.flashLoans, row);
          break;
      }
    }

    // Keys are independent: written together, so a networked store pipelines them.
    await Promise.all([...sets].map(([key, entries]) => this.store.sortedAdd(key, entries)));
    await this.balances.apply(moves);
    if (Object.keys(reserves).length) await this.store.hashSetMany(this.keys.reserves, reserves);
    await this.store.sortedAdd(this.keys.blocks, [...hashes].map(([block, hash]) => ({ score: block, member: `${block}:${hash}:${times.get(block) ?? end.timestamp}` })));
    await this.store.sortedRemoveRange(this.keys.blocks, -Infinity, to - Math.max(this.options.reorgDepth * 4, KEPT_BLOCK_HASHES));
    await this.store.sortedAdd(this.keys.times, [...hashes.keys()].map((block) => ({ score: times.get(block) ?? end.timestamp, member: String(block) })));
    await this.store.set(this.keys.checkpoint, JSON.stringify({ block: to, hash: end.hash, timestamp: end.timestamp }));
    return logs.length;
  }

  /** Block timestamps from the logs (anvil and recent nodes include them), else from the blocks. */
  private async blockTimes(logs: RawLog[]): Promise<Map<number, number>> {
    const times = new Map<number, number>();
    const missing = new Set<number>();
    for (const log of logs) {
      if (log.blockTimestamp !== undefined) times.set(log.blockNumber, log.blockTimestamp);
      else missing.add(log.blockNumber);
    }
    await Promise.all([...missing].filter((b) => !times.has(b)).map(async (b) => {
      times.set(b, Number((await this.chain.client.getBlock({ blockNumber: BigInt(b) })).timestamp));
    }));
    return times;
  }

  private decode(name: EventName, log: RawLog, ts: number): Row | null {
    const base = { block: log.blockNumber, logIndex: log.logIndex, tx: log.transactionHash, txIndex: log.transactionIndex, ts };
    const address = log.address.toLowerCase() as Address;
    const isPair = this.pairs.has(address);
    try {
      if (name === 'transfer' && log.topics.length !== 3) return null; // ERC-721 shares the topic
      const fast = decodeHot(name, log);
      if (fast === 'skip') return null;
      const { args } = fast ?? lowerAddresses(decodeEventLog({ abi: [EVENTS[name]], data: log.data, topics: log.topics as never, strict: true }) as { args: Record<string, unknown> });
      switch (name) {
        case 'pairCreated':
          if (!this.factories.has(log.address.toLowerCase())) return null;
          return { event: name, ...base, factory: address, pair: args.pair as Address, token0: args.token0 as Address, token1: args.token1 as Address };
        case 'swap':
          if (!isPair) return null;
          return { event: name, ...base, pair: address, sender: args.sender as Address, to: args.to as Address, amount0In: String(args.amount0In), amount1In: String(args.amount1In), amount0Out: String(args.amount0Out), amount1Out: String(args.amount1Out) };
        case 'sync':
          if (!isPair) return null;
          return { event: name, ...base, pair: address, reserve0: String(args.reserve0), reserve1: String(args.reserve1) };
        case 'mint':
        case 'burn':
          if (!isPair) return null;
          return { event: name, ...base, pair: address, sender: args.sender as Address, to: (args.to as Address | undefined) ?? null, amount0: String(args.amount0), amount1: String(args.amount1) };
        case 'transfer':
          return { event: name, ...base, token: address, from: args.from as Address, to: args.to as Address, value: String(args.value) };
        case 'deposit':
        case 'withdrawal': {
          // The wrapped native's mint and burn, recorded as transfers from and to zero.
          if (!this.isWrappedNative(log.address)) return null;
          const holder = (name === 'deposit' ? args.dst : args.src) as Address;
          return { event: 'transfer', ...base, token: address, from: name === 'deposit' ? zeroAddress : holder, to: name === 'deposit' ? holder : zeroAddress, value: String(args.wad) };
        }
        case 'tokenLaunched':
          return { event: name, ...base, venue: address, token: args.token as Address, creator: args.creator as Address, name: String(args.name), symbol: String(args.symbol) };
        case 'curveTrade':
          return { event: name, ...base, venue: address, token: args.token as Address, trader: args.trader as Address, isBuy: Boolean(args.isBuy), ethAmount: String(args.ethAmount), tokenAmount: String(args.tokenAmount), realEth: String(args.realEth), progressBps: Number(args.progressBps) };
        case 'graduated':
          return { event: name, ...base, venue: address, token: args.token as Address, pair: args.pair as Address, ethAmount: String(args.ethAmount), tokenAmount: String(args.tokenAmount) };
        case 'flashLoan':
          return { event: name, ...base, lender: address, receiver: args.receiver as Address, token: args.token as Address, amount: String(args.amount), fee: String(args.fee) };
      }
    } catch {
      return null; // a contract reusing a topic with another layout
    }
  }

  private isWrappedNative(address: string): boolean {
    return address.toLowerCase() === this.chain.spec.wrappedNative.toLowerCase();
  }

  /**
   * Finds the newest kept block still on the chain and undoes everything indexed above it. The
   * kept hashes reach far below the reorganisation depth: a node restarted from an older state
   * (an embedded chain's dump, seconds of busy blocks) loses more blocks than any reorganisation.
   * Below the fork every kept block matches the chain and above it none does, so a binary
   * search finds it in a dozen reads.
   */
  private async repairReorg(cp: IndexProgress): Promise<IndexProgress | null> {
    const kept = (await this.store.sortedRange(this.keys.blocks, -Infinity, cp.block))
      .map((e) => { const [block, hash, ts] = e.member.split(':'); return { block: Number(block), hash: hash as Hash, ts: Number(ts) }; })
      .sort((a, b) => a.block - b.block);
    const onChain = async (k: { block: number; hash: Hash }) => (await this.chain.client.getBlock({ blockNumber: BigInt(k.block) }).catch(() => null))?.hash === k.hash;
    let fork: { block: number; hash: Hash; ts: number } | undefined;
    for (let low = 0, high = kept.length - 1; low <= high; ) {
      const mid = (low + high) >> 1;
      if (await onChain(kept[mid]!)) {
        fork = kept[mid];
        low = mid + 1;
      } else high = mid - 1;
    }
    if (!fork) throw new ReorgTooDeepError(`${this.chain.name}: reorganisation below the ${kept.length} kept blocks under ${cp.block}`);

    const above = rowScore(fork.block + 1, 0);
    // Balances are reversed while the rows that say what to reverse are still there: a repair
    // that dies midway is repeated from the same rows, and the balance marks skip what was undone.
    const removed: BalanceMoves = new Map();
    for (const t of (await this.rows('transfers', above, Infinity)) as Row<'transfer'>[]) recordTransfer(removed, t);
    await this.balances.undoAbove(fork.block, removed);
    const touchedPairs: string[] = [];
    for (const pair of this.pairs) {
      if (await this.store.sortedRemoveRange(this.keys.syncs(pair), above, Infinity)) touchedPairs.push(pair);
    }
    for (const set of Object.values(this.keys.sets)) await this.store.sortedRemoveRange(set, above, Infinity);
    // Pairs created on the abandoned branch are no longer pairs.
    this.pairs.clear();
    for (const p of (await this.rows('pairs', -Infinity, Infinity)) as Row<'pairCreated'>[]) this.pairs.add(p.pair.toLowerCase());
    // Reserves of pairs whose later Syncs went: as they stood at the fork block.
    const restored: Record<string, string> = {};
    await Promise.all(touchedPairs.map(async (pair) => {
      const r = await this.chain.client.readContract({ address: pair as Address, abi: v2PairAbi, functionName: 'getReserves', blockNumber: BigInt(fork!.block) }).catch(() => null);
      if (r) restored[pair.toLowerCase()] = JSON.stringify({ r0: String(r[0]), r1: String(r[1]), block: fork!.block });
    }));
    await this.store.hashSetMany(this.keys.reserves, restored);
    await this.store.sortedRemoveRange(this.keys.blocks, fork.block + 1, Infinity);
    await this.store.sortedRemoveRange(this.keys.times, fork.ts + 1, Infinity);
    const progress = { block: fork.block, hash: fork.hash, timestamp: fork.ts };
    await this.store.set(this.keys.checkpoint, JSON.stringify(progress));
    return progress;
  }
}

/** The i-th 32-byte word of a log's data, as a number. */
function word(data: string, i: number): bigint {
  return BigInt(`0x${data.slice(2 + i * 64, 2 + (i + 1) * 64)}`);
}

/** The address in an indexed topic (nodes answer lower-case hex). */
function topicAddress(topics: readonly string[], i: number): Address {
  return `0x${topics[i]!.slice(26)}` as Address;
}

/**
 * The events that make up nearly every log (Transfer, Swap, Sync, Mint, Burn, the wrapped
 * native's Deposit/Withdrawal, the launchpad's Trade and Graduated) decoded by slicing their
 * fixed layout; the ABI decoder handles the rest. Returns null to defer to it.
 */
function decodeHot(name: EventName, log: RawLog): { args: Record<string, unknown> } | null | 'skip' {
  const { data, topics } = log;
  const words = (data.length - 2) / 64;
  switch (name) {
    case 'transfer':
      return words === 1 ? { args: { from: topicAddress(topics, 1), to: topicAddress(topics, 2), value: word(data, 0) } } : 'skip';
    case 'swap':
      return words === 4 && topics.length === 3 ? { args: { sender: topicAddress(topics, 1), to: topicAddress(topics, 2), amount0In: word(data, 0), amount1In: word(data, 1), amount0Out: word(data, 2), amount1Out: word(data, 3) } } : 'skip';
    case 'sync':
      return words === 2 ? { args: { reserve0: word(data, 0), reserve1: word(data, 1) } } : 'skip';
    case 'mint':
      return words === 2 && topics.length === 2 ? { args: { sender: topicAddress(topics, 1), amount0: word(data, 0), amount1: word(data, 1) } } : 'skip';
    case 'burn':
      return words === 2 && topics.length === 3 ? { args: { sender: topicAddress(topics, 1), to: topicAddress(topics, 2), amount0: word(data, 0), amount1: word(data, 1) } } : 'skip';
    case 'deposit':
      return words === 1 && topics.length === 2 ? { args: { dst: topicAddress(topics, 1), wad: word(data, 0) } } : 'skip';
    case 'withdrawal':
      return words === 1 && topics.length === 2 ? { args: { src: topicAddress(topics, 1), wad: word(data, 0) } } : 'skip';
    case 'curveTrade':
      return words === 7 && topics.length === 3
        ? { args: { token: topicAddress(topics, 1), trader: topicAddress(topics, 2), isBuy: word(data, 0) !== 0n, ethAmount: word(data, 1), tokenAmount: word(data, 2), virtualEth: word(data, 3), virtualToken: word(data, 4), realEth: word(data, 5), progressBps: word(data, 6) } }
        : 'skip';
    case 'graduated':
      return words === 2 && topics.length === 3 ? { args: { token: topicAddress(topics, 1), pair: topicAddress(topics, 2), ethAmount: word(data, 0), tokenAmount: word(data, 1) } } : 'skip';
    default:
      return null;
  }
}

function lowerAddresses(decoded: { args: Record<string, unknown> }): { args: Record<string, unknown> } {
  const args: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(decoded.args)) args[k] = typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v) ? v.toLowerCase() : v;
  return { args };
}
