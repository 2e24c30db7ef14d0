/**
 * Who traded the stock tokens and how they fared, from the index's swaps assembled into trades
 * (data/executions.ts: a route is one trade by its transaction's sender) and average-cost
 * positions (data/cost-basis.ts): the first buyers of a listing, and the best and worst traders
 * across every genuine stock token. Realised profit is what sells took over average cost;
 * unrealised, what is still held at the token's price now less its cost.
 */
import type { Execution } from '../data/executions.js';
import { applyExecution, emptyPosition } from '../data/cost-basis.js';
import { round } from '../data/market.js';

/** Buyers counted as a listing's first: the first this many distinct wallets to buy ... */
export const EARLY_BUYERS = 20;
/** ... within this long of the pool's first liquidity. */
export const EARLY_WINDOW_HOURS = 24;
/** A trader needs this many trades in stock tokens to have a record. */
export const MIN_RECORD_TRADES = 3;

export interface WalletResult {
  readonly wallet: string;
  readonly trades: number;
  readonly boughtUsd: number;
  readonly soldUsd: number;
  readonly realizedUsd: number;
  readonly unrealizedUsd: number;
  readonly pnlUsd: number;
  /** PnL over what was bought, percent. */
  readonly returnPct: number | null;
  readonly winRate: number | null;
}

/** One wallet's average-cost result over `executions` (one token or several), marked at `priceNow`. */
export function walletResult(wallet: string, executions: readonly Execution[], priceNow: (token: string) => number | null): WalletResult {
  const books = new Map<string, ReturnType<typeof emptyPosition>>();
  let bought = 0;
  let sold = 0;
  let realized = 0;
  let closed = 0;
  let wins = 0;
  for (const e of executions) {
    const book = books.get(e.token) ?? emptyPosition();
    books.set(e.token, book);
    bought += e.bought * e.priceUsd;
    const { matched, realized: r } = applyExecution(book, e);
    if (matched > 0) {
      sold += e.sold * e.priceUsd;
      realized += r;
      closed++;
      if (r > 0) wins++;
    }
  }
  let unrealized = 0;
  for (const [token, book] of books) {
    const price = priceNow(token);
    if (book.qty > 0 && price !== null) unrealized += book.qty * price - book.cost;
  }
  const pnl = realized + unrealized;
  return {
    wallet, trades: executions.length, boughtUsd: round(bought, 2), soldUsd: round(sold, 2), realizedUsd: round(realized, 2), unrealizedUsd: round(unrealized, 2),
    pnlUsd: round(pnl, 2), returnPct: bought > 0 ? round((pnl / bought) * 100, 2) : null, winRate: closed ? round(wins / closed, 4) : null,
  };
}

export interface EarlyBuyer extends WalletResult {
  readonly firstBuyAt: string;
  readonly minutesAfterLiquidity: number;
  readonly firstBuyShares: number;
  readonly firstBuyPriceUsd: number;
  /** Still holds some of what it bought. */
  readonly holding: boolean;
}

/**
 * The first distinct buyers of a token after its liquidity (`liquidityAt`, unix seconds), in order,
 * each with its whole record in the token. Same-block round trips (arbitrage legs) are not buys of a listing.
 */
export function earlyBuyers(executions: readonly Execution[], liquidityAt: number, multiplier: number, priceNow: number | null): EarlyBuyer[] {
  const until = liquidityAt + EARLY_WINDOW_HOURS * 3600;
  const first = new Map<string, Execution>();
  for (const e of executions) {
    if (first.size >= EARLY_BUYERS || e.ts > until) break;
    if (e.bought > 0 && !e.roundTripBlock && e.ts >= liquidityAt && !first.has(e.wallet)) first.set(e.wallet, e);
  }
  return [...first.values()].map((entry) => {
    const own = executions.filter((e) => e.wallet === entry.wallet);
    const result = walletResult(entry.wallet, own, () => priceNow);
    const held = own.reduce((q, e) => q + e.bought - e.sold, 0);
    return {
      ...result,
      firstBuyAt: new Date(entry.ts * 1000).toISOString(),
      minutesAfterLiquidity: round((entry.ts - liquidityAt) / 60, 1),
      firstBuyShares: round(entry.bought * multiplier, 6),
      firstBuyPriceUsd: Number(entry.priceUsd.toPrecision(8)),
      holding: held > 1e-9,
    };
  });
}

/** Every wallet with a record in the stock tokens, best first. */
export function traderRecords(executions: readonly Execution[], priceNow: (token: string) => number | null): WalletResult[] {
  const byWallet = new Map<string, Execution[]>();
  for (const e of executions) byWallet.set(e.wallet, [...(byWallet.get(e.wallet) ?? []), e]);
  return [...byWallet].filter(([, own]) => own.length >= MIN_RECORD_TRADES).map(([wallet, own]) => walletResult(wallet, own, priceNow)).sort((a, b) => b.pnlUsd - a.pnlUsd);
}
