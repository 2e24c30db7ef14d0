/**
 * Test-only: a chain's index built by hand for the engines' unit tests. Rows are the indexer's
 * own shapes (indexer/rows.ts), written to an in-memory Store under the indexer's keys, scores and
 * balance book, and read back through the real IndexReader into a real Market. The chain behind
 * it is a stand-in that answers only what the engines ask (token metadata, block senders, receipts,
 * gas price, code, a few contract reads) from tables the test fills; nothing runs a node.
 */
import { decodeFunctionData, encodeFunctionResult, parseUnits, zeroAddress, type Address, type Chain, type Hash, type Hex, type PublicClient } from 'viem';
import { SecurityProbe } from '../../../chain/artifacts/index.js';
import { CHAINS } from '../../../chain/chains.js';
import type { ConnectedChain } from '../../../chain/runtime.js';
import { BalanceBook, recordTransfer, type BalanceMoves } from '../../../indexer/balances.js';
import { IndexReader } from '../../../indexer/reader.js';
import { indexKeys, rowScore, type Row, type RowEvent } from '../../../indexer/rows.js';
import { MemoryStore } from '../../../store/memory.js';
import type { CurveFeed, CurveLaunch, CurvePoolTrade, CurveState, CurveTrade, CurveVenueParams } from '../../../world/curve/feed.js';
import type { Candle } from '../market.js';
import { Market } from '../market.js';

/** A lower-case address numbered `n` (distinct from every real contract the chain spec names). */
export const addr = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}` as Address;
/** `amount` whole tokens in raw units. */
export const units = (amount: number | string, decimals: number): bigint => parseUnits(String(amount), decimals);

export const T0 = 1_700_000_000;
/** Seconds between fixture blocks unless a block's time is set. */
export const BLOCK_SECONDS = 2;

const DEXES = { uni: CHAINS.base.dexes[0]!, sushi: CHAINS.base.dexes[1]! } as const;
export type Dex = keyof typeof DEXES;

// Hashes and fixture chains are unique within a process: the engines' caches key on them.
let hashes = 0;
let fixtures = 0;
const newHash = (): Hash => `0x${(++hashes).toString(16).padStart(64, '0')}` as Hash;

interface SwapLeg {
  to: Address;
  a0In?: bigint;
  a1In?: bigint;
  a0Out?: bigint;
  a1Out?: bigint;
  /** The log's `sender` (the router that called the pair); defaults to `to`. */
  router?: Address;
}

/** One contract read's answer, by lower-case address and function name. */
type ReadAnswer = (args: readonly unknown[]) => unknown;

export class Fixture {
  readonly store = new MemoryStore();
  readonly spec = CHAINS.base;
  readonly usdc = CHAINS.base.usdc.toLowerCase() as Address;
  readonly weth = CHAINS.base.wrappedNative.toLowerCase() as Address;
  readonly rows: Row[] = [];
  /** Transaction sender by hash, as the chain's blocks would name it. */
  readonly senders = new Map<Hash, Address>();
  readonly receipts = new Map<Hash, { gasUsed: bigint; effectiveGasPrice: bigint }>();
  readonly infos = new Map<string, { symbol: string; name: string; decimals: number }>();
  readonly code = new Map<string, Hex>();
  readonly reads = new Map<string, ReadAnswer>();
  /** Storage words by `${address}:${slot}` (lower-case). */
  readonly storage = new Map<string, Hex>();
  gasPrice = 1_000_000_000n;
  readonly nativeBalances = new Map<string, bigint>();
  /** What eth_call answers (the security probe's simulation); throws when unset. */
  onCall: ((request: { account: unknown; to: Address; data: Hex }) => Hex | Promise<Hex>) | null = null;
  private readonly times = new Map<number, number>();
  private readonly logIndexes = new Map<number, number>();
  private readonly id = ++fixtures;

  constructor() {
    this.token(this.usdc, 'USDC', 6);
    this.token(this.weth, 'WETH', 18);
  }

  token(address: Address, symbol: string, decimals: number): Address {
    this.infos.set(address.toLowerCase(), { symbol, name: `${symbol} token`, decimals });
    return address;
  }

  /** A block's unix time: T0 + BLOCK_SECONDS per block unless set with `at`. */
  ts(block: number): number {
    return this.times.get(block) ?? T0 + block * BLOCK_SECONDS;
  }

  at(block: number, ts: number): this {
    this.times.set(block, ts);
    return this;
  }

  /** A new transaction sent by `from`, with its receipt's gas when given. */
  tx(from: Address, gas?: { gasUsed: bigint; gasPrice: bigint }): Hash {
    const hash = newHash();
    this.senders.set(hash, from);
    if (gas) this.receipts.set(hash, { gasUsed: gas.gasUsed, effectiveGasPrice: gas.gasPrice });
    return hash;
  }

  /** Answers `functionName` on `address` (e.g. totalSupply, owner, maxFlashLoan). */
  answer(address: Address, functionName: string, fn: ReadAnswer): this {
    this.reads.set(`${address.toLowerCase()}:${functionName}`, fn);
    return this;
  }

  private add<E extends RowEvent>(event: E, block: number, fields: Omit<Row<E>, 'event' | 'block' | 'logIndex' | 'txIndex' | 'tx' | 'ts'>, tx: Hash): Row<E> {
    const logIndex = this.logIndexes.get(block) ?? 0;
    this.logIndexes.set(block, logIndex + 1);
    const row = { event, block, logIndex, txIndex: 0, tx, ts: this.ts(block), ...fields } as unknown as Row<E>;
    this.rows.push(row);
    return row;
  }

  /** A pool created at `block` on `dex`, with its first reserves synced there. */
  pool(pair: Address, token0: Address, token1: Address, r0: bigint, r1: bigint, opts: { dex?: Dex; block?: number } = {}): Address {
    const block = opts.block ?? 1;
    this.add('pairCreated', block, { factory: DEXES[opts.dex ?? 'uni'].factory, pair, token0, token1 }, this.tx(addr(0xfac)));
    if (r0 > 0n || r1 > 0n) this.sync(block, pair, r0, r1);
    return pair;
  }

  sync(block: number, pair: Address, r0: bigint, r1: bigint, tx: Hash = this.tx(addr(0xfee))): Row<'sync'> {
    return this.add('sync', block, { pair, reserve0: r0.toString(), reserve1: r1.toString() }, tx);
  }

  swap(block: number, pair: Address, leg: SwapLeg, tx: Hash = this.tx(leg.to)): Row<'swap'> {
    const s = (v?: bigint) => (v ?? 0n).toString();
    return this.add('swap', block, { pair, sender: leg.router ?? leg.to, to: leg.to, amount0In: s(leg.a0In), amount1In: s(leg.a1In), amount0Out: s(leg.a0Out), amount1Out: s(leg.a1Out) }, tx);
  }

  mint(block: number, pair: Address, amount0: bigint, amount1: bigint, tx: Hash): Row<'mint'> {
    return this.add('mint', block, { pair, sender: addr(0x7011), to: null, amount0: amount0.toString(), amount1: amount1.toString() }, tx);
  }

  burn(block: number, pair: Address, amount0: bigint, amount1: bigint, to: Address, tx: Hash): Row<'burn'> {
    return this.add('burn', block, { pair, sender: addr(0x7011), to, amount0: amount0.toString(), amount1: amount1.toString() }, tx);
  }

  transfer(block: number, token: Address, from: Address, to: Address, value: bigint, tx: Hash = this.tx(from === zeroAddress ? to : from)): Row<'transfer'> {
    return this.add('transfer', block, { token, from, to, value: value.toString() }, tx);
  }

  launched(block: number, venue: Address, token: Address, creator: Address, symbol: string): Row<'tokenLaunched'> {
    return this.add('tokenLaunched', block, { venue, token, creator, name: symbol, symbol }, this.tx(creator));
  }

  curveTrade(block: number, venue: Address, token: Address, trader: Address, trade: { isBuy: boolean; eth: number; tokens: number; realEth: number; progressBps: number }): Row<'curveTrade'> {
    const wei = (n: number) => units(n, 18).toString();
    return this.add('curveTrade', block, { venue, token, trader, isBuy: trade.isBuy, ethAmount: wei(trade.eth), tokenAmount: wei(trade.tokens), realEth: wei(trade.realEth), progressBps: trade.progressBps }, this.tx(trader));
  }

  graduated(block: number, venue: Address, token: Address, pair: Address): Row<'graduated'> {
    return this.add('graduated', block, { venue, token, pair, ethAmount: '0', tokenAmount: '0' }, this.tx(venue));
  }

  /** The stand-in chain: what the engines read from a node, answered from the tables above. */
  chain(): ConnectedChain {
    const byBlock = (b: number) => [...new Set(this.rows.filter((r) => r.block === b).map((r) => r.tx))];
    const client = {
      multicall: async ({ contracts }: { contracts: { address: string; functionName: 'symbol' | 'name' | 'decimals' }[] }) =>
        contracts.map((c) => {
          const info = this.infos.get(c.address.toLowerCase());
          return info ? { status: 'success', result: info[c.functionName] } : { status: 'failure', error: new Error('no such token') };
        }),
      getBlock: async ({ blockNumber }: { blockNumber: bigint }) => ({
        number: blockNumber,
        timestamp: BigInt(this.ts(Number(blockNumber))),
        transactions: byBlock(Number(blockNumber)).map((hash) => ({ hash, from: this.senders.get(hash) ?? addr(0xdeadbeef) })),
      }),
      getTransactionReceipt: async ({ hash }: { hash: Hash }) => {
        const r = this.receipts.get(hash);
        if (!r) throw new Error(`no receipt for ${hash} in the fixture`);
        return r;
      },
      getGasPrice: async () => this.gasPrice,
      getCode: async ({ address }: { address: string }) => this.code.get(address.toLowerCase()),
      getBalance: async ({ address }: { address: string }) => this.nativeBalances.get(address.toLowerCase()) ?? 0n,
      call: async (request: { account: unknown; to: Address; data: Hex }) => {
        if (!this.onCall) throw new Error('the fixture does not answer eth_call');
        return { data: await this.onCall(request) };
      },
      getStorageAt: async ({ address, slot }: { address: string; slot: string }) => this.storage.get(`${address.toLowerCase()}:${slot.toLowerCase()}`) ?? `0x${'00'.repeat(32)}`,
      readContract: async ({ address, functionName, args }: { address: string; functionName: string; args?: readonly unknown[] }) => {
        const fn = this.reads.get(`${address.toLowerCase()}:${functionName}`);
        if (!fn) throw new Error(`the fixture does not answer ${functionName} on ${address}`);
        return fn(args ?? []);
      },
    };
    return { name: 'base', spec: this.spec, chain: {} as Chain, rpcUrl: `fixture://${this.id}`, source: 'embedded', client: client as unknown as PublicClient };
  }

  /** Writes the rows as the indexer does (sets, syncs, reserves, balances, block times, checkpoint) and loads the Market at `head`. */
  async market(head = Math.max(1, ...this.rows.map((r) => r.block))): Promise<Market> {
    const keys = indexKeys(this.spec.chainId);
    const sets = new Map<string, { score: number; member: string }[]>();
    const push = (key: string, row: Row) => sets.set(key, [...(sets.get(key) ?? []), { score: rowScore(row.block, row.logIndex), member: JSON.stringify(row) }]);
    const moves: BalanceMoves = new Map();
    const reserves: Record<string, string> = {};
    // Block times may be set after rows were added: every row takes its block's time now.
    for (const row of this.rows) (row as { ts: number }).ts = this.ts(row.block);
    const ordered = [...this.rows].filter((r) => r.block <= head).sort((a, b) => rowScore(a.block, a.logIndex) - rowScore(b.block, b.logIndex));
    for (const row of ordered) {
      switch (row.event) {
        case 'pairCreated': push(keys.sets.pairs, row); break;
        case 'swap': push(keys.sets.swaps, row); break;
        case 'mint': case 'burn': push(keys.sets.liquidity, row); break;
        case 'sync':
          push(keys.syncs(row.pair), row);
          reserves[row.pair.toLowerCase()] = JSON.stringify({ r0: row.reserve0, r1: row.reserve1, block: row.block });
          break;
        case 'transfer': push(keys.sets.transfers, row); recordTransfer(moves, row); break;
        case 'flashLoan': push(keys.sets.flashLoans, row); break;
        default: push(keys.sets.launchpad, row);
      }
    }
    await Promise.all([...sets].map(([key, entries]) => this.store.sortedAdd(key, entries)));
    await new BalanceBook(this.store, keys).apply(moves);
    if (Object.keys(reserves).length) await this.store.hashSetMany(keys.reserves, reserves);
    const blocks = new Set([...ordered.map((r) => r.block), head]);
    await this.store.sortedAdd(keys.times, [...blocks].map((b) => ({ score: this.ts(b), member: String(b) })));
    await this.store.set(keys.checkpoint, JSON.stringify({ block: head, hash: `0x${'ab'.repeat(32)}`, timestamp: this.ts(head) }));
    return Market.load(this.chain(), new IndexReader(this.store, this.spec.chainId));
  }
}

/** A fixture with the WETH/USDC pool that prices the native: `wethUsd` dollars per WETH, `depthWeth` WETH deep. */
export function withNative(wethUsd = 2_000, depthWeth = 100, dex: Dex = 'uni'): Fixture {
  const fx = new Fixture();
  fx.pool(addr(0xe0), fx.weth, fx.usdc, units(depthWeth, 18), units(depthWeth * wethUsd, 6), { dex });
  return fx;
}

/** Candles from closes: each opens at the previous close, high/low a `spread` around the body. */
export function candlesFrom(closes: readonly number[], spread = 0, startSeconds = T0, stepSeconds = 3_600): Candle[] {
  return closes.map((close, i) => {
    const open = i ? closes[i - 1]! : close;
    return {
      time: new Date((startSeconds + i * stepSeconds) * 1000).toISOString(),
      open, close, high: Math.max(open, close) + spread, low: Math.min(open, close) - spread,
      volumeUsd: 0, volumeToken: 0, trades: 1,
    };
  });
}

export const CHEAP_POOL = addr(0xa0a);
export const DEAR_POOL = addr(0xb0b);

/** WETH/USDC on two DEXes, 100 WETH deep each: `cheapUsd` per WETH on Uniswap, `dearUsd` on Sushi. */
export function twoDexes(cheapUsd: number, dearUsd: number, dexes: [Dex, Dex] = ['uni', 'sushi']): Fixture {
  const fx = new Fixture();
  fx.pool(CHEAP_POOL, fx.weth, fx.usdc, units(100, 18), units(100 * cheapUsd, 6), { dex: dexes[0] });
  fx.pool(DEAR_POOL, fx.weth, fx.usdc, units(100, 18), units(100 * dearUsd, 6), { dex: dexes[1] });
  return fx;
}

/**
 * The best buy-here-sell-there cycle through two V2 pools with 0.3% fees, by calculus: the two
 * swaps compose to out(x) = a·x / (c + d·x) with a = γ²·R1out·R2out, c = R1in·R2in,
 * d = γ·(R2in + γ·R1out); out'(x) = 1 at x* = (√(a·c) − c) / d; profit = out(x*) − x*.
 */
export function v2CycleOptimum(r1in: number, r1out: number, r2in: number, r2out: number): { input: number; profit: number } {
  const g = 0.997;
  const [a, c, d] = [g * g * r1out * r2out, r1in * r2in, g * (r2in + g * r1out)];
  const input = (Math.sqrt(a * c) - c) / d;
  return { input, profit: (a * input) / (c + d * input) - input };
}

export const TKN = addr(0x70c);
export const TKN_USDC = addr(0x7c0);

/** TKN (18 decimals) quoted in USDC, `reserveTkn` / `reserveUsdc` deep now (TKN is token0). */
export function tokenUsdc(reserveTkn = 10_000, reserveUsdc = 50_000): Fixture {
  const fx = new Fixture();
  fx.token(TKN, 'TKN', 18);
  fx.pool(TKN_USDC, TKN, fx.usdc, units(reserveTkn, 18), units(reserveUsdc, 6));
  return fx;
}

/** `wallet` buys or sells `tokens` TKN for `usdc` USDC on the TKN/USDC pool in `block`. */
export function trade(fx: Fixture, block: number, wallet: Address, side: 'buy' | 'sell', tokens: number, usdc: number): Row<'swap'> {
  const [t, u] = [units(tokens, 18), units(usdc, 6)];
  return fx.swap(block, TKN_USDC, side === 'buy' ? { to: wallet, a1In: u, a0Out: t } : { to: wallet, a0In: t, a1Out: u });
}

export const LP_POOL = addr(0x9003);
export const LP_PROVIDER = addr(0x9e0);

/**
 * TKN/WETH; WETH is $2,000 until block 15, then $1,000. Block 10: LP_PROVIDER adds 10,000 TKN +
 * 10 WETH, the pair mints 1,000 LP to the zero address and 9,000 to LP_PROVIDER.
 */
export function providedPool(): Fixture {
  const fx = withNative(2_000);
  fx.token(TKN, 'TKN', 18);
  fx.pool(LP_POOL, TKN, fx.weth, 0n, 0n, { block: 2 });
  const add = fx.tx(LP_PROVIDER);
  fx.transfer(10, LP_POOL, zeroAddress, zeroAddress, 1_000n, add);
  fx.transfer(10, LP_POOL, zeroAddress, LP_PROVIDER, 9_000n, add);
  fx.sync(10, LP_POOL, units(10_000, 18), units(10, 18), add);
  fx.mint(10, LP_POOL, units(10_000, 18), units(10, 18), add);
  fx.sync(15, addr(0xe0), units(100, 18), units(100_000, 6));
  return fx;
}

/** Block 20: LP_PROVIDER redeems 8,000 LP for 6,000 TKN + 6 WETH (60% of what was added). */
export function pull(fx: Fixture): void {
  const remove = fx.tx(LP_PROVIDER);
  fx.transfer(20, LP_POOL, LP_PROVIDER, LP_POOL, 8_000n, remove);
  fx.transfer(20, LP_POOL, LP_POOL, zeroAddress, 8_000n, remove);
  fx.burn(20, LP_POOL, units(6_000, 18), units(6, 18), LP_PROVIDER, remove);
  fx.sync(20, LP_POOL, units(4_000, 18), units(4, 18), remove);
}

/**
 * A token quoted in USDC whose price moves from `from` to `to` dollars at block 50, with `quoteUsd`
 * of USDC on its pool throughout (its liquidity is twice that). Block 1 is at `T0 - 10,000`.
 */
export function moved(fx: Fixture, token: Address, symbol: string, from: number, to: number, quoteUsd = 50_000): Address {
  fx.token(token, symbol, 18);
  fx.at(1, T0 - 10_000);
  const pool = `0xffffffff${token.slice(10).toLowerCase()}` as Address; // its own pair address
  fx.pool(pool, token, fx.usdc, units(quoteUsd / from, 18), units(quoteUsd, 6));
  if (to !== from) fx.sync(50, pool, units(quoteUsd / to, 18), units(quoteUsd, 6));
  return pool;
}

/** Pump-style venue constants (docs/skills.md, `curve/v2`): 30 SOL / 1.073B virtual, 793.1M on the curve, 1% fee. */
export const PUMP_VENUE: CurveVenueParams = { name: 'fixture-pump', totalSupply: 1_000_000_000, curveSupply: 793_100_000, initialVirtualSol: 30, initialVirtualTokens: 1_073_000_000, feeBps: 100 };

/** A launchpad feed held in arrays (the CurveFeed interface only), SOL/USD from `solUsdAt`. */
export class FixtureCurveFeed implements CurveFeed {
  readonly source = 'fixture';
  readonly venue = PUMP_VENUE;
  readonly launchList: CurveLaunch[] = [];
  readonly tradeList: CurveTrade[] = [];
  readonly stateList: CurveState[] = [];
  readonly poolTrades?: (fromTime: number, toTime: number) => Promise<CurvePoolTrade[]>;

  constructor(
    readonly headTime: number,
    readonly solUsdAt: (time: number) => number | null,
    poolTradeList?: CurvePoolTrade[],
  ) {
    if (poolTradeList) this.poolTrades = async (from, to) => poolTradeList.filter((t) => t.time >= from && t.time <= to);
  }

  async head() { return { slot: this.headTime * 2, time: this.headTime }; }
  async launches(from: number, to: number) { return this.launchList.filter((l) => l.time >= from && l.time <= to); }
  async trades(from: number, to: number) { return this.tradeList.filter((t) => t.time >= from && t.time <= to); }
  async states(mints?: readonly string[]) { return this.stateList.filter((s) => !mints || mints.includes(s.mint)); }
  async solUsd(time: number) { const usd = this.solUsdAt(time); return usd === null ? null : { usd, source: 'fixture' }; }

  trade(mint: string, trader: string, side: 'buy' | 'sell', sol: number, time: number): this {
    this.tradeList.push({ signature: `sig${this.tradeList.length}`, mint, trader, side, sol, tokens: sol * 1e6, time, slot: time * 2, virtualSol: 0, virtualTokens: 0, realSol: 0, progressPct: 0 });
    return this;
  }

  state(mint: string, s: Partial<CurveState>): this {
    this.stateList.push({ mint, virtualSol: 30, virtualTokens: 1_073_000_000, realSol: 0, tokensSold: 0, progressPct: 0, lastTradeTime: null, graduated: null, migration: null, ...s });
    return this;
  }
}

/** What the security probe reports (contracts/SecurityProbe.sol's Result, without the sell's revert data). */
export interface ProbeResult {
  buyExpected: bigint;
  buyReceived: bigint;
  sellSent: bigint;
  sellArrived: bigint;
  sellExpected: bigint;
  sellReceived: bigint;
  sellReverted: boolean;
}

export const CLEAN_PROBE: ProbeResult = { buyExpected: 1_000n, buyReceived: 1_000n, sellSent: 1_000n, sellArrived: 1_000n, sellExpected: 900n, sellReceived: 900n, sellReverted: false };

/** The probe's answer as eth_call returns it. */
export function probeAnswer(r: ProbeResult): Hex {
  return encodeFunctionResult({ abi: SecurityProbe.abi, functionName: 'probe', result: { sellError: '0x', ...r } as never });
}

/** Answers every probe by the token at the end of its path: `sellTaxPct` of what it sells is lost in transfer. */
export function answerProbes(fx: Fixture, sellTaxPct: Readonly<Record<string, bigint>>, node: { calls: number; down: boolean } = { calls: 0, down: false }): void {
  fx.onCall = ({ data }) => {
    node.calls++;
    if (node.down) throw new Error('socket hang up');
    const path = decodeFunctionData({ abi: SecurityProbe.abi, data }).args[1] as readonly Address[];
    const tax = sellTaxPct[path[path.length - 1]!.toLowerCase()] ?? 0n;
    return probeAnswer({ ...CLEAN_PROBE, sellArrived: 1_000n - tax * 10n });
  };
}
