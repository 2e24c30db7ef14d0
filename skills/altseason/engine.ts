/**
 * Altcoin season index (`altseason/v2`) of one chain's market: the share of the chain's altcoins
 * that did better than the benchmark (BTC, through its wrapped token, else the wrapped native)
 * over the period, as 0-100. The usual reading: 75 and above is altcoin season, 25 and below is
 * bitcoin season.
 *
 * Which tokens count as altcoins is decided before their moves are looked at, so a pump cannot
 * vote itself in (found before: an index of 95 resting on launchpad micro tokens at +849% and +731%).
 * A constituent is a market of its own: not a stablecoin, wrapped major, fixed-yield share or
 * split (bonds on a stablecoin), nor a bonding-curve launch (sized and priced by its curve and
 * first pool, not by a market); priced over the same window as the benchmark (a token listed
 * inside it has a change since its listing, not over the period); at least
 * ALTSEASON_MIN_LIQUIDITY_USD of liquidity at the window's opening (its size before the move: a
 * pump inflates its own pool); at least ALTSEASON_MIN_TRADES trades in the window (a price set by
 * a trade or two is not a market's verdict); and it passes the security screen (skills/data/screening.ts).
 * Each exclusion is counted, and failing the screen is listed with its risks.
 */
import { formatUnits } from 'viem';
import { rowScore } from '../../indexer/rows.js';
import { resolveToken } from '../data/resolve.js';
import { round, type Market } from '../data/market.js';
import { periodChange, priceAtBlock } from '../data/pricing.js';
import { screenTokens } from '../data/screening.js';
import { factoryMarkets } from '../fixed-yield/engine.js';
import { USD_STABLECOINS } from '../yields/engine.js';
import type { Store } from '../../store/store.js';

export const ALTSEASON_MIN_LIQUIDITY_USD = 50_000;
export const ALTSEASON_MIN_TRADES = 10;
/** A constituent's change must start within this share of the window of the benchmark's (the first blocks of an index differ by pool). */
export const ALTSEASON_WINDOW_SLACK = 0.05;
const MAJORS = ['WBTC', 'BTCB', 'CBBTC', 'WETH', 'WBNB', 'WPOL'];

export const ALTSEASON_RULES = `tokens other than the benchmark, USD stablecoins and wrapped majors (${MAJORS.join(', ')}); not a share, principal or yield token of the fixed-yield factory; not launched on a bonding-curve venue (the index's TokenLaunched events); priced from the benchmark's opening (within ${ALTSEASON_WINDOW_SLACK * 100}% of the window); >= $${ALTSEASON_MIN_LIQUIDITY_USD.toLocaleString('en-US')} of liquidity at the window's opening (reserves of its pools before the window, at that moment's prices); >= ${ALTSEASON_MIN_TRADES} trades in the window; passing the security screen`;
export const ALTSEASON_METHODOLOGY = `altseason/v2 (constituents: ${ALTSEASON_RULES}; index = the share of constituents whose price change over the window beats the benchmark's (BTC, else the wrapped native); >= 75 altcoin season, <= 25 bitcoin season)`;

/** What the index reads beyond the market: the security screen and the fixed-yield factory's tokens. */
export interface AltseasonSources {
  /** Which of `tokens` fail the security screen, with their risks. */
  failing(tokens: readonly string[]): Promise<Map<string, string[]>>;
  /** Shares, principal and yield tokens the fixed-yield factory created (lower-case). */
  fixedIncome(): Promise<Set<string>>;
}

/** The sources as the skills use them: screen/v* over the store's cache, the factory's MarketCreated logs. */
export function altseasonSources(market: Market, cache: Pick<Store, 'get' | 'set'>): AltseasonSources {
  return {
    async failing(tokens) {
      const screen = await screenTokens(market, tokens, cache);
      return new Map(tokens.map((t) => screen.of(market.chain.name, t)).filter((s) => s.fails).map((s) => [s.token, s.risks]));
    },
    async fixedIncome() {
      const markets = await factoryMarkets(market.chain, market.head.block);
      return new Set(markets.flatMap((m) => [m.share, m.pt, m.yt].map((a) => a.toLowerCase())));
    },
  };
}

interface Excluded {
  stablecoinsAndMajors: number;
  fixedIncome: number;
  launchpad: number;
  listedInWindow: number;
  belowLiquidity: number;
  thinlyTraded: number;
  failedScreen: { token: string; symbol: string | null; risks: string[] }[];
}

export async function altcoinSeason(market: Market, fromBlock: number, startTs: number, sources: AltseasonSources) {
  const benchmark = pick(market);
  const change = async (token: string) => {
    const now = market.priceNow(token)?.usd;
    return now === undefined ? null : periodChange(market, token, now, fromBlock, startTs);
  };
  const bench = await change(benchmark);
  if (bench === null) return { available: false as const, reason: `the benchmark ${market.tokens.get(benchmark)?.symbol ?? benchmark} has no price over the period` };
  const latestStart = bench.since + ALTSEASON_WINDOW_SLACK * (market.head.timestamp - bench.since);

  const [fixedIncome, launched, volumes] = await Promise.all([
    sources.fixedIncome(),
    market.reader.launchpad(0, market.head.block).then((rows) => new Set(rows.filter((r) => r.event === 'tokenLaunched').map((r) => (r as { token: string }).token.toLowerCase()))),
    market.volumes(fromBlock),
  ]);
  const excluded: Excluded = { stablecoinsAndMajors: 0, fixedIncome: 0, launchpad: 0, listedInWindow: 0, belowLiquidity: 0, thinlyTraded: 0, failedScreen: [] };
  const candidates: { token: string; symbol: string | null; pct: number }[] = [];
  for (const [address, info] of market.tokens) {
    const symbol = (info.symbol ?? '').toUpperCase();
    if (address === benchmark || USD_STABLECOINS.includes(symbol) || MAJORS.includes(symbol)) { excluded.stablecoinsAndMajors++; continue; }
    if (fixedIncome.has(address)) { excluded.fixedIncome++; continue; }
    if (launched.has(address)) { excluded.launchpad++; continue; }
    const c = await change(address);
    if (c === null) continue; // no price: not a market at all
    if (c.since > latestStart) { excluded.listedInWindow++; continue; }
    if ((volumes.get(address)?.trades ?? 0) < ALTSEASON_MIN_TRADES) { excluded.thinlyTraded++; continue; }
    if ((await liquidityAtOpening(market, address, fromBlock)) < ALTSEASON_MIN_LIQUIDITY_USD) { excluded.belowLiquidity++; continue; }
    candidates.push({ token: info.address, symbol: info.symbol, pct: c.pct });
  }
  // The screen last: it simulates trades, so only tokens that are otherwise altcoins are asked.
  const failing = await sources.failing(candidates.map((c) => c.token.toLowerCase()));
  const rows = [];
  for (const c of candidates) {
    const risks = failing.get(c.token.toLowerCase());
    if (risks) excluded.failedScreen.push({ token: c.token, symbol: c.symbol, risks });
    else rows.push({ token: c.token, symbol: c.symbol, changePct: round(c.pct, 4), beatBenchmark: c.pct > bench.pct });
  }
  if (!rows.length) return { available: false as const, reason: `no token counts as an altcoin here (${ALTSEASON_RULES})`, excluded };
  const index = Math.round((100 * rows.filter((r) => r.beatBenchmark).length) / rows.length);
  return {
    available: true as const,
    index,
    season: index >= 75 ? ('altcoin season' as const) : index <= 25 ? ('bitcoin season' as const) : ('neither' as const),
    benchmark: { token: market.tokens.get(benchmark)!.address, symbol: market.tokens.get(benchmark)!.symbol, changePct: round(bench.pct, 4) },
    tokensCompared: rows.length,
    tokens: rows.sort((a, b) => b.changePct - a.changePct),
    rules: ALTSEASON_RULES,
    excluded,
  };
}

/**
 * USD liquidity of `token`'s pools at its opening, the price its change is measured from (the
 * price just before the window, else its first price inside it, as skills/data/pricing.ts
 * `openingPrice` reads the same line): each pool's reserves after its last Sync at or before
 * that block, both sides at that block's prices. A pool without a price on both sides counts nothing.
 */
async function liquidityAtOpening(market: Market, token: string, fromBlock: number): Promise<number> {
  const line = await market.timeline(token, fromBlock);
  const start = rowScore(fromBlock, 0);
  const first = line.find((p) => p.score >= start);
  const openingBlock = line.some((p) => p.score < start) ? Math.max(0, fromBlock - 1) : first ? Math.floor(first.score / rowScore(1, 0)) : fromBlock;
  let total = 0;
  for (const pool of market.pools.filter((p) => p.token0 === token || p.token1 === token)) {
    const sync = await market.reader.lastSyncBefore(pool.pair, openingBlock + 1);
    if (!sync) continue;
    const [a, b] = await Promise.all(([[pool.token0, sync.reserve0], [pool.token1, sync.reserve1]] as const).map(async ([t, reserve]) => {
      const [price, decimals] = [await priceAtBlock(market, t, openingBlock), market.decimals(t)];
      return price === null || decimals === null ? null : Number(formatUnits(BigInt(reserve), decimals)) * price.usd;
    }));
    if (a != null && b != null) total += a + b;
  }
  return total;
}

function pick(market: Market): string {
  try {
    return resolveToken(market, 'BTC');
  } catch {
    return market.chain.spec.wrappedNative.toLowerCase();
  }
}
