/**
 * What the world's tokenized equities are, before any of it is on chain: the issuers (who lists
 * which underlyings on which chain, how honest each is), the stock chain's new listings, the
 * multiplier each corporate action calls for, a token's true fair value, and the rule its price
 * feed is posted by. Pure and deterministic per (seed, origin); world/modules/stocks.ts writes it.
 *
 * One raw token stands for `multiplier` shares (ERC-8056): a token listed at `listedAt` starts at
 * 1.0, a split multiplies it by its ratio and a dividend, reinvested, by 1 + dividend / ex-price,
 * each at its effective moment. Its true fair value is the underlying's price times that
 * multiplier; an issuer that applies an action late (lagging-multiplier) shows another on chain.
 */
import { STOCK_FEED_CHAIN } from '../../chain/stocks.js';
import type { EvmChainName } from '../../chain/chains.js';
import { inSession, lastClose, nextOpen } from '../../lib/market-hours.js';
import { Rng } from '../../lib/random.js';
import { UNDERLYINGS, type StockEvent, type StockPaths } from './underlyings.js';

export type IssuerStatus = 'honest' | 'under-reserved' | 'lagging-multiplier';
export type IssuerKey = 'hood' | 'onward' | 'xstock' | 'meridian';

export interface IssuerPlan {
  readonly key: IssuerKey;
  readonly name: string;
  readonly status: IssuerStatus;
  symbol(ticker: string): string;
  tokenName(ticker: string): string;
  /** Underlyings listed at the start, per chain. */
  readonly listings: Readonly<Partial<Record<EvmChainName, readonly string[]>>>;
  /** USDC on each side of a token's opening pool (times the underlying's weight). */
  readonly depthUsd: number;
}

const company = (ticker: string) => UNDERLYINGS[ticker]?.name ?? ticker;

/**
 * The issuers. On the stock chain one issuer in the style of Robinhood's stock tokens (plain
 * tickers, multiplier moved at each action's moment); on Ethereum, Base and Arbitrum wrappers of
 * the same underlyings in the styles of Ondo Global Markets (`…on`) and xStocks (`…x`), the latter
 * applying actions a day or two late, and a small issuer whose reserves fall short of its supply
 * and whose attestations stop. No issuer lists every underlying on every chain.
 */
export const ISSUERS: readonly IssuerPlan[] = [
  {
    key: 'hood', name: 'Stockchain Securities', status: 'honest', depthUsd: 1_000_000,
    symbol: (t) => t, tokenName: (t) => `${company(t)} Stock Token`,
    listings: { [STOCK_FEED_CHAIN]: ['SPY', 'AAPL', 'MSFT', 'NVDA', 'TSLA', 'AMZN', 'META', 'MSTR'] },
  },
  {
    key: 'onward', name: 'Onward Global Markets', status: 'honest', depthUsd: 450_000,
    symbol: (t) => `${t}on`, tokenName: (t) => `${company(t)} (Onward Tokenized Stock)`,
    listings: { ethereum: ['SPY', 'AAPL', 'NVDA', 'TSLA', 'MSFT'], arbitrum: ['SPY', 'AAPL', 'NVDA'], base: ['AAPL', 'TSLA'] },
  },
  {
    key: 'xstock', name: 'xStock Issuance', status: 'lagging-multiplier', depthUsd: 350_000,
    symbol: (t) => `${t}x`, tokenName: (t) => `${company(t)} xStock`,
    listings: { base: ['AAPL', 'NVDA', 'SPY', 'MSFT'], arbitrum: ['TSLA', 'MSTR', 'AAPL'], ethereum: ['NVDA', 'AAPL', 'META'] },
  },
  {
    key: 'meridian', name: 'Meridian Tokenized Equities', status: 'under-reserved', depthUsd: 150_000,
    symbol: (t) => `m${t}`, tokenName: (t) => `Meridian ${company(t)}`,
    listings: { ethereum: ['TSLA', 'COIN'], arbitrum: ['NVDA'] },
  },
];

/** The stock chain's issuer lists these later, one every few days, in this order. */
export const LATER_LISTINGS: readonly string[] = ['GOOGL', 'COIN', 'JPM', 'XOM', 'JNJ'];
const FIRST_LISTING_DAYS = [0.8, 1.6] as const;
const LISTING_GAP_DAYS = [2, 4] as const;
/** A new listing's hype: retail bids it above fair value and no creation closes that for a while. */
const HYPE_HOURS = [8, 18] as const;
const HYPE_PREMIUM = [0.03, 0.07] as const;

/** How deep a name's pools are, relative to its issuer's depth. */
export function depthWeight(ticker: string): number {
  if (ticker === 'SPY') return 1.5;
  if (ticker === 'AAPL' || ticker === 'NVDA' || ticker === 'TSLA') return 1.2;
  return 0.8;
}

/**
 * The impostor: on Arbitrum, a token copying the symbol and name of a genuine token of Base and
 * Ethereum (NVDAx), deployed by no registered issuer, with a pool of its own.
 */
export const IMPOSTOR = { chain: 'arbitrum' as EvmChainName, underlying: 'NVDA', copies: 'xstock' as IssuerKey, depthUsd: 40_000 };

/** The under-reserved issuer attests this share of its supply, and stops attesting this long into the history. */
export const UNDER_RESERVED_RATIO = [0.8, 0.92] as const;
export const UNDER_RESERVED_STOPS_AFTER_S = [30 * 3_600, 54 * 3_600] as const;
/** The lagging issuer applies each action this late (at least a day). */
export const MULTIPLIER_LAG_S = [26 * 3_600, 50 * 3_600] as const;
/** Honest issuers announce an action this long before it takes effect. */
export const ANNOUNCE_AHEAD_S = 24 * 3_600;

/** Uniform in [lo, hi). */
export const uniform = (rng: Rng, [lo, hi]: readonly [number, number]) => lo + rng.next() * (hi - lo);

export interface NewListing {
  readonly ticker: string;
  /** When the issuer lists it (in session). */
  readonly at: number;
  readonly hypeSeconds: number;
  readonly hypePremium: number;
}

/**
 * The stock chain issuer's later listings from `origin`: the first 0.8-1.6 days in (moved into the
 * session, always within three days of the origin, so any world of three days holds one and its
 * early buyers), then one every 2-4 days, each in session with its hype over by the close.
 */
export function laterListings(seed: string, origin: number): NewListing[] {
  const rng = new Rng(`${seed}:stocks:listings:${origin}`);
  const out: NewListing[] = [];
  let at = origin + uniform(rng, FIRST_LISTING_DAYS) * 86_400;
  for (const [i, ticker] of LATER_LISTINGS.entries()) {
    let t = Math.round(at);
    const closeAfter = (x: number) => lastClose(x) + 7 * 86_400;
    if (!inSession(t) || closeAfter(t) - t < 4 * 3_600) {
      // Listings come in session, hours before the close at least: the Friday before a weekend when
      // that is well into the history (so the first always falls within three days of the origin),
      // else the Monday after.
      const close = inSession(t) ? closeAfter(t) : lastClose(t);
      const friday = close - rng.int(4, 8) * 3_600;
      t = i === 0 && friday > origin + 0.3 * 86_400 ? friday : nextOpen(close) + rng.int(1, 6) * 3_600;
    }
    // The hype ends by the session's close (at least three hours of it), so no weekend holds one.
    const close = closeAfter(t);
    const hypeSeconds = Math.max(3 * 3_600, Math.min(Math.round(uniform(rng, HYPE_HOURS) * 3_600), close - t - 1_800));
    out.push({ ticker, at: t, hypeSeconds, hypePremium: uniform(rng, HYPE_PREMIUM) });
    at = t + uniform(rng, LISTING_GAP_DAYS) * 86_400;
  }
  return out;
}

// ---- multipliers and fair value ----------------------------------------------------------------

export const ONE = 10n ** 18n;

/** The actions that move a multiplier (splits and dividends) of `ticker` in (from, to]. */
export function multiplierEvents(paths: StockPaths, ticker: string, from: number, to: number): Extract<StockEvent, { kind: 'split' | 'dividend' }>[] {
  return paths.events(from + 1, to + 1, ticker).filter((e): e is Extract<StockEvent, { kind: 'split' | 'dividend' }> => e.kind === 'split' || e.kind === 'dividend');
}

/** What an action multiplies a multiplier by, 18 decimals: a split its ratio, a dividend reinvested at the ex-price. */
export function actionFactor(paths: StockPaths, e: Extract<StockEvent, { kind: 'split' | 'dividend' }>): bigint {
  if (e.kind === 'split') return BigInt(e.ratio) * ONE;
  return BigInt(Math.round((1 + e.usdPerShare / paths.priceUsd(e.symbol, e.at)) * 1e12)) * 1_000_000n;
}

export function applyFactor(multiplier: bigint, factor: bigint): bigint {
  return (multiplier * factor) / ONE;
}

/** The multiplier that should be in effect at `t` on a token of `ticker` listed at `listedAt` (18 decimals). */
export function trueMultiplier(paths: StockPaths, ticker: string, listedAt: number, t: number): bigint {
  return multiplierEvents(paths, ticker, listedAt, t).reduce((m, e) => applyFactor(m, actionFactor(paths, e)), ONE);
}

export const multiplierNumber = (m: bigint) => Number(m) / 1e18;

/** A token's true fair value in USD per whole raw token at `t`: the underlying's price times the multiplier that should be in effect. */
export function fairValueUsd(paths: StockPaths, ticker: string, listedAt: number, t: number): number {
  return paths.priceUsd(ticker, t) * multiplierNumber(trueMultiplier(paths, ticker, listedAt, t));
}

// ---- feeds ---------------------------------------------------------------------------------------

/**
 * A feed posts a new round when the underlying has moved more than this since its last answer.
 * The world posts in the very block it sees the move, so at every block the feed is within this
 * of the price (and the feed times the multiplier within it of fair value): under 0.05%.
 */
export const FEED_DEVIATION = 0.0004;
/** In session a feed posts at least this often. */
export const FEED_HEARTBEAT_S = 3_600;

export const feedAnswer = (priceUsd: number) => BigInt(Math.round(priceUsd * 1e8));

/**
 * Whether a feed whose last round was `last` posts at `t`: in session on a move beyond the
 * threshold or after the heartbeat; outside it only once, the close, and then nothing until the open.
 */
export function feedDue(last: { answer: bigint; at: number } | undefined, priceUsd: number, t: number): boolean {
  if (!last) return true;
  if (!inSession(t)) return last.at < lastClose(t) && feedAnswer(priceUsd) !== last.answer;
  if (t - last.at >= FEED_HEARTBEAT_S) return true;
  return Math.abs(priceUsd / (Number(last.answer) / 1e8) - 1) > FEED_DEVIATION;
}

// ---- the market's mood at the weekend ---------------------------------------------------------------

/**
 * Where retail flow leans a token's price over fair value while the underlying is closed, one draw
 * per (chain, token, weekend): the premiums that open when nothing anchors the price.
 */
export function weekendPremium(seed: string, chain: string, symbol: string, t: number): number {
  const rng = new Rng(`${seed}:stocks:weekend:${chain}:${symbol}:${lastClose(t)}`);
  return Math.max(-0.04, Math.min(0.04, rng.normal() * 0.015));
}
