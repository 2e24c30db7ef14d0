/**
 * The market world: a deterministic simulator (for a seed) that turns an embedded chain into a
 * living market. It backfills a history ending now, then keeps producing blocks. Its actors
 * leave the traces real ones leave (behaviours/: retail flow, whales, smart money that trades
 * ahead of trends, snipers in a listing's first blocks, sandwiches around victims in one block,
 * arbitrage across two DEXes, rug pulls, honeypots, launchpad curves; modules/: the protocols
 * beside the market), and it writes the ground truth to a labels file that the analytics never
 * read.
 *
 * This class is the host they act through: the world's state (tokens, pools, holdings, the
 * market's generator), the transaction queue and nonces, mining and block timing, saving and
 * resuming, and the plumbing that runs the behaviours and modules in every block.
 */
import {
  createPublicClient, encodeDeployData, encodeFunctionData, getContractAddress, http, maxUint256, parseEther,
  type Abi, type Address, type Hex, type PublicClient,
} from 'viem';
import { DemoToken, EmbeddedUSDC, SibylV2Router, WrappedNative } from '../chain/artifacts/index.js';
import { demoAccount } from '../chain/accounts.js';
import { CHAINS, STOCK_CHAIN, type EvmChainName } from '../chain/chains.js';
import type { GenesisDeployment } from '../chain/devnet.js';
import { GENESIS_TREASURY } from '../chain/genesis.js';
import { viemChain } from '../chain/runtime.js';
import { Rng } from '../lib/random.js';
import { ACTOR_COUNTS, actorAddress, castOf, type Role } from './actors.js';
import type { MarketBehaviour, MarketHost } from './behaviours/behaviour.js';
import { marketBehaviours } from './behaviours/index.js';
import type { Listings } from './behaviours/listings.js';
import { FAR_DEADLINE, GAS } from './gas.js';
import { emptyLabels, type WorldLabels } from './labels.js';
import { Market, type Pool } from './market.js';
import { WORLD_MODULES } from './modules/index.js';
import type { WorldHost, WorldModule, WorldModuleFactory } from './modules/module.js';
import type { ReferencePaths } from './reference.js';
import { WorldRpc, type TxRequest } from './rpc.js';
import { openMarket, type SetupHost } from './setup.js';

/** History written at full block density: the periods up to 24h read it candle by candle. */
export const DENSE_HISTORY_SECONDS = 2 * 86_400;
const SPARSE_FACTOR = 3;
/** Seconds after the history's first block kept for the market's and the modules' setup blocks (one second each). */
const MODULE_SETUP_SECONDS = 60;
/**
 * The market behaviours the stock chain runs: its one crypto pool (ETH/USDC) kept on the
 * reference price by arbitrage, its LPs, and whales moving size to and from the exchanges. No
 * token listings (nor their snipers and rugs) and no retail order flow, which carries the
 * sandwiches a sequencer ordering by arrival rules out: what trades there is the stock tokens,
 * which world modules write.
 */
const STOCK_CHAIN_BEHAVIOURS: ReadonlySet<string> = new Set(['regimes', 'liquidity', 'whale-transfers', 'cross-chain-arbitrage']);
/**
 * The stock chain's cast: the roles those behaviours act with and no others, so no wallet is
 * labelled there as smart money, a sniper, a sandwicher, a DEX arbitrageur, retail or a holder
 * that never acts there (its genesis has no supply to hold). Its one pool takes one cross-chain
 * trade a block at most: two buyers and two sellers, each of whom trades it within hours (with the
 * other chains' 24 and 24, a few sellers never did in a week).
 */
const STOCK_CHAIN_CAST: Readonly<Partial<Record<Role, number>>> = {
  whale: ACTOR_COUNTS.whale, lp: ACTOR_COUNTS.lp, exchange: ACTOR_COUNTS.exchange, accumulator: 2, distributor: 2,
};

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

/** What `World.toState()` writes: plain JSON (amounts as decimal strings). */
export interface WorldState {
  rng: [number, number, number, number];
  block: string;
  now: number;
  listingCounter: number;
  tokens: TokenInfo[];
  pools: { pair: Address; dex: number; token0: Address; token1: Address }[];
  routers: Address[];
  holdings: [string, string][];
  approved: string[];
  nonces: [string, number][];
  labels: WorldLabels;
  /** Each market behaviour's state, by behaviour name (those that keep any). */
  behaviours: Record<string, unknown>;
  /** Each module's generator and state, by module name. */
  modules: Record<string, { rng: [number, number, number, number]; state: unknown }>;
}

export class World {
  readonly labels: WorldLabels;
  /** The market's generator: its behaviours draw from it in turn (modules have their own). */
  private rng: Rng;
  private readonly rpc: WorldRpc;
  private readonly client: PublicClient;
  private readonly market = new Market();
  private readonly tokens = new Map<string, TokenInfo>(); // by lower-case address
  private readonly routers: Address[] = [];
  private readonly actors: Map<Role, Address[]>;
  private readonly holdings = new Map<string, bigint>(); // `${actor}:${token}` → raw amount
  private readonly approved = new Set<string>();
  /** Every sender's next nonce: anvil assigns them in arrival order, so counting is exact. */
  private readonly nonces = new Map<string, number>();
  private block = 0n;
  private now: number;
  /** The next block's transactions, in order, and the balances to set before they are sent. */
  private pending: TxRequest[] = [];
  private balancesToSet = new Map<string, bigint>();
  /** Labels that learn their block number once it is mined, and whether the transactions they watch (indices in `pending`) succeeded. */
  private blockEvents: { watch: readonly number[]; fn: (block: number, succeeded: readonly boolean[]) => void }[] = [];
  private touched = new Set<Pool>();
  private listingCounter = 0;
  private timer?: NodeJS.Timeout;
  /** Live blocks and `between` work, one at a time. */
  private lane: Promise<unknown> = Promise.resolve();
  /** Timestamp of the block being assembled, and who has traded in it. */
  private stepTime = 0;
  private readonly tradedThisBlock = new Set<Address>();
  /** Module actors already in `labels.moduleActors` (lower case). */
  private readonly moduleActors = new Set<string>();
  /** The market's behaviours, in the order they act in a block. */
  private readonly behaviours: readonly MarketBehaviour[];
  private readonly listings: Listings;
  /** The protocols written beside the market (world/modules), each with its own generator. */
  private modules: { module: WorldModule; rng: Rng }[] = [];

  private constructor(private readonly options: WorldOptions) {
    this.actors = castOf(options.seed, options.name, options.name === STOCK_CHAIN ? STOCK_CHAIN_CAST : ACTOR_COUNTS);
    this.rng = new Rng(`${options.seed}:${options.name}`);
    this.rpc = new WorldRpc(options.rpcUrl);
    this.client = createPublicClient({ chain: viemChain(options.name, options.rpcUrl), transport: http(options.rpcUrl, { batch: { wait: 0 } }), batch: { multicall: { wait: 0 } } }) as PublicClient;
    this.labels = emptyLabels(options.name, options.seed);
    this.now = options.startTimestamp;
    const { all, listings } = marketBehaviours();
    this.behaviours = options.name === STOCK_CHAIN ? all.filter((b) => STOCK_CHAIN_BEHAVIOURS.has(b.name)) : all;
    if (options.name === STOCK_CHAIN && this.behaviours.length !== STOCK_CHAIN_BEHAVIOURS.size) throw new Error(`the stock chain's behaviours are not all among the market's: ${[...STOCK_CHAIN_BEHAVIOURS].join(', ')}`);
    this.listings = listings;
  }

  /** Deploys contracts and mints USDC (the devnet's minter); it holds no tokens. */
  private get deployer(): Address {
    return demoAccount(0).address;
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
    await world.attach();
    await openMarket(world.setupHost, options.genesis, world.behaviours);
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
      holdings: big(this.holdings),
      approved: [...this.approved],
      nonces: [...this.nonces],
      labels: this.labels,
      behaviours: Object.fromEntries(this.behaviours.flatMap((b) => (b.toState ? [[b.name, b.toState()]] : []))),
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
    for (const [k, v] of state.holdings) this.holdings.set(k, BigInt(v));
    for (const a of state.approved) this.approved.add(a);
    for (const [k, v] of state.nonces) this.nonces.set(k, v);
    for (const b of this.behaviours) if (b.name in state.behaviours) b.restore?.(state.behaviours[b.name], this.marketHost);
    Object.assign(this.labels, state.labels);
    for (const a of this.labels.moduleActors) this.moduleActors.add(a.address.toLowerCase());
  }

  /** What the market's behaviours may use of the world (behaviours/behaviour.ts). */
  private readonly marketHost: MarketHost = (() => {
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
      get rng() { return world.rng; },
      get market() { return world.market; },
      get routers() { return world.routers; },
      get startTimestamp() { return world.options.startTimestamp; },
      time: () => world.stepTime || world.now + 1,
      nextBlock: () => Number(world.block) + 1,
      lastBlockTime: () => world.now,
      tokens: () => [...world.tokens.values()],
      token: (address) => world.tokens.get(address.toLowerCase()),
      addToken: (info) => void world.tokens.set(info.address.toLowerCase(), info),
      pools: () => world.market.all(),
      pool: (dex, a, b) => world.market.find(dex, a, b),
      actors: (role) => world.actors.get(role) ?? [],
      actorAddress: (role, i) => actorAddress(world.options.seed, world.options.name, role, i),
      nextListingNumber: () => ++world.listingCounter,
      hasTraded: (actor) => world.tradedThisBlock.has(actor),
      markTraded: (actor) => void world.tradedThisBlock.add(actor),
      touch: (pool) => void world.touched.add(pool),
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
      onMined: (fn) => void world.blockEvents.push({ watch: [], fn: (block) => fn(block) }),
      queued: () => world.pending.length,
      onSettled: (watch, fn) => void world.blockEvents.push({ watch, fn }),
    };
  })();

  /** The market's view plus what only the opening does: adding routers and mining its blocks. */
  private readonly setupHost: SetupHost = withMembers(this.marketHost, {
    addRouter: (router: Address) => void this.routers.push(router),
    mineBlock: async (timestamp: number) => void (await this.mineBlock(timestamp)),
  });

  /** What a module may use of the world (modules/module.ts): not the market's generator nor its internals. */
  private readonly host: WorldHost = (() => {
    const world = this;
    const market = this.marketHost;
    // Every module actor is labelled with its role: ground truth for whoever evaluates who is what.
    const labelActor = (role: string, address: Address): Address => {
      const key = address.toLowerCase();
      if (!world.moduleActors.has(key)) {
        world.moduleActors.add(key);
        world.labels.moduleActors.push({ role, address });
      }
      return address;
    };
    return {
      get chain() { return market.chain; },
      get seed() { return market.seed; },
      get client() { return market.client; },
      get rpc() { return market.rpc; },
      get labels() { return market.labels; },
      get reference() { return market.reference; },
      get deployer() { return market.deployer; },
      get usdc() { return market.usdc; },
      get native() { return market.native; },
      time: market.time,
      nextBlock: market.nextBlock,
      tokens: market.tokens,
      token: market.token,
      pools: market.pools,
      pool: market.pool,
      listingSchedule: (address) => world.listings.schedule(address),
      actors: market.actors,
      actorAddress: (role, i) => labelActor(role, market.actorAddress(role, i)),
      labelActor: (role, address) => labelActor(role, address),
      referenceUsd: market.referenceUsd,
      usdOf: market.usdOf,
      toRaw: market.toRaw,
      queue: market.queue,
      queueBalance: market.queueBalance,
      deploy: market.deploy,
      approve: market.approve,
      fundToken: market.fundToken,
      credit: market.credit,
      balance: market.balance,
      swap: market.swap,
      onMined: market.onMined,
      mineSetupBlock: () => world.mineSetupBlock(),
    };
  })();

  /** Takes the node over: impersonated senders, blocks only when the world mines, nonces counted from the chain's. */
  private async attach(): Promise<void> {
    await this.rpc.call('anvil_autoImpersonateAccount', [true]);
    await this.rpc.call('evm_setAutomine', [false]);
    this.block = BigInt(await this.rpc.call<Hex>('eth_blockNumber'));
    for (const sender of [this.deployer, GENESIS_TREASURY]) {
      this.nonces.set(sender.toLowerCase(), Number(await this.rpc.call<Hex>('eth_getTransactionCount', [sender, 'latest'])));
    }
  }

  /** A setup block of its own, one second after the last. */
  private async mineSetupBlock(): Promise<number> {
    await this.mineBlock(this.now + 1);
    await this.market.refresh(this.rpc);
    return Number(this.block);
  }

  // ---- prices --------------------------------------------------------------------------------

  /** A token's reference USD price now (USDC is 1), or undefined for a token without a path. */
  private referenceUsd(token: TokenInfo, t = this.stepTime || this.now): number | undefined {
    if (token === this.usdc) return 1;
    return token.asset ? this.options.reference.priceUsd(token.asset, t) : undefined;
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

  // ---- the transaction queue -----------------------------------------------------------------

  /** Queues a deployment and returns the address CREATE will give it. */
  private deploy(abi: Abi, bytecode: Hex, args: readonly unknown[], from: Address = this.deployer): Address {
    const nonce = this.nonces.get(from.toLowerCase()) ?? 0;
    this.queue({ from, data: encodeDeployData({ abi, bytecode, args } as never), gas: GAS.deploy });
    return getContractAddress({ from, nonce: BigInt(nonce) });
  }

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
      this.queue({ from: GENESIS_TREASURY, to: token, data: encodeFunctionData({ abi: DemoToken.abi, functionName: 'transfer', args: [actor, amount] }), gas: GAS.transfer });
    }
    this.credit(actor, token, amount);
  }

  /** Queues a router swap and applies it to the mirror and the holdings. Returns the output. */
  private swap(actor: Address, pool: Pool, tokenIn: Address, amountIn: bigint): bigint {
    if (amountIn <= 0n || this.balance(actor, tokenIn) < amountIn) return 0n;
    const router = this.routers[pool.dex]!;
    const tokenOut = tokenIn.toLowerCase() === pool.token0.toLowerCase() ? pool.token1 : pool.token0;
    this.approve(actor, tokenIn, router);
    const info = this.tokens.get(tokenIn.toLowerCase());
    const sellBlocked = info && (info.kind === 'honeypot') && isPoolOf(info, pool);
    this.queue({ from: actor, to: router, data: encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'swapExactTokensForTokens', args: [amountIn, 0n, [tokenIn, tokenOut], actor, FAR_DEADLINE] }), gas: GAS.swap });
    this.touched.add(pool);
    if (sellBlocked) return 0n; // reverts on chain: nothing moves
    const taxBps = info?.kind === 'taxed' && isPoolOf(info, pool) ? 2_500n : 0n;
    const effectiveIn = amountIn - (amountIn * taxBps) / 10_000n;
    const out = this.market.swap(pool, tokenIn, effectiveIn);
    this.credit(actor, tokenIn, -amountIn);
    this.credit(actor, tokenOut, out);
    return out;
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
    const hashes = (await this.rpc.batch(calls)) as Hex[];
    await this.rpc.call('evm_mine', [timestamp]);
    this.block += 1n;
    this.now = timestamp;
    const events = this.blockEvents.splice(0);
    const succeeded = await this.succeeded(hashes, events.flatMap((e) => e.watch));
    for (const event of events) event.fn(Number(this.block), event.watch.map((i) => succeeded.get(i) ?? false));
    // The mirror follows the V2 math the chain runs, but liquidity adds, sell taxes and other
    // wallets move reserves too: touched pools are re-read after every block.
    if (this.touched.size) {
      await this.market.refresh(this.rpc, [...this.touched]);
      this.touched.clear();
    }
    return this.block;
  }

  /** Whether each watched transaction of the block just mined succeeded (its receipt's status; none: not sealed). */
  private async succeeded(hashes: readonly Hex[], watch: readonly number[]): Promise<Map<number, boolean>> {
    const indices = [...new Set(watch)].filter((i) => i >= 0 && i < hashes.length);
    const receipts = (await this.rpc.batch(indices.map((i) => ({ method: 'eth_getTransactionReceipt', params: [hashes[i]] })))) as ({ status: Hex } | null)[];
    return new Map(indices.map((i, k) => [i, receipts[k]?.status === '0x1']));
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
      // Between world blocks the node mines on arrival (payments settle at once); while the
      // world assembles a block, arrivals wait and are sealed into it.
      this.between(async () => {
        const t = Math.max(this.now + 1, Math.floor(Date.now() / 1000));
        await this.rpc.call('evm_setAutomine', [false]);
        try {
          await this.step(t);
        } finally {
          await this.rpc.call('evm_setAutomine', [true]);
        }
      })
        .catch(onError)
        .finally(() => (busy = false));
    }, intervalMs);
    this.timer.unref();
  }

  /**
   * Runs `work` while no live block is assembled or mined (one waits for the other): what it
   * reads of the chain and of `toState()` describes the same world (a checkpoint).
   */
  between<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lane.then(work);
    this.lane = run.then(() => undefined, () => undefined);
    return run;
  }

  /** Exactly one block at `timestamp` (after the last): what a live chain produces, for a caller that paces it. */
  async stepAt(timestamp: number): Promise<void> {
    if (timestamp <= this.now) throw new Error(`block time ${timestamp} is not after the last block's ${this.now}`);
    await this.step(timestamp);
  }

  /** Hands the node back to mining on arrival once the backfill is written. */
  async finishBackfill(): Promise<void> {
    for (const b of this.behaviours) b.finishBackfill?.(this.marketHost);
    await this.market.refresh(this.rpc);
    await this.rpc.call('evm_setAutomine', [true]);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.rpc.close();
  }

  /** One block: the market's behaviours in their order, then the modules, then mining. */
  private async step(timestamp: number): Promise<void> {
    const dt = timestamp - this.now;
    this.stepTime = timestamp;
    this.tradedThisBlock.clear();
    for (const b of this.behaviours) {
      const stepping = b.step(this.marketHost, timestamp, dt);
      if (stepping) await stepping;
    }
    for (const m of this.modules) await m.module.step(this.host, timestamp, dt);
    await this.mineBlock(timestamp);
  }
}

function isPoolOf(token: TokenInfo, pool: Pool): boolean {
  return pool.token0.toLowerCase() === token.address.toLowerCase() || pool.token1.toLowerCase() === token.address.toLowerCase();
}

/** `base`'s members (its getters stay getters) with `extra`'s added. */
function withMembers<A extends object, B extends object>(base: A, extra: B): A & B {
  return Object.defineProperties(Object.defineProperties({}, Object.getOwnPropertyDescriptors(base)), Object.getOwnPropertyDescriptors(extra)) as A & B;
}
