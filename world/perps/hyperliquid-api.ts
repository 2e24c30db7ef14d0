/**
 * The embedded perp venue answering Hyperliquid's `POST /info` in its documented shapes (numbers
 * as strings, times in milliseconds): metaAndAssetCtxs, clearinghouseState, userFills (the 2,000
 * most recent), fundingHistory, l2Book and candleSnapshot, standing at the plan's hour for `now`.
 * An account the venue fails to read answers 500, as a real node does under load. Beside it, the
 * leaderboard Hyperliquid's web page reads (`GET stats-data…/Mainnet/leaderboard`): every account
 * with its value and each window's PnL, ROI and volume, which whale trackers seed from.
 */
import type { VenueAnswer } from '../prediction/venue.js';
import { PERP_COINS, coinSpec, liquidationPx, maintenanceRate, type PerpAccount, type PerpCoin, type PerpHour, type PerpPlan } from './plan.js';

/** Hyperliquid returns at most this many fills per userFills call. */
export const USER_FILLS_LIMIT = 2_000;
/** fundingHistory and candleSnapshot answer at most this many rows a call. */
const ROWS_LIMIT = 500;
const INTERVALS: Readonly<Record<string, number>> = { '1h': 3_600, '4h': 14_400, '1d': 86_400 };
const BOOK_LEVELS = 20;
/** The leaderboard's windows and their length in hours (allTime: the whole plan). */
const LEADERBOARD_WINDOWS = [['day', 24], ['week', 168], ['month', 720], ['allTime', Number.MAX_SAFE_INTEGER]] as const;

/** Numbers as strings, as Hyperliquid sends them. */
const s = (x: number, digits = 10) => String(Number(x.toPrecision(digits)));
const bad = (error: string): VenueAnswer => ({ status: 422, body: error });

export class HyperliquidVenue {
  constructor(private readonly plan: PerpPlan) {}

  /** One `/info` request body at `now` (unix seconds). */
  handle(body: unknown, now: number): VenueAnswer {
    if (!body || typeof body !== 'object' || typeof (body as { type?: unknown }).type !== 'string') return bad('Failed to deserialize the JSON body into the target type');
    const req = body as Record<string, unknown> & { type: string };
    const state = this.plan.through(now);
    const coinOf = (v: unknown): PerpCoin | null => (PERP_COINS.some((c) => c.name === v) ? (v as PerpCoin) : null);
    const hoursOf = (coin: PerpCoin) => state.hours.get(coin)!;
    switch (req.type) {
      case 'meta':
        return { status: 200, body: { universe: PERP_COINS.map((c) => ({ name: c.name, szDecimals: c.szDecimals, maxLeverage: c.maxLeverage })) } };
      case 'metaAndAssetCtxs':
        return {
          status: 200,
          body: [
            { universe: PERP_COINS.map((c) => ({ name: c.name, szDecimals: c.szDecimals, maxLeverage: c.maxLeverage })) },
            PERP_COINS.map((c) => assetCtx(hoursOf(c.name), state.accounts)),
          ],
        };
      case 'clearinghouseState': {
        const account = this.account(req.user, state.accounts);
        if (account === 'invalid') return bad('user must be a 42-character hex address');
        if (account?.unreadable) return { status: 500, body: 'internal error reading user state' };
        return { status: 200, body: clearinghouse(account, hoursOf, now) };
      }
      case 'userFills': {
        const account = this.account(req.user, state.accounts);
        if (account === 'invalid') return bad('user must be a 42-character hex address');
        if (account?.unreadable) return { status: 500, body: 'internal error reading user fills' };
        const fills = (account?.fills ?? []).filter((f) => f.time <= now).slice(-USER_FILLS_LIMIT).reverse();
        return {
          status: 200,
          body: fills.map((f, i) => ({
            coin: f.coin, px: s(f.px), sz: s(f.sz), side: f.side, time: f.time * 1000, startPosition: s(f.startPosition), dir: f.dir,
            closedPnl: s(f.closedPnl), hash: `0x${(f.time * 1000 + i).toString(16).padStart(64, '0')}`, oid: f.time * 10 + i, crossed: f.crossed, fee: s(f.fee), tid: f.time * 100 + i, feeToken: 'USDC',
          })),
        };
      }
      case 'fundingHistory': {
        const coin = coinOf(req.coin);
        if (!coin) return bad(`unknown coin ${String(req.coin)}`);
        const start = Number(req.startTime) / 1000;
        const end = req.endTime === undefined ? now : Number(req.endTime) / 1000;
        if (!Number.isFinite(start)) return bad('startTime must be milliseconds');
        const rows = hoursOf(coin).filter((h) => h.time >= start && h.time <= end).slice(0, ROWS_LIMIT);
        return { status: 200, body: rows.map((h) => ({ coin, fundingRate: s(h.fundingRate, 8), premium: s(h.premium, 8), time: h.time * 1000 })) };
      }
      case 'l2Book': {
        const coin = coinOf(req.coin);
        if (!coin) return { status: 200, body: null };
        const hour = hoursOf(coin).at(-1)!;
        const depth = Math.max(50_000, hour.volumeUsd / 24);
        const level = (i: number, side: 1 | -1) => ({ px: s(hour.markPx * (1 + side * 0.0001 * (i + 1))), sz: s((depth / hour.markPx) * (1 + i * 0.15)), n: 1 + (i % 7) });
        return { status: 200, body: { coin, time: hour.time * 1000, levels: [Array.from({ length: BOOK_LEVELS }, (_, i) => level(i, -1)), Array.from({ length: BOOK_LEVELS }, (_, i) => level(i, 1))] } };
      }
      case 'candleSnapshot': {
        const r = (req.req ?? {}) as { coin?: unknown; interval?: unknown; startTime?: unknown; endTime?: unknown };
        const coin = coinOf(r.coin);
        const step = INTERVALS[String(r.interval)];
        if (!coin) return bad(`unknown coin ${String(r.coin)}`);
        if (!step) return bad(`interval must be one of ${Object.keys(INTERVALS).join(', ')}`);
        const start = Number(r.startTime) / 1000;
        const end = r.endTime === undefined ? now : Number(r.endTime) / 1000;
        const buckets = new Map<number, PerpHour[]>();
        for (const h of hoursOf(coin)) if (h.time >= start && h.time <= end) buckets.set(h.time - (h.time % step), [...(buckets.get(h.time - (h.time % step)) ?? []), h]);
        const candles = [...buckets].slice(-ROWS_LIMIT).map(([t, hs]) => ({
          t: t * 1000, T: (t + step) * 1000 - 1, s: coin, i: String(r.interval), o: s(hs[0]!.open), c: s(hs.at(-1)!.markPx),
          h: s(Math.max(...hs.map((h) => h.high))), l: s(Math.min(...hs.map((h) => h.low))), v: s(hs.reduce((a, h) => a + h.volumeUsd / h.markPx, 0)), n: hs.reduce((a, h) => a + h.trades, 0),
        }));
        return { status: 200, body: candles };
      }
      default:
        return bad(`unknown info type ${req.type}`);
    }
  }

  /** The leaderboard at `now`: `{leaderboardRows: [{ethAddress, accountValue, windowPerformances, prize, displayName}]}`. */
  leaderboard(now: number): VenueAnswer {
    const state = this.plan.through(now);
    const rows = state.accounts.map((a) => {
      const windows = LEADERBOARD_WINDOWS.map(([name, hours]) => {
        const from = Math.max(0, a.equity.length - 1 - hours);
        const since = state.start + from * 3_600;
        const base = a.equity[from]!;
        const pnl = a.equity.at(-1)! - base;
        const vlm = a.fills.filter((f) => f.time > since).reduce((v, f) => v + f.sz * f.px, 0);
        return [name, { pnl: s(pnl), roi: s(base > 0 ? pnl / base : 0), vlm: s(vlm) }] as const;
      });
      return { ethAddress: a.user, accountValue: s(a.equity.at(-1)!), windowPerformances: windows, prize: 0, displayName: null };
    });
    return { status: 200, body: { leaderboardRows: rows } };
  }

  private account(user: unknown, accounts: readonly PerpAccount[]): PerpAccount | undefined | 'invalid' {
    if (typeof user !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(user)) return 'invalid';
    return accounts.find((a) => a.user === user.toLowerCase());
  }
}

/** The coin's context at its last hour: open interest from the positions open then, the day's volume and previous price. */
function assetCtx(hours: readonly PerpHour[], accounts: readonly PerpAccount[]) {
  const hour = hours.at(-1)!;
  const day = hours.slice(-24);
  const openInterest = accounts.reduce((sum, a) => sum + (a.position?.coin === hour.coin && a.position.szi > 0 ? a.position.szi : 0), 0);
  return {
    funding: s(hour.fundingRate, 8), openInterest: s(openInterest), prevDayPx: s(day[0]!.markPx), dayNtlVlm: s(day.reduce((a, h) => a + h.volumeUsd, 0)),
    premium: s(hour.premium, 8), oraclePx: s(hour.oraclePx), markPx: s(hour.markPx), midPx: s(hour.markPx),
  };
}

/** An account's margin summary and position at the plan's hour (an unknown account is an empty one, as on Hyperliquid). */
function clearinghouse(account: PerpAccount | undefined, hoursOf: (coin: PerpCoin) => readonly PerpHour[], now: number) {
  const pos = account?.position ?? null;
  const mark = pos ? hoursOf(pos.coin).at(-1)!.markPx : 0;
  const unrealized = pos ? pos.szi * (mark - pos.entryPx) : 0;
  const value = (account?.balance ?? 0) + unrealized;
  const notional = pos ? Math.abs(pos.szi) * mark : 0;
  const marginUsed = pos ? notional / pos.leverage : 0;
  const summary = { accountValue: s(value), totalNtlPos: s(notional), totalRawUsd: s(value - (pos ? pos.szi * mark : 0)), totalMarginUsed: s(marginUsed) };
  const liq = pos ? liquidationPx(account!.balance, pos) : null;
  return {
    marginSummary: summary,
    crossMarginSummary: summary,
    crossMaintenanceMarginUsed: s(pos ? notional * maintenanceRate(pos.coin) : 0),
    withdrawable: s(Math.max(0, value - marginUsed)),
    assetPositions: pos
      ? [{
          type: 'oneWay',
          position: {
            coin: pos.coin, szi: s(pos.szi), leverage: { type: 'cross', value: pos.leverage }, entryPx: s(pos.entryPx), positionValue: s(notional),
            unrealizedPnl: s(unrealized), returnOnEquity: s(unrealized / (Math.abs(pos.szi) * pos.entryPx / pos.leverage)), liquidationPx: liq === null ? null : s(liq),
            marginUsed: s(marginUsed), maxLeverage: coinSpec(pos.coin).maxLeverage,
            cumFunding: { allTime: s(pos.cumFunding), sinceOpen: s(pos.cumFunding), sinceChange: s(pos.cumFunding) },
          },
        }]
      : [],
    time: now * 1000,
  };
}
