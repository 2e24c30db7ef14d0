/**
 * A stock token's fair value and premium: one raw token stands for `multiplier` shares (ERC-8056),
 * so its fair price is the underlying's price times the multiplier, and the premium is the token's
 * market price over that, less one. The underlying trades 24/5: outside the session its feed holds
 * the last close, so a premium then is against a price that cannot move until the market reopens,
 * and says so.
 */
import { inSession } from '../../lib/market-hours.js';
import type { StockFeed, StockToken } from './universe.js';

export type Session = 'open' | 'closed';

export interface FairValue {
  readonly underlyingUsd: number;
  readonly multiplier: number;
  /** Underlying x multiplier: what one raw token is worth. */
  readonly fairUsd: number;
  /** Token price over fair value, less one, in percent. */
  readonly premiumPct: number;
  readonly session: Session;
  /** Seconds since the feed's latest round at the moment priced. */
  readonly feedAgeSeconds: number;
}

export const FAIR_VALUE_METHODOLOGY = 'stock-fair-value/v1 (fair = underlying price from its AggregatorV3 feed x the token\'s ERC-8056 uiMultiplier at the block read; premium = token price / fair - 1; session: the underlying trades Monday-Friday UTC, outside it the feed holds the last close)';

export function sessionAt(time: number): Session {
  return inSession(time) ? 'open' : 'closed';
}

export function fairValue(token: Pick<StockToken, 'multiplier'>, feed: StockFeed, tokenPriceUsd: number, at: number): FairValue {
  const fairUsd = feed.priceUsd * token.multiplier;
  return {
    underlyingUsd: feed.priceUsd,
    multiplier: token.multiplier,
    fairUsd,
    premiumPct: (tokenPriceUsd / fairUsd - 1) * 100,
    session: sessionAt(at),
    feedAgeSeconds: Math.max(0, at - feed.updatedAt),
  };
}
