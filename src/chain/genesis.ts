/**
 * The first market the embedded devnet deploys on each chain: a handful of tokens, their
 * opening USD prices and the pools that carry them. Prices only size the opening liquidity;
 * every figure Sibyl serves is read back from the pools on chain.
 */
import type { EvmChainName } from './chains.js';

export interface GenesisToken {
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  readonly priceUsd: number;
}

export interface GenesisMarket {
  /** Opening USD price of the chain's wrapped native token. */
  readonly nativeUsd: number;
  readonly tokens: readonly GenesisToken[];
  /** Pools as [symbol, symbol, total USD liquidity]; `NATIVE` is the wrapped native, `USDC` the stablecoin. */
  readonly pools: readonly (readonly [string, string, number])[];
}

const btc = { symbol: 'WBTC', name: 'Wrapped BTC', decimals: 8, priceUsd: 64_000 };
/** Wrapped majors from other chains, so canonical symbols (SOL, BNB, ADA, DOT) resolve to a pool. */
const sol = { symbol: 'WSOL', name: 'Wrapped SOL', decimals: 9, priceUsd: 150 };
const bnb = { symbol: 'WBNB', name: 'Wrapped BNB', decimals: 18, priceUsd: 600 };
const ada = { symbol: 'WADA', name: 'Wrapped ADA', decimals: 6, priceUsd: 0.45 };
const dot = { symbol: 'WDOT', name: 'Wrapped DOT', decimals: 10, priceUsd: 4.5 };

export const GENESIS: Partial<Record<EvmChainName, GenesisMarket>> = {
  base: {
    nativeUsd: 3_000,
    tokens: [
      btc,
      { symbol: 'DEGEN', name: 'Degen', decimals: 18, priceUsd: 0.008 },
      { symbol: 'BRETT', name: 'Brett', decimals: 18, priceUsd: 0.07 },
      { symbol: 'AERO', name: 'Aerodrome', decimals: 18, priceUsd: 1.1 },
      { symbol: 'VIRTUAL', name: 'Virtual Protocol', decimals: 18, priceUsd: 1.6 },
      sol, ada, dot,
    ],
    pools: [
      ['NATIVE', 'USDC', 4_000_000],
      ['WBTC', 'USDC', 2_000_000],
      ['DEGEN', 'NATIVE', 600_000],
      ['BRETT', 'NATIVE', 900_000],
      ['AERO', 'USDC', 1_200_000],
      ['VIRTUAL', 'NATIVE', 800_000],
      ['WSOL', 'USDC', 1_500_000],
      ['WADA', 'NATIVE', 400_000],
      ['WDOT', 'NATIVE', 400_000],
    ],
  },
  ethereum: {
    nativeUsd: 3_000,
    tokens: [
      btc,
      { symbol: 'LINK', name: 'ChainLink Token', decimals: 18, priceUsd: 14 },
      { symbol: 'UNI', name: 'Uniswap', decimals: 18, priceUsd: 7.5 },
      { symbol: 'PEPE', name: 'Pepe', decimals: 18, priceUsd: 0.00001 },
      sol, bnb, ada, dot,
    ],
    pools: [
      ['NATIVE', 'USDC', 10_000_000],
      ['WBTC', 'NATIVE', 6_000_000],
      ['LINK', 'NATIVE', 2_000_000],
      ['UNI', 'NATIVE', 1_500_000],
      ['PEPE', 'NATIVE', 1_000_000],
      ['WSOL', 'NATIVE', 2_000_000],
      ['WBNB', 'USDC', 1_500_000],
      ['WADA', 'USDC', 600_000],
      ['WDOT', 'NATIVE', 600_000],
    ],
  },
  bsc: {
    nativeUsd: 600,
    tokens: [
      { symbol: 'BTCB', name: 'BTCB Token', decimals: 18, priceUsd: 64_000 },
      { symbol: 'CAKE', name: 'PancakeSwap Token', decimals: 18, priceUsd: 2.2 },
      // Binance-Peg tokens carry the plain symbols.
      { symbol: 'ETH', name: 'Binance-Peg Ethereum Token', decimals: 18, priceUsd: 3_000 },
      { symbol: 'ADA', name: 'Binance-Peg Cardano Token', decimals: 18, priceUsd: 0.45 },
      { symbol: 'DOT', name: 'Binance-Peg Polkadot Token', decimals: 18, priceUsd: 4.5 },
    ],
    pools: [
      ['NATIVE', 'USDC', 3_000_000],
      ['BTCB', 'NATIVE', 2_000_000],
      ['CAKE', 'NATIVE', 900_000],
      ['ETH', 'NATIVE', 1_500_000],
      ['ADA', 'NATIVE', 500_000],
      ['DOT', 'USDC', 500_000],
    ],
  },
  arbitrum: {
    nativeUsd: 3_000,
    tokens: [
      btc,
      { symbol: 'ARB', name: 'Arbitrum', decimals: 18, priceUsd: 0.75 },
      { symbol: 'GMX', name: 'GMX', decimals: 18, priceUsd: 24 },
      { symbol: 'LINK', name: 'ChainLink Token', decimals: 18, priceUsd: 14 },
      { symbol: 'PENDLE', name: 'Pendle', decimals: 18, priceUsd: 3.5 },
    ],
    pools: [
      ['NATIVE', 'USDC', 3_000_000],
      ['WBTC', 'USDC', 1_000_000],
      ['ARB', 'NATIVE', 1_200_000],
      ['GMX', 'NATIVE', 500_000],
      ['LINK', 'NATIVE', 900_000],
      ['PENDLE', 'USDC', 600_000],
    ],
  },
  polygon: {
    nativeUsd: 0.45,
    tokens: [
      { symbol: 'AAVE', name: 'Aave Token', decimals: 18, priceUsd: 150 },
      { symbol: 'QUICK', name: 'QuickSwap', decimals: 18, priceUsd: 0.04 },
      btc,
      { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, priceUsd: 3_000 },
      { symbol: 'LINK', name: 'ChainLink Token', decimals: 18, priceUsd: 14 },
    ],
    pools: [
      ['NATIVE', 'USDC', 1_500_000],
      ['AAVE', 'NATIVE', 700_000],
      ['QUICK', 'USDC', 300_000],
      ['WBTC', 'USDC', 1_000_000],
      ['WETH', 'NATIVE', 1_200_000],
      ['LINK', 'NATIVE', 500_000],
    ],
  },
  optimism: {
    nativeUsd: 3_000,
    tokens: [
      { symbol: 'OP', name: 'Optimism', decimals: 18, priceUsd: 1.7 },
      { symbol: 'VELO', name: 'Velodrome', decimals: 18, priceUsd: 0.09 },
      btc,
      { symbol: 'SNX', name: 'Synthetix Network Token', decimals: 18, priceUsd: 1.5 },
    ],
    pools: [
      ['NATIVE', 'USDC', 2_500_000],
      ['OP', 'NATIVE', 1_000_000],
      ['VELO', 'USDC', 400_000],
      ['WBTC', 'NATIVE', 1_500_000],
      ['SNX', 'NATIVE', 500_000],
    ],
  },
};

/** USDC each of the first ten demo accounts starts with. */
export const DEMO_USDC_PER_ACCOUNT = 1_000_000n;
export const DEMO_ACCOUNT_COUNT = 10;
/** Service tokens (18 decimals) minted at genesis: the rest of the supply stays with demo #0. */
export const SERVICE_TOKEN_SUPPLY = 1_000_000_000n;
export const SERVICE_TOKEN_PER_DEMO_ACCOUNT = 10_000n;
