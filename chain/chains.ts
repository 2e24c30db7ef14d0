/**
 * The chain catalogue (docs/skills.md, "HTTP data operations"): every chain identifier Sibyl accepts, its EVM
 * chain id and native asset, and the canonical contract addresses the embedded devnet
 * reproduces so unmodified clients find them. Chain enums everywhere are projected from here:
 * the spec's eight identifiers (CHAIN_NAMES and the lists below it) for the data operations, and
 * the stock chain (STOCK_CHAIN) only where the spec names it, beside the chains Sibyl runs and indexes.
 */
import type { Address } from 'viem';

export interface EvmChainSpec {
  readonly kind: 'evm';
  readonly chainId: number;
  readonly title: string;
  readonly nativeSymbol: string;
  /** The canonical USDC contract on the real chain. */
  readonly usdc: Address;
  /** The canonical wrapped native token (WETH, WBNB, WPOL). */
  readonly wrappedNative: Address;
  readonly wrappedNativeSymbol: string;
  readonly wrappedNativeName: string;
  /** Uniswap-V2-style factories read for pairs (the embedded devnet places one at the first address). */
  readonly dexes: readonly DexSpec[];
}

export interface DexSpec {
  readonly id: string;
  readonly factory: Address;
}

// Uniswap V2 factory addresses as published in Uniswap's deployment list; PancakeSwap V2 on BSC.
const UNISWAP_V2_L2_FACTORY: Address = '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6';
const OP_STACK_WETH: Address = '0x4200000000000000000000000000000000000006';
// SushiSwap V2 factories (its multichain deployment address on most L2s and sidechains).
const SUSHI_V2_MULTICHAIN_FACTORY: Address = '0xc35DADB65012eC5796536bD9864eD8773aBc74C4';

// Robinhood Chain: no canonical USDC, WETH or V2 factory address of its own is known here, so these
// are the embedded devnet's (readable placeholders). A real node (CHAIN_RPC_URL_STOCKCHAIN) is read at
// the addresses written here: a deployment against the real chain sets them to the chain's own.
const STOCKCHAIN_USDC: Address = '0x00000000000000000000000000000000466355dc';
const STOCKCHAIN_WETH: Address = '0x000000000000000000000000000000004663e7e4';
const STOCKCHAIN_V2_FACTORY: Address = '0x00000000000000000000000000000000466302f0';

export interface NonEvmChainSpec {
  readonly kind: 'solana';
  readonly title: string;
}

export const CHAINS = {
  base: {
    kind: 'evm', chainId: 8453, title: 'Base', nativeSymbol: 'ETH', usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    wrappedNative: OP_STACK_WETH, wrappedNativeSymbol: 'WETH', wrappedNativeName: 'Wrapped Ether', dexes: [{ id: 'uniswap-v2', factory: UNISWAP_V2_L2_FACTORY }, { id: 'sushiswap-v2', factory: '0x71524B4f93c58fcbF659783284E38825f0622859' }],
  },
  ethereum: {
    kind: 'evm', chainId: 1, title: 'Ethereum', nativeSymbol: 'ETH', usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    wrappedNative: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', wrappedNativeSymbol: 'WETH', wrappedNativeName: 'Wrapped Ether', dexes: [{ id: 'uniswap-v2', factory: '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f' }, { id: 'sushiswap-v2', factory: '0xC0AEe478e3658e2610c5F7A4A2E1777cE9e4f2Ac' }],
  },
  bsc: {
    kind: 'evm', chainId: 56, title: 'BNB Smart Chain', nativeSymbol: 'BNB', usdc: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d',
    wrappedNative: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c', wrappedNativeSymbol: 'WBNB', wrappedNativeName: 'Wrapped BNB', dexes: [{ id: 'pancakeswap-v2', factory: '0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73' }, { id: 'uniswap-v2', factory: UNISWAP_V2_L2_FACTORY }],
  },
  arbitrum: {
    kind: 'evm', chainId: 42161, title: 'Arbitrum One', nativeSymbol: 'ETH', usdc: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    wrappedNative: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', wrappedNativeSymbol: 'WETH', wrappedNativeName: 'Wrapped Ether', dexes: [{ id: 'uniswap-v2', factory: '0xf1D7CC64Fb4452F05c498126312eBE29f30Fbcf9' }, { id: 'sushiswap-v2', factory: SUSHI_V2_MULTICHAIN_FACTORY }],
  },
  polygon: {
    kind: 'evm', chainId: 137, title: 'Polygon PoS', nativeSymbol: 'POL', usdc: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
    wrappedNative: '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270', wrappedNativeSymbol: 'WPOL', wrappedNativeName: 'Wrapped Polygon Ecosystem Token', dexes: [{ id: 'uniswap-v2', factory: '0x9e5A52f57b3038F1B8EeE45F28b3C1967e22799C' }, { id: 'sushiswap-v2', factory: SUSHI_V2_MULTICHAIN_FACTORY }],
  },
  optimism: {
    kind: 'evm', chainId: 10, title: 'OP Mainnet', nativeSymbol: 'ETH', usdc: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
    wrappedNative: OP_STACK_WETH, wrappedNativeSymbol: 'WETH', wrappedNativeName: 'Wrapped Ether', dexes: [{ id: 'uniswap-v2', factory: '0x0c3c1c532F1e39EdF36BE9Fe0bE1410313E074Bf' }, { id: 'sushiswap-v2', factory: SUSHI_V2_MULTICHAIN_FACTORY }],
  },
  zksync: {
    kind: 'evm', chainId: 324, title: 'ZKsync Era', nativeSymbol: 'ETH', usdc: '0x1d17CBcF0D6D143135aE902365D2E5e2A16538D4',
    wrappedNative: '0x5AEa5775959fBC2557Cc8789bC1bf90A239D9a91', wrappedNativeSymbol: 'WETH', wrappedNativeName: 'Wrapped Ether', dexes: [],
  },
  solana: { kind: 'solana', title: 'Solana' },
  // Not one of the spec's eight identifiers: the tokenized-stock chain (an Arbitrum Orbit chain, ETH gas), one DEX.
  stockchain: {
    kind: 'evm', chainId: 4663, title: 'Robinhood Chain', nativeSymbol: 'ETH', usdc: STOCKCHAIN_USDC,
    wrappedNative: STOCKCHAIN_WETH, wrappedNativeSymbol: 'WETH', wrappedNativeName: 'Wrapped Ether', dexes: [{ id: 'uniswap-v2', factory: STOCKCHAIN_V2_FACTORY }],
  },
} as const satisfies Record<string, EvmChainSpec | NonEvmChainSpec>;

export type ChainName = keyof typeof CHAINS;
export type EvmChainName = { [K in ChainName]: (typeof CHAINS)[K] extends EvmChainSpec ? K : never }[ChainName];

/**
 * The stock chain (Robinhood Chain, id 4663), where tokenized stocks trade. The spec names it only in
 * find_yield's `chain` (and scan_hook_layer's chain id 4663); every other chain enum leaves it out.
 */
export const STOCK_CHAIN = 'stockchain' as const satisfies EvmChainName;

/** The spec's eight identifiers, in its order: the data operations' chain enums. */
export const CHAIN_NAMES = (Object.keys(CHAINS) as ChainName[]).filter((c) => c !== STOCK_CHAIN) as [ChainName, ...ChainName[]];
/** The spec's seven EVM chains. */
export const EVM_CHAIN_NAMES = CHAIN_NAMES.filter((c) => CHAINS[c].kind === 'evm') as EvmChainName[];
/** The spec's EVM chains with DEXes to index (all but ZKsync), in its order: what market reads cover. */
export const DEX_CHAIN_NAMES = EVM_CHAIN_NAMES.filter((c) => (CHAINS[c] as EvmChainSpec).dexes.length > 0) as [EvmChainName, ...EvmChainName[]];

/**
 * Every EVM chain Sibyl can run embedded or read by URL, and index: the spec's seven and the stock
 * chain. What EMBEDDED_CHAINS and CHAIN_RPC_URL_<CHAIN> accept, and what the devnet, the world,
 * the indexer and the health probes serve.
 */
export const RUNNABLE_EVM_CHAIN_NAMES = [...EVM_CHAIN_NAMES, STOCK_CHAIN] as EvmChainName[] as [EvmChainName, ...EvmChainName[]];
/** The chains the embedded devnet runs by default: every runnable chain with a DEX (the spec's six and the stock chain). */
export const DEVNET_CHAIN_NAMES = RUNNABLE_EVM_CHAIN_NAMES.filter((c) => (CHAINS[c] as EvmChainSpec).dexes.length > 0) as [EvmChainName, ...EvmChainName[]];

/** The chain x402 payments settle on (network eip155:8453; docs/protocols.md, "Paying with x402"). */
export const PAYMENT_CHAIN = 'base' satisfies EvmChainName;

/**
 * ERC-3156 flash lenders read for flash-loan opportunities. No public one fits every chain, so
 * the embedded devnet places its own lender (FlashLoanPool) at this address on each chain;
 * a real deployment lists its lenders with FLASH_LENDERS_<CHAIN>.
 */
export const EMBEDDED_FLASH_LENDER: Address = '0x00000000000000000000000000000000F1a5f1a5';

/**
 * Merkle airdrop factory (MerkleAirdropFactory) read for claimable airdrops: it creates
 * distributors with the MerkleDistributorWithDeadline interface and publishes their leaves on
 * chain. The embedded devnet places it at this address on each chain.
 */
export const EMBEDDED_AIRDROP_FACTORY: Address = '0x00000000000000000000000000000000A1d70A1D';

/**
 * The vault factory (SibylVaultFactory) the embedded devnet places at this address on each chain:
 * it creates ERC-4626 vaults and announces each with VaultCreated, which vaults/v1 reads to find
 * them. Any other ERC-4626 vault (a real chain's) is read unchanged when its address is given.
 */
export const EMBEDDED_VAULT_FACTORY: Address = '0x0000000000000000000000000000000046264626';

/**
 * The fixed-rate market factory (SibylFixedYieldFactory) the embedded devnet places at this
 * address on each chain: it splits ERC-4626 shares into principal and yield tokens per maturity
 * and announces each market with MarketCreated(share, underlying, maturity, pt, yt), which
 * fixed-yield/v1 reads to find them; each PT trades against its underlying on a V2 pool.
 */
export const EMBEDDED_FIXED_YIELD_FACTORY: Address = '0x00000000000000000000000000000000F1ED7E1D';

/**
 * Lending markets read for positions and liquidations (liquidations/v1): Aave v3's canonical Pool
 * and AaveOracle on each chain (Aave's address book). The embedded devnet places its own
 * LendingPool and LendingOracle, with the same interface and events, at these addresses, so the
 * engine reads a real Aave v3 deployment and the world's market alike. A chain absent here has
 * no lending market to read.
 */
export const LENDING_MARKETS: Partial<Record<EvmChainName, { readonly protocol: 'aave-v3'; readonly pool: Address; readonly oracle: Address }>> = {
  base: { protocol: 'aave-v3', pool: '0xA238Dd80C259a72e81d7e4664a9801593F98d1c5', oracle: '0x2Cc0Fc26eD4563A5ce5e8bdcfe1A2878676Ae156' },
  ethereum: { protocol: 'aave-v3', pool: '0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2', oracle: '0x54586bE62E3c3580375aE3723C145253060Ca0C2' },
  bsc: { protocol: 'aave-v3', pool: '0x6807dc923806fE8Fd134338EABCA509979a7e0cB', oracle: '0x39bc1bfDa2130d6Bb6DBEfd366939b4c7aa7C697' },
  arbitrum: { protocol: 'aave-v3', pool: '0x794a61358D6845594F94dc1DB02A252b5b4814aD', oracle: '0xb56c2F0B653B2e0b10C9b928C8580Ac5Df02C7C7' },
  polygon: { protocol: 'aave-v3', pool: '0x794a61358D6845594F94dc1DB02A252b5b4814aD', oracle: '0xb023e699F5a33916Ea823A16485e259257cA8Bd1' },
  optimism: { protocol: 'aave-v3', pool: '0x794a61358D6845594F94dc1DB02A252b5b4814aD', oracle: '0xD81eb3728a631871a7eBBaD631b5f424909f0c77' },
  zksync: { protocol: 'aave-v3', pool: '0x78e30497a3c7527d953c6B1E3541b021A98Ac43c', oracle: '0xC7F58Fca663a8d377B6D0c9703C697f56dC40088' },
  // No Aave v3 market on Robinhood Chain is known here: the embedded devnet's own addresses.
  stockchain: { protocol: 'aave-v3', pool: '0x000000000000000000000000000000004663a4e3', oracle: '0x000000000000000000000000000000004663a0c1' },
};

/**
 * Uniswap v4's singleton PoolManager, by chain, as Uniswap's deployment list gives it: the hook
 * radar reads its Initialize and Swap logs. The embedded chains place their own singleton manager
 * (SibylPoolManager: v4's events, PoolId and hook address bits) at these addresses. No v4
 * deployment on Robinhood Chain is known here: the devnet's manager sits at Base's address there,
 * so hooks deployed through the CREATE2 deployer land at the same addresses on both.
 */
export const V4_POOL_MANAGERS: Partial<Record<EvmChainName, Address>> = {
  base: '0x498581fF718922c3f8e6A244956aF099B2652b2b',
  stockchain: '0x498581fF718922c3f8e6A244956aF099B2652b2b',
};

/** Multicall3's address, identical on every EVM chain. */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/**
 * Sibyl's service token (ServiceToken, SIBYL) on the embedded Base: its holders call the
 * forecast endpoint under a daily quota. A real Base deployment names its token with
 * FORECAST_TOKEN_ADDRESS.
 */
export const EMBEDDED_SERVICE_TOKEN: Address = '0x00000000000000000000000000000000519b1100';
