/**
 * The embedded Solana-style bonding-curve venue (`source: "embedded"`): deterministic for a
 * seed and a genesis time, pump-style constant-product curves with virtual reserves, creators
 * launching about three tokens an hour, traders whose interest in a token fades, graduation
 * when the curve's tokens are sold out and migration to an AMM pool minutes later, where the
 * token keeps trading while its traders' interest lasts. SOL/USD is the world's reference path. It is
 * computed lazily: every read first advances the simulation, two minutes at a time, to the wall
 * clock, so nothing runs between reads and "latest" still moves.
 */
import { createHash } from 'node:crypto';
import { Rng } from '../../lib/random.js';
import { ReferencePaths } from '../reference.js';
import type { CurveFeed, CurveLaunch, CurvePoolTrade, CurveState, CurveTrade, CurveVenueParams } from './feed.js';

/** History the venue has when the service starts (its genesis is this far back by default): the spec's longest period. */
export const CURVE_HISTORY_DAYS = 30;

/** The default genesis: the history, plus ten minutes so a 30-day window read at start-up is already covered. */
export function defaultCurveGenesis(now = Date.now()): number {
  return Math.floor(now / 1000) - CURVE_HISTORY_DAYS * 86_400 - 600;
}
const STEP_SECONDS = 120;
/** Longest the warm-up holds the event loop at a time. */
const WARM_SLICE_MS = 20;
const TRADERS = 5_000;
const SLOT_SECONDS = 0.4;
export const EMBEDDED_VENUE: CurveVenueParams = {
  name: 'embedded pump-style bonding curve',
  totalSupply: 1_000_000_000,
  curveSupply: 793_100_000,
  initialVirtualSol: 30,
  initialVirtualTokens: 1_073_000_000,
  feeBps: 100,
};

/** The AMM pool a graduated token migrates to: constant product, its fee left in the pool. */
export const EMBEDDED_POOL_FEE_BPS = 25;

interface Pool {
  readonly address: string;
  readonly migratedAt: number;
  reserveSol: number;
  reserveTokens: number;
}

interface Live {
  index: number;
  launch: CurveLaunch;
  virtualSol: number;
  virtualTokens: number;
  realSol: number;
  tokensSold: number;
  /** Trades per hour now; decays with `halfLifeHours`, on the curve and after migration alike. */
  interest: number;
  halfLifeHours: number;
  buyBias: number;
  lastTradeTime: number | null;
  graduated: { time: number; slot: number } | null;
  pool: Pool | null;
}

export interface EmbeddedCurveOptions {
  readonly seed: string;
  /** First simulated second; the venue then runs to the wall clock. */
  readonly genesisTime: number;
  /** The world's one SOL/USD path; by default one of the venue's own seed starting at its genesis. */
  readonly reference?: ReferencePaths;
  readonly now?: () => number;
}

export class EmbeddedCurveVenue implements CurveFeed {
  readonly source = 'embedded';
  readonly venue = EMBEDDED_VENUE;
  readonly historyStart: number;
  /** Where SOL/USD comes from: the same reference path every chain's SOL pools follow. */
  readonly reference: ReferencePaths;
  private readonly rng: Rng;
  /** Pool trading draws from its own generator, so the curves' history does not depend on it. */
  private readonly poolRng: Rng;
  private readonly launchList: CurveLaunch[] = [];
  /** Every token in launch order: a tape row names its token by this index. */
  private readonly liveList: Live[] = [];
  private readonly curveTape = new Tape();
  private readonly poolTape = new Tape();
  private readonly tokens = new Map<string, Live>();
  /** Tokens still traded on their curve, or graduated and waiting for migration. */
  private readonly active = new Set<Live>();
  /** Migrated tokens still traded on their pool. */
  private readonly pooled = new Set<Live>();
  private readonly signer: Signer;
  private time: number;
  private counter = 0;

  constructor(private readonly options: EmbeddedCurveOptions) {
    this.rng = new Rng(`curve:${options.seed}`);
    this.poolRng = new Rng(`curve-pool:${options.seed}`);
    this.signer = new Signer(options.seed);
    this.reference = options.reference ?? new ReferencePaths(options.seed, options.genesisTime);
    this.time = Math.floor(options.genesisTime / STEP_SECONDS) * STEP_SECONDS;
    this.historyStart = options.genesisTime;
  }

  private now(): number {
    return Math.floor((this.options.now?.() ?? Date.now()) / 1000);
  }

  /** Writes the history up to now in slices, yielding between them so I/O around it proceeds. */
  async warm(): Promise<void> {
    const until = this.now();
    while (this.time + STEP_SECONDS <= until) {
      // Slices by time, not by count: 500 steps took up to 1.2 s on a loaded machine.
      const sliceEnd = performance.now() + WARM_SLICE_MS;
      while (this.time + STEP_SECONDS <= until && performance.now() < sliceEnd) this.step((this.time += STEP_SECONDS));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Runs the simulation up to the wall clock. */
  private advance(): void {
    const until = this.now();
    while (this.time + STEP_SECONDS <= until) this.step((this.time += STEP_SECONDS));
  }

  private slotAt(time: number): number {
    return Math.floor((time - this.options.genesisTime) / SLOT_SECONDS);
  }

  /** A base58 key derived from the seed and a label: deterministic, and a valid 32-byte key encoding. */
  private key(label: string): string {
    return base58Encode(createHash('sha256').update(`${this.options.seed}:${label}`).digest());
  }

  /** Traders and creators recur: their keys are derived once. */
  private readonly people = new Map<string, string>();
  private person(label: string): string {
    let key = this.people.get(label);
    if (!key) this.people.set(label, (key = this.key(label)));
    return key;
  }

  /** A trader's key by number, as tape rows name traders. */
  private readonly traderKeys: string[] = [];
  private trader(n: number): string {
    return (this.traderKeys[n] ??= this.person(`trader:${n}`));
  }


  private step(t: number): void {
    const hours = STEP_SECONDS / 3600;
    // Creators: about three launches an hour.
    for (let i = this.rng.poisson(3 * hours); i > 0; i--) this.launch(t);
    for (const token of this.active) { // deleting the current entry is safe in a Set's iteration
      if (token.graduated) {
        if (t >= token.graduated.time + this.rng.int(1, 10) * 60) this.migrate(token, t);
        continue;
      }
      token.interest *= Math.pow(0.5, hours / token.halfLifeHours);
      if (token.interest < 0.3) {
        this.active.delete(token); // forgotten: no one trades it any more
        continue;
      }
      for (let n = this.rng.poisson(token.interest * hours); n > 0 && !token.graduated; n--) this.trade(token, t);
    }
    // After migration the same interest, still fading, trades the pool.
    for (const token of this.pooled) {
      token.interest *= Math.pow(0.5, hours / token.halfLifeHours);
      if (token.interest < 0.3) {
        this.pooled.delete(token);
        continue;
      }
      for (let n = this.poolRng.poisson(token.interest * hours); n > 0; n--) this.poolTrade(token, t);
    }
  }

  /** The raised SOL and the tokens kept off the curve become a constant-product pool. */
  private migrate(token: Live, t: number): void {
    token.pool = { address: this.key(`pool:${token.launch.mint}`), migratedAt: t, reserveSol: token.realSol, reserveTokens: EMBEDDED_VENUE.totalSupply - EMBEDDED_VENUE.curveSupply };
    this.active.delete(token);
    this.pooled.add(token);
  }

  private launch(t: number): void {
    const n = ++this.counter;
    const symbol = `${['PEPE', 'DOGE', 'CAT', 'AI', 'MOON', 'FROG', 'WIF', 'BONK'][n % 8]}${n}`;
    const launch = new EmbeddedLaunch(this.signer, n, this.key(`mint:${n}`), this.person(`creator:${this.rng.int(1, 400)}`), `${symbol} coin`, symbol, t, this.slotAt(t));
    const token: Live = {
      index: this.liveList.length, launch, virtualSol: EMBEDDED_VENUE.initialVirtualSol, virtualTokens: EMBEDDED_VENUE.initialVirtualTokens, realSol: 0, tokensSold: 0,
      interest: this.rng.logUniform(2, 150), halfLifeHours: this.rng.logUniform(0.3, 6), buyBias: 0.5 + this.rng.next() * 0.25,
      lastTradeTime: null, graduated: null, pool: null,
    };
    this.launchList.push(launch);
    this.liveList.push(token);
    this.tokens.set(launch.mint, token);
    this.active.add(token);
  }

  private trade(token: Live, t: number): void {
    const buy = token.tokensSold === 0 || this.rng.chance(token.buyBias);
    const trader = this.rng.int(1, TRADERS);
    const k = token.virtualSol * token.virtualTokens;
    let sol: number;
    let tokens: number;
    if (buy) {
      sol = this.rng.logUniform(0.02, 4);
      tokens = token.virtualTokens - k / (token.virtualSol + sol);
      const remaining = EMBEDDED_VENUE.curveSupply - token.tokensSold;
      if (tokens >= remaining) {
        // The last buyer takes what is left and pays exactly for it.
        tokens = remaining;
        sol = k / (token.virtualTokens - remaining) - token.virtualSol;
      }
      token.virtualSol += sol;
      token.virtualTokens -= tokens;
      token.realSol += sol;
      token.tokensSold += tokens;
    } else {
      tokens = Math.min(token.tokensSold, (this.rng.logUniform(0.02, 3) * token.virtualTokens) / token.virtualSol);
      sol = Math.min(token.realSol, token.virtualSol - k / (token.virtualTokens + tokens));
      token.virtualSol -= sol;
      token.virtualTokens += tokens;
      token.realSol -= sol;
      token.tokensSold -= tokens;
    }
    token.lastTradeTime = t;
    const progressPct = (token.tokensSold / EMBEDDED_VENUE.curveSupply) * 100;
    // Trades of one step share its closing time; their order is the tape's.
    this.curveTape.push(t, token.index, trader, buy, sol, tokens, token.virtualSol, token.virtualTokens, token.realSol, progressPct);
    if (token.tokensSold >= EMBEDDED_VENUE.curveSupply) token.graduated = { time: t, slot: this.slotAt(t) };
  }

  /** A swap against the migrated token's pool: x * y = k on the input net of the fee. */
  private poolTrade(token: Live, t: number): void {
    const pool = token.pool!;
    const rng = this.poolRng;
    const buy = rng.chance(token.buyBias);
    const trader = rng.int(1, TRADERS);
    const k = pool.reserveSol * pool.reserveTokens;
    const keep = 1 - EMBEDDED_POOL_FEE_BPS / 10_000;
    let sol: number;
    let tokens: number;
    if (buy) {
      sol = rng.logUniform(0.02, 4);
      tokens = pool.reserveTokens - k / (pool.reserveSol + sol * keep);
      pool.reserveSol += sol;
      pool.reserveTokens -= tokens;
    } else {
      tokens = (rng.logUniform(0.02, 3) * pool.reserveTokens) / pool.reserveSol;
      sol = pool.reserveSol - k / (pool.reserveTokens + tokens * keep);
      pool.reserveSol -= sol;
      pool.reserveTokens += tokens;
    }
    this.poolTape.push(t, token.index, trader, buy, sol, tokens, pool.reserveSol, pool.reserveTokens, 0, 0);
  }

  async head() {
    this.advance();
    return { slot: this.slotAt(this.time), time: this.time };
  }

  async launches(fromTime: number, toTime: number) {
    this.advance();
    return inWindow(this.launchList, fromTime, toTime);
  }

  async trades(fromTime: number, toTime: number): Promise<CurveTrade[]> {
    this.advance();
    const tape = this.curveTape;
    const [lo, hi] = tape.range(fromTime, toTime);
    const out: CurveTrade[] = new Array(hi - lo);
    for (let i = lo; i < hi; i++) {
      const [t, c] = [tape.time[i]!, tape.columns];
      out[i - lo] = new EmbeddedTrade(this.signer, i, this.liveList[tape.token[i]!]!.launch.mint, this.trader(tape.trader[i]!), tape.buy[i] ? 'buy' : 'sell', c[0]![i]!, c[1]![i]!, t, this.slotAt(t), c[2]![i]!, c[3]![i]!, c[4]![i]!, c[5]![i]!);
    }
    return out;
  }

  async poolTrades(fromTime: number, toTime: number): Promise<CurvePoolTrade[]> {
    this.advance();
    const tape = this.poolTape;
    const [lo, hi] = tape.range(fromTime, toTime);
    const out: CurvePoolTrade[] = new Array(hi - lo);
    for (let i = lo; i < hi; i++) {
      const [t, c, token] = [tape.time[i]!, tape.columns, this.liveList[tape.token[i]!]!];
      out[i - lo] = new EmbeddedPoolTrade(this.signer, i, token.launch.mint, token.pool!.address, this.trader(tape.trader[i]!), tape.buy[i] ? 'buy' : 'sell', c[0]![i]!, c[1]![i]!, t, this.slotAt(t), c[2]![i]!, c[3]![i]!);
    }
    return out;
  }

  async states(mints?: readonly string[]): Promise<CurveState[]> {
    this.advance();
    const wanted = mints ? mints.map((m) => this.tokens.get(m)).filter((x): x is Live => !!x) : [...this.tokens.values()];
    return wanted.map((t) => ({
      mint: t.launch.mint, virtualSol: t.virtualSol, virtualTokens: t.virtualTokens, realSol: t.realSol, tokensSold: t.tokensSold,
      progressPct: (t.tokensSold / EMBEDDED_VENUE.curveSupply) * 100, lastTradeTime: t.lastTradeTime, graduated: t.graduated,
      migration: t.pool && { pool: t.pool.address, time: t.pool.migratedAt, reserveSol: t.pool.reserveSol, reserveTokens: t.pool.reserveTokens },
    }));
  }

  /** SOL/USD from the world's reference path (none before its origin: no price is invented). */
  async solUsd(time: number) {
    if (time < this.reference.origin) return null;
    return { usd: this.reference.priceUsd('SOL', time), source: `reference SOL/USD path (world/reference.ts: the path every chain's SOL pools follow; origin ${new Date(this.reference.origin * 1000).toISOString()})` };
  }
}

/**
 * Signatures are derived on first read: encoding 64 bytes in base58 costs more than simulating
 * the trade, and the records are classes (one shape, no closure each) so that a month of
 * history stays cheap to write and to hold.
 */
class Signer {
  constructor(private readonly seed: string) {}
  sign(label: string): string {
    return base58Encode(createHash('sha512').update(`${this.seed}:sig:${label}`).digest());
  }
}

/** A record whose signature is derived when read; serialised with it, never with the signer. */
abstract class Signed {
  readonly #signer: Signer;
  readonly #index: number;
  protected abstract readonly kind: string;
  constructor(signer: Signer, index: number) {
    this.#signer = signer;
    this.#index = index;
  }
  get signature(): string {
    return this.#signer.sign(`${this.kind}:${this.#index}`);
  }
  toJSON() {
    return { ...this, signature: this.signature };
  }
}

class EmbeddedLaunch extends Signed implements CurveLaunch {
  constructor(
    signer: Signer, index: number,
    readonly mint: string, readonly creator: string, readonly name: string, readonly symbol: string, readonly time: number, readonly slot: number,
  ) {
    super(signer, index);
  }
  protected get kind() {
    return 'launch';
  }
}

class EmbeddedTrade extends Signed implements CurveTrade {
  constructor(
    signer: Signer, index: number,
    readonly mint: string, readonly trader: string, readonly side: 'buy' | 'sell', readonly sol: number, readonly tokens: number, readonly time: number, readonly slot: number,
    readonly virtualSol: number, readonly virtualTokens: number, readonly realSol: number, readonly progressPct: number,
  ) {
    super(signer, index);
  }
  protected get kind() {
    return 'trade';
  }
}

class EmbeddedPoolTrade extends Signed implements CurvePoolTrade {
  constructor(
    signer: Signer, index: number,
    readonly mint: string, readonly pool: string, readonly trader: string, readonly side: 'buy' | 'sell', readonly sol: number, readonly tokens: number,
    readonly time: number, readonly slot: number, readonly reserveSol: number, readonly reserveTokens: number,
  ) {
    super(signer, index);
  }
  protected get kind() {
    return 'pool-trade';
  }
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * Bitcoin-alphabet base58 (Solana's) through one BigInt: a month of history derives thousands of
 * keys, and a generic radix conversion spent a third of the warm-up on them.
 */
export function base58Encode(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = BASE58[Number(n % 58n)]! + out;
    n /= 58n;
  }
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) out = '1' + out; // each leading zero byte is a '1'
  return out;
}

/** The first index of a time-ordered sequence at or after `bound` (past it when `after`). */
function firstIndex(length: number, timeAt: (i: number) => number, bound: number, after: boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after ? timeAt(mid) <= bound : timeAt(mid) < bound) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The items of a time-ordered list within [from, to]. */
function inWindow<T extends { time: number }>(list: readonly T[], from: number, to: number): T[] {
  const at = (i: number) => list[i]!.time;
  return list.slice(firstIndex(list.length, at, from, false), firstIndex(list.length, at, to, true));
}

/**
 * Trades kept as columns, in time order: a month is about 200,000 of them, which as objects kept
 * the collector busy for most of the warm-up; typed arrays cost it nothing. Rows become trade
 * objects only when read.
 */
class Tape {
  length = 0;
  time = new Uint32Array(1024);
  token = new Uint32Array(1024);
  trader = new Uint16Array(1024);
  buy = new Uint8Array(1024);
  /** Six numbers a row: SOL, tokens, then four that depend on the tape (curve or pool state after the trade). */
  columns = Array.from({ length: 6 }, () => new Float64Array(1024));

  push(time: number, token: number, trader: number, buy: boolean, v0: number, v1: number, v2: number, v3: number, v4: number, v5: number): void {
    if (this.length === this.time.length) this.grow();
    const i = this.length++;
    this.time[i] = time;
    this.token[i] = token;
    this.trader[i] = trader;
    this.buy[i] = buy ? 1 : 0;
    const c = this.columns;
    c[0]![i] = v0;
    c[1]![i] = v1;
    c[2]![i] = v2;
    c[3]![i] = v3;
    c[4]![i] = v4;
    c[5]![i] = v5;
  }

  /** Rows [lo, hi) whose time is within [from, to]. */
  range(from: number, to: number): [number, number] {
    const at = (i: number) => this.time[i]!;
    return [firstIndex(this.length, at, from, false), firstIndex(this.length, at, to, true)];
  }

  private grow(): void {
    const size = this.time.length * 2;
    const bigger = <A extends Uint32Array | Uint16Array | Uint8Array | Float64Array>(a: A, make: (n: number) => A): A => {
      const b = make(size);
      b.set(a as never);
      return b;
    };
    this.time = bigger(this.time, (n) => new Uint32Array(n));
    this.token = bigger(this.token, (n) => new Uint32Array(n));
    this.trader = bigger(this.trader, (n) => new Uint16Array(n));
    this.buy = bigger(this.buy, (n) => new Uint8Array(n));
    this.columns = this.columns.map((c) => bigger(c, (n) => new Float64Array(n)));
  }
}
