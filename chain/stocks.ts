/**
 * Where tokenized stocks are found on each chain: the directory of stock issuers (the issuers'
 * registry: a token no registered issuer lists is not a genuine stock token) and, on the chain
 * that carries the underlyings' prices, the directory of their Chainlink-style feeds. The embedded
 * devnet places both contracts (StockIssuerDirectory, StockFeedDirectory) at these fixed
 * addresses; a real deployment would name its own directories by configuration, since no public
 * registry of stock issuers exists at one address on every chain.
 */
import type { Address } from 'viem';
import { STOCK_CHAIN, type EvmChainName } from './chains.js';

/** The embedded StockIssuerDirectory, at this address on every chain with stock tokens. */
export const EMBEDDED_STOCK_ISSUER_DIRECTORY: Address = '0x00000000000000000000000000000000570c15d1';
/** The embedded StockFeedDirectory, on the feed chain only. */
export const EMBEDDED_STOCK_FEED_DIRECTORY: Address = '0x00000000000000000000000000000000570CFeED';

/** The chain carrying the underlyings' feeds and the multiplier issuer (Robinhood Chain, id 4663). */
export const STOCK_FEED_CHAIN = STOCK_CHAIN;

/** The chains with stock tokens (the feed chain first), each with its directories. */
export const STOCK_DIRECTORIES: Readonly<Partial<Record<EvmChainName, { readonly issuers: Address; readonly feeds?: Address }>>> = {
  [STOCK_FEED_CHAIN]: { issuers: EMBEDDED_STOCK_ISSUER_DIRECTORY, feeds: EMBEDDED_STOCK_FEED_DIRECTORY },
  ethereum: { issuers: EMBEDDED_STOCK_ISSUER_DIRECTORY },
  base: { issuers: EMBEDDED_STOCK_ISSUER_DIRECTORY },
  arbitrum: { issuers: EMBEDDED_STOCK_ISSUER_DIRECTORY },
};

export const STOCK_CHAINS = Object.keys(STOCK_DIRECTORIES) as EvmChainName[];

/** ERC-8056 multipliers have 18 decimals: 1e18 is 1.0. */
export const UI_MULTIPLIER_ONE = 10n ** 18n;
/** The feeds' answers have 8 decimals, as Chainlink's USD feeds do. */
export const STOCK_FEED_DECIMALS = 8;
