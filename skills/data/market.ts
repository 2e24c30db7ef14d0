/**
 * Market data from the index, methodology `market/v1`: a token's USD price is read from its
 * deepest pool against USDC (taken at its $1 peg), the wrapped native, or a token that itself
 * has such a pool (one hop, e.g. VIRTUAL-paired agent tokens); a pool counts only with at least
 * MIN_QUOTE_LIQUIDITY_USD on its quote side. At every moment the price source is the pool that
 * is deepest then (by its quote-side USD at that moment, among the pools that exist then), and
 * the token's USD price is that pool's rate after its last Sync times the quote's USD price at
 * that same moment: the price line moves when the pool trades, when its quote does and when a
 * deeper pool takes over, so a past price comes from the pool that priced the token then, and
 * the price now (priceNow, from the deepest pool now) is the line's value at the head. Every
 * engine reads prices through this one line (skills/data/pricing.ts says how); volume is every
 * Swap of the token's pools valued at the price of its moment.
 */
import { formatUnits, type Address } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import type { IndexReader } from '../../indexer/reader.js';
import { rowScore, type Row } from '../../indexer/rows.js';
import { candleCoverage, type Coverage } from './coverage.js';
import { PERIODS, type Period } from './periods.js';
import { tokenInfos, type TokenInfo } from './tokens.js';

/** A pool prices a token only with at least this much USD on its quote side: dust cannot set a price. */
export const MIN_QUOTE_LIQUIDITY_USD = 1_000;
/** Liquidity below which a token's or pool's price is noise for rankings, gaps and yields. */
export const TRADEABLE_LIQUIDITY_USD = 10_000;

export const MARKET_METHODOLOGY = 'market/v1 (USD from the deepest qualifying pool at each block: USDC at peg, wrapped native or one hop; the pool\'s rate after its last Sync times the quote\'s USD price at that block; volume from Swap events)';

export interface Pool {
  readonly pair: string;
  /** Which DEX: the id of its factory in the chain catalogue, or the factory address. */
  readonly dex: string;
  readonly token0: string;
  readonly token1: string;
  readonly r0: bigint;
  readonly r1: bigint;
  /** Unix time of the pair's creation, as indexed (absent on pools built by hand). */
  readonly createdAt?: number;
}

export interface PricePoint {
  readonly score: number;
  readonly ts: number;
  /** Null from a moment no pool qualifies to price the token (its last source drained) until one does. */
  readonly usd: number | null;
  /** The pool the price was read from at that moment (none on the numeraire's line). */
  readonly pool?: string;
}

/** A pool that may price a token, as its Syncs left it: rate (quote per token) and quote-side amount after each. */
interface Source {
  readonly pool: string;
  readonly reserves: readonly { score: number; ts: number; rate: number | null; quoteAmount: number }[];
  readonly quote: readonly PricePoint[];
}

export interface Candle {
  time: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volumeUsd: number;
  volumeToken: number;
  trades: number;
}

export class Market {
  private readonly timelines = new Map<string, Promise<PricePoint[]>>();
  /** Current reserves never change within one Market: main pools are chosen once per token. */
  private readonly mainPools = new Map<string, { pool: Pool; quote: string; quoteUsd: number } | null>();

  private constructor(
    readonly chain: ConnectedChain,
    readonly reader: IndexReader,
    readonly pools: readonly Pool[],
    readonly tokens: ReadonlyMap<string, TokenInfo>,
    readonly head: { block: number; timestamp: number },
    /** Unix time where the index's history begins (its earliest block with logs), null when empty. */
    readonly historyStart: number | null,
  ) {}

  /** Every indexed pool with its current reserves and token metadata. */
  static async load(chain: ConnectedChain, reader: IndexReader): Promise<Market> {
    // The checkpoint first: the indexer writes reserves before it moves the checkpoint, so a pool
    // synced past it is read back at the checkpoint (its price now is its price at the head).
    const checkpoint = await reader.checkpoint();
    const head = checkpoint?.block ?? 0;
    const [pairs, reserves, historyStart] = await Promise.all([reader.pairs(), reader.reserves(), reader.historyStart()]);
    for (const [pair, r] of reserves) {
      if (r.block <= head) continue;
      const at = await reader.lastSyncBefore(pair, head + 1);
      if (at) reserves.set(pair, { r0: BigInt(at.reserve0), r1: BigInt(at.reserve1), block: at.block });
      else reserves.delete(pair);
    }
    const pools = pairs.map((p) => {
      const r = reserves.get(p.pair.toLowerCase());
      const dex = chain.spec.dexes.find((d) => d.factory.toLowerCase() === p.factory.toLowerCase())?.id ?? p.factory.toLowerCase();
      return { pair: p.pair.toLowerCase(), dex, token0: p.token0.toLowerCase(), token1: p.token1.toLowerCase(), r0: r?.r0 ?? 0n, r1: r?.r1 ?? 0n, createdAt: p.ts };
    });
    const addresses = [...new Set(pools.flatMap((p) => [p.token0, p.token1]))] as Address[];
    const infos = await tokenInfos(chain, addresses);
    const tokens = new Map([...infos].map(([a, info]) => [a.toLowerCase(), info]));
    return new Market(chain, reader, pools, tokens, { block: checkpoint?.block ?? 0, timestamp: checkpoint?.timestamp ?? 0 }, historyStart);
  }

  private get usdc(): string {
    return this.chain.spec.usdc.toLowerCase();
  }

  private get native(): string {
    return this.chain.spec.wrappedNative.toLowerCase();
  }

  decimals(token: string): number | null {
    return this.tokens.get(token.toLowerCase())?.decimals ?? null;
  }

  /** Quote units per token unit in a pool's reserves (both decimal-adjusted). */
  private rate(pool: Pool, token: string, r0: bigint, r1: bigint): number | null {
    const d0 = this.decimals(pool.token0);
    const d1 = this.decimals(pool.token1);
    if (d0 === null || d1 === null || r0 === 0n || r1 === 0n) return null;
    const a0 = Number(formatUnits(r0, d0));
    const a1 = Number(formatUnits(r1, d1));
    return token === pool.token0 ? a1 / a0 : a0 / a1;
  }

  /** USD price now from current reserves, with the pool it came from, or null. */
  priceNow(token: string, depth = 0): { usd: number; pool: Pool | null; quote: string | null } | null {
    const t = token.toLowerCase();
    if (t === this.usdc) return { usd: 1, pool: null, quote: null };
    const main = this.mainPool(t, depth);
    if (!main) return null;
    const quoteUsd = this.priceNow(main.quote, depth + 1)?.usd;
    const rate = this.rate(main.pool, t, main.pool.r0, main.pool.r1);
    return quoteUsd === undefined || rate === null ? null : { usd: rate * quoteUsd, pool: main.pool, quote: main.quote };
  }

  /** The token's deepest pool whose other side can be priced, judged by quote-side USD now. */
  mainPool(token: string, depth = 0): { pool: Pool; quote: string; quoteUsd: number } | null {
    const key = `${token.toLowerCase()}:${depth}`;
    if (!this.mainPools.has(key)) this.mainPools.set(key, this.findMainPool(token.toLowerCase(), depth));
    return this.mainPools.get(key)!;
  }

  /**
   * The pools that may price `t`: against USDC or the wrapped native, or, for the token asked
   * about (depth 0), against a token that itself has such a pool (one hop, e.g. VIRTUAL); in pool
   * order, which breaks ties of depth.
   */
  private candidatePools(t: string, depth: number): { pool: Pool; quote: string }[] {
    if (depth > 2) return [];
    return this.pools.flatMap((pool) => {
      if (pool.token0 !== t && pool.token1 !== t) return [];
      const quote = pool.token0 === t ? pool.token1 : pool.token0;
      return quote === this.usdc || quote === this.native || depth === 0 ? [{ pool, quote }] : [];
    });
  }

  private findMainPool(t: string, depth: number): { pool: Pool; quote: string; quoteUsd: number } | null {
    let best: { pool: Pool; quote: string; quoteUsd: number } | null = null;
    for (const { pool, quote } of this.candidatePools(t, depth)) {
      if (quote !== this.usdc && quote !== this.native && this.mainPool(quote, depth + 1) === null) continue;
      const quotePrice = quote === this.usdc ? 1 : this.priceNow(quote, depth + 1)?.usd;
      const d = this.decimals(quote);
      if (quotePrice === undefined || d === null) continue;
      const quoteUsd = Number(formatUnits(pool.token0 === quote ? pool.r0 : pool.r1, d)) * quotePrice;
      if (quoteUsd >= MIN_QUOTE_LIQUIDITY_USD && (!best || quoteUsd > best.quoteUsd)) best = { pool, quote, quoteUsd };
    }
    return best;
  }

  /** USD liquidity of a pool now: both sides where both are priced. */
  liquidityUsd(pool: Pool): number | null {
    const p0 = this.priceNow(pool.token0)?.usd;
    const p1 = this.priceNow(pool.token1)?.usd;
    const d0 = this.decimals(pool.token0);
    const d1 = this.decimals(pool.token1);
    if (p0 === undefined || p1 === undefined || d0 === null || d1 === null) return null;
    return Number(formatUnits(pool.r0, d0)) * p0 + Number(formatUnits(pool.r1, d1)) * p1;
  }

  /**
   * USD price points of `token` over [fromBlock, head]: the price just before the window (the
   * opening), then a point at every Sync of its source pool, every change of that pool's quote's
   * price and every change of source, each the source's rate after its last Sync times its quote's
   * USD price at that moment; the source at each moment is the deepest candidate pool then.
   */
  timeline(token: string, fromBlock: number, depth = 0): Promise<PricePoint[]> {
    // Keyed by depth too: a token's main pool depends on how far from the caller it is priced,
    // and a depth-blind cache lets two tokens quoted in each other wait on each other forever.
    const key = `${token.toLowerCase()}:${fromBlock}:${depth}`;
    let cached = this.timelines.get(key);
    if (!cached) this.timelines.set(key, (cached = this.buildTimeline(token.toLowerCase(), fromBlock, depth)));
    return cached;
  }

  private async buildTimeline(token: string, fromBlock: number, depth: number): Promise<PricePoint[]> {
    if (token === this.usdc) return [...ONE_DOLLAR];
    const sources = await Promise.all(this.candidatePools(token, depth).map(async ({ pool, quote }): Promise<Source> => {
      const [opening, rows, quoteLine] = await Promise.all([
        this.reader.lastSyncBefore(pool.pair, fromBlock),
        this.reader.syncs(pool.pair, fromBlock, this.head.block),
        quote === this.usdc ? ONE_DOLLAR : this.timeline(quote, fromBlock, depth + 1),
      ]);
      const decimals = this.decimals(quote);
      const reserves = (opening ? [opening, ...rows] : rows).map((s) => {
        const [r0, r1] = [BigInt(s.reserve0), BigInt(s.reserve1)];
        const quoteAmount = decimals === null ? 0 : Number(formatUnits(pool.token0 === quote ? r0 : r1, decimals));
        return { score: rowScore(s.block, s.logIndex), ts: s.ts, rate: this.rate(pool, token, r0, r1), quoteAmount };
      });
      return { pool: pool.pair, reserves, quote: quoteLine };
    }));
    return sourcedLine(sources);
  }

  /** USD volume, token volume and trade count of every token over [fromBlock, head], in one pass over the swaps. */
  async volumes(fromBlock: number): Promise<Map<string, { usd: number; amount: number; trades: number }>> {
    const swaps = await this.reader.swaps(fromBlock, this.head.block);
    const byPair = new Map(this.pools.map((p) => [p.pair, p]));
    const out = new Map<string, { usd: number; amount: number; trades: number }>();
    for (const s of swaps) {
      const pool = byPair.get(s.pair.toLowerCase());
      if (!pool) continue;
      const score = rowScore(s.block, s.logIndex);
      for (const [token, raw] of [[pool.token0, BigInt(s.amount0In) + BigInt(s.amount0Out)], [pool.token1, BigInt(s.amount1In) + BigInt(s.amount1Out)]] as const) {
        const decimals = this.decimals(token);
        if (decimals === null) continue;
        const price = valueAt(await this.timeline(token, fromBlock), score);
        const amount = Number(formatUnits(raw, decimals));
        const v = out.get(token) ?? { usd: 0, amount: 0, trades: 0 };
        v.amount += amount;
        v.usd += price === null ? 0 : amount * price;
        v.trades += 1;
        out.set(token, v);
      }
    }
    return out;
  }

  /** USD volume and swap count of every pool over [fromBlock, head]: each swap valued by its first side priced at that moment. */
  async poolVolumes(fromBlock: number): Promise<Map<string, { usd: number; swaps: number }>> {
    const swaps = await this.reader.swaps(fromBlock, this.head.block);
    const byPair = new Map(this.pools.map((p) => [p.pair, p]));
    const out = new Map<string, { usd: number; swaps: number }>();
    for (const s of swaps) {
      const pool = byPair.get(s.pair.toLowerCase());
      if (!pool) continue;
      const score = rowScore(s.block, s.logIndex);
      let usd: number | null = null;
      for (const [token, raw] of [[pool.token0, BigInt(s.amount0In) + BigInt(s.amount0Out)], [pool.token1, BigInt(s.amount1In) + BigInt(s.amount1Out)]] as const) {
        const decimals = this.decimals(token);
        const price = decimals === null ? null : valueAt(await this.timeline(token, fromBlock), score);
        if (price !== null) {
          usd = Number(formatUnits(raw, decimals!)) * price;
          break;
        }
      }
      const v = out.get(pool.pair) ?? { usd: 0, swaps: 0 };
      v.usd += usd ?? 0;
      v.swaps++;
      out.set(pool.pair, v);
    }
    return out;
  }

  /**
   * Swaps of the token's priced pools in [fromBlock, head], with token amount, USD value and side:
   * a buy takes the token out of the pool, a sell puts it in.
   */
  async trades(token: string, fromBlock: number): Promise<{ ts: number; score: number; amount: number; usd: number; pool: string; side: 'buy' | 'sell' }[]> {
    const t = token.toLowerCase();
    const decimals = this.decimals(t);
    if (decimals === null) return [];
    const pools = new Set(this.pools.filter((p) => (p.token0 === t || p.token1 === t)).map((p) => p.pair));
    const [swaps, line] = await Promise.all([this.reader.swaps(fromBlock, this.head.block), this.timeline(t, fromBlock)]);
    const out = [];
    for (const s of swaps as Row<'swap'>[]) {
      const pair = s.pair.toLowerCase();
      if (!pools.has(pair)) continue;
      const pool = this.pools.find((p) => p.pair === pair)!;
      const [tokenIn, tokenOut] = pool.token0 === t ? [BigInt(s.amount0In), BigInt(s.amount0Out)] : [BigInt(s.amount1In), BigInt(s.amount1Out)];
      const amount = Number(formatUnits(tokenIn + tokenOut, decimals));
      const score = rowScore(s.block, s.logIndex);
      const price = valueAt(line, score);
      out.push({ ts: s.ts, score, amount, usd: price === null ? 0 : amount * price, pool: pair, side: tokenOut > tokenIn ? ('buy' as const) : ('sell' as const) });
    }
    return out;
  }

  /**
   * OHLCV candles of the period, forward-filled between trades (trades: 0 marks a filled one), and
   * how much of the period they cover: none is made up before the token's first indexed price.
   */
  candles(token: string, period: Period): ReturnType<Market['candlesOver']> {
    const { seconds, candleSeconds } = PERIODS[period];
    return this.candlesOver(token, seconds, candleSeconds);
  }

  /**
   * Candles of `candleSeconds` over the last `seconds` to head (the forecast's own cuts). The
   * window is exactly the last `seconds`, as every ranking's over a period is: candles sit on a
   * grid of their size (each `time` a grid slot) and the first one opens at the window's start,
   * so the chart's change, volume and trades are the rankings' over the same window.
   */
  async candlesOver(token: string, seconds: number, candleSeconds: number): Promise<{ candles: Candle[]; fromBlock: number; intervalSeconds: number; coverage: Coverage; totals: { volumeUsd: number; trades: number } }> {
    const end = this.head.timestamp;
    const start = end - seconds;
    const gridStart = Math.floor(start / candleSeconds) * candleSeconds;
    const fromBlock = (await this.reader.firstBlockAtOrAfter(start)) ?? this.head.block + 1;
    const [line, trades] = await Promise.all([this.timeline(token, fromBlock), this.trades(token, fromBlock)]);
    const candles: Candle[] = [];
    let li = 0;
    let ti = 0;
    let last: number | null = null;
    // The opening: the price just before the window's first block.
    const opens = rowScore(fromBlock, 0);
    while (li < line.length && line[li]!.score < opens) last = line[li++]!.usd;
    // Without an opening, history starts at the first price inside the window.
    const firstPriceTs = last === null && li < line.length ? line[li]!.ts : null;
    for (let t = gridStart; t <= end; t += candleSeconds) {
      const bucketEnd = t + candleSeconds;
      const prices: number[] = [];
      // A null point (no pool qualifies any more) ends what is known: no candle is carried past it.
      let lost = false;
      while (li < line.length && line[li]!.ts < bucketEnd) {
        const usd = line[li++]!.usd;
        if (usd !== null) prices.push(usd);
        lost = usd === null;
      }
      let volumeUsd = 0;
      let volumeToken = 0;
      let count = 0;
      while (ti < trades.length && trades[ti]!.ts < bucketEnd) {
        if (trades[ti]!.ts >= t) {
          volumeUsd += trades[ti]!.usd;
          volumeToken += trades[ti]!.amount;
          count++;
        }
        ti++;
      }
      if (last === null && !prices.length) continue; // nothing known yet
      const open = last ?? prices[0]!;
      const close = prices.length ? prices[prices.length - 1]! : open;
      candles.push({
        time: new Date(t * 1000).toISOString(),
        open, high: Math.max(open, ...prices), low: Math.min(open, ...prices), close,
        volumeUsd: round(volumeUsd, 2), volumeToken, trades: count,
      });
      last = lost ? null : close;
    }
    const coverage = candleCoverage({ periodFrom: start, to: end, candleSeconds, candles: candles.length, firstPriceTs, historyStart: this.historyStart });
    // Summed before any rounding, as the rankings sum the same trades.
    const totals = { volumeUsd: round(trades.reduce((sum, t) => sum + t.usd, 0), 2), trades: trades.length };
    return { candles, fromBlock, intervalSeconds: candleSeconds, coverage, totals };
  }

  /**
   * At most how many candles of `candleSeconds` over the last `seconds` can hold the token's
   * history: from where the index and the token's earliest pool begin. Reads a row per pool, not the history.
   */
  async candlesAtMost(token: string, seconds: number, candleSeconds: number): Promise<number> {
    const end = this.head.timestamp;
    const start = Math.floor((end - seconds) / candleSeconds) * candleSeconds;
    const all = Math.floor((end - start) / candleSeconds) + 1;
    if (token.toLowerCase() === this.usdc) return all;
    if (!this.mainPool(token)) return 0;
    // The line may begin on an older pool than the one pricing it now: the earliest candidate's first Sync.
    const firsts = await Promise.all(this.candidatePools(token.toLowerCase(), 0).map(({ pool }) => this.reader.firstSync(pool.pair)));
    const firstTs = Math.min(...firsts.map((f) => f?.ts ?? Infinity));
    const earliest = Math.max(start, this.historyStart ?? start, Number.isFinite(firstTs) ? firstTs : start);
    return Math.max(0, all - Math.floor((earliest - start) / candleSeconds));
  }

  /** The token's USD price at unix time `ts` (its last price at or before), or null. */
  async priceAt(token: string, ts: number): Promise<number | null> {
    if (ts > this.head.timestamp) return null;
    const fromBlock = (await this.reader.firstBlockAtOrAfter(ts)) ?? this.head.block + 1;
    const line = await this.timeline(token, fromBlock);
    let price: number | null = null;
    for (const p of line) {
      if (p.ts > ts) break;
      price = p.usd;
    }
    return price;
  }
}

/** The numeraire's line: USDC at its $1 peg since the first block. */
const ONE_DOLLAR: readonly PricePoint[] = [{ score: 0, ts: 0, usd: 1 }];

/**
 * A token's USD line from its candidate pools (each one's rate and quote-side amount after each
 * Sync) and each pool's quote's USD line. At every moment any of them changes, the source is the
 * pool with the most quote-side USD then (at least MIN_QUOTE_LIQUIDITY_USD; the first in pool
 * order on a tie, as Market.mainPool), and the price is its rate x its quote's USD at that
 * moment. A point is written when the source's rate or quote moved or the source changed; a pool
 * has no rate before its first Sync, so it cannot price a moment before it existed. When no pool
 * qualifies any more the line says so with a null point rather than keep the last price.
 */
export function sourcedLine(sources: readonly Source[]): PricePoint[] {
  const events: { score: number; ts: number; source: number; reserves?: Source['reserves'][number]; quoteUsd?: number | null }[] = [];
  sources.forEach((s, source) => {
    for (const r of s.reserves) events.push({ score: r.score, ts: r.ts, source, reserves: r });
    for (const q of s.quote) events.push({ score: q.score, ts: q.ts, source, quoteUsd: q.usd });
  });
  events.sort((a, b) => a.score - b.score);
  const state = sources.map(() => ({ rate: null as number | null, quoteAmount: 0, quoteUsd: null as number | null }));
  const out: PricePoint[] = [];
  let chosen = -1;
  for (let e = 0; e < events.length; ) {
    const score = events[e]!.score;
    let ts = 0;
    const touched = new Set<number>();
    for (; e < events.length && events[e]!.score === score; e++) {
      const ev = events[e]!;
      const st = state[ev.source]!;
      if (ev.reserves) {
        st.rate = ev.reserves.rate;
        st.quoteAmount = ev.reserves.quoteAmount;
      } else st.quoteUsd = ev.quoteUsd ?? null;
      ts = Math.max(ts, ev.ts);
      touched.add(ev.source);
    }
    let best = -1;
    let bestDepth = 0;
    state.forEach((st, i) => {
      if (st.rate === null || st.quoteUsd === null) return;
      const depth = st.quoteAmount * st.quoteUsd;
      if (depth >= MIN_QUOTE_LIQUIDITY_USD && (best < 0 || depth > bestDepth)) [best, bestDepth] = [i, depth];
    });
    if (best >= 0 && (best !== chosen || touched.has(best))) out.push({ score, ts, usd: state[best]!.rate! * state[best]!.quoteUsd!, pool: sources[best]!.pool });
    else if (best < 0 && chosen >= 0) out.push({ score, ts, usd: null });
    chosen = best;
  }
  return out;
}

/** The last point at or before `score`; null when nothing is known that early. */
export function pointAt(line: readonly PricePoint[], score: number): PricePoint | null {
  if (!line.length || line[0]!.score > score) return null;
  let lo = 0;
  let hi = line.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (line[mid]!.score <= score) lo = mid;
    else hi = mid - 1;
  }
  return line[lo]!;
}

/** The value of the last point at or before `score`; null when nothing is known that early (or no pool priced it then). */
export function valueAt(line: readonly PricePoint[], score: number): number | null {
  return pointAt(line, score)?.usd ?? null;
}

export function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
