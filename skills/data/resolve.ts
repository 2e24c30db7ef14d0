/**
 * Turns a `tokenAddress` field into a token of the chain's index: a 0x address, or a canonical
 * symbol (BTC, ETH, BNB, SOL, ADA, DOT, or any symbol the index holds), choosing the candidate
 * with the deepest priced pool.
 */
import { SibylError } from '../core/errors.js';
import type { Market } from './market.js';

/** Canonical symbols and the wrapped tokens that stand for them on EVM chains. */
const ALIASES: Record<string, readonly string[]> = {
  BTC: ['WBTC', 'BTCB', 'CBBTC', 'BTC'],
  ETH: ['WETH', 'ETH'],
  BNB: ['WBNB', 'BNB'],
  SOL: ['WSOL', 'SOL'],
  ADA: ['WADA', 'ADA'],
  DOT: ['WDOT', 'DOT'],
  POL: ['WPOL', 'POL', 'WMATIC'],
};

/** Canonical asset symbols (BTC, ETH, ...), for parsers that look for tickers. */
export const CANONICAL_ASSETS: readonly string[] = Object.keys(ALIASES);

/** The canonical asset a token stands for (WETH → ETH), else its own symbol. */
export function canonicalAsset(symbol: string): string {
  const upper = symbol.toUpperCase();
  return Object.entries(ALIASES).find(([, symbols]) => symbols.includes(upper))?.[0] ?? upper;
}

export function resolveToken(market: Market, input: string): string {
  const wanted = input.trim();
  if (/^0x[0-9a-fA-F]{40}$/.test(wanted)) {
    const address = wanted.toLowerCase();
    if (!market.tokens.has(address)) throw new SibylError('token_not_found', `no indexed pool holds ${wanted} on ${market.chain.name}`);
    return address;
  }
  const symbols = ALIASES[wanted.toUpperCase()] ?? [wanted.toUpperCase()];
  const candidates = [...market.tokens.values()].filter((t) => t.symbol && symbols.includes(t.symbol.toUpperCase()));
  const ranked = candidates
    .map((t) => ({ address: t.address.toLowerCase(), depth: market.mainPool(t.address)?.quoteUsd ?? -1 }))
    .sort((a, b) => b.depth - a.depth);
  if (!ranked.length) throw new SibylError('token_not_found', `no token with symbol ${wanted} is indexed on ${market.chain.name}`);
  return ranked[0]!.address;
}
