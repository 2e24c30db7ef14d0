/**
 * A world module: one protocol written into the world beside its market (a lending market, vaults,
 * airdrop distributors, a hook-enabled pool manager…), with its contracts, its actors and its
 * labels. The world runs each module's `setup` once after its own, and its `step` in every block
 * before the block is mined. A module draws from its own generator (handed to its factory, saved
 * and restored by the world), so adding or changing one never changes what the market and the
 * other modules do.
 */
import type { Abi, Address, Hex, PublicClient } from 'viem';
import type { EvmChainName } from '../../chain/chains.js';
import type { Rng } from '../../lib/random.js';
import type { WorldLabels } from '../labels.js';
import type { Pool } from '../market.js';
import type { TxRequest, WorldRpc } from '../rpc.js';
import type { ReferencePaths } from '../reference.js';
import type { Role } from '../actors.js';
import type { TokenInfo } from '../world.js';

export interface ModuleActorLabels {
  /** Every actor a world module made (WorldHost.actorAddress, or labelActor for fixed accounts), with the role it was made for (e.g. vault-depositor). */
  moduleActors: { role: string; address: Address }[];
}

export function emptyModuleActorLabels(): ModuleActorLabels {
  return { moduleActors: [] };
}

/** What the world lends a module: its clock, its tokens and pools, and its transaction queue. */
export interface WorldHost {
  readonly chain: EvmChainName;
  readonly seed: string;
  /** Reads (viem, with multicall batching). */
  readonly client: PublicClient;
  /** The node itself: anvil_* calls (setCode, setStorageAt) go here. */
  readonly rpc: WorldRpc;
  readonly labels: WorldLabels;
  readonly reference: ReferencePaths;
  /** Deploys contracts and mints USDC; holds no tokens. */
  readonly deployer: Address;
  readonly usdc: TokenInfo;
  readonly native: TokenInfo;
  /** Timestamp of the block being assembled (setup: the next setup block's). */
  time(): number;
  /** The number the next mined block will have. */
  nextBlock(): number;
  tokens(): readonly TokenInfo[];
  token(address: Address): TokenInfo | undefined;
  /** Every pool of the world's V2 DEXes, reserves as of the last mined block (and this block's queued swaps). */
  pools(): readonly Pool[];
  pool(dex: number, a: Address, b: Address): Pool | undefined;
  /**
   * A listing's schedule as the world planned it: when it was listed and, for a rug not yet
   * pulled, when its creator pulls the liquidity (undefined for tokens the world did not list).
   * The world's own plan, for modules whose actors know it (shills before a rug); never the analytics'.
   */
  listingSchedule(token: Address): { listedAt: number; rugAt: number | undefined } | undefined;
  /** The market's actors of a role (retail, whale, holder…). */
  actors(role: Role): readonly Address[];
  /** A module's own actor, derived from the seed (so a resumed world finds it again), labelled with its role. */
  actorAddress(role: string, i: number): Address;
  /** Labels an actor the module made otherwise (an account fixed across worlds) with its role; returns it. */
  labelActor(role: string, address: Address): Address;
  /** A token's reference USD price at `t` (USDC 1), undefined for tokens without a path. */
  referenceUsd(token: TokenInfo, t?: number): number | undefined;
  /** A token's USD price from the world's own pools now (0 when no pool prices it). */
  usdOf(token: TokenInfo): number;
  /** Raw units of `token` worth `usd` at the pools' price. */
  toRaw(token: TokenInfo, usd: number): bigint;
  /** Queues a transaction for this block (sender impersonated; nonce counted by the world). */
  queue(tx: TxRequest): void;
  /** Adds native balance to an account before this block's transactions are sent. */
  queueBalance(account: Address, wei: bigint): void;
  /** Queues a CREATE deployment and returns its address. */
  deploy(abi: Abi, bytecode: Hex, args: readonly unknown[], from?: Address): Address;
  /** Unlimited ERC-20 approval, once per (owner, token, spender). */
  approve(owner: Address, token: Address, spender: Address): void;
  /** Gives an actor tokens (USDC minted, native wrapped, others from the treasury) and credits the holdings mirror. */
  fundToken(actor: Address, token: Address, amount: bigint): void;
  /** The holdings mirror (what the world believes an actor holds): keep it true when a module moves tokens. */
  credit(actor: Address, token: Address, amount: bigint): void;
  balance(actor: Address, token: Address): bigint;
  /** A router swap on `pool`, applied to the mirror and the holdings; the amount out. */
  swap(actor: Address, pool: Pool, tokenIn: Address, amountIn: bigint): bigint;
  /** Runs `fn` with the block number once the block being assembled is mined (for labels). */
  onMined(fn: (block: number) => void): void;
  /** Setup only: mines what is queued into a block of its own (to read what was deployed). */
  mineSetupBlock(): Promise<number>;
}

export interface WorldModule {
  /** Unique; also names its generator and its saved state. */
  readonly name: string;
  /** Once, after the world's own setup (contracts, funding, opening positions). */
  setup(host: WorldHost): Promise<void> | void;
  /** Every block, after the market's actors and before the block is mined. `dt`: seconds since the last block. */
  step(host: WorldHost, t: number, dt: number): Promise<void> | void;
  /** What the module keeps besides the chain, as plain JSON (amounts as strings), and its restore. */
  toState(): unknown;
  restore(state: unknown, host: WorldHost): Promise<void> | void;
}

/** Builds a module for one chain of one world; `rng` is the module's own generator (restored on resume). */
export type WorldModuleFactory = (chain: EvmChainName, rng: Rng) => WorldModule | undefined;
