/** How the market's behaviours read a pool: which side is the traded token and which the quote. */
import type { Pool } from '../market.js';
import type { TokenInfo } from '../world.js';
import type { MarketHost } from './behaviour.js';

/** The non-quote side of a pool and its quote side (undefined for a pool of unknown tokens). */
export function sidesOf(host: MarketHost, pool: Pool): { token: TokenInfo; quote: TokenInfo } | undefined {
  const t0 = host.token(pool.token0);
  const t1 = host.token(pool.token1);
  if (!t0 || !t1) return undefined;
  const usdc = host.usdc.address.toLowerCase();
  const native = host.native.address.toLowerCase();
  const isQuote = (t: TokenInfo) => t.address.toLowerCase() === usdc || t.address.toLowerCase() === native || t.symbol === 'VIRTUAL';
  if (isQuote(t0) && !isQuote(t1)) return { token: t1, quote: t0 };
  if (isQuote(t1) && !isQuote(t0)) return { token: t0, quote: t1 };
  // Two quote assets (e.g. WETH/USDC): the native is the "token".
  return t0.address.toLowerCase() === native ? { token: t0, quote: t1 } : { token: t1, quote: t0 };
}
