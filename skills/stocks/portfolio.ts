/**
 * The portfolio board: a proposal of stock-token weights for an objective written in plain words
 * ("tech exposure, low drawdown"). The intent is read for sectors, tickers and a risk stance; each
 * underlying it admits is held through its best wrapper (the genuine token with the smallest
 * premium and enough liquidity, from an issuer with no shortfall or multiplier lag, not paused);
 * weights are equal, or inverse to volatility for a cautious stance, capped; volatility, drawdown
 * and correlation come from the underlyings' feeds resampled hourly in session. A proposal only:
 * nothing is bought, and no transaction is built.
 */
import { EQUITIES, SECTORS, type Sector } from '../../lib/equities.js';
import { inSession } from '../../lib/market-hours.js';
import { round } from '../data/market.js';
import { priceAt, type FeedRound } from './history.js';
import type { ListedStock } from './stock-market.js';
import type { TrustFlag } from './trust.js';

/** A wrapper is held only with at least this liquidity and at most this premium (percent, either way). */
export const PORTFOLIO_MIN_LIQUIDITY_USD = 25_000;
export const PORTFOLIO_MAX_PREMIUM_PCT = 2;
/** No underlying takes more than this share of the proposal. */
export const PORTFOLIO_MAX_WEIGHT = 0.35;
/** Session hours in a year: 24 a day, 5 days a week. */
const SESSION_HOURS_PER_YEAR = 24 * 5 * 52;

const SECTOR_WORDS: Readonly<Record<Sector, readonly string[]>> = {
  tech: ['tech', 'technology', 'software', 'ai', 'semiconductor', 'semiconductors', 'chips', 'cloud', 'internet'],
  consumer: ['consumer', 'retail', 'ev', 'electric', 'ecommerce', 'e-commerce', 'cars', 'automotive'],
  finance: ['finance', 'financial', 'financials', 'bank', 'banks', 'banking', 'brokerage', 'exchange', 'crypto'],
  energy: ['energy', 'oil', 'gas', 'commodities'],
  health: ['health', 'healthcare', 'pharma', 'pharmaceutical', 'medical', 'biotech', 'defensive'],
  index: ['index', 'broad', 'market', 'diversified', 's&p', 'sp500', 'spy', 'etf'],
};
const CAUTIOUS = ['low', 'drawdown', 'conservative', 'defensive', 'safe', 'safer', 'stable', 'volatility', 'cautious', 'preserve', 'income', 'dividend', 'dividends'];
const BOLD = ['aggressive', 'growth', 'high-risk', 'risky', 'momentum', 'upside', 'leveraged', 'bold'];

export interface ReadIntent {
  readonly sectors: Sector[];
  readonly tickers: string[];
  readonly stance: 'cautious' | 'balanced' | 'bold';
  /** Sectors and tickers the intent named nothing of: every one is admitted. */
  readonly broad: boolean;
}

export function readIntent(intent: string | undefined): ReadIntent {
  const words = (intent ?? '').toLowerCase().split(/[^a-z0-9&+-]+/).filter(Boolean);
  const tickers = Object.keys(EQUITIES).filter((t) => words.includes(t.toLowerCase()));
  const sectors = SECTORS.filter((s) => SECTOR_WORDS[s].some((w) => words.includes(w)));
  const cautious = words.some((w) => CAUTIOUS.includes(w));
  const bold = words.some((w) => BOLD.includes(w));
  return { sectors, tickers, stance: cautious && !bold ? 'cautious' : bold && !cautious ? 'bold' : 'balanced', broad: !sectors.length && !tickers.length };
}

/** Hourly in-session log returns of an underlying over its feed's history. */
export function hourlyReturns(rounds: readonly FeedRound[], until: number): Map<number, number> {
  const out = new Map<number, number>();
  if (rounds.length < 2) return out;
  const start = Math.ceil(rounds[0]!.updatedAt / 3600) * 3600;
  let last: number | null = null;
  for (let t = start; t <= until; t += 3600) {
    if (!inSession(t)) continue;
    const p = priceAt(rounds, t);
    if (p !== null && last !== null) out.set(t, Math.log(p / last));
    last = p ?? last;
  }
  return out;
}

const stdev = (xs: readonly number[]) => {
  if (xs.length < 2) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
};

function maxDrawdown(returns: readonly number[]): number {
  let level = 0;
  let peak = 0;
  let worst = 0;
  for (const r of returns) {
    level += r;
    peak = Math.max(peak, level);
    worst = Math.min(worst, level - peak);
  }
  return (1 - Math.exp(worst)) * 100;
}

export interface Holding {
  readonly underlying: string;
  readonly company: string;
  readonly sector: Sector;
  readonly weightPct: number;
  readonly chain: string;
  readonly token: string;
  readonly symbol: string;
  readonly issuer: string;
  readonly premiumPct: number;
  readonly liquidityUsd: number;
  readonly volatilityPct: number | null;
  readonly maxDrawdownPct: number | null;
}

export interface Proposal {
  readonly intent: ReadIntent;
  readonly holdings: Holding[];
  readonly excluded: { readonly chain: string; readonly token: string; readonly symbol: string; readonly reason: string }[];
  /** Annualised, from the hourly covariance of the holdings' underlyings; null with too little history. */
  readonly volatilityPct: number | null;
  readonly maxDrawdownPct: number | null;
  readonly weighting: string;
}

export function proposePortfolio(intentText: string | undefined, stocks: readonly ListedStock[], flags: ReadonlyMap<string, readonly TrustFlag[]>, rounds: ReadonlyMap<string, readonly FeedRound[]>, now: number): Proposal {
  const intent = readIntent(intentText);
  const admitted = (u: string) => intent.broad || intent.tickers.includes(u) || (EQUITIES[u] !== undefined && intent.sectors.includes(EQUITIES[u]!.sector));
  const excluded: Proposal['excluded'][number][] = [];
  const best = new Map<string, ListedStock>();
  for (const s of stocks) {
    if (!admitted(s.underlying) || !EQUITIES[s.underlying]) continue;
    const reason = !s.fair ? 'no price or no feed'
      : s.paused ? 'paused by its issuer'
      : (flags.get(s.address.toLowerCase()) ?? []).find((f) => f === 'under-reserved' || f === 'multiplier-lag')
      ?? (s.liquidityUsd < PORTFOLIO_MIN_LIQUIDITY_USD ? `liquidity under $${PORTFOLIO_MIN_LIQUIDITY_USD.toLocaleString('en-US')}`
        : Math.abs(s.fair.premiumPct) > PORTFOLIO_MAX_PREMIUM_PCT ? `premium ${round(s.fair.premiumPct, 2)}% beyond ±${PORTFOLIO_MAX_PREMIUM_PCT}%` : null);
    if (reason) { excluded.push({ chain: s.chain, token: s.address, symbol: s.symbol, reason }); continue; }
    const held = best.get(s.underlying);
    const cost = (x: ListedStock) => Math.abs(x.fair!.premiumPct) - Math.log10(x.liquidityUsd);
    if (!held || cost(s) < cost(held)) best.set(s.underlying, s);
  }
  const returns = new Map([...best.keys()].map((u) => [u, hourlyReturns(rounds.get(u) ?? [], now)]));
  const vol = (u: string) => {
    const sd = stdev([...returns.get(u)!.values()]);
    return sd === null ? null : sd * Math.sqrt(SESSION_HOURS_PER_YEAR);
  };
  const chosen = [...best.keys()];
  const raw = chosen.map((u) => (intent.stance === 'cautious' ? 1 / (vol(u) ?? 1) : 1));
  const weights = capWeights(raw.map((w) => w / raw.reduce((a, b) => a + b, 0)), PORTFOLIO_MAX_WEIGHT);
  const holdings: Holding[] = chosen.map((u, i) => {
    const s = best.get(u)!;
    const r = [...returns.get(u)!.values()];
    const v = vol(u);
    return {
      underlying: u, company: EQUITIES[u]!.name, sector: EQUITIES[u]!.sector, weightPct: round(weights[i]! * 100, 2),
      chain: s.chain, token: s.address, symbol: s.symbol, issuer: s.issuer.name, premiumPct: round(s.fair!.premiumPct, 3), liquidityUsd: s.liquidityUsd,
      volatilityPct: v === null ? null : round(v * 100, 2), maxDrawdownPct: r.length ? round(maxDrawdown(r), 2) : null,
    };
  }).sort((a, b) => b.weightPct - a.weightPct);
  // The portfolio's own hourly returns, over the hours every holding has one.
  const hours = chosen.length ? [...returns.get(chosen[0]!)!.keys()].filter((t) => chosen.every((u) => returns.get(u)!.has(t))) : [];
  const series = hours.map((t) => chosen.reduce((sum, u, i) => sum + weights[i]! * returns.get(u)!.get(t)!, 0));
  const sd = stdev(series);
  return {
    intent, holdings, excluded,
    volatilityPct: sd === null ? null : round(sd * Math.sqrt(SESSION_HOURS_PER_YEAR) * 100, 2),
    maxDrawdownPct: series.length ? round(maxDrawdown(series), 2) : null,
    weighting: intent.stance === 'cautious' ? `inverse volatility, capped at ${PORTFOLIO_MAX_WEIGHT * 100}% each` : `equal, capped at ${PORTFOLIO_MAX_WEIGHT * 100}% each`,
  };
}

/** Weights summing to 1 with none above `cap` (the excess spread over the others in proportion), when that is possible. */
export function capWeights(weights: readonly number[], cap: number): number[] {
  const w = [...weights];
  if (w.length * cap < 1) return w;
  for (let pass = 0; pass < w.length; pass++) {
    const over = w.reduce((s, x) => s + Math.max(0, x - cap), 0);
    if (over <= 1e-12) break;
    const free = w.reduce((s, x) => s + (x < cap ? x : 0), 0);
    for (let i = 0; i < w.length; i++) w[i] = w[i]! >= cap ? cap : w[i]! + (over * w[i]!) / free;
  }
  return w;
}
