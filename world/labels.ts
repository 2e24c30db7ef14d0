/**
 * Ground truth written by the simulator: who is what and which blocks hold what. Only the
 * detector evaluation reads it; the analytics never do.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Address, Hex } from 'viem';

export interface WorldLabels {
  chain: string;
  seed: string;
  contracts: { routers: Address[]; flashLoanPool?: Address; launchpad?: Address };
  wallets: {
    whales: Address[]; smartMoney: Address[]; snipers: Address[]; sandwichers: Address[]; arbitrageurs: Address[];
    exchanges: Address[]; liquidityProviders: Address[];
    /** Keep pools on the reference price: buyers that only buy, sellers that only sell. */
    crossChainArbitrageurs: Address[];
    /** Long-term holders of the genesis tokens, and the genesis treasury (also the bridges' custody). */
    holders: Address[]; treasuries: Address[];
  };
  /** Where each genesis token's supply went at the start of history (share of supply; null: the rest). */
  distribution: { token: Address; symbol: string; holder: Address; kind: 'treasury' | 'bridge' | 'team' | 'exchange' | 'holder'; share: number | null }[];
  /** Each reference asset's regimes over the history (what its price did, labelled). */
  regimes: { asset: string; label: 'bull' | 'bear' | 'range'; from: number; until: number }[];
  tokens: { token: Address; symbol: string; kind: 'listing' | 'honeypot' | 'taxed' | 'owner-powers' | 'launchpad' | 'genesis'; creator: Address; pair: Address | null; rug: boolean }[];
  snipes: { sniper: Address; token: Address; pair: Address; block: number }[];
  sandwiches: { pool: Address; attacker: Address; victim: Address; victimUsd: number; block: number }[];
  arbitrages: { arber: Address; buyPool: Address; sellPool: Address; block: number }[];
  rugs: { token: Address; pair: Address; creator: Address; block: number }[];
  /** Every actor a world module made (WorldHost.actorAddress), with the role it was made for (e.g. vault-depositor). */
  moduleActors: { role: string; address: Address }[];
  /**
   * Merkle airdrops (world/modules/airdrops.ts): each distributor, its token, its claim deadline
   * (unix seconds), every allocation (amount in raw units) and the claims made, with their block.
   */
  airdrops: {
    distributor: Address; token: Address; symbol: string; creator: Address; deadline: number; block: number;
    allocations: { index: number; account: Address; amount: string }[];
    claims: { index: number; account: Address; block: number }[];
  }[];
  /** Phishing drainers (world/modules/drainers.ts): each contract, who runs it and where the loot goes. */
  drainers: { contract: Address; operator: Address; sink: Address }[];
  /** Unlimited approvals victims gave a drainer (never revoked), and the block it swept them in (null: not yet). */
  drainerApprovals: { owner: Address; token: Address; drainer: Address; block: number; drainedBlock: number | null }[];
  /**
   * ERC-4626 vaults (world/modules/vaults.ts): each vault, its underlying, the strategy it lends
   * to and the true rate that strategy pays (as an APY: income compounds into the share price),
   * whether and from when it is deprecated (deposits and income stopped), and for a deprecated one
   * the accounts still holding its shares (forgotten balances).
   */
  vaults: {
    vault: Address; asset: Address; assetSymbol: string; name: string; curator: Address; strategy: Address; block: number;
    incomeApyPct: number; deprecated: boolean; deprecatedAt: number | null; holdersLeft: Address[];
  }[];
  /**
   * The lending market (world/modules/lending.ts): its pool and oracle; every borrower position
   * (collateral and debt in raw units, health factor as of `asOfBlock`, refreshed every block from
   * the module's exact mirror of the pool; `open: false` once repaid in full or liquidated away);
   * every liquidation with what was seized and covered and the liquidator's bonus in USD at the
   * oracle's prices of its block.
   */
  lendingMarket: { pool: Address; oracle: Address } | null;
  lendingPositions: {
    borrower: Address; collateral: Address; collateralSymbol: string; collateralAmount: string; debtAsset: Address; debt: string;
    healthFactor: number | null; openedBlock: number; asOfBlock: number; open: boolean;
  }[];
  liquidations: {
    block: number; borrower: Address; liquidator: Address; collateral: Address; debtAsset: Address;
    collateralSeized: string; debtCovered: string; bonusUsd: number;
  }[];
  /**
   * The social feed (world/modules/social.ts, BSC): the shill accounts (feed author ids), each
   * shilled token with its campaign's window (unix seconds) and ring, and every post's author
   * kind and intended tone.
   */
  social: {
    shillAccounts: string[];
    shilled: { token: Address; symbol: string; reason: 'rug' | 'honeypot'; from: number; until: number; accounts: string[] }[];
    posts: { id: string; kind: 'shill' | 'organic' | 'chatter' | 'project'; sentiment: 'positive' | 'negative' | 'neutral' }[];
  };
  /**
   * Hooks on the v4-style pool manager (world/modules/hooks.ts, Base): each hook's address, the
   * callbacks it implements (v4's permission names, e.g. beforeSwap, beforeSwapReturnDelta), the
   * risks planted in it ('owner-fee', 'owner-pause', 'upgradeable', 'delegatecall', 'selfdestruct',
   * 'takes-input'), its owner or proxy admin, its implementation (behind a proxy) and its pools'
   * PoolIds; and every swap whose whole input a malicious hook kept (amount in raw units).
   */
  hooks: { hook: Address; name: string; permissions: string[]; risks: string[]; owner: Address | null; implementation: Address | null; pools: Hex[] }[];
  hookVictims: { hook: Address; pool: Hex; victim: Address; token: Address; amountIn: string; block: number }[];
  /**
   * Fixed-rate markets (world/modules/fixed-yield.ts): each market (its YT is the splitter) with
   * its PT, the vault share it splits, maturity (unix seconds), PT/USDC pair, the vault's true
   * rate and the fixed rate the LP seeded the pool at (APY %); every PT trade by a trader or the
   * rate keeper with the implied APY it left the pool at (by the module's own mirror); every PT
   * redeemed at maturity (raw units); the module's actors.
   */
  fixedYield: {
    markets: { market: Address; pt: Address; yt: Address; share: Address; underlying: Address; maturity: number; pair: Address; block: number; vaultApyPct: number; seedApyPct: number }[];
    trades: { market: Address; trader: Address; kind: 'trader' | 'keeper'; side: 'buy' | 'sell'; ptAmount: string; impliedApyPct: number; block: number }[];
    redemptions: { market: Address; holder: Address; amount: string; block: number }[];
    actors: { lp: Address; keeper: Address; traders: Address[]; incomePayer: Address } | null;
  };
}

export function emptyLabels(chain: string, seed: string): WorldLabels {
  return {
    chain, seed, contracts: { routers: [] },
    wallets: { whales: [], smartMoney: [], snipers: [], sandwichers: [], arbitrageurs: [], exchanges: [], liquidityProviders: [], crossChainArbitrageurs: [], holders: [], treasuries: [] },
    distribution: [], regimes: [], tokens: [], snipes: [], sandwiches: [], arbitrages: [], rugs: [], moduleActors: [],
    airdrops: [],
    drainers: [], drainerApprovals: [],
    vaults: [],
    lendingMarket: null, lendingPositions: [], liquidations: [],
    social: { shillAccounts: [], shilled: [], posts: [] },
    hooks: [], hookVictims: [],
    fixedYield: { markets: [], trades: [], redemptions: [], actors: null },
  };
}

export async function writeLabels(path: string, labels: readonly WorldLabels[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify({ writtenAt: new Date().toISOString(), chains: labels }, null, 1));
}
