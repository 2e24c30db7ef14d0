/**
 * Launchpad analytics over a CurveFeed, methodology `curve/v1`: launches, volume and progress
 * read through the feed interface only (never the simulator's internals), SOL amounts valued
 * at the feed's SOL/USD at each trade's time, market cap as price x total supply, price from
 * the curve's virtual reserves.
 */
import type { CurveFeed, CurveLaunch, CurveState, CurveTrade } from '../curve/feed.js';
import { round } from './market.js';

export const CURVE_METHODOLOGY = 'curve/v1 (bonding-curve launches, trades and curve state from the venue feed; SOL valued at the feed\'s SOL/USD at each trade; price = virtual SOL / virtual tokens; market cap = price x total supply; progress = tokens sold / curve supply)';

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
  graduated: boolean;
  migration: { pool: string; at: string } | null;
}

/** Per-mint activity over [from, to], with each mint's current state. */
export async function curveActivity(feed: CurveFeed, from: number, to: number): Promise<{ rows: TokenActivity[]; trades: CurveTrade[]; launches: Map<string, CurveLaunch>; solUsdNow: number | null }> {
  const [trades, launches, head] = await Promise.all([feed.trades(from, to), feed.launches(0, to), feed.head()]);
  const byMint = new Map<string, { trades: number; buys: number; sells: number; traders: Set<string>; sol: number; usd: number }>();
  for (const t of trades) {
    const a = byMint.get(t.mint) ?? { trades: 0, buys: 0, sells: 0, traders: new Set<string>(), sol: 0, usd: 0 };
    a.trades++;
    a[t.side === 'buy' ? 'buys' : 'sells']++;
    a.traders.add(t.trader);
    a.sol += t.sol;
    const price = await feed.solUsd(t.time);
    a.usd += price ? t.sol * price.usd : 0;
    byMint.set(t.mint, a);
  }
  const launchByMint = new Map(launches.map((l) => [l.mint, l]));
  const states = new Map((await feed.states([...byMint.keys()])).map((s) => [s.mint, s]));
  const solUsdNow = (await feed.solUsd(head.time))?.usd ?? null;
  const rows = [...byMint.entries()].map(([mint, a]) => toRow(feed, mint, launchByMint.get(mint), states.get(mint), solUsdNow, a));
  return { rows, trades, launches: launchByMint, solUsdNow };
}

export function toRow(feed: CurveFeed, mint: string, launch: CurveLaunch | undefined, state: CurveState | undefined, solUsdNow: number | null, a?: { trades: number; buys: number; sells: number; traders: Set<string>; sol: number; usd: number }): TokenActivity {
  const priceSol = state ? state.virtualSol / state.virtualTokens : null;
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
    volumeSol: round(a?.sol ?? 0, 6),
    volumeUsd: round(a?.usd ?? 0, 2),
    progressPct: state ? round(state.progressPct, 4) : null,
    priceSol,
    marketCapUsd: priceSol !== null && solUsdNow !== null ? round(priceSol * feed.venue.totalSupply * solUsdNow, 2) : null,
    graduated: !!state?.graduated,
    migration: state?.migration ? { pool: state.migration.pool, at: new Date(state.migration.time * 1000).toISOString() } : null,
  };
}

/** Where a curve answer came from: the feed, its head, the window read. */
export function curveProvenance(feed: CurveFeed, head: { slot: number; time: number }, window: { from: number; to: number }) {
  return {
    source: feed.source,
    chain: 'solana',
    venue: feed.venue.name,
    asOf: { slot: String(head.slot), timestamp: new Date(head.time * 1000).toISOString() },
    window: { from: new Date(window.from * 1000).toISOString(), to: new Date(window.to * 1000).toISOString() },
    methodology: CURVE_METHODOLOGY,
  };
}
