/**
 * Perp whales, methodology `perp-whales/v1`: the venue's leaderboard seeds the candidates (account
 * value at least WHALE_MIN_ACCOUNT_USD, the best month PnL first). One whose month volume exceeds
 * MARKET_MAKER_TURNOVER times its value has its fills read: at least MAKER_SHARE of their notional
 * resting (uncrossed) makes it a market maker, never a whale (it earns a spread, it holds no view;
 * a leveraged whale turns its account over as often, but takes liquidity); each whale's
 * positions are read from the venue. Per coin: the read whales holding it, long and short, and the
 * net notional; a coin held by fewer than MIN_WHALES read whales is NEUTRAL, one where at least
 * CONSENSUS_SHARE of its holders (and the net notional) lean one way is BULLISH or BEARISH, else
 * MIXED. An account the venue fails to read is reported with the reason and counted nowhere (never
 * as flat). Funding per coin from the venue's contexts: hourly and annualised, who pays, the
 * extremes, and where the whales lean against the side that pays.
 */
import { round } from '../data/market.js';
import { readEach, type PerpAccountRead, type PerpAssetContext, type PerpFillRead, type PerpLeaderRow, type PerpSource } from './source.js';

export const WHALE_MIN_ACCOUNT_USD = 500_000;
export const MARKET_MAKER_TURNOVER = 200;
export const MAKER_SHARE = 0.9;
export const MIN_WHALES = 3;
export const CONSENSUS_SHARE = 2 / 3;
/** Funding annualised beyond this (either way) is an extreme. */
export const FUNDING_EXTREME_PCT = 50;
export const PERP_WHALES_METHODOLOGY = `perp-whales/v1 (leaderboard accounts >= $${WHALE_MIN_ACCOUNT_USD.toLocaleString('en-US')}, month volume > ${MARKET_MAKER_TURNOVER}x value: fills read, >= ${MAKER_SHARE * 100}% of their notional uncrossed = market maker, not a whale, best month PnL first; positions from clearinghouseState; a coin held by < ${MIN_WHALES} read whales NEUTRAL, >= ${Math.round(CONSENSUS_SHARE * 100)}% of holders and the net notional one way BULLISH/BEARISH, else MIXED; unread accounts reported, never counted; funding annualised = hourly x 24 x 365, extreme beyond ${FUNDING_EXTREME_PCT}%)`;

export type Lean = 'BULLISH' | 'BEARISH' | 'MIXED' | 'NEUTRAL';

export interface CoinLean {
  readonly coin: string;
  readonly lean: Lean;
  readonly holders: number;
  readonly longs: number;
  readonly shorts: number;
  readonly longUsd: number;
  readonly shortUsd: number;
  readonly netUsd: number;
  readonly reason: string;
}

export interface WhalePosition {
  readonly address: string;
  readonly coin: string;
  readonly side: 'long' | 'short';
  readonly size: number;
  readonly notionalUsd: number;
  readonly entryPx: number;
  readonly leverage: number;
  readonly unrealizedPnlUsd: number;
  readonly liquidationPx: number | null;
  readonly fundingSinceOpenUsd: number;
}

export interface WhalesLeg {
  readonly available: boolean;
  readonly consensus: Lean;
  readonly bullishAssets: readonly string[];
  readonly bearishAssets: readonly string[];
  readonly assets: readonly CoinLean[];
  readonly tradersRequested: number;
  readonly tradersAnalyzed: number;
  readonly unreadTraders: readonly { address: string; reason: string }[];
  readonly marketMakersExcluded: number;
  readonly topTraders: readonly { address: string; accountValueUsd: number; monthPnlUsd: number; monthRoi: number; openPositions: number }[];
  readonly whalePositions: readonly WhalePosition[];
}

export interface FundingLeg {
  readonly available: boolean;
  readonly rates: readonly { coin: string; hourly: number; annualizedPct: number; premium: number; payer: 'longs' | 'shorts' | 'none'; markPx: number; dayChangePct: number | null; openInterestUsd: number; dayVolumeUsd: number }[];
  readonly marketRegime: 'longs-paying' | 'shorts-paying' | 'mixed';
  readonly extremes: readonly { coin: string; annualizedPct: number }[];
  readonly divergences: readonly { coin: string; whales: Lean; annualizedPct: number; note: string }[];
  readonly opportunities: readonly { coin: string; side: 'long' | 'short'; annualizedPct: number; note: string }[];
}

/** The leaderboard's accounts big enough to be whales, best month PnL first. */
export function whaleCandidates(rows: readonly PerpLeaderRow[]): PerpLeaderRow[] {
  return rows.filter((r) => r.accountValue >= WHALE_MIN_ACCOUNT_USD).sort((a, b) => b.windows.month.pnl - a.windows.month.pnl);
}

/** Whether an account trades so much against its value that only its fills can tell a maker from a whale. */
export const turnsLikeAMaker = (r: PerpLeaderRow) => r.windows.month.volume > MARKET_MAKER_TURNOVER * Math.max(1, r.accountValue);

/** The share of the fills' notional that rested on the book (uncrossed). */
export function makerShare(fills: readonly PerpFillRead[]): number {
  const total = fills.reduce((s, f) => s + f.sz * f.px, 0);
  return total > 0 ? fills.filter((f) => !f.crossed).reduce((s, f) => s + f.sz * f.px, 0) / total : 0;
}

/** Each coin's lean from the read whales' positions. */
export function coinLeans(reads: readonly PerpAccountRead[], marks: ReadonlyMap<string, number>): CoinLean[] {
  const byCoin = new Map<string, { longs: number; shorts: number; longUsd: number; shortUsd: number }>();
  for (const r of reads) {
    if (!r.readable) continue;
    for (const p of r.positions) {
      if (p.szi === 0) continue;
      const c = byCoin.get(p.coin) ?? { longs: 0, shorts: 0, longUsd: 0, shortUsd: 0 };
      const usd = Math.abs(p.szi) * (marks.get(p.coin) ?? p.entryPx);
      if (p.szi > 0) {
        c.longs++;
        c.longUsd += usd;
      } else {
        c.shorts++;
        c.shortUsd += usd;
      }
      byCoin.set(p.coin, c);
    }
  }
  return [...byCoin].map(([coin, c]) => {
    const holders = c.longs + c.shorts;
    const netUsd = c.longUsd - c.shortUsd;
    let lean: Lean;
    let reason: string;
    if (holders < MIN_WHALES) {
      lean = 'NEUTRAL';
      reason = `held by ${holders} read whale${holders === 1 ? '' : 's'}, fewer than ${MIN_WHALES}`;
    } else if (c.longs / holders >= CONSENSUS_SHARE && netUsd > 0) {
      lean = 'BULLISH';
      reason = `${c.longs} of ${holders} holders long, net long ${usd(netUsd)}`;
    } else if (c.shorts / holders >= CONSENSUS_SHARE && netUsd < 0) {
      lean = 'BEARISH';
      reason = `${c.shorts} of ${holders} holders short, net short ${usd(-netUsd)}`;
    } else {
      lean = 'MIXED';
      reason = `${c.longs} long and ${c.shorts} short, net ${netUsd >= 0 ? 'long' : 'short'} ${usd(Math.abs(netUsd))}`;
    }
    return { coin, lean, holders, ...c, netUsd, reason };
  }).sort((a, b) => Math.abs(b.netUsd) - Math.abs(a.netUsd));
}

export function fundingLeg(assets: readonly PerpAssetContext[], leans: readonly CoinLean[]): FundingLeg {
  const rates = assets.map((a) => {
    const annualizedPct = round(a.funding * 24 * 365 * 100, 2);
    return {
      coin: a.coin, hourly: a.funding, annualizedPct, premium: a.premium, payer: a.funding > 0 ? 'longs' as const : a.funding < 0 ? 'shorts' as const : 'none' as const,
      // The venue's own mark, its move since the previous day's price, and open interest at the mark.
      markPx: a.markPx, dayChangePct: a.prevDayPx > 0 ? round((a.markPx / a.prevDayPx - 1) * 100, 2) : null,
      openInterestUsd: round(a.openInterest * a.markPx, 2), dayVolumeUsd: round(a.dayNotionalVolume, 2),
    };
  });
  const paying = rates.filter((r) => r.payer === 'longs').length / Math.max(1, rates.length);
  const marketRegime = paying >= CONSENSUS_SHARE ? 'longs-paying' : paying <= 1 - CONSENSUS_SHARE ? 'shorts-paying' : 'mixed';
  const extremes = rates.filter((r) => Math.abs(r.annualizedPct) >= FUNDING_EXTREME_PCT).map((r) => ({ coin: r.coin, annualizedPct: r.annualizedPct }));
  const divergences = leans.flatMap((l): FundingLeg['divergences'][number][] => {
    const rate = rates.find((r) => r.coin === l.coin);
    if (!rate) return [];
    if (l.lean === 'BULLISH' && rate.payer === 'shorts') return [{ coin: l.coin, whales: l.lean, annualizedPct: rate.annualizedPct, note: 'whales long while shorts pay the funding: the crowd leans the other way' }];
    if (l.lean === 'BEARISH' && rate.payer === 'longs') return [{ coin: l.coin, whales: l.lean, annualizedPct: rate.annualizedPct, note: 'whales short while longs pay the funding: the crowd leans the other way' }];
    return [];
  });
  const opportunities = extremes.map((e) => ({
    coin: e.coin, side: e.annualizedPct > 0 ? 'short' as const : 'long' as const, annualizedPct: Math.abs(e.annualizedPct),
    note: `the ${e.annualizedPct > 0 ? 'short' : 'long'} side is paid ${Math.abs(e.annualizedPct)}%/yr at the current rate (carry, before price risk)`,
  }));
  return { available: rates.length > 0, rates, marketRegime, extremes, divergences, opportunities };
}

/**
 * What the venue said, read once for the largest request (a free tool's snapshot holds it): the
 * candidates walked in order (each a whale or a market maker set apart), the whales' account
 * reads, and the asset contexts. Plain data, so it can be stored and reported for any smaller limit.
 */
export interface WhaleReads {
  readonly walked: readonly { readonly row: PerpLeaderRow; readonly marketMaker: boolean }[];
  readonly reads: readonly PerpAccountRead[];
  readonly assets: readonly PerpAssetContext[];
  readonly fetchedAt: { readonly whales: string; readonly funding: string };
}

/** Best month first, each busy account's fills read, until `max` whales (read or not) are found; then each whale's account. */
export async function readWhales(source: PerpSource, max: number): Promise<WhaleReads> {
  const [board, assets] = await Promise.all([source.leaderboard(), source.assets()]);
  const funding = new Date().toISOString();
  const walked: { row: PerpLeaderRow; marketMaker: boolean }[] = [];
  const unreadFills: PerpAccountRead[] = [];
  for (const candidate of whaleCandidates(board)) {
    if (walked.filter((w) => !w.marketMaker).length >= max) break;
    if (turnsLikeAMaker(candidate)) {
      const fills = await source.fills(candidate.user);
      if (!fills.readable) unreadFills.push({ user: candidate.user, readable: false, reason: `its fills (needed to tell a market maker from a whale): ${fills.reason}` });
      else if (makerShare(fills.fills) >= MAKER_SHARE) {
        walked.push({ row: candidate, marketMaker: true });
        continue;
      }
    }
    walked.push({ row: candidate, marketMaker: false });
  }
  const whales = walked.filter((w) => !w.marketMaker && !unreadFills.some((u) => u.user === w.row.user));
  const reads = [...(await readEach(whales, (w) => source.account(w.row.user))), ...unreadFills];
  return { walked, reads, assets, fetchedAt: { whales: new Date().toISOString(), funding } };
}

/** The whales and funding legs over the first `limit` whales of what was read. */
export function whalesReport(read: WhaleReads, limit: number): { whales: WhalesLeg; funding: FundingLeg; fetchedAt: { whales: string; funding: string } } {
  const whales: PerpLeaderRow[] = [];
  let marketMakers = 0;
  for (const w of read.walked) {
    if (whales.length >= limit) break;
    if (w.marketMaker) marketMakers++;
    else whales.push(w.row);
  }
  const reads = whales.map((w) => read.reads.find((r) => r.user === w.user)!);
  const marks = new Map(read.assets.map((a) => [a.coin, a.markPx]));
  const leans = coinLeans(reads, marks);
  const bullishAssets = leans.filter((l) => l.lean === 'BULLISH').map((l) => l.coin);
  const bearishAssets = leans.filter((l) => l.lean === 'BEARISH').map((l) => l.coin);
  const consensus: Lean = !bullishAssets.length && !bearishAssets.length ? 'NEUTRAL' : bullishAssets.length > bearishAssets.length ? 'BULLISH' : bearishAssets.length > bullishAssets.length ? 'BEARISH' : 'MIXED';
  const readable = reads.filter((r): r is Extract<PerpAccountRead, { readable: true }> => r.readable);
  return {
    whales: {
      available: readable.length > 0,
      consensus, bullishAssets, bearishAssets, assets: leans,
      tradersRequested: limit, tradersAnalyzed: readable.length,
      unreadTraders: reads.filter((r): r is Extract<PerpAccountRead, { readable: false }> => !r.readable).map((r) => ({ address: r.user, reason: r.reason })),
      marketMakersExcluded: marketMakers,
      topTraders: whales.map((w) => ({ address: w.user, accountValueUsd: round(w.accountValue, 2), monthPnlUsd: round(w.windows.month.pnl, 2), monthRoi: round(w.windows.month.roi, 4), openPositions: readable.find((r) => r.user === w.user)?.positions.length ?? 0 })),
      whalePositions: readable.flatMap((r) => r.positions.map((p) => ({
        address: r.user, coin: p.coin, side: p.szi > 0 ? 'long' as const : 'short' as const, size: Math.abs(p.szi), notionalUsd: round(Math.abs(p.szi) * (marks.get(p.coin) ?? p.entryPx), 2),
        entryPx: p.entryPx, leverage: p.leverage, unrealizedPnlUsd: round(p.unrealizedPnl, 2), liquidationPx: p.liquidationPx, fundingSinceOpenUsd: round(p.fundingSinceOpen, 2),
      }))).sort((a, b) => b.notionalUsd - a.notionalUsd),
    },
    funding: fundingLeg(read.assets, leans),
    fetchedAt: read.fetchedAt,
  };
}

/** Both legs for `limit` whales, read now. */
export async function perpWhales(source: PerpSource, limit: number) {
  return whalesReport(await readWhales(source, limit), limit);
}

const usd = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`;
