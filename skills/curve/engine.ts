/**
 * Launchpad analytics over a CurveFeed, methodology `curve/v2`: launches, volume and progress
 * read through the feed interface only (never the simulator's internals), SOL amounts valued
 * at the feed's SOL/USD at each trade's time, market cap as price x total supply, price from
 * the curve's virtual reserves (the pool's reserves once the token migrated), and trading on
 * the migrated pool reported beside the curve's, or said unavailable when the feed has none.
 */
import type { CurveFeed, CurveLaunch, CurvePoolTrade, CurveState, CurveTrade } from '../../world/curve/feed.js';
import { describeCoverage, windowCoverage } from '../data/coverage.js';
import { round } from '../data/market.js';

export const CURVE_METHODOLOGY = 'curve/v2 (bonding-curve launches, trades and curve state from the venue feed; SOL valued at the feed\'s SOL/USD at each trade; price = virtual SOL / virtual tokens on the curve, pool SOL / pool tokens after migration; market cap = price x total supply; progress = tokens sold / curve supply; post-migration trading from the feed\'s pool trades)';

/** Trades of one kind (curve or pool) of one mint over a window. */
export interface Activity {
  trades: number;
  buys: number;
  sells: number;
  traders: Set<string>;
  volumeSol: number;
  volumeUsd: number;
  /** SOL bought minus SOL sold: on a curve, what its raised SOL changed by. */
  netSol: number;
  /** Trades without a SOL/USD price at their time (left out of volumeUsd). */
  unpriced: number;
}

export type PoolActivity =
  | { available: true; address: string; migratedAt: string; trades: number; traders: number; volumeSol: number; volumeUsd: number; reserveSol: number; reserveTokens: number }
  | { available: false; address: string; migratedAt: string; reason: string };

export interface TokenActivity {
  mint: string;
  symbol: string | null;
  name: string | null;
  creator: string | null;
  launchedAt: string | null;
  trades: number;
  buys: number;
  sells: number;
  traders: number;
  volumeSol: number;
  volumeUsd: number;
  progressPct: number | null;
  priceSol: number | null;
  marketCapUsd: number | null;
  lastTradeAt: string | null;
  graduated: boolean;
  /** The AMM pool the token migrated to and its trading over the same window; null before migration. */
  migration: PoolActivity | null;
}

/** SOL/USD at trade times, asked of the feed once per distinct time (a step's trades share one). */
export class SolPricer {
  private readonly cache = new Map<number, number | null>();
  constructor(private readonly feed: CurveFeed) {}
  /** Prices every distinct time of `times` not yet known. */
  async load(times: Iterable<number>): Promise<void> {
    const missing = [...new Set(times)].filter((t) => !this.cache.has(t));
    const prices = await Promise.all(missing.map((t) => this.feed.solUsd(t)));
    missing.forEach((t, i) => this.cache.set(t, prices[i]?.usd ?? null));
  }
  /** A loaded time's price. */
  usd(time: number): number | null {
    return this.cache.get(time) ?? null;
  }
}

/** Per-mint activity of a list of curve or pool trades. */
export async function activityByMint(trades: readonly (CurveTrade | CurvePoolTrade)[], pricer: SolPricer): Promise<Map<string, Activity>> {
  await pricer.load(trades.map((t) => t.time));
  const out = new Map<string, Activity>();
  for (const t of trades) {
    let a = out.get(t.mint);
    if (!a) out.set(t.mint, (a = { trades: 0, buys: 0, sells: 0, traders: new Set(), volumeSol: 0, volumeUsd: 0, netSol: 0, unpriced: 0 }));
    a.trades++;
    a[t.side === 'buy' ? 'buys' : 'sells']++;
    a.traders.add(t.trader);
    a.volumeSol += t.sol;
    a.netSol += t.side === 'buy' ? t.sol : -t.sol;
    const usd = pricer.usd(t.time);
    if (usd === null) a.unpriced++;
    else a.volumeUsd += t.sol * usd;
  }
  return out;
}

export interface WindowActivity {
  curve: Map<string, Activity>;
  /** Null when the feed carries no pool trades. */
  pool: Map<string, Activity> | null;
  trades: CurveTrade[];
}

/** Curve and pool activity of every mint over [from, to]. */
export async function windowActivity(feed: CurveFeed, from: number, to: number, pricer = new SolPricer(feed)): Promise<WindowActivity> {
  const [trades, poolTrades] = await Promise.all([feed.trades(from, to), feed.poolTrades?.(from, to)]);
  return { curve: await activityByMint(trades, pricer), pool: poolTrades ? await activityByMint(poolTrades, pricer) : null, trades };
}

export const NO_POOL_TRADES = 'the feed carries bonding-curve trades only: trading on the migrated pool is not in it';

/** The row of one mint: its window's curve activity, its state now, its migrated pool's activity. */
export function toRow(feed: CurveFeed, mint: string, launch: CurveLaunch | undefined, state: CurveState | undefined, solUsdNow: number | null, window: WindowActivity): TokenActivity {
  const a = window.curve.get(mint);
  const m = state?.migration;
  const priceSol = m ? m.reserveSol / m.reserveTokens : state ? state.virtualSol / state.virtualTokens : null;
  let migration: PoolActivity | null = null;
  if (m) {
    const at = new Date(m.time * 1000).toISOString();
    const p = window.pool?.get(mint);
    migration = window.pool
      ? { available: true, address: m.pool, migratedAt: at, trades: p?.trades ?? 0, traders: p?.traders.size ?? 0, volumeSol: round(p?.volumeSol ?? 0, 6), volumeUsd: round(p?.volumeUsd ?? 0, 2), reserveSol: round(m.reserveSol, 6), reserveTokens: round(m.reserveTokens, 2) }
      : { available: false, address: m.pool, migratedAt: at, reason: NO_POOL_TRADES };
  }
  return {
    mint,
    symbol: launch?.symbol ?? null,
    name: launch?.name ?? null,
    creator: launch?.creator ?? null,
    launchedAt: launch ? new Date(launch.time * 1000).toISOString() : null,
    trades: a?.trades ?? 0,
    buys: a?.buys ?? 0,
    sells: a?.sells ?? 0,
    traders: a?.traders.size ?? 0,
    volumeSol: round(a?.volumeSol ?? 0, 6),
    volumeUsd: round(a?.volumeUsd ?? 0, 2),
    progressPct: state ? round(state.progressPct, 4) : null,
    priceSol,
    marketCapUsd: priceSol !== null && solUsdNow !== null ? round(priceSol * feed.venue.totalSupply * solUsdNow, 2) : null,
    lastTradeAt: state?.lastTradeTime != null ? new Date(state.lastTradeTime * 1000).toISOString() : null,
    graduated: !!state?.graduated,
    migration,
  };
}

/** Rows of every mint that traded on its curve in [from, to], with each mint's current state. */
export async function curveActivity(feed: CurveFeed, from: number, to: number): Promise<{ rows: TokenActivity[]; trades: CurveTrade[]; launches: Map<string, CurveLaunch>; solUsdNow: number | null }> {
  const [window, launches, head] = await Promise.all([windowActivity(feed, from, to), feed.launches(0, to), feed.head()]);
  const launchByMint = new Map(launches.map((l) => [l.mint, l]));
  const states = new Map((await feed.states([...window.curve.keys()])).map((s) => [s.mint, s]));
  const solUsdNow = (await feed.solUsd(head.time))?.usd ?? null;
  const rows = [...window.curve.keys()].map((mint) => toRow(feed, mint, launchByMint.get(mint), states.get(mint), solUsdNow, window));
  return { rows, trades: window.trades, launches: launchByMint, solUsdNow };
}

/** Where a curve answer came from: the feed, its head, the window read (and how much of it the feed's history covers), and the SOL/USD it used. */
export async function curveProvenance(feed: CurveFeed, head: { slot: number; time: number }, window: { from: number; to: number }) {
  const sol = await feed.solUsd(head.time);
  return {
    source: feed.source,
    chain: 'solana',
    venue: feed.venue.name,
    asOf: { slot: String(head.slot), timestamp: new Date(head.time * 1000).toISOString() },
    window: { from: new Date(window.from * 1000).toISOString(), to: new Date(window.to * 1000).toISOString() },
    coverage: describeCoverage(windowCoverage(window.from, window.to, feed.historyStart ?? null)),
    solUsd: sol ? { usd: round(sol.usd, 4), source: sol.source } : { usd: null, source: 'the feed has no SOL/USD price at its head' },
    methodology: CURVE_METHODOLOGY,
  };
}
