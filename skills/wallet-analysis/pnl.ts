/**
 * Wallet profit and loss (`wallet-pnl/v1`) from the wallet's indexed swaps: average-cost
 * positions per token over the whole index, realized profit of the sells inside the period,
 * and unrealized profit of what is still held at today's market/v1 price.
 */
import { allExecutions } from '../data/executions.js';
import { round, type Market } from '../data/market.js';
import { applyExecution, type Position } from '../data/cost-basis.js';

export const PNL_METHODOLOGY =
  'wallet-pnl/v1 (swaps received by the wallet at execution prices; average-cost positions over the whole index; realized = sells in the period against average cost; unrealized = open position at the market/v1 price now; tokens received by transfer carry no cost basis and are left out)';

interface Book extends Position {
  boughtUsd: number;
  soldUsd: number;
  realizedUsd: number;
  trades: number;
  closed: number;
  wins: number;
}

export async function walletPnl(market: Market, wallet: string, fromBlock: number) {
  const mine = (await allExecutions(market)).filter((e) => e.wallet === wallet.toLowerCase());
  const books = new Map<string, Book>();
  for (const e of mine) {
    const b = books.get(e.token) ?? { qty: 0, cost: 0, boughtUsd: 0, soldUsd: 0, realizedUsd: 0, trades: 0, closed: 0, wins: 0 };
    books.set(e.token, b);
    const inPeriod = e.block >= fromBlock;
    if (e.bought > 0 && inPeriod) b.boughtUsd += e.bought * e.priceUsd;
    const { matched, realized } = applyExecution(b, e);
    if (matched > 0 && inPeriod) {
      b.realizedUsd += realized;
      b.soldUsd += e.sold * e.priceUsd;
      b.closed++;
      if (realized > 0) b.wins++;
    }
    if (inPeriod) b.trades++;
  }
  const tokens = [...books.entries()].map(([token, b]) => {
    const price = market.priceNow(token)?.usd ?? null;
    const unrealized = b.qty > 0 && price !== null ? b.qty * price - b.cost : b.qty > 0 ? null : 0;
    return {
      token,
      symbol: market.tokens.get(token)?.symbol ?? null,
      tradesInPeriod: b.trades,
      boughtUsd: round(b.boughtUsd, 2),
      soldUsd: round(b.soldUsd, 2),
      realizedUsd: round(b.realizedUsd, 2),
      positionTokens: Number(b.qty.toPrecision(8)),
      averageCostUsd: b.qty > 0 ? Number((b.cost / b.qty).toPrecision(8)) : null,
      priceNowUsd: price === null ? null : Number(price.toPrecision(8)),
      unrealizedUsd: unrealized === null ? null : round(unrealized, 2),
      ...(unrealized === null && { unrealizedReason: 'no pool prices this token now' }),
    };
  });
  const active = tokens.filter((t) => t.tradesInPeriod > 0 || t.positionTokens > 0);
  const sum = (f: (t: (typeof tokens)[number]) => number | null) => round(active.reduce((s, t) => s + (f(t) ?? 0), 0), 2);
  const closed = [...books.values()].reduce((s, b) => s + b.closed, 0);
  const wins = [...books.values()].reduce((s, b) => s + b.wins, 0);
  return {
    swapsIndexed: mine.length,
    tradesInPeriod: active.reduce((s, t) => s + t.tradesInPeriod, 0),
    realizedUsd: sum((t) => t.realizedUsd),
    unrealizedUsd: sum((t) => t.unrealizedUsd),
    totalPnlUsd: round(sum((t) => t.realizedUsd) + sum((t) => t.unrealizedUsd), 2),
    volumeUsd: sum((t) => t.boughtUsd + t.soldUsd),
    winRate: closed ? round(wins / closed, 4) : null,
    firstTradeAt: mine.length ? new Date(mine[0]!.ts * 1000).toISOString() : null,
    lastTradeAt: mine.length ? new Date(mine[mine.length - 1]!.ts * 1000).toISOString() : null,
    tokens: active.sort((a, b) => Math.abs((b.realizedUsd ?? 0) + (b.unrealizedUsd ?? 0)) - Math.abs((a.realizedUsd ?? 0) + (a.unrealizedUsd ?? 0))),
  };
}
