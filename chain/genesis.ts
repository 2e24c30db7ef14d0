/**
 * The first market the embedded devnet deploys on each chain: a handful of tokens, their
 * supplies and the pools that carry them. Opening prices are the reference paths' (one price
 * per asset on every chain, world/reference.ts); they only size the opening liquidity, and
 * every figure Sibyl serves is read back from the pools on chain.
 *
 * A token's whole supply is minted to the genesis treasury (a labelled address no one holds a
 * key to; the devnet impersonates it), never to a demo account or the payee: the world then
 * hands it out to teams, exchanges and holders.
 */
import { keccak256, toHex, type Address } from 'viem';
import { REFERENCE_ASSETS, referenceAssetOf } from '../world/reference.js';
import { CHAINS, type EvmChainName } from './chains.js';

export interface GenesisToken {
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  /** Whole tokens in existence. */
  readonly supply: number;
}

export interface GenesisMarket {
  readonly tokens: readonly GenesisToken[];
  /** Pools as [symbol, symbol, total USD liquidity]; `NATIVE` is the wrapped native, `USDC` the stablecoin. */
  readonly pools: readonly (readonly [string, string, number])[];
}

/** Where every genesis token's supply, the opening liquidity and the service token start. */
export const GENESIS_TREASURY: Address = `0x${keccak256(toHex('sibyl:genesis-treasury')).slice(26)}`;

/** Opening USD price of a genesis token (or `NATIVE`, `USDC`) on a chain: its reference asset's. */
export function openingPriceUsd(chain: EvmChainName, symbol: string): number {
  if (symbol === 'USDC') return 1;
  const asset = referenceAssetOf(symbol === 'NATIVE' ? CHAINS[chain].wrappedNativeSymbol : symbol);
  if (!asset) throw new Error(`genesis token ${symbol} on ${chain} has no reference path`);
  return REFERENCE_ASSETS[asset]!.startUsd;
}

const btc = { symbol: 'WBTC', name: 'Wrapped BTC', decimals: 8, supply: 40_000 };
/** Wrapped majors from other chains, so canonical symbols (SOL, BNB, ADA, DOT) resolve to a pool. */
const sol = { symbol: 'WSOL', name: 'Wrapped SOL', decimals: 9, supply: 4_000_000 };
const bnb = { symbol: 'WBNB', name: 'Wrapped BNB', decimals: 18, supply: 1_500_000 };
const ada = { symbol: 'WADA', name: 'Wrapped ADA', decimals: 6, supply: 400_000_000 };
const dot = { symbol: 'WDOT', name: 'Wrapped DOT', decimals: 10, supply: 40_000_000 };

export const GENESIS: Partial<Record<EvmChainName, GenesisMarket>> = {
  base: {
    tokens: [
      btc,
      { symbol: 'DEGEN', name: 'Degen', decimals: 18, supply: 36_960_000_000 },
      { symbol: 'BRETT', name: 'Brett', decimals: 18, supply: 9_910_000_000 },
      { symbol: 'AERO', name: 'Aerodrome', decimals: 18, supply: 1_650_000_000 },
      { symbol: 'VIRTUAL', name: 'Virtual Protocol', decimals: 18, supply: 1_000_000_000 },
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
    tokens: [
      btc,
      { symbol: 'LINK', name: 'ChainLink Token', decimals: 18, supply: 1_000_000_000 },
      { symbol: 'UNI', name: 'Uniswap', decimals: 18, supply: 1_000_000_000 },
      { symbol: 'PEPE', name: 'Pepe', decimals: 18, supply: 420_690_000_000_000 },
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
    tokens: [
      { symbol: 'BTCB', name: 'BTCB Token', decimals: 18, supply: 60_000 },
      { symbol: 'CAKE', name: 'PancakeSwap Token', decimals: 18, supply: 380_000_000 },
      // Binance-Peg tokens carry the plain symbols.
      { symbol: 'ETH', name: 'Binance-Peg Ethereum Token', decimals: 18, supply: 600_000 },
      { symbol: 'ADA', name: 'Binance-Peg Cardano Token', decimals: 18, supply: 300_000_000 },
      { symbol: 'DOT', name: 'Binance-Peg Polkadot Token', decimals: 18, supply: 30_000_000 },
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
    tokens: [
      btc,
      { symbol: 'ARB', name: 'Arbitrum', decimals: 18, supply: 10_000_000_000 },
      { symbol: 'GMX', name: 'GMX', decimals: 18, supply: 10_000_000 },
      { symbol: 'LINK', name: 'ChainLink Token', decimals: 18, supply: 1_000_000_000 },
      { symbol: 'PENDLE', name: 'Pendle', decimals: 18, supply: 280_000_000 },
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
    tokens: [
      { symbol: 'AAVE', name: 'Aave Token', decimals: 18, supply: 16_000_000 },
      { symbol: 'QUICK', name: 'QuickSwap', decimals: 18, supply: 1_000_000_000 },
      btc,
      { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, supply: 500_000 },
      { symbol: 'LINK', name: 'ChainLink Token', decimals: 18, supply: 1_000_000_000 },
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
    tokens: [
      { symbol: 'OP', name: 'Optimism', decimals: 18, supply: 4_290_000_000 },
      { symbol: 'VELO', name: 'Velodrome', decimals: 18, supply: 2_000_000_000 },
      btc,
      { symbol: 'SNX', name: 'Synthetix Network Token', decimals: 18, supply: 330_000_000 },
    ],
    pools: [
      ['NATIVE', 'USDC', 2_500_000],
      ['OP', 'NATIVE', 1_000_000],
      ['VELO', 'USDC', 400_000],
      ['WBTC', 'NATIVE', 1_500_000],
      ['SNX', 'NATIVE', 500_000],
    ],
  },
  // The stock chain's one crypto pool is its gas token against USDC: its stock tokens are the world's (a world module's).
  stockchain: {
    tokens: [],
    pools: [['NATIVE', 'USDC', 2_000_000]],
  },
};

/** USDC each of the first ten demo accounts starts with. */
export const DEMO_USDC_PER_ACCOUNT = 1_000_000n;
export const DEMO_ACCOUNT_COUNT = 10;
/** Service tokens (18 decimals) minted at genesis to the treasury, which gives each demo account but #0 some. */
export const SERVICE_TOKEN_SUPPLY = 1_000_000_000n;
export const SERVICE_TOKEN_PER_DEMO_ACCOUNT = 10_000n;
