/**
 * The market world: a deterministic simulator (for a seed) that turns an embedded chain into a
 * living market. It backfills a history ending now, then keeps producing blocks. Its actors
 * leave the traces real ones leave (retail flow, whales, smart money that trades ahead of
 * trends, snipers in a listing's first blocks, sandwiches around victims in one block,
 * arbitrage across two DEXes, rug pulls, honeypots, launchpad curves), and it writes the
 * ground truth to a labels file that the analytics never read.
 */
import {
  createPublicClient, encodeDeployData, encodeFunctionData, getContractAddress, http, keccak256, maxUint256, parseEther,
  parseUnits, toHex, type Abi, type Address, type Hex, type PublicClient,
} from 'viem';
import {
  BondingCurveLaunchpad, DemoToken, EmbeddedUSDC, FlashLoanPool, OwnerPowersToken, SellTaxToken, SibylV2Factory,
  SibylV2Pair, SibylV2Router, WrappedNative,
} from '../chain/artifacts/index.js';
import { demoAccount } from '../chain/accounts.js';
import { CHAINS, EMBEDDED_FLASH_LENDER, EVM_CHAIN_NAMES, type EvmChainName } from '../chain/chains.js';
import type { GenesisDeployment } from '../chain/devnet.js';
import { GENESIS_TREASURY } from '../chain/genesis.js';
import { viemChain } from '../chain/runtime.js';
import { emptyLabels, type WorldLabels } from './labels.js';
import { Market, v2AmountOut, type Pool } from './market.js';
import { Rng } from '../lib/random.js';
import { referenceAssetOf, type ReferencePaths } from './reference.js';
import { WorldRpc, type TxRequest } from './rpc.js';
import { WORLD_MODULES } from './modules/index.js';
import type { WorldHost, WorldModule, WorldModuleFactory } from './modules/module.js';

const GAS = { swap: 300_000n, approve: 80_000n, transfer: 100_000n, deploy: 3_000_000n, addLiquidity: 4_000_000n, remove: 400_000n, launch: 2_500_000n, curve: 250_000n };
const FAR_DEADLINE = 2n ** 40n;
/** History written at full block density: the periods up to 24h read it candle by candle. */
export const DENSE_HISTORY_SECONDS = 2 * 86_400;
const SPARSE_FACTOR = 3;
/** Seconds after the history's first block kept for the market's and the modules' setup blocks (one second each). */
const MODULE_SETUP_SECONDS = 60;

export interface WorldOptions {
  readonly name: EvmChainName;
  readonly rpcUrl: string;
  readonly genesis: GenesisDeployment;
  readonly seed: string;
  /** First simulated second (after genesis) and how the simulated clock steps in the backfill. */
  readonly startTimestamp: number;
  readonly meanBlockSeconds: number;
  /** The one market every chain follows: each asset's reference price path. */
  readonly reference: ReferencePaths;
  /** The protocols beside the market; WORLD_MODULES unless a test picks its own. */
  readonly modules?: readonly WorldModuleFactory[] | undefined;
}

export interface TokenInfo {
  readonly symbol: string;
  readonly address: Address;
  readonly decimals: number;
  /** Quote token this token is listed against on dex 0. */
  readonly quote: Address;
  readonly kind: 'genesis' | 'listing' | 'honeypot' | 'taxed' | 'owner-powers' | 'launchpad';
  /** The reference asset it tracks (genesis majors and chain tokens); USDC is the numeraire. */
  readonly asset?: string;
  /** Hidden trend: +1 bullish, -1 bearish, 0 flat, from `regimeFrom` until `regimeUntil`. */
  regime: number;
  regimeFrom?: number;
  regimeUntil: number;
  tradeable: boolean;
  /** Block time of its listing: only snipers, who watch the mempool, trade it in that block. */
  listedAt?: number;
}

interface Listing {
  token: TokenInfo;
  creator: Address;
  pool: Pool;
  /** LP tokens the creator received: sqrt(amount0 * amount1) minus the locked minimum. */
  lp: bigint;
  rugAt?: number;
}

/** `accumulator` and `distributor` are the crowd behind value flow: one only buys, the other only sells what it holds. */
export type Role = 'retail' | 'whale' | 'smart' | 'sniper' | 'sandwicher' | 'arber' | 'lp' | 'exchange' | 'creator' | 'accumulator' | 'distributor' | 'holder' | 'team';

const ACTOR_COUNTS: Record<Role, number> = { retail: 30, whale: 4, smart: 3, sniper: 3, sandwicher: 2, arber: 2, lp: 3, exchange: 2, creator: 0, accumulator: 24, distributor: 24, holder: 40, team: 0 };

/**
 * A chain's first listings cover every kind, so even a short history holds an honest listing,
 * each trap and a rug (tests and demos pick them from the labels); later ones are drawn.
 */
const OPENING_LISTINGS: readonly { kind: 'listing' | 'honeypot' | 'taxed' | 'owner-powers'; rug: boolean }[] = [
  { kind: 'listing', rug: false },
  { kind: 'honeypot', rug: false },
  { kind: 'listing', rug: true },
  { kind: 'taxed', rug: false },
  { kind: 'owner-powers', rug: false },
];

/** What `World.toState()` writes: plain JSON (amounts as decimal strings). */
export interface WorldState {
  rng: [number, number, number, number];
  block: string;
  now: number;
  listingCounter: number;
  tokens: TokenInfo[];
  pools: { pair: Address; dex: number; token0: Address; token1: Address }[];
  routers: Address[];
  launchpad: Address | null;
  holdings: [string, string][];
  approved: string[];
  nonces: [string, number][];
  listings: { token: Address; creator: Address; pair: Address; lp: string; rugAt: number | null }[];
  smartPositions: [string, { actor: Address; token: Address; amount: string; exitAt: number; target: number }][];
  smartDecisions: string[];
  curveTokens: { address: Address; creator: Address; raisedWei: string; graduated: boolean; listed?: boolean }[];
  labels: WorldLabels;
  /** Each module's generator and state, by module name. */
  modules: Record<string, { rng: [number, number, number, number]; state: unknown }>;
}

/** How a genesis token's supply is handed out from the treasury at the start of history. */
const DISTRIBUTION = { team: 0.15, perExchange: 0.08, holders: 0.2 } as const;
/** How far ahead smart money sees the reference path, and the gain it waits for. */
const SMART_HORIZON_S = 24 * 3600;
const SMART_MIN_GAIN = 0.04;
/** The share of the move seen ahead at which smart money takes its profit. */
const SMART_TAKE = 0.7;
/** Pools further than this from the reference price are traded back onto it within the block. */
const REFERENCE_BAND = 0.0015;

export class World {
  readonly labels: WorldLabels;
  private rng: Rng;
  private readonly rpc: WorldRpc;
  private readonly client: PublicClient;
  private readonly market = new Market();
  private readonly tokens = new Map<string, TokenInfo>(); // by lower-case address
  private readonly routers: Address[] = [];
  private readonly actors = new Map<Role, Address[]>();
  private readonly holdings = new Map<string, bigint>(); // `${actor}:${token}` → raw amount
  private readonly approved = new Set<string>();
  private readonly listings: Listing[] = [];
  private readonly smartPositions = new Map<string, { actor: Address; token: TokenInfo; amount: bigint; exitAt: number; target: number }>();
  private readonly smartDecisions = new Set<string>();
  private launchpad?: Address;
  private readonly curveTokens: { address: Address; creator: Address; raisedWei: bigint; graduated: boolean; listed?: boolean }[] = [];
  private block = 0n;
  private now: number;
  /** The next block's transactions, in order, and the balances to set before they are sent. */
  private pending: TxRequest[] = [];
  private balancesToSet = new Map<string, bigint>();
  /** Labels that learn their block number once it is mined. */
  private blockEvents: ((block: number) => void)[] = [];
  private touched = new Set<Pool>();
  private listingCounter = 0;
  private timer?: NodeJS.Timeout;
  /** Timestamp of the block being assembled, and who has traded in it. */
  private stepTime = 0;
  private readonly tradedThisBlock = new Set<Address>();
  /** Module actors already in `labels.moduleActors` (lower case). */
  private readonly moduleActors = new Set<string>();
  /** The protocols written beside the market (world/modules), each with its own generator. */
  private modules: { module: WorldModule; rng: Rng }[] = [];

  private constructor(private readonly options: WorldOptions) {
    for (const [role, n] of Object.entries(ACTOR_COUNTS) as [Role, number][]) {
      this.actors.set(role, Array.from({ length: n }, (_, i) => this.actorAddress(role, i)));
    }
    this.rng = new Rng(`${options.seed}:${options.name}`);
    this.rpc = new WorldRpc(options.rpcUrl);
    this.client = createPublicClient({ chain: viemChain(options.name, options.rpcUrl), transport: http(options.rpcUrl, { batch: { wait: 0 } }), batch: { multicall: { wait: 0 } } }) as PublicClient;
    this.labels = emptyLabels(options.name, options.seed);
    this.now = options.startTimestamp;
  }

  /** Deploys contracts and mints USDC (the devnet's minter); it holds no tokens. */
  private get deployer(): Address {
    return demoAccount(0).address;
  }

  private get treasury(): Address {
    return GENESIS_TREASURY;
  }

  private get usdc(): TokenInfo {
    return this.tokens.get(CHAINS[this.options.name].usdc.toLowerCase())!;
  }

  private get native(): TokenInfo {
    return this.tokens.get(CHAINS[this.options.name].wrappedNative.toLowerCase())!;
  }

  /** Deploys the world's own contracts on top of genesis and funds its actors. */
  static async create(options: WorldOptions): Promise<World> {
    const world = new World(options);
    await world.setup();
    world.modules = (options.modules ?? WORLD_MODULES).flatMap((factory) => {
      // A factory is pure: asked once for its name, which seeds the module's own generator.
      const name = factory(options.name, new Rng(''))?.name;
      if (!name) return [];
      const rng = new Rng(`${options.seed}:${options.name}:module:${name}`);
      return [{ module: factory(options.name, rng)!, rng }];
    });
    for (const m of world.modules) await m.module.setup(world.host);
    if (world.pending.length || world.balancesToSet.size) await world.mineSetupBlock();
    // The history starts at the same second whatever the modules' setup mined, so the market's
    // clock, hence everything its generator draws, is the same with or without them.
    if (world.now > options.startTimestamp + MODULE_SETUP_SECONDS) throw new Error(`world modules used more than ${MODULE_SETUP_SECONDS} setup blocks`);
    world.now = options.startTimestamp + MODULE_SETUP_SECONDS;
    return world;
  }

  /**
   * Continues a world whose chain was reloaded from the state dump taken with `toState()`:
   * the same generator, holdings, nonces and labels, the pools re-read from the chain.
   */
  static async resume(options: WorldOptions, state: WorldState): Promise<World> {
    const world = new World(options);
    world.restore(state);
    await world.rpc.call('anvil_autoImpersonateAccount', [true]);
    await world.rpc.call('evm_setAutomine', [false]);
    await world.market.refresh(world.rpc);
    world.modules = (options.modules ?? WORLD_MODULES).flatMap((factory) => {
      const probe = factory(options.name, new Rng(''));
      const saved = probe && state.modules[probe.name];
      if (!probe || !saved) return [];
      const rng = Rng.restore(saved.rng);
      return [{ module: factory(options.name, rng)!, rng }];
    });
    for (const m of world.modules) await m.module.restore(state.modules[m.module.name]!.state, world.host);
    return world;
  }

  /** A module of this world by name (read-only use: a feed serving what the module wrote). */
  module(name: string): WorldModule | undefined {
    return this.modules.find((m) => m.module.name === name)?.module;
  }

  /** Everything the simulator keeps besides the chain, as JSON (taken between blocks). */
  toState(): WorldState {
    const big = (m: Map<string, bigint>) => [...m].map(([k, v]) => [k, v.toString()] as [string, string]);
    return {
      rng: this.rng.snapshot(),
      block: this.block.toString(),
      now: this.now,
      listingCounter: this.listingCounter,
      tokens: [...this.tokens.values()],
      pools: this.market.all().map(({ pair, dex, token0, token1 }) => ({ pair, dex, token0, token1 })),
      routers: this.routers,
      launchpad: this.launchpad ?? null,
      holdings: big(this.holdings),
      approved: [...this.approved],
      nonces: [...this.nonces],
      listings: this.listings.map((l) => ({ token: l.token.address, creator: l.creator, pair: l.pool.pair, lp: l.lp.toString(), rugAt: l.rugAt ?? null })),
      smartPositions: [...this.smartPositions].map(([k, p]) => [k, { actor: p.actor, token: p.token.address, amount: p.amount.toString(), exitAt: p.exitAt, target: p.target }]),
      smartDecisions: [...this.smartDecisions],
      curveTokens: this.curveTokens.map((c) => ({ ...c, raisedWei: c.raisedWei.toString() })),
      labels: this.labels,
      modules: Object.fromEntries(this.modules.map((m) => [m.module.name, { rng: m.rng.snapshot(), state: m.module.toState() }])),
    };
  }

  private restore(state: WorldState): void {
    this.rng = Rng.restore(state.rng);
    this.block = BigInt(state.block);
    this.now = state.now;
    this.listingCounter = state.listingCounter;
    for (const t of state.tokens) this.tokens.set(t.address.toLowerCase(), { ...t });
    for (const p of state.pools) this.market.add({ ...p, r0: 0n, r1: 0n });
    this.routers.push(...state.routers);
    if (state.launchpad) this.launchpad = state.launchpad;
    for (const [k, v] of state.holdings) this.holdings.set(k, BigInt(v));
    for (const a of state.approved) this.approved.add(a);
    for (const [k, v] of state.nonces) this.nonces.set(k, v);
    for (const l of state.listings) {
      this.listings.push({ token: this.tokens.get(l.token.toLowerCase())!, creator: l.creator, pool: this.market.get(l.pair)!, lp: BigInt(l.lp), ...(l.rugAt !== null && { rugAt: l.rugAt }) });
    }
    for (const [k, p] of state.smartPositions) this.smartPositions.set(k, { actor: p.actor, token: this.tokens.get(p.token.toLowerCase())!, amount: BigInt(p.amount), exitAt: p.exitAt, target: p.target });
    for (const d of state.smartDecisions) this.smartDecisions.add(d);
    for (const c of state.curveTokens) this.curveTokens.push({ ...c, raisedWei: BigInt(c.raisedWei) });
    Object.assign(this.labels, state.labels);
    for (const a of this.labels.moduleActors) this.moduleActors.add(a.address.toLowerCase());
  }

  /** What a module may use of the world (modules/module.ts). */
  private readonly host: WorldHost = (() => {
    const world = this;
    return {
      get chain() { return world.options.name; },
      get seed() { return world.options.seed; },
      get client() { return world.client; },
      get rpc() { return world.rpc; },
      get labels() { return world.labels; },
      get reference() { return world.options.reference; },
      get deployer() { return world.deployer; },
      get usdc() { return world.usdc; },
      get native() { return world.native; },
      time: () => world.stepTime || world.now + 1,
      nextBlock: () => Number(world.block) + 1,
      tokens: () => [...world.tokens.values()],
      token: (address) => world.tokens.get(address.toLowerCase()),
      pools: () => world.market.all(),
      pool: (dex, a, b) => world.market.find(dex, a, b),
      listingSchedule: (address) => {
        const l = world.listings.find((x) => x.token.address.toLowerCase() === address.toLowerCase());
        return l && { listedAt: l.token.listedAt ?? 0, rugAt: l.rugAt };
      },
      actors: (role) => world.actors.get(role) ?? [],
      actorAddress: (role, i) => {
        const address = world.actorAddress(role, i);
        // Every module actor is labelled with its role: ground truth for whoever evaluates who is what.
        const key = address.toLowerCase();
        if (!world.moduleActors.has(key)) {
          world.moduleActors.add(key);
          world.labels.moduleActors.push({ role, address });
        }
        return address;
      },
      referenceUsd: (token, t) => world.referenceUsd(token, t),
      usdOf: (token) => world.usdOf(token),
      toRaw: (token, usd) => world.toRaw(token, usd),
      queue: (tx) => world.queue(tx),
      queueBalance: (account, wei) => world.queueBalance(account, wei),
      deploy: (abi, bytecode, args, from) => world.deploy(abi, bytecode, args, from),
      approve: (owner, token, spender) => world.approve(owner, token, spender),
      fundToken: (actor, token, amount) => world.fundToken(actor, token, amount),
      credit: (actor, token, amount) => world.credit(actor, token, amount),
      balance: (actor, token) => world.balance(actor, token),
      swap: (actor, pool, tokenIn, amountIn) => world.swap(actor, pool, tokenIn, amountIn),
      onMined: (fn) => void world.blockEvents.push(fn),
      mineSetupBlock: () => world.mineSetupBlock(),
    };
  })();

  /** A setup block of its own, one second after the last. */
  private async mineSetupBlock(): Promise<number> {
    await this.mineBlock(this.now + 1);
    await this.market.refresh(this.rpc);
    return Number(this.block);
  }

  // ---- setup ---------------------------------------------------------------------------------

  private async setup(): Promise<void> {
    const spec = CHAINS[this.options.name];
    await this.rpc.call('anvil_autoImpersonateAccount', [true]);
    await this.rpc.call('evm_setAutomine', [false]);
    this.block = BigInt(await this.rpc.call<Hex>('eth_blockNumber'));
    for (const sender of [this.deployer, this.treasury]) {
      this.nonces.set(sender.toLowerCase(), Number(await this.rpc.call<Hex>('eth_getTransactionCount', [sender, 'latest'])));
    }

    const quoteOf = (symbol: string) => {
      if (symbol === 'USDC') return spec.wrappedNative;
      const pool = this.options.genesis.pools.find((p) => p.a === symbol || p.b === symbol);
      const other = pool ? (pool.a === symbol ? pool.b : pool.a) : 'USDC';
      return this.options.genesis.tokens.get(other)!.address;
    };
    for (const t of this.options.genesis.tokens.values()) {
      const quote = quoteOf(t.symbol === spec.wrappedNativeSymbol ? 'NATIVE' : t.symbol);
      const asset = referenceAssetOf(t.symbol);
      this.tokens.set(t.address.toLowerCase(), { symbol: t.symbol, address: t.address, decimals: t.decimals, quote, kind: 'genesis', ...(asset && { asset }), regime: 0, regimeUntil: 0, tradeable: true });
    }
    for (const p of this.options.genesis.pools) {
      const a = this.options.genesis.tokens.get(p.a)!.address;
      const b = this.options.genesis.tokens.get(p.b)!.address;
      const [token0, token1] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a];
      this.market.add({ pair: p.pair, dex: 0, token0, token1, r0: 0n, r1: 0n });
    }

    for (const dex of spec.dexes) this.routers.push(this.deploy(SibylV2Router.abi, SibylV2Router.bytecode, [dex.factory]));
    // The lender sits at the address the chain catalogue announces for embedded chains.
    const flashPool = EMBEDDED_FLASH_LENDER;
    await this.rpc.call('anvil_setCode', [flashPool, FlashLoanPool.deployedBytecode]);
    if (this.options.name === 'base') {
      this.launchpad = this.deploy(BondingCurveLaunchpad.abi, BondingCurveLaunchpad.bytecode, [spec.dexes[0]!.factory, spec.wrappedNative, this.deployer]);
    }

    this.labels.wallets.whales = [...this.actors.get('whale')!];
    this.labels.wallets.smartMoney = [...this.actors.get('smart')!];
    this.labels.wallets.snipers = [...this.actors.get('sniper')!];
    this.labels.wallets.sandwichers = [...this.actors.get('sandwicher')!];
    this.labels.wallets.arbitrageurs = [...this.actors.get('arber')!];
    this.labels.wallets.exchanges = [...this.actors.get('exchange')!];
    this.labels.wallets.liquidityProviders = [...this.actors.get('lp')!];
    this.labels.wallets.crossChainArbitrageurs = [...this.actors.get('accumulator')!, ...this.actors.get('distributor')!];
    this.labels.wallets.holders = [...this.actors.get('holder')!];
    this.labels.wallets.treasuries = [this.treasury];
    this.labels.contracts = { routers: [...this.routers], flashLoanPool: flashPool, ...(this.launchpad && { launchpad: this.launchpad }) };

    // Fund every actor with gas, wrapped native and USDC; approve both routers for both.
    const usdPerRole: Record<Role, number> = { retail: 20_000, whale: 3_000_000, smart: 600_000, sniper: 200_000, sandwicher: 500_000, arber: 500_000, lp: 1_000_000, exchange: 5_000_000, creator: 0, accumulator: 400_000, distributor: 0, holder: 0, team: 0 };
    for (const [role, list] of this.actors) {
      for (const actor of list) {
        const usd = usdPerRole[role];
        if (usd === 0) {
          if (role !== 'holder') this.queueBalance(actor, parseEther('10000')); // gas only
          continue;
        }
        const wrapped = parseUnits((usd / 2 / this.nativeUsd()).toFixed(6), 18);
        this.queueBalance(actor, wrapped + parseEther('10000')); // what it wraps, and gas
        this.queue({ from: this.deployer, to: this.usdc.address, data: encodeFunctionData({ abi: EmbeddedUSDC.abi, functionName: 'mint', args: [actor, parseUnits(String(usd / 2), 6)] }), gas: GAS.transfer });
        this.queue({ from: actor, to: this.native.address, data: encodeFunctionData({ abi: WrappedNative.abi, functionName: 'deposit' }), value: wrapped, gas: GAS.transfer });
        this.credit(actor, this.usdc.address, parseUnits(String(usd / 2), 6));
        this.credit(actor, this.native.address, wrapped);
        for (const router of this.routers) {
          this.approve(actor, this.usdc.address, router);
          this.approve(actor, this.native.address, router);
        }
      }
    }
    // The flash-loan pool lends USDC and the wrapped native.
    this.queue({ from: this.deployer, to: this.usdc.address, data: encodeFunctionData({ abi: EmbeddedUSDC.abi, functionName: 'mint', args: [flashPool, parseUnits('5000000', 6)] }), gas: GAS.transfer });
    const lentNative = parseUnits((2_000_000 / this.nativeUsd()).toFixed(6), 18);
    this.queueBalance(this.deployer, lentNative + parseEther('1000000'));
    this.queue({ from: this.deployer, to: this.native.address, data: encodeFunctionData({ abi: WrappedNative.abi, functionName: 'deposit' }), value: lentNative, gas: GAS.transfer });
    this.queue({ from: this.deployer, to: this.native.address, data: encodeFunctionData({ abi: WrappedNative.abi, functionName: 'transfer', args: [flashPool, lentNative] }), gas: GAS.transfer });
    this.distributeSupply();
    await this.mineBlock(this.options.startTimestamp);
    await this.market.refresh(this.rpc);

    // A second DEX with shallower copies of the main pools, so prices diverge and arbitrage exists.
    const lp = this.actors.get('lp')![0]!;
    for (const pool of this.market.all().filter((p) => p.dex === 0).slice(0, 3)) {
      const share = 0.2 + this.rng.next() * 0.2;
      const amount0 = BigInt(Math.floor(Number(pool.r0) * share));
      const amount1 = BigInt(Math.floor(Number(pool.r1) * share));
      this.fundToken(lp, pool.token0, amount0);
      this.fundToken(lp, pool.token1, amount1);
      this.approve(lp, pool.token0, this.routers[1]!);
      this.approve(lp, pool.token1, this.routers[1]!);
      this.queue({ from: lp, to: this.routers[1]!, data: encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'addLiquidity', args: [pool.token0, pool.token1, amount0, amount1, 0n, 0n, lp, FAR_DEADLINE] }), gas: GAS.addLiquidity });
    }
    if (this.routers[1]) {
      await this.mineBlock(this.options.startTimestamp + 1);
      await this.discoverPairs(1);
    }
  }

  /**
   * Hands each genesis token's supply out from the treasury: a team wallet (not for bridged
   * majors, whose treasury is the bridge's custody), the exchanges' hot wallets and long-term
   * holders with Zipf-like bags; the rest stays with the treasury. Every share is labelled.
   */
  private distributeSupply(): void {
    const holders = this.actors.get('holder')!; // long-term holders, with Zipf-like bags
    const weights = holders.map((_, i) => 1 / (i + 1) ** 1.1);
    const total = weights.reduce((a, b) => a + b, 0);
    for (const token of this.tokens.values()) {
      if (token.kind !== 'genesis' || this.isQuoteMoney(token)) continue;
      const supply = this.options.genesis.tokens.get(token.symbol)?.supply;
      if (supply === undefined) continue;
      const bridged = token.asset !== undefined && token.asset !== token.symbol;
      const shares: [Address, 'team' | 'exchange' | 'holder', number][] = [];
      if (!bridged) shares.push([this.actorAddress(`team:${token.symbol}`, 0), 'team', DISTRIBUTION.team]);
      for (const exchange of this.actors.get('exchange')!) shares.push([exchange, 'exchange', DISTRIBUTION.perExchange]);
      holders.forEach((h, i) => shares.push([h, 'holder', (DISTRIBUTION.holders * weights[i]!) / total]));
      for (const [holder, kind, share] of shares) {
        const amount = (supply * BigInt(Math.round(share * 1e9))) / 1_000_000_000n;
        this.queue({ from: this.treasury, to: token.address, data: encodeFunctionData({ abi: DemoToken.abi, functionName: 'transfer', args: [holder, amount] }), gas: GAS.transfer });
        this.credit(holder, token.address, amount);
        this.labels.distribution.push({ token: token.address, symbol: token.symbol, holder, kind, share: Math.round(share * 1e6) / 1e6 });
      }
      this.labels.distribution.push({ token: token.address, symbol: token.symbol, holder: this.treasury, kind: bridged ? 'bridge' : 'treasury', share: null });
    }
  }

  /** USDC and the wrapped native: minted or wrapped on demand, never handed out from a treasury. */
  private isQuoteMoney(token: TokenInfo): boolean {
    return token === this.usdc || token === this.native;
  }

  /**
   * The number in a new token's symbol: unique across the chains of one world (they interleave),
   * so one symbol never names two different tokens, as it would look like one asset at two prices.
   */
  private symbolNumber(n: number): number {
    return (n - 1) * EVM_CHAIN_NAMES.length + EVM_CHAIN_NAMES.indexOf(this.options.name) + 1;
  }

  /** Actors are derived from the seed, so a resumed world finds the same ones. */
  private actorAddress(role: string, i: number): Address {
    return `0x${keccak256(toHex(`${this.options.seed}:${this.options.name}:${role}:${i}`)).slice(26)}` as Address;
  }

  private nativeUsd(): number {
    return this.options.genesis.tokens.get('NATIVE')!.priceUsd;
  }

  /** A token's reference USD price now (USDC is 1), or undefined for a token without a path. */
  private referenceUsd(token: TokenInfo, t = this.stepTime || this.now): number | undefined {
    if (token === this.usdc) return 1;
    return token.asset ? this.options.reference.priceUsd(token.asset, t) : undefined;
  }

  /** Queues a deployment and returns the address CREATE will give it. */
  private deploy(abi: Abi, bytecode: Hex, args: readonly unknown[], from: Address = this.deployer): Address {
    const nonce = this.nonces.get(from.toLowerCase()) ?? 0;
    this.queue({ from, data: encodeDeployData({ abi, bytecode, args } as never), gas: GAS.deploy });
    return contractAddress(from, nonce);
  }

  /** Every sender's next nonce: anvil assigns them in arrival order, so counting is exact. */
  private readonly nonces = new Map<string, number>();

  private queue(tx: TxRequest): void {
    const nonce = this.nonces.get(tx.from.toLowerCase()) ?? 0;
    this.nonces.set(tx.from.toLowerCase(), nonce + 1);
    this.pending.push({ ...tx, nonce });
  }

  private queueBalance(account: Address, wei: bigint): void {
    // Several needs of one account in one block add up (setBalance itself is absolute).
    const key = account.toLowerCase();
    this.balancesToSet.set(key, (this.balancesToSet.get(key) ?? 0n) + wei);
  }

  private approve(actor: Address, token: Address, spender: Address): void {
    const key = `${actor}:${token}:${spender}`.toLowerCase();
    if (this.approved.has(key)) return;
    this.approved.add(key);
    this.queue({ from: actor, to: token, data: encodeFunctionData({ abi: DemoToken.abi, functionName: 'approve', args: [spender, maxUint256] }), gas: GAS.approve });
  }

  private credit(actor: Address, token: Address, amount: bigint): void {
    const key = `${actor}:${token}`.toLowerCase();
    this.holdings.set(key, (this.holdings.get(key) ?? 0n) + amount);
  }

  private balance(actor: Address, token: Address): bigint {
    return this.holdings.get(`${actor}:${token}`.toLowerCase()) ?? 0n;
  }

  /** Gives an actor genesis tokens from the deployer (USDC is minted, the native wrapped). */
  private fundToken(actor: Address, token: Address, amount: bigint): void {
    if (token.toLowerCase() === this.usdc.address.toLowerCase()) {
      this.queue({ from: this.deployer, to: token, data: encodeFunctionData({ abi: EmbeddedUSDC.abi, functionName: 'mint', args: [actor, amount] }), gas: GAS.transfer });
    } else if (token.toLowerCase() === this.native.address.toLowerCase()) {
      this.queueBalance(actor, amount + parseEther('10000')); // the native it wraps, and gas
      this.queue({ from: actor, to: token, data: encodeFunctionData({ abi: WrappedNative.abi, functionName: 'deposit' }), value: amount, gas: GAS.transfer });
    } else {
      // Bags come from the treasury (the project's market-making and bridge reserve); the
      // exchanges' hot wallets keep their share.
      this.queue({ from: this.treasury, to: token, data: encodeFunctionData({ abi: DemoToken.abi, functionName: 'transfer', args: [actor, amount] }), gas: GAS.transfer });
    }
    this.credit(actor, token, amount);
  }

  private async discoverPairs(dex: number): Promise<void> {
    const factory = CHAINS[this.options.name].dexes[dex]!.factory;
    const count = Number(await this.client.readContract({ address: factory, abi: SibylV2Factory.abi, functionName: 'allPairsLength' }));
    for (let i = 0; i < count; i++) {
      const pair = (await this.client.readContract({ address: factory, abi: SibylV2Factory.abi, functionName: 'allPairs', args: [BigInt(i)] })) as Address;
      if (this.market.get(pair)) continue;
      const [token0, token1] = await Promise.all([
        this.client.readContract({ address: pair, abi: PAIR_TOKENS_ABI, functionName: 'token0' }),
        this.client.readContract({ address: pair, abi: PAIR_TOKENS_ABI, functionName: 'token1' }),
      ]);
      this.market.add({ pair, dex, token0, token1, r0: 0n, r1: 0n });
    }
    await this.market.refresh(this.rpc);
  }

  // ---- blocks ------------------------------------------------------------------------------

  /** Sends everything queued, in order, and mines it into one block at `timestamp`. */
  private async mineBlock(timestamp: number): Promise<bigint> {
    if (this.balancesToSet.size) {
      await this.rpc.batch([...this.balancesToSet].map(([account, wei]) => ({ method: 'anvil_setBalance', params: [account, `0x${wei.toString(16)}`] })));
      this.balancesToSet.clear();
    }
    const calls = this.pending.map((tx) => WorldRpc.sendCall(tx));
    this.pending = [];
    await this.rpc.batch(calls);
    await this.rpc.call('evm_mine', [timestamp]);
    this.block += 1n;
    this.now = timestamp;
    for (const event of this.blockEvents.splice(0)) event(Number(this.block));
    // The mirror follows the V2 math the chain runs, but liquidity adds, sell taxes and other
    // wallets move reserves too: touched pools are re-read after every block.
    if (this.touched.size) {
      await this.market.refresh(this.rpc, [...this.touched]);
      this.touched.clear();
    }
    return this.block;
  }

  /**
   * Advances the simulated clock to `until`, producing blocks of activity along the way. The
   * last DENSE_HISTORY_SECONDS get blocks every `meanBlockSeconds` on average; older history,
   * read only at 7d-30d resolution, gets blocks SPARSE_FACTOR times further apart (activity per
   * simulated hour is the same). Mining a block is the dominant cost of writing history.
   */
  async backfill(until: number, onProgress?: (fraction: number) => void, denseFrom = until - DENSE_HISTORY_SECONDS): Promise<void> {
    const start = this.now;
    let reported = 0;
    while (this.now < until) {
      const mean = this.now < denseFrom ? this.options.meanBlockSeconds * SPARSE_FACTOR : this.options.meanBlockSeconds;
      const next = Math.min(until, this.now + Math.max(1, Math.round(-Math.log(1 - this.rng.next()) * mean)));
      await this.step(next);
      const fraction = (this.now - start) / Math.max(1, until - start);
      if (fraction - reported >= 0.1) {
        reported = fraction;
        onProgress?.(fraction);
      }
    }
  }

  /** Produces a block every `intervalMs` of real time, stamped with the wall clock. */
  startLive(intervalMs: number, onError: (err: unknown) => void): void {
    let busy = false;
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      const t = Math.max(this.now + 1, Math.floor(Date.now() / 1000));
      // Between world blocks the node mines on arrival (payments settle at once); while the
      // world assembles a block, arrivals wait and are sealed into it.
      this.rpc.call('evm_setAutomine', [false])
        .then(() => this.step(t))
        .finally(() => this.rpc.call('evm_setAutomine', [true]))
        .catch(onError)
        .finally(() => (busy = false));
    }, intervalMs);
    this.timer.unref();
  }

  /** Exactly one block at `timestamp` (after the last): what a live chain produces, for a caller that paces it. */
  async stepAt(timestamp: number): Promise<void> {
    if (timestamp <= this.now) throw new Error(`block time ${timestamp} is not after the last block's ${this.now}`);
    await this.step(timestamp);
  }

  /** Hands the node back to mining on arrival once the backfill is written. */
  async finishBackfill(): Promise<void> {
    const assets = new Set([...this.tokens.values()].flatMap((t) => (t.asset ? [t.asset] : [])));
    this.labels.regimes = [...assets].flatMap((asset) => this.options.reference.regimes(asset, this.options.startTimestamp, this.now).map((r) => ({ asset, ...r })));
    await this.market.refresh(this.rpc);
    await this.rpc.call('evm_setAutomine', [true]);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.rpc.close();
  }

  /** One block: scheduled events, then the flow of the moment, then whatever it provokes. */
  private async step(timestamp: number): Promise<void> {
    const dt = timestamp - this.now;
    this.stepTime = timestamp;
    this.tradedThisBlock.clear();
    this.updateRegimes(timestamp);
    this.maybeList(timestamp, dt);
    this.maybeRug(timestamp);
    this.smartMoney(timestamp);
    await this.listGraduated();
    this.launchpadFlow(dt);
    await this.liquidityFlow(dt);
    this.whaleTransfers(dt);
    const retailTrades = this.rng.poisson((dt / 3600) * 6);
    for (let i = 0; i < retailTrades; i++) this.retailTrade(false);
    if (this.rng.chance((dt / 3600) * 0.4)) this.retailTrade(true);
    this.arbitrage();
    this.holdReference();
    for (const m of this.modules) await m.module.step(this.host, timestamp, dt);
    await this.mineBlock(timestamp);
  }

  // ---- actors --------------------------------------------------------------------------------

  /** Genesis tokens live the regimes of their reference asset (labelled in the reference paths). */
  private updateRegimes(t: number): void {
    for (const token of this.tokens.values()) {
      if (token.kind !== 'genesis' || !token.asset || t < token.regimeUntil) continue;
      const r = this.options.reference.regimeAt(token.asset, t);
      token.regime = r.label === 'bull' ? 1 : r.label === 'bear' ? -1 : 0;
      token.regimeFrom = r.from;
      token.regimeUntil = r.until;
    }
  }

  private tradeablePools(): Pool[] {
    return this.market.all().filter((p) => {
      const a = this.tokens.get(p.token0.toLowerCase());
      const b = this.tokens.get(p.token1.toLowerCase());
      const fresh = (t?: TokenInfo) => t?.listedAt !== undefined && t.listedAt >= this.stepTime;
      return a?.tradeable !== false && b?.tradeable !== false && !fresh(a) && !fresh(b) && p.r0 > 0n && p.r1 > 0n;
    });
  }

  /** The non-quote side of a pool and its quote side. */
  private sidesOf(pool: Pool): { token: TokenInfo; quote: TokenInfo } | undefined {
    const t0 = this.tokens.get(pool.token0.toLowerCase());
    const t1 = this.tokens.get(pool.token1.toLowerCase());
    if (!t0 || !t1) return undefined;
    const isQuote = (t: TokenInfo) => t.address.toLowerCase() === this.usdc.address.toLowerCase() || t.address.toLowerCase() === this.native.address.toLowerCase() || t.symbol === 'VIRTUAL';
    if (isQuote(t0) && !isQuote(t1)) return { token: t1, quote: t0 };
    if (isQuote(t1) && !isQuote(t0)) return { token: t0, quote: t1 };
    // Two quote assets (e.g. WETH/USDC): the native is the "token".
    return t0.address.toLowerCase() === this.native.address.toLowerCase() ? { token: t0, quote: t1 } : { token: t1, quote: t0 };
  }

  private usdOf(token: TokenInfo): number {
    if (token.address.toLowerCase() === this.usdc.address.toLowerCase()) return 1;
    const viaUsdc = this.market.find(0, token.address, this.usdc.address);
    if (viaUsdc) return this.market.price(viaUsdc, token.address, token.decimals, 6);
    const viaNative = this.market.find(0, token.address, this.native.address);
    if (viaNative) return this.market.price(viaNative, token.address, token.decimals, 18) * this.usdOf(this.native);
    return 0;
  }

  private toRaw(token: TokenInfo, usd: number): bigint {
    const price = this.usdOf(token);
    if (price <= 0) return 0n;
    const units = usd / price;
    return BigInt(Math.floor(units * 10 ** Math.min(token.decimals, 12))) * 10n ** BigInt(Math.max(0, token.decimals - 12));
  }

  /** Queues a router swap and applies it to the mirror and the holdings. Returns the output. */
  private swap(actor: Address, pool: Pool, tokenIn: Address, amountIn: bigint): bigint {
    if (amountIn <= 0n || this.balance(actor, tokenIn) < amountIn) return 0n;
    const router = this.routers[pool.dex]!;
    const tokenOut = tokenIn.toLowerCase() === pool.token0.toLowerCase() ? pool.token1 : pool.token0;
    this.approve(actor, tokenIn, router);
    const info = this.tokens.get(tokenIn.toLowerCase());
    const sellBlocked = info && (info.kind === 'honeypot') && this.isPoolOf(info, pool);
    this.queue({ from: actor, to: router, data: encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'swapExactTokensForTokens', args: [amountIn, 0n, [tokenIn, tokenOut], actor, FAR_DEADLINE] }), gas: GAS.swap });
    this.touched.add(pool);
    if (sellBlocked) return 0n; // reverts on chain: nothing moves
    const taxBps = info?.kind === 'taxed' && this.isPoolOf(info, pool) ? 2_500n : 0n;
    const effectiveIn = amountIn - (amountIn * taxBps) / 10_000n;
    const out = this.market.swap(pool, tokenIn, effectiveIn);
    this.credit(actor, tokenIn, -amountIn);
    this.credit(actor, tokenOut, out);
    return out;
  }

  private isPoolOf(token: TokenInfo, pool: Pool): boolean {
    return pool.token0.toLowerCase() === token.address.toLowerCase() || pool.token1.toLowerCase() === token.address.toLowerCase();
  }

  private retailTrade(whale: boolean): void {
    const pools = this.tradeablePools();
    if (!pools.length) return;
    const pool = this.rng.pick(pools);
    const sides = this.sidesOf(pool);
    if (!sides) return;
    const { token, quote } = sides;
    const actor = this.rng.pick(this.actors.get(whale ? 'whale' : 'retail')!);
    // A person trades once per block: a block stands for seconds of a real chain.
    if (this.tradedThisBlock.has(actor)) return;
    this.tradedThisBlock.add(actor);
    // A whale's order is large but still a fraction of the book: at most 10% of the quote reserve.
    const usd = whale ? Math.min(this.rng.logUniform(60_000, 600_000), 0.1 * this.usdOf(quote) * Number(this.market.sides(pool, quote.address)[0]) / 10 ** quote.decimals) : this.rng.logUniform(20, 4_000);
    const buyBias = 0.5 + 0.15 * token.regime + (token.kind === 'genesis' ? 0 : 0.2);
    const held = this.balance(actor, token.address);
    const buy = held === 0n || this.rng.chance(buyBias);
    if (buy) {
      const amountIn = this.toRaw(quote, usd);
      if (this.balance(actor, quote.address) < amountIn) return;
      const victimUsd = usd;
      const sandwich = !whale && victimUsd > 400 && this.rng.chance(0.12) && token.kind === 'genesis';
      if (sandwich) return this.sandwich(actor, pool, quote.address, amountIn, victimUsd);
      this.swap(actor, pool, quote.address, amountIn);
    } else {
      const amountIn = (held * BigInt(this.rng.int(20, 100))) / 100n;
      this.swap(actor, pool, token.address, amountIn);
    }
  }

  /**
   * Front-run the victim's buy, let it fill at a worse price, back-run: all in one block. Like
   * a real bot, the attacker sizes the front leg for the best profit on the pool as it stands
   * and attacks only when that profit is positive.
   */
  private sandwich(victim: Address, pool: Pool, quoteIn: Address, victimIn: bigint, victimUsd: number): void {
    const attacker = this.rng.pick(this.actors.get('sandwicher')!);
    const [rq, rt] = this.market.sides(pool, quoteIn);
    let best = 0n;
    let bestProfit = 0n;
    for (const tenths of [2, 5, 10, 15, 20, 30, 40, 60, 80]) {
      const frontIn = (victimIn * BigInt(tenths)) / 10n;
      const bought = v2AmountOut(frontIn, rq, rt);
      const victimOut = v2AmountOut(victimIn, rq + frontIn, rt - bought);
      const back = v2AmountOut(bought, rt - bought - victimOut, rq + frontIn + victimIn);
      if (back - frontIn > bestProfit) {
        bestProfit = back - frontIn;
        best = frontIn;
      }
    }
    if (best === 0n || this.balance(attacker, quoteIn) < best) return void this.swap(victim, pool, quoteIn, victimIn);
    const tokenOut = quoteIn.toLowerCase() === pool.token0.toLowerCase() ? pool.token1 : pool.token0;
    const bought = this.swap(attacker, pool, quoteIn, best);
    this.swap(victim, pool, quoteIn, victimIn);
    this.swap(attacker, pool, tokenOut, bought);
    const label = { pool: pool.pair, attacker, victim, victimUsd: Math.round(victimUsd) };
    this.blockEvents.push((block) => this.labels.sandwiches.push({ ...label, block }));
  }

  /** Trades between the two DEXes when the same pair's prices diverge by more than 0.6%. */
  private arbitrage(): void {
    for (const a of this.market.all().filter((p) => p.dex === 0)) {
      const b = this.market.find(1, a.token0, a.token1);
      if (!b || b.r0 === 0n || a.r0 === 0n) continue;
      const pa = Number(a.r1) / Number(a.r0);
      const pb = Number(b.r1) / Number(b.r0);
      if (Math.abs(pa / pb - 1) < 0.006) continue;
      const arber = this.rng.pick(this.actors.get('arber')!);
      // token0 is cheaper (in token1) on the lower-priced pool: buy it there with token1 and
      // sell it on the other; or, holding token0, the mirror trade on token1.
      const [cheap0, dear0] = pa < pb ? [a, b] : [b, a];
      const routes: [Pool, Pool, Address][] = [[cheap0, dear0, cheap0.token1], [dear0, cheap0, dear0.token0]];
      for (const [buyPool, sellPool, input] of routes) {
        const [reserveIn] = this.market.sides(buyPool, input);
        const held = this.balance(arber, input);
        let best = 0n;
        let bestProfit = 0n;
        for (let i = 1; i <= 20; i++) {
          const amountIn = (reserveIn * BigInt(i)) / 400n;
          if (amountIn > held) break;
          const got = this.market.quote(buyPool, input, amountIn);
          const middle = input.toLowerCase() === buyPool.token0.toLowerCase() ? buyPool.token1 : buyPool.token0;
          const back = this.market.quote(sellPool, middle, got);
          if (back - amountIn > bestProfit) {
            bestProfit = back - amountIn;
            best = amountIn;
          }
        }
        if (best === 0n) continue;
        const middle = input.toLowerCase() === buyPool.token0.toLowerCase() ? buyPool.token1 : buyPool.token0;
        const got = this.swap(arber, buyPool, input, best);
        this.swap(arber, sellPool, middle, got);
        const label = { arber, buyPool: buyPool.pair, sellPool: sellPool.pair };
        this.blockEvents.push((block) => this.labels.arbitrages.push({ ...label, block }));
        break;
      }
    }
  }

  /**
   * Roughly every 10 simulated hours a creator lists a new token; some are traps. A chain's
   * opening listings come faster (one every 4 hours, a launch wave), so a short history holds them.
   */
  private maybeList(t: number, dt: number): void {
    const meanHours = this.listings.length < OPENING_LISTINGS.length ? 4 : 10;
    if (!this.rng.chance((dt / 3600) / meanHours)) return;
    const n = ++this.listingCounter;
    const creator = this.actorAddress('creator', n);
    this.queueBalance(creator, parseEther('10000000'));
    const roll = this.rng.next();
    const opening = OPENING_LISTINGS[this.listings.length];
    const kind: TokenInfo['kind'] = opening?.kind ?? (roll < 0.45 ? 'listing' : roll < 0.65 ? 'honeypot' : roll < 0.8 ? 'taxed' : 'owner-powers');
    const base = this.options.name === 'base' && this.rng.chance(0.4) ? [...this.tokens.values()].find((x) => x.symbol === 'VIRTUAL') : undefined;
    const quote = base ?? this.native;
    const symbol = `${kind === 'listing' ? 'NEW' : kind === 'honeypot' ? 'HONEY' : kind === 'taxed' ? 'TAX' : 'OWN'}${this.symbolNumber(n)}`;
    const supply = parseEther('1000000000');
    const token = kind === 'honeypot' || kind === 'taxed'
      ? this.deploy(SellTaxToken.abi, SellTaxToken.bytecode, [`${symbol} Token`, symbol, supply, kind === 'taxed' ? 2_500 : 0, kind === 'honeypot'], creator)
      : kind === 'owner-powers'
        ? this.deploy(OwnerPowersToken.abi, OwnerPowersToken.bytecode, [`${symbol} Token`, symbol, supply], creator)
        : this.deploy(DemoToken.abi, DemoToken.bytecode, [`${symbol} Token`, symbol, 18, supply, creator], creator);
    const info: TokenInfo = { symbol, address: token, decimals: 18, quote: quote.address, kind, regime: 1, regimeUntil: t + 86_400, tradeable: true, listedAt: t };
    this.tokens.set(token.toLowerCase(), info);

    // Liquidity: most of the supply against $20k-$120k of the quote asset.
    const quoteUsd = this.rng.logUniform(20_000, 120_000);
    const quoteAmount = this.toRaw(quote, quoteUsd);
    const tokenAmount = (supply * 8n) / 10n;
    this.fundToken(creator, quote.address, quoteAmount);
    this.credit(creator, token, supply);
    const router = this.routers[0]!;
    this.approve(creator, token, router);
    this.approve(creator, quote.address, router);
    this.queue({ from: creator, to: router, data: encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'addLiquidity', args: [token, quote.address, tokenAmount, quoteAmount, 0n, 0n, creator, FAR_DEADLINE] }), gas: GAS.addLiquidity });
    const pair = pairAddress(CHAINS[this.options.name].dexes[0]!.factory, token, quote.address);
    if (kind === 'honeypot' || kind === 'taxed') {
      this.queue({ from: creator, to: token, data: encodeFunctionData({ abi: SellTaxToken.abi, functionName: 'setPool', args: [pair, true] }), gas: GAS.approve });
    }
    const [token0, token1] = token.toLowerCase() < quote.address.toLowerCase() ? [token, quote.address] : [quote.address, token];
    const pool = this.market.add({ pair, dex: 0, token0, token1, r0: 0n, r1: 0n });
    if (token0 === token) { pool.r0 = tokenAmount; pool.r1 = quoteAmount; } else { pool.r0 = quoteAmount; pool.r1 = tokenAmount; }
    this.credit(creator, token, -tokenAmount);
    this.touched.add(pool);
    const rugRoll = (kind === 'listing' || kind === 'owner-powers') && this.rng.chance(0.35);
    const rugAt = (opening ? opening.rug : rugRoll) ? t + this.rng.int(6, opening ? 12 : 30) * 3600 : undefined;
    this.listings.push({ token: info, creator, pool, lp: sqrt(tokenAmount * quoteAmount) - 1000n, rugAt });
    this.labels.tokens.push({ token, symbol, kind, creator, pair, rug: rugAt !== undefined });

    // Snipers buy in the very block liquidity arrives, right behind it.
    for (const sniper of this.actors.get('sniper')!) {
      if (!this.rng.chance(0.8)) continue;
      const amountIn = this.toRaw(quote, this.rng.logUniform(500, 5_000));
      // A sniper keeps inventory in every asset listings pair with (e.g. VIRTUAL on Base).
      if (this.balance(sniper, quote.address) < amountIn) this.fundToken(sniper, quote.address, amountIn * 10n);
      this.swap(sniper, pool, quote.address, amountIn);
      this.blockEvents.push((block) => this.labels.snipes.push({ sniper, token, pair, block }));
    }
  }

  /** Rug-pullers remove all their liquidity once buyers have come in. */
  private maybeRug(t: number): void {
    for (const l of this.listings) {
      if (l.rugAt === undefined || t < l.rugAt) continue;
      l.rugAt = undefined;
      const router = this.routers[0]!;
      const lpBalance = l.lp;
      this.approve(l.creator, l.pool.pair, router);
      this.queue({ from: l.creator, to: router, data: encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'removeLiquidity', args: [l.pool.token0, l.pool.token1, lpBalance, 0n, 0n, l.creator, FAR_DEADLINE] }), gas: GAS.remove });
      this.touched.add(l.pool);
      l.token.tradeable = false;
      const rug = { token: l.token.address, pair: l.pool.pair, creator: l.creator };
      this.blockEvents.push((block) => this.labels.rugs.push({ ...rug, block }));
    }
  }

  /**
   * The one market: every pool whose two sides have reference prices (on either DEX) is traded
   * back onto the reference within the block once it strays beyond REFERENCE_BAND, as
   * cross-chain and CEX-DEX arbitrageurs do. The trade is sized to land on the reference price
   * (a constant-product pool reaches price p at reserveIn' = sqrt(k * p)). The crowd doing it is
   * two sets of wallets, buyers that never sell and sellers that only sell (their bags come
   * from the treasury), so none of them books trading profit on chain:
   * the other leg of their arbitrage is off this chain. Runs last in a block, after everything
   * that moved prices.
   */
  private holdReference(): void {
    for (const pool of this.market.all()) {
      if (pool.r0 === 0n || pool.r1 === 0n) continue;
      const sides = this.sidesOf(pool);
      if (!sides) continue;
      const { token, quote } = sides;
      const tokenUsd = this.referenceUsd(token);
      const quoteUsd = this.referenceUsd(quote);
      if (!tokenUsd || !quoteUsd) continue;
      const fair = tokenUsd / quoteUsd; // token in quote, whole units
      const gap = fair / this.market.price(pool, token.address, token.decimals, quote.decimals);
      if (Math.abs(gap - 1) < REFERENCE_BAND) continue;
      const buying = gap > 1; // the pool is cheap: buy the token with the quote
      const tokenIn = buying ? quote : token;
      const free = this.actors.get(buying ? 'accumulator' : 'distributor')!.filter((a) => !this.tradedThisBlock.has(a));
      if (!free.length) continue;
      const actor = this.rng.pick(free);
      this.tradedThisBlock.add(actor);
      const [reserveIn] = this.market.sides(pool, tokenIn.address);
      // The price goes with reserveIn^2 (the token's: 1 / reserveIn^2), so reserveIn grows by the gap's square root.
      const growth = Math.sqrt(buying ? gap : 1 / gap) - 1;
      // (The 0.3% fee stays in the pool, so k grows a little: the landing is within 0.003 * growth.)
      const amountIn = (reserveIn * BigInt(Math.round(growth * 1e9))) / 1_000_000_000n;
      if (amountIn <= 0n) continue;
      const short = amountIn - this.balance(actor, tokenIn.address);
      // Funded in bulk: one transfer stands for a bag bridged in, not one per trade.
      if (short > 0n) this.fundToken(actor, tokenIn.address, short * 20n);
      this.swap(actor, pool, tokenIn.address, amountIn);
    }
  }

  /**
   * Smart money is informed: it sees where the reference path goes over the next SMART_HORIZON
   * (in USD, what its profit is counted in). When the best
   * price ahead is at least SMART_MIN_GAIN above now, each smart wallet (once per token every
   * three hours, with probability 0.85) buys 0.2-0.5% of the pool's quote reserve, and sells once
   * 70% of that move has come or at the best moment: it books real profits, as the labels claim.
   */
  private smartMoney(t: number): void {
    for (const token of this.tokens.values()) {
      if (token.kind !== 'genesis' || !token.asset) continue;
      const pool = this.market.find(0, token.address, token.quote);
      if (!pool) continue;
      // Judged in USD, as its profit is: a token quoted in a falling native can still lose.
      const usd = (at: number) => this.referenceUsd(token, at)!;
      const now = usd(t);
      let best = { ratio: 1, at: t };
      for (let h = 1; h <= SMART_HORIZON_S / 3600; h++) {
        const ratio = usd(t + h * 3600) / now;
        if (ratio > best.ratio) best = { ratio, at: t + h * 3600 };
      }
      // One smart entry and one exit per token a block, wallets taken in a rotating order: piling
      // in behind each other, the last would buy dearest and sell cheapest every time.
      const smart = this.actors.get('smart')!;
      const first = this.rng.int(0, smart.length - 1);
      let entered = false;
      let exited = false;
      for (const actor of [...smart.slice(first), ...smart.slice(0, first)]) {
        if (this.tradedThisBlock.has(actor)) continue;
        const key = `${actor}:${token.address}`.toLowerCase();
        const position = this.smartPositions.get(key);
        if (!position && !entered && best.ratio - 1 >= SMART_MIN_GAIN) {
          const decision = `${key}:${Math.floor((t - this.options.startTimestamp) / (3 * 3600))}`;
          if (this.smartDecisions.has(decision)) continue;
          this.smartDecisions.add(decision);
          if (!this.rng.chance(0.85)) continue;
          const [quoteReserve] = this.market.sides(pool, token.quote);
          const amountIn = (quoteReserve * BigInt(this.rng.int(20, 50))) / 10_000n;
          const amount = this.swap(actor, pool, token.quote, amountIn);
          if (amount > 0n) {
            entered = true;
            this.tradedThisBlock.add(actor);
            // Takes profit once most of the move it saw has come, or at the moment it saw as best.
            this.smartPositions.set(key, { actor, token, amount, exitAt: best.at, target: now * (1 + SMART_TAKE * (best.ratio - 1)) });
          }
        } else if (position && !exited && (t >= position.exitAt || now >= position.target)) {
          exited = true;
          this.tradedThisBlock.add(actor);
          // Sells the position, not the wallet's float of the token (e.g. its wrapped native).
          this.swap(actor, pool, token.address, position.amount);
          this.smartPositions.delete(key);
        }
      }
    }
  }

  /** Liquidity providers add to and withdraw from the main pools (Mint and Burn events). */
  private async liquidityFlow(dt: number): Promise<void> {
    if (!this.rng.chance((dt / 3600) * 0.5)) return;
    const lp = this.rng.pick(this.actors.get('lp')!);
    const pools = this.market.all().filter((p) => this.tokens.get(p.token0.toLowerCase())?.kind === 'genesis' && this.tokens.get(p.token1.toLowerCase())?.kind === 'genesis' && p.r0 > 0n);
    if (!pools.length) return;
    const pool = this.rng.pick(pools);
    const router = this.routers[pool.dex]!;
    const held = (await this.client.readContract({ address: pool.pair, abi: DemoToken.abi, functionName: 'balanceOf', args: [lp] })) as bigint;
    if (held > 0n && this.rng.chance(0.4)) {
      const amount = (held * BigInt(this.rng.int(30, 100))) / 100n;
      this.approve(lp, pool.pair, router);
      this.queue({ from: lp, to: router, data: encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'removeLiquidity', args: [pool.token0, pool.token1, amount, 0n, 0n, lp, FAR_DEADLINE] }), gas: GAS.remove });
    } else {
      const share = this.rng.logUniform(0.01, 0.15);
      const amount0 = BigInt(Math.floor(Number(pool.r0) * share));
      const amount1 = BigInt(Math.floor(Number(pool.r1) * share));
      this.fundToken(lp, pool.token0, amount0);
      this.fundToken(lp, pool.token1, amount1);
      this.approve(lp, pool.token0, router);
      this.approve(lp, pool.token1, router);
      this.queue({ from: lp, to: router, data: encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'addLiquidity', args: [pool.token0, pool.token1, amount0, amount1, 0n, 0n, lp, FAR_DEADLINE] }), gas: GAS.addLiquidity });
      pool.r0 += amount0;
      pool.r1 += amount1;
    }
    this.touched.add(pool);
  }

  /** Whales move size between themselves and exchange hot wallets (large Transfer events). */
  private whaleTransfers(dt: number): void {
    if (!this.rng.chance((dt / 3600) * 0.3)) return;
    const whale = this.rng.pick(this.actors.get('whale')!);
    const exchanges = this.actors.get('exchange')!;
    const token = this.rng.chance(0.6) ? this.usdc : this.native;
    const amount = this.toRaw(token, this.rng.logUniform(100_000, 1_500_000));
    if (this.balance(whale, token.address) < amount) return;
    const to = this.rng.chance(0.5) ? this.rng.pick(exchanges) : this.rng.pick(this.actors.get('whale')!.filter((w) => w !== whale));
    this.queue({ from: whale, to: token.address, data: encodeFunctionData({ abi: DemoToken.abi, functionName: 'transfer', args: [to, amount] }), gas: GAS.transfer });
    this.credit(whale, token.address, -amount);
    this.credit(to, token.address, amount);
  }

  /**
   * A graduated curve token keeps trading: once the launchpad has migrated it (its pair against
   * the wrapped native exists on chain), it joins the tradeable tokens and its pool the market.
   */
  private async listGraduated(): Promise<void> {
    const factory = CHAINS[this.options.name].dexes[0]!.factory;
    for (const curve of this.curveTokens) {
      if (!curve.graduated || curve.listed) continue;
      const pair = (await this.client.readContract({ address: factory, abi: SibylV2Factory.abi, functionName: 'getPair', args: [curve.address, this.native.address] })) as Address;
      if (/^0x0{40}$/i.test(pair)) continue; // the last buy is not mined yet
      curve.listed = true;
      const label = this.labels.tokens.find((t) => t.token === curve.address);
      if (label) label.pair = pair;
      this.tokens.set(curve.address.toLowerCase(), { symbol: label?.symbol ?? 'CRV', address: curve.address, decimals: 18, quote: this.native.address, kind: 'launchpad', regime: this.rng.pick([-1, 0, 1]), regimeUntil: this.now + 86_400, tradeable: true });
      const [token0, token1] = curve.address.toLowerCase() < this.native.address.toLowerCase() ? [curve.address, this.native.address] : [this.native.address, curve.address];
      const pool = this.market.add({ pair, dex: 0, token0, token1, r0: 0n, r1: 0n });
      await this.market.refresh(this.rpc, [pool]);
    }
  }

  /** Base only: creators launch curve tokens; buyers push some of them to graduation. */
  private launchpadFlow(dt: number): void {
    if (!this.launchpad) return;
    if (this.rng.chance((dt / 3600) / 5)) {
      const n = ++this.listingCounter;
      const creator = this.actorAddress('creator', n);
      this.queueBalance(creator, parseEther('1000000'));
      const symbol = `CRV${this.symbolNumber(n)}`;
      const index = this.curveTokens.length;
      this.queue({ from: creator, to: this.launchpad, data: encodeFunctionData({ abi: BondingCurveLaunchpad.abi, functionName: 'launch', args: [`${symbol} Coin`, symbol] }), value: parseEther('0.1'), gas: GAS.launch });
      const address = contractAddress(this.launchpad, index + 1);
      this.curveTokens.push({ address, creator, raisedWei: parseEther('0.099'), graduated: false });
      this.labels.tokens.push({ token: address, symbol, kind: 'launchpad', creator, pair: null, rug: false });
    }
    const open = this.curveTokens.filter((c) => !c.graduated);
    const buys = this.rng.poisson((dt / 3600) * 3);
    for (let i = 0; i < buys && open.length; i++) {
      const curve = this.rng.pick(open);
      const buyer = this.rng.pick(this.actors.get('retail')!);
      const wei = parseEther(this.rng.logUniform(0.02, 1.2).toFixed(4));
      this.queue({ from: buyer, to: this.launchpad, data: encodeFunctionData({ abi: BondingCurveLaunchpad.abi, functionName: 'buy', args: [curve.address, 0n] }), value: wei, gas: GAS.curve * 8n });
      curve.raisedWei += (wei * 99n) / 100n;
      if (curve.raisedWei >= parseEther('4.25')) curve.graduated = true; // the launchpad migrates it
    }
  }
}

const PAIR_TOKENS_ABI = [
  { type: 'function', name: 'token0', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] },
  { type: 'function', name: 'token1', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] },
] as const;

function contractAddress(from: Address, nonce: number): Address {
  return getContractAddress({ from, nonce: BigInt(nonce) });
}

/** The V2 CREATE2 pair address: salt is keccak(token0 ++ token1), init code is the pair's. */
function pairAddress(factory: Address, a: Address, b: Address): Address {
  const [t0, t1] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a];
  return getContractAddress({ opcode: 'CREATE2', from: factory, salt: keccak256(`0x${t0.slice(2)}${t1.slice(2)}`), bytecode: SibylV2Pair.bytecode });
}

function sqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}
