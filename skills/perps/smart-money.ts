/**
 * Perp smart money, methodology `perp-smart-money/v1`: a trader's record is read from its fills,
 * not its account's size. Candidates are the leaderboard's active accounts, the best month ROI
 * first (at most SM_CANDIDATES read); each one's fills give its closed trades (closing and
 * liquidation fills), each trade's result net of fees and its return on the notional closed.
 * Smart money has at least SM_MIN_CLOSED closed trades, a win rate of at least SM_MIN_WIN_RATE,
 * realised profit of at least SM_MIN_REALISED_USD, and per-trade returns whose t-statistic is at
 * least SM_MIN_T (so a few lucky trades never make a record). Accounts whose fills mostly rest on
 * the book are market makers and set apart; an account whose fills cannot be read is reported.
 * For each smart trader: its positions now and what it opened and closed in the window.
 */
import { round } from '../data/market.js';
import { MAKER_SHARE, makerShare } from './whales.js';
import { readEach, type PerpFillRead, type PerpLeaderRow, type PerpSource } from './source.js';

export const SM_CANDIDATES = 60;
export const SM_MIN_CLOSED = 12;
export const SM_MIN_WIN_RATE = 0.5;
export const SM_MIN_REALISED_USD = 10_000;
export const SM_MIN_T = 2;
export const PERP_SMART_MONEY_METHODOLOGY = `perp-smart-money/v1 (candidates: the leaderboard's accounts with month volume, best month ROI first, ${SM_CANDIDATES} at most; record from userFills: closing and liquidation fills are closed trades, result = closedPnl - fee, return = result / notional closed; smart: >= ${SM_MIN_CLOSED} closed, win rate >= ${SM_MIN_WIN_RATE * 100}%, realised >= $${SM_MIN_REALISED_USD.toLocaleString('en-US')}, t-statistic of returns >= ${SM_MIN_T}; >= ${MAKER_SHARE * 100}% of fill notional resting = market maker, set apart; unreadable accounts reported)`;

export interface TradeRecord {
  readonly closedTrades: number;
  readonly wins: number;
  readonly winRate: number;
  readonly realisedUsd: number;
  readonly meanReturnPct: number;
  readonly tStat: number | null;
}

export interface SmartTrader extends TradeRecord {
  readonly address: string;
  readonly accountValueUsd: number | null;
  readonly positions: readonly { coin: string; side: 'long' | 'short'; size: number; entryPx: number; unrealizedPnlUsd: number }[];
  readonly opened: readonly { coin: string; side: 'long' | 'short'; size: number; px: number; time: string }[];
  readonly closed: readonly { coin: string; size: number; px: number; resultUsd: number; time: string; liquidated: boolean }[];
}

const closing = (f: PerpFillRead) => f.dir.startsWith('Close') || f.dir.startsWith('Liquidated');

/** A record from fills: each closing fill one trade, its result net of its fee. */
export function tradeRecord(fills: readonly PerpFillRead[]): TradeRecord {
  const trades = fills.filter(closing).map((f) => {
    const result = f.closedPnl - f.fee;
    return { result, ret: f.sz * f.px > 0 ? result / (f.sz * f.px) : 0 };
  });
  const n = trades.length;
  const wins = trades.filter((t) => t.result > 0).length;
  const mean = n ? trades.reduce((s, t) => s + t.ret, 0) / n : 0;
  const sd = n > 1 ? Math.sqrt(trades.reduce((s, t) => s + (t.ret - mean) ** 2, 0) / (n - 1)) : 0;
  return {
    closedTrades: n, wins, winRate: n ? round(wins / n, 4) : 0,
    realisedUsd: round(trades.reduce((s, t) => s + t.result, 0), 2),
    meanReturnPct: round(mean * 100, 4),
    tStat: n > 1 && sd > 0 ? round((mean / sd) * Math.sqrt(n), 3) : null,
  };
}

export function isSmart(r: TradeRecord): boolean {
  return r.closedTrades >= SM_MIN_CLOSED && r.winRate >= SM_MIN_WIN_RATE && r.realisedUsd >= SM_MIN_REALISED_USD && (r.tStat ?? 0) >= SM_MIN_T;
}

/** The leaderboard's active accounts, the best month ROI first. */
export function smartCandidates(rows: readonly PerpLeaderRow[]): PerpLeaderRow[] {
  return rows.filter((r) => r.windows.month.volume > 0 && r.accountValue > 0).sort((a, b) => b.windows.month.roi - a.windows.month.roi).slice(0, SM_CANDIDATES);
}

export async function perpSmartMoney(source: PerpSource, options: { since: number; limit: number }): Promise<{
  traders: SmartTrader[];
  coins: { coin: string; longs: number; shorts: number; netUsd: number }[];
  candidatesRead: number;
  marketMakersExcluded: number;
  unreadTraders: { address: string; reason: string }[];
}> {
  const board = await source.leaderboard();
  const candidates = smartCandidates(board);
  const unread: { address: string; reason: string }[] = [];
  let makers = 0;
  const smart: { row: PerpLeaderRow; fills: readonly PerpFillRead[]; record: TradeRecord }[] = [];
  const reads = await readEach(candidates, (c) => source.fills(c.user));
  for (const [j, read] of reads.entries()) {
    if (!read.readable) {
      unread.push({ address: read.user, reason: read.reason });
      continue;
    }
    if (read.fills.length && makerShare(read.fills) >= MAKER_SHARE) {
      makers++;
      continue;
    }
    const record = tradeRecord(read.fills);
    if (isSmart(record)) smart.push({ row: candidates[j]!, fills: read.fills, record });
  }
  smart.sort((a, b) => b.record.realisedUsd - a.record.realisedUsd);
  const picked = smart.slice(0, options.limit);
  const accounts = await readEach(picked, (p) => source.account(p.row.user));
  const iso = (t: number) => new Date(t * 1000).toISOString();
  const traders = picked.map(({ row, fills, record }, i): SmartTrader => {
    const account = accounts[i]!;
    if (!account.readable) unread.push({ address: row.user, reason: `its positions: ${account.reason}` });
    const recent = fills.filter((f) => f.time >= options.since);
    return {
      address: row.user, ...record,
      accountValueUsd: account.readable ? round(account.accountValue, 2) : null,
      positions: account.readable ? account.positions.map((p) => ({ coin: p.coin, side: p.szi > 0 ? 'long' as const : 'short' as const, size: Math.abs(p.szi), entryPx: p.entryPx, unrealizedPnlUsd: round(p.unrealizedPnl, 2) })) : [],
      opened: recent.filter((f) => f.dir.startsWith('Open')).map((f) => ({ coin: f.coin, side: f.side === 'B' ? 'long' as const : 'short' as const, size: f.sz, px: f.px, time: iso(f.time) })),
      closed: recent.filter(closing).map((f) => ({ coin: f.coin, size: f.sz, px: f.px, resultUsd: round(f.closedPnl - f.fee, 2), time: iso(f.time), liquidated: f.dir.startsWith('Liquidated') })),
    };
  });
  const byCoin = new Map<string, { longs: number; shorts: number; netUsd: number }>();
  for (const t of traders) {
    for (const p of t.positions) {
      const c = byCoin.get(p.coin) ?? { longs: 0, shorts: 0, netUsd: 0 };
      if (p.side === 'long') c.longs++;
      else c.shorts++;
      c.netUsd += (p.side === 'long' ? 1 : -1) * p.size * p.entryPx;
      byCoin.set(p.coin, c);
    }
  }
  return {
    traders,
    coins: [...byCoin].map(([coin, c]) => ({ coin, ...c, netUsd: round(c.netUsd, 2) })).sort((a, b) => Math.abs(b.netUsd) - Math.abs(a.netUsd)),
    candidatesRead: candidates.length,
    marketMakersExcluded: makers,
    unreadTraders: unread,
  };
}
