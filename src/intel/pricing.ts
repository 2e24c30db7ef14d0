/**
 * USD prices read from pools, methodology `pricing/v1`: USDC is taken at its $1 peg; the
 * wrapped native token is priced by its USDC pool; any other token by its USDC pool, else by
 * its wrapped-native pool times the native price. A pool counts only when its quote side holds
 * at least MIN_QUOTE_LIQUIDITY_USD, so dust pools cannot set a price. Every price says which
 * pool it came from.
 */
import { formatUnits, isAddressEqual, zeroAddress, type Address } from 'viem';
import type { ConnectedChain } from '../chain/runtime.js';
import { v2FactoryAbi, v2PairAbi } from './abis.js';
import { tokenInfos } from './tokens.js';

export const PRICING_METHODOLOGY = 'pricing/v1';
export const MIN_QUOTE_LIQUIDITY_USD = 1_000;

export interface UsdPrice {
  readonly usd: number;
  /** `peg` for USDC itself, else the pool the price was read from. */
  readonly via: 'peg' | { readonly pool: Address; readonly quote: string; readonly dex: string };
}

interface PoolQuote {
  pool: Address;
  dex: string;
  /** Quote tokens per one token, and the quote-side reserve in quote units. */
  rate: number;
  quoteReserve: number;
}

/** Prices for `tokens` at the given block; tokens without a qualifying pool are absent. */
export async function usdPrices(chain: ConnectedChain, tokens: readonly Address[], blockNumber?: bigint): Promise<Map<Address, UsdPrice>> {
  const { usdc, wrappedNative, wrappedNativeSymbol } = chain.spec;
  const out = new Map<Address, UsdPrice>();
  const wanted = [...new Set(tokens.map((t) => t.toLowerCase() as Address))];

  const nativeQuote = (await poolQuotes(chain, [wrappedNative], usdc, blockNumber)).get(wrappedNative.toLowerCase() as Address);
  const nativeUsd = nativeQuote && nativeQuote.quoteReserve >= MIN_QUOTE_LIQUIDITY_USD ? nativeQuote.rate : undefined;

  const others = wanted.filter((t) => !isAddressEqual(t, usdc) && !isAddressEqual(t, wrappedNative));
  const [viaUsdc, viaNative] = await Promise.all([
    poolQuotes(chain, others, usdc, blockNumber),
    nativeUsd === undefined ? new Map<Address, PoolQuote>() : poolQuotes(chain, others, wrappedNative, blockNumber),
  ]);

  for (const token of wanted) {
    if (isAddressEqual(token, usdc)) out.set(token, { usd: 1, via: 'peg' });
    else if (isAddressEqual(token, wrappedNative)) {
      if (nativeUsd !== undefined && nativeQuote) out.set(token, { usd: nativeUsd, via: { pool: nativeQuote.pool, quote: 'USDC', dex: nativeQuote.dex } });
    } else {
      const u = viaUsdc.get(token);
      const n = viaNative.get(token);
      if (u && u.quoteReserve >= MIN_QUOTE_LIQUIDITY_USD) out.set(token, { usd: u.rate, via: { pool: u.pool, quote: 'USDC', dex: u.dex } });
      else if (n && nativeUsd !== undefined && n.quoteReserve * nativeUsd >= MIN_QUOTE_LIQUIDITY_USD) {
        out.set(token, { usd: n.rate * nativeUsd, via: { pool: n.pool, quote: wrappedNativeSymbol, dex: n.dex } });
      }
    }
  }
  return out;
}

/** For each token, its deepest pool against `quote` across the chain's DEXes. Keys are lower-case. */
async function poolQuotes(chain: ConnectedChain, tokens: readonly Address[], quote: Address, blockNumber?: bigint): Promise<Map<Address, PoolQuote>> {
  const result = new Map<Address, PoolQuote>();
  if (!tokens.length || !chain.spec.dexes.length) return result;
  const lookups = chain.spec.dexes.flatMap((dex) => tokens.map((token) => ({ dex, token })));
  const pairs = await chain.client.multicall({
    contracts: lookups.map(({ dex, token }) => ({ address: dex.factory, abi: v2FactoryAbi, functionName: 'getPair', args: [token, quote] }) as const),
    allowFailure: true,
    blockNumber,
  });
  const found = lookups
    .map((l, i) => ({ ...l, pair: pairs[i]?.status === 'success' ? (pairs[i]!.result as Address) : zeroAddress }))
    .filter((l) => !isAddressEqual(l.pair, zeroAddress));
  if (!found.length) return result;

  const [reserves, infos] = await Promise.all([
    chain.client.multicall({
      contracts: found.map((f) => ({ address: f.pair, abi: v2PairAbi, functionName: 'getReserves' }) as const),
      allowFailure: true,
      blockNumber,
    }),
    tokenInfos(chain, [...found.map((f) => f.token), quote]),
  ]);
  const quoteDecimals = infos.get(quote)?.decimals;
  if (quoteDecimals == null) return result;

  found.forEach((f, i) => {
    const r = reserves[i];
    const decimals = infos.get(f.token)?.decimals;
    if (r?.status !== 'success' || decimals == null) return;
    const [r0, r1] = r.result as readonly [bigint, bigint, number];
    const tokenIs0 = f.token.toLowerCase() < quote.toLowerCase();
    const tokenReserve = Number(formatUnits(tokenIs0 ? r0 : r1, decimals));
    const quoteReserve = Number(formatUnits(tokenIs0 ? r1 : r0, quoteDecimals));
    if (tokenReserve <= 0 || quoteReserve <= 0) return;
    const key = f.token.toLowerCase() as Address;
    const previous = result.get(key);
    if (!previous || quoteReserve > previous.quoteReserve) {
      result.set(key, { pool: f.pair, dex: f.dex.id, rate: quoteReserve / tokenReserve, quoteReserve });
    }
  });
  return result;
}
