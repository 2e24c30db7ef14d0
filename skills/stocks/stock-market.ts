/**
 * What every tokenized-stock board starts from: on each chain with a directory of stock issuers,
 * the genuine tokens read at the block the chain's index stands at, each priced by the index (its
 * deepest pool, market/v1) and valued against its underlying's feed, so a token's price, its
 * premium and every other board's figure come from the same block; the feeds from the chain that
 * carries them; and the tokens in the index that copy a genuine token's symbol or name without
 * being listed by any registered issuer (impostors).
 */
import { IndexReader } from '../../indexer/reader.js';
import { STOCK_DIRECTORIES, STOCK_FEED_CHAIN } from '../../chain/stocks.js';
import type { ChainName } from '../../chain/chains.js';
import type { SkillContext } from '../core/context.js';
import { SibylError } from '../core/errors.js';
import { indexSource, loadMarket, periodStartBlock, type LoadedMarket } from '../data/load.js';
import { round, type Market } from '../data/market.js';
import { liquidityOf } from '../data/rankings.js';
import { FAIR_VALUE_METHODOLOGY, fairValue, type FairValue } from './fair-value.js';
import { hasStockDirectory, readStockFeeds, readStockUniverse, type StockFeed, type StockIssuer, type StockToken } from './universe.js';
import { tokenHistory, type MultiplierChange } from './history.js';
import { multiplierLags, type MultiplierLag } from './trust.js';

export interface ListedStock extends StockToken {
  /** A corporate action its peers applied and it applied late or not yet (trust.ts). */
  readonly lag: MultiplierLag | null;
  /** The index's price now (deepest pool), null when no qualifying pool prices it. */
  readonly priceUsd: number | null;
  readonly pricedBy: string | null;
  readonly dex: string | null;
  readonly liquidityUsd: number;
  readonly volume24hUsd: number;
  readonly trades24h: number;
  /**
   * Null when its underlying has no feed or it has no price. Valued at the multiplier it should
   * carry: its own, times an action its peers applied that it has not (what its holders are owed;
   * its own multiplier's premium is `premiumAtOwnMultiplierPct`).
   */
  readonly fair: FairValue | null;
  readonly premiumAtOwnMultiplierPct: number | null;
}

export interface Impostor {
  readonly chain: string;
  readonly address: string;
  readonly symbol: string | null;
  readonly name: string | null;
  /** The issuer it passes for, and the genuine token it copies where one of the chains read has it (else it follows the issuer's symbol pattern). */
  readonly copies: { readonly issuer: string; readonly symbol: string; readonly chain: string | null; readonly address: string | null };
  readonly priceUsd: number | null;
  readonly liquidityUsd: number;
}

export interface StockChainRead {
  readonly loaded: LoadedMarket;
  readonly issuers: readonly StockIssuer[];
  /** Every multiplier change of its genuine tokens up to the block read. */
  readonly multipliers: readonly MultiplierChange[];
}

export interface StockMarkets {
  readonly chains: readonly StockChainRead[];
  readonly stocks: readonly ListedStock[];
  readonly feeds: ReadonlyMap<string, StockFeed>;
  readonly feedChain: { readonly chain: string; readonly block: number; readonly timestamp: number } | null;
  readonly impostors: readonly Impostor[];
  readonly unavailable: readonly { chain: string; reason: string }[];
  readonly sources: readonly string[];
  /** The latest moment any chain was read at (unix seconds). */
  readonly at: number;
}

export const STOCK_MARKETS_METHODOLOGY = `stock-markets/v1 (genuine tokens: listed by an issuer its chain's directory registers, read at the block the index stands at; price from the index, market/v1; ${FAIR_VALUE_METHODOLOGY}; impostor: a token in the index copying a genuine token's symbol or name that no registered issuer lists)`;

/** The chains this deployment reads that carry stock issuers. */
export function stockChains(ctx: SkillContext): ChainName[] {
  return ctx.chains.list().filter(hasStockDirectory).map((c) => c.name);
}

/** Refused before payment when the feeds' chain is not read here, or not indexed yet: no board can value a token without it. */
export async function admitStockMarkets(ctx: SkillContext): Promise<void> {
  const connected = ctx.chains.list().map((c) => c.name);
  if (!connected.includes(STOCK_FEED_CHAIN)) {
    throw new SibylError('chain_unavailable', `tokenized stocks are valued from the feeds on ${STOCK_FEED_CHAIN}, which this deployment does not read (it reads ${connected.join(', ') || 'no chain'}); nothing was charged`, { reason: 'not_indexed' });
  }
  const chain = ctx.chains.get(STOCK_FEED_CHAIN);
  if (!(await new IndexReader(ctx.store, chain.spec.chainId).checkpoint())) {
    throw new SibylError('upstream_unavailable', `${STOCK_FEED_CHAIN} is not indexed yet; try again shortly. Nothing was charged`);
  }
  // One read decides it: a stock chain without the feeds' directory has no stock to value.
  const directory = STOCK_DIRECTORIES[STOCK_FEED_CHAIN]!.feeds!;
  const code = await chain.client.getCode({ address: directory });
  if (!code || code === '0x') {
    throw new SibylError('chain_unavailable', `${STOCK_FEED_CHAIN} carries no directory of the underlyings' feeds (no code at ${directory}), so no stock token can be valued here; nothing was charged`, { reason: 'no_feeds' });
  }
}

const cached = new WeakMap<Market, Promise<StockChainRead & { tokens: StockToken[] }>>();

async function readChainOnce(loaded: LoadedMarket): Promise<StockChainRead & { tokens: StockToken[] }> {
  const u = await readStockUniverse(loaded.chain, loaded.checkpoint.block);
  const { multipliers } = await tokenHistory(loaded.chain, u.tokens.map((t) => t.address), loaded.checkpoint.block);
  return { loaded, issuers: u.issuers, tokens: [...u.tokens], multipliers };
}

async function readChain(ctx: SkillContext, name: ChainName) {
  const loaded = await loadMarket(ctx, name);
  let read = cached.get(loaded.market);
  if (!read) {
    read = readChainOnce(loaded);
    cached.set(loaded.market, read);
    read.catch(() => cached.delete(loaded.market));
  }
  return read;
}

/** Every stock chain read at its index's block; refused (503, nothing charged) when the feeds' chain cannot be read. */
export async function loadStockMarkets(ctx: SkillContext): Promise<StockMarkets> {
  const names = stockChains(ctx);
  const unavailable: { chain: string; reason: string }[] = [];
  const chains: (StockChainRead & { tokens: StockToken[] })[] = [];
  await Promise.all(names.map(async (name) => {
    try {
      chains.push(await readChain(ctx, name));
    } catch (err) {
      unavailable.push({ chain: name, reason: err instanceof SibylError ? err.message : 'the chain could not be read' });
    }
  }));
  chains.sort((a, b) => names.indexOf(a.loaded.chain.name) - names.indexOf(b.loaded.chain.name));
  const feedRead = chains.find((c) => c.loaded.chain.name === STOCK_FEED_CHAIN);
  if (!feedRead) {
    throw new SibylError('upstream_unavailable', `the underlyings' feeds on ${STOCK_FEED_CHAIN} could not be read (${unavailable.map((u) => `${u.chain}: ${u.reason}`).join('; ') || 'not read here'}); nothing was charged`);
  }
  const feeds = await readStockFeeds(feedRead.loaded.chain, feedRead.loaded.checkpoint.block);
  const at = Math.max(...chains.map((c) => c.loaded.checkpoint.timestamp));
  // Lags are read across chains: a wrapper is late against its peers wherever they trade.
  const listedAt = (loaded: LoadedMarket, token: string) => {
    const key = token.toLowerCase();
    const first = loaded.market.pools.filter((p) => p.token0 === key || p.token1 === key).map((p) => p.createdAt).filter((t): t is number => t !== undefined);
    return first.length ? Math.min(...first) : null;
  };
  const lags = multiplierLags(
    chains.flatMap(({ loaded, tokens }) => tokens.map((t) => ({ ...t, listedAt: listedAt(loaded, t.address) }))),
    chains.flatMap((c) => c.multipliers), at,
  );
  const stocks: ListedStock[] = [];
  for (const { loaded, tokens } of chains) {
    const { market, checkpoint } = loaded;
    const volumes = await market.volumes(await periodStartBlock(market, checkpoint, '24h'));
    for (const token of tokens) {
      const key = token.address.toLowerCase();
      const now = market.priceNow(key);
      const feed = feeds.get(token.underlying);
      const volume = volumes.get(key);
      const lag = lags.get(key) ?? null;
      const owed = lag && lag.hours === null ? token.multiplier * lag.ratio : token.multiplier;
      stocks.push({
        ...token, lag,
        priceUsd: now?.usd ?? null, pricedBy: now?.pool?.pair ?? null, dex: now?.pool?.dex ?? null,
        liquidityUsd: round(liquidityOf(market, key), 2), volume24hUsd: round(volume?.usd ?? 0, 2), trades24h: volume?.trades ?? 0,
        fair: now && feed ? fairValue({ multiplier: owed }, feed, now.usd, checkpoint.timestamp) : null,
        premiumAtOwnMultiplierPct: now && feed ? round(fairValue(token, feed, now.usd, checkpoint.timestamp).premiumPct, 3) : null,
      });
    }
  }
  return {
    chains, stocks, feeds,
    feedChain: { chain: STOCK_FEED_CHAIN, block: feedRead.loaded.checkpoint.block, timestamp: feedRead.loaded.checkpoint.timestamp },
    impostors: findImpostors(chains, stocks, new Set(feeds.keys())),
    unavailable,
    sources: [...chains.map((c) => indexSource(c.loaded)), `feeds:${STOCK_FEED_CHAIN}@${feedRead.loaded.checkpoint.block}`],
    at,
  };
}

const norm = (s: string | null) => (s ?? '').trim().toLowerCase();

/**
 * Tokens of the indexes that pass for a registered issuer's and that no registered issuer lists:
 * a genuine token's symbol or name, or an issuer's own symbol pattern (its prefix and suffix around
 * a ticker it wraps, "NVDAx") applied to a ticker with a feed, on any chain.
 */
function findImpostors(chains: readonly StockChainRead[], stocks: readonly ListedStock[], tickers: ReadonlySet<string>): Impostor[] {
  const genuine = new Set(stocks.map((s) => `${s.chain}:${s.address.toLowerCase()}`));
  const bySymbol = new Map<string, ListedStock>();
  const byName = new Map<string, ListedStock>();
  // Each issuer's symbol pattern, learned from its own tokens: what stands before and after the ticker.
  const patterns = new Map<string, { issuer: string; prefix: string; suffix: string }>();
  for (const s of stocks) {
    if (!bySymbol.has(norm(s.symbol))) bySymbol.set(norm(s.symbol), s);
    if (s.name && !byName.has(norm(s.name))) byName.set(norm(s.name), s);
    const at = s.symbol.indexOf(s.underlying);
    if (at >= 0) {
      const pattern = { issuer: s.issuer.name, prefix: s.symbol.slice(0, at), suffix: s.symbol.slice(at + s.underlying.length) };
      patterns.set(`${pattern.prefix}|${pattern.suffix}`, pattern);
    }
  }
  const patternMatch = (symbol: string) => {
    for (const p of patterns.values()) {
      if (!symbol.startsWith(p.prefix) || !symbol.endsWith(p.suffix) || symbol.length <= p.prefix.length + p.suffix.length) continue;
      const ticker = symbol.slice(p.prefix.length, symbol.length - p.suffix.length);
      if (tickers.has(ticker)) return p;
    }
    return undefined;
  };
  const found: Impostor[] = [];
  for (const { loaded } of chains) {
    const { market } = loaded;
    for (const [address, info] of market.tokens) {
      if (genuine.has(`${loaded.chain.name}:${address}`)) continue;
      const copied = bySymbol.get(norm(info.symbol)) ?? (info.name ? byName.get(norm(info.name)) : undefined);
      const pattern = copied || !info.symbol ? undefined : patternMatch(info.symbol);
      if (!copied && !pattern) continue;
      found.push({
        chain: loaded.chain.name, address: info.address, symbol: info.symbol, name: info.name,
        copies: copied
          ? { issuer: copied.issuer.name, symbol: copied.symbol, chain: copied.chain, address: copied.address }
          : { issuer: pattern!.issuer, symbol: info.symbol!, chain: null, address: null },
        priceUsd: market.priceNow(address)?.usd ?? null, liquidityUsd: round(liquidityOf(market, address), 2),
      });
    }
  }
  return found;
}

/** The stock token at `address` on any chain read, or undefined. */
export function stockAt(markets: StockMarkets, address: string): ListedStock | undefined {
  const key = address.toLowerCase();
  return markets.stocks.find((s) => s.address.toLowerCase() === key);
}
