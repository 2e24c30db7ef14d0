/**
 * Prediction-market "yield": a side that all but settled, bought near $1 shortly before the close
 * and held to resolution. Lists the open markets where a side's ask is 0.95-0.99 with under 48 h
 * left, as an annualised yield, with what could still go wrong; and the recent trades at or above
 * the price floor, with the wallets that buy them.
 */
import { round } from '../data/market.js';
import { closesAt, hoursUntil, isOpen, isPriceQuestion, iso, readEvents, unix, type JoinedMarket, type VenueName } from './markets.js';
import type { GammaMarket, KalshiMarket, PredictionSource } from './source.js';

const HOUR = 3_600;
/** A side is near certain at an ask in this range (at 0.99 and above nothing is left to earn). */
export const YIELD_PRICES = { min: 0.95, max: 0.99 } as const;
/** ... with less than this left to the close. */
export const YIELD_MAX_HOURS = 48;
/** Trades listed: at or above this price, at least this much USD, over this many hours. */
export const PRICE_FLOOR = 0.95;
export const MIN_COLLATERAL_USD = 100;
export const LOOKBACK_HOURS = 24;
/** Rows a snapshot keeps per list (the tool cuts to the caller's limit). */
const KEPT = 200;
const TRADES_READ = 10_000;

export const YIELDS_METHODOLOGY = `prediction-yields/v1: positions = each side of each open market on either venue whose ask (Polymarket: Gamma best ask of yes, 1 − best bid for no; Kalshi: yes_ask / no_ask) is ${YIELD_PRICES.min}-${YIELD_PRICES.max} with under ${YIELD_MAX_HOURS} h to its close; return = 1/p − 1 to resolution, annualised = (1/p − 1) × 365 / days left (simple, before fees; it assumes the like can be bought again), the highest first; risk = what settles it (a published price or a reported result), the other venue's rule where the event is listed on both, and the time left. trades = Polymarket Data API trades of the last ${LOOKBACK_HOURS} h at ${PRICE_FLOOR} or more and $${MIN_COLLATERAL_USD} or more (price × shares), in the markets open or closed within that window (the Kalshi adapter reads no trades); collateralUsd = price × shares, spreadUsd = (1 − price) × shares, what the side pays over its cost if it wins; wallets = those trades by buyer`;

export interface YieldPosition {
  readonly question: string;
  readonly venue: VenueName;
  readonly market: string;
  readonly side: 'yes' | 'no';
  readonly price: number;
  readonly closesAt: string;
  readonly hoursToClose: number;
  readonly returnPct: number;
  readonly annualisedYieldPct: number;
  readonly settlesOn: 'published price' | 'reported result';
  readonly risk: string;
}

export interface NearCertainTrade {
  readonly question: string;
  readonly market: string;
  readonly wallet: string;
  readonly side: string;
  readonly price: number;
  readonly shares: number;
  readonly collateralUsd: number;
  readonly spreadUsd: number;
  readonly time: string;
  readonly hoursBeforeClose: number;
  readonly transactionHash: string;
}

export interface NearCertainWallet {
  readonly wallet: string;
  readonly trades: number;
  readonly markets: number;
  readonly collateralUsd: number;
  readonly spreadUsd: number;
}

export interface PredictionYields {
  readonly positions: YieldPosition[];
  readonly trades: NearCertainTrade[];
  readonly wallets: NearCertainWallet[];
  readonly totals: { readonly trades: number; readonly collateralUsd: number; readonly spreadUsd: number };
  readonly priceFloor: number;
  readonly minCollateralUsd: number;
  readonly lookbackHours: number;
}

export async function predictionYields(source: PredictionSource, now: number, signal?: AbortSignal): Promise<PredictionYields> {
  const { polymarket, events } = await readEvents(source, signal);
  const positions = events.flatMap((e) => positionsOf(e, now)).sort((a, b) => b.annualisedYieldPct - a.annualisedYieldPct);
  const since = now - LOOKBACK_HOURS * HOUR;
  const recent = polymarket.filter((m) => isOpen(m, now) || (closesAt(m) > since && closesAt(m) <= now));
  const trades = (await Promise.all(recent.map(async (m) => (await source.polymarket.trades(m.conditionId, TRADES_READ, signal))
    .filter((t) => t.timestamp > since && t.timestamp <= now && t.price >= PRICE_FLOOR && t.price * t.size >= MIN_COLLATERAL_USD)
    .map((t) => ({
      question: m.question, market: m.id, wallet: t.proxyWallet, side: t.outcome.toLowerCase(), price: t.price, shares: round(t.size, 2),
      collateralUsd: round(t.price * t.size, 2), spreadUsd: round((1 - t.price) * t.size, 2), time: iso(t.timestamp),
      hoursBeforeClose: hoursUntil(closesAt(m), t.timestamp), transactionHash: t.transactionHash,
    }))))).flat().sort((a, b) => unix(b.time) - unix(a.time));
  const byWallet = new Map<string, { trades: number; markets: Set<string>; collateralUsd: number; spreadUsd: number }>();
  for (const t of trades) {
    const w = byWallet.get(t.wallet) ?? { trades: 0, markets: new Set(), collateralUsd: 0, spreadUsd: 0 };
    byWallet.set(t.wallet, { trades: w.trades + 1, markets: w.markets.add(t.market), collateralUsd: w.collateralUsd + t.collateralUsd, spreadUsd: w.spreadUsd + t.spreadUsd });
  }
  const wallets = [...byWallet].map(([wallet, w]) => ({ wallet, trades: w.trades, markets: w.markets.size, collateralUsd: round(w.collateralUsd, 2), spreadUsd: round(w.spreadUsd, 2) }))
    .sort((a, b) => b.collateralUsd - a.collateralUsd);
  return {
    positions: positions.slice(0, KEPT), trades: trades.slice(0, KEPT), wallets: wallets.slice(0, KEPT),
    totals: { trades: trades.length, collateralUsd: round(trades.reduce((s, t) => s + t.collateralUsd, 0), 2), spreadUsd: round(trades.reduce((s, t) => s + t.spreadUsd, 0), 2) },
    priceFloor: PRICE_FLOOR, minCollateralUsd: MIN_COLLATERAL_USD, lookbackHours: LOOKBACK_HOURS,
  };
}

function positionsOf(e: JoinedMarket, now: number): YieldPosition[] {
  const asks: { venue: VenueName; m: GammaMarket | KalshiMarket; market: string; yes: number | null; no: number | null }[] = [];
  if (e.polymarket && isOpen(e.polymarket, now)) {
    const pm = e.polymarket;
    asks.push({ venue: 'polymarket', m: pm, market: pm.id, yes: pm.bestAsk, no: pm.bestBid === null ? null : round(1 - pm.bestBid, 4) });
  }
  if (e.kalshi && isOpen(e.kalshi, now)) asks.push({ venue: 'kalshi', m: e.kalshi, market: e.kalshi.ticker, yes: e.kalshi.yesAsk, no: e.kalshi.noAsk });
  return asks.flatMap((a) => {
    const close = closesAt(a.m);
    const hours = (close - now) / HOUR;
    if (hours <= 0 || hours >= YIELD_MAX_HOURS) return [];
    return (['yes', 'no'] as const).flatMap((side) => {
      const p = a[side];
      if (p === null || p < YIELD_PRICES.min - 1e-9 || p > YIELD_PRICES.max + 1e-9) return [];
      const gain = 1 / p - 1;
      const settlesOn = isPriceQuestion(e.question) ? 'published price' as const : 'reported result' as const;
      return [{
        question: e.question, venue: a.venue, market: a.market, side, price: p, closesAt: iso(close), hoursToClose: hoursUntil(close, now),
        returnPct: round(gain * 100, 3), annualisedYieldPct: round((gain * 365 * 24 / hours) * 100, 1), settlesOn,
        risk: riskOf(e, settlesOn, side, p, hours),
      }];
    });
  });
}

function riskOf(e: JoinedMarket, settlesOn: YieldPosition['settlesOn'], side: 'yes' | 'no', p: number, hours: number): string {
  const what = settlesOn === 'published price'
    ? 'settles on a published price: a move in the asset before the close, or the source and minute the venue reads, can flip it'
    : 'settles on a reported result (a vote, a match, a release): an upset, a late change or a disputed report can flip it';
  const rule = e.polymarket && e.kalshi ? `; listed on both venues, and Kalshi's rule ${e.kalshi.subtitle ? `differs: it ${e.kalshi.subtitle}` : 'states no difference'}` : '';
  return `${what}${rule}; ${round(hours, 1)} h left; ${side} loses $${p} a share if it fails, against $${round(1 - p, 2)} if it wins`;
}
