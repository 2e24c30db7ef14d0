/**
 * Hooks (Base and the stock chain): our singleton pool manager (SibylPoolManager, at the address chain/chains.ts
 * announces for v4's PoolManager) with hooks whose addresses carry their permissions, mined with
 * CREATE2 salts. Benign hooks (a volume oracle, a rule-based dynamic fee), risky ones (an owner
 * who sets fees up to 100% and pauses; an upgradeable proxy; a SELFDESTRUCT path) and a malicious
 * "zero-fee" one that keeps every swap's input. Traders swap on their pools all through history;
 * now and then a fresh wallet swaps on the malicious pool and loses its input (labelled).
 * The module's traders are its own, and they trade only on the manager: the V2 market is untouched.
 */
import {
  bytesToHex, concat, encodeAbiParameters, encodeDeployData, encodeFunctionData, getAddress, hexToBytes, keccak256, parseEther, toHex,
  type Abi, type Address, type Hex,
} from 'viem';
import { DynamicFeeHook, HookProxy, LoyaltyHook, OwnerFeeHook, SibylPoolManager, SwapCounterHook, VolumeOracleHook, ZeroFeeSwapHook } from '../../chain/artifacts/index.js';
import { V4_POOL_MANAGERS, type EvmChainName } from '../../chain/chains.js';
import type { TokenInfo } from '../world.js';
import type { WorldHost, WorldModuleFactory } from './module.js';

/**
 * Each hook's address, the callbacks it implements (v4's permission names, e.g. beforeSwap,
 * beforeSwapReturnDelta), the risks planted in it ('owner-fee', 'owner-pause', 'upgradeable',
 * 'delegatecall', 'selfdestruct', 'takes-input'), its owner or proxy admin, its implementation
 * (behind a proxy) and its pools' PoolIds; and every swap whose whole input a malicious hook kept
 * (amount in raw units).
 */
export interface HookLabels {
  hooks: { hook: Address; name: string; permissions: string[]; risks: string[]; owner: Address | null; implementation: Address | null; pools: Hex[] }[];
  hookVictims: { hook: Address; pool: Hex; victim: Address; token: Address; amountIn: string; block: number }[];
}

export function emptyHookLabels(): HookLabels {
  return { hooks: [], hookVictims: [] };
}

/** The deterministic CREATE2 deployer anvil (and most chains) carry: calldata is salt ++ init code. */
const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
const GAS = { deploy: 3_000_000n, initialize: 800_000n, liquidity: 600_000n, swap: 600_000n, approve: 80_000n, upgrade: 120_000n };
const DYNAMIC_FEE = 0x800000;
const SWAPS_PER_HOUR = 5;
const VICTIMS_PER_HOUR = 0.4;
/** The proxy's admin moves it to a new implementation this long after setup. */
const UPGRADE_AFTER_S = 24 * 3600;
const TRADERS = 6;
/** What a trader holds of each token, and is topped up to when a quarter is left. */
const TRADER_BAG_USD = 100_000;

/** v4's permission names, bit 13 down to bit 0 of a hook's address. */
const PERMISSION_BITS = [
  'beforeInitialize', 'afterInitialize', 'beforeAddLiquidity', 'afterAddLiquidity', 'beforeRemoveLiquidity', 'afterRemoveLiquidity',
  'beforeSwap', 'afterSwap', 'beforeDonate', 'afterDonate', 'beforeSwapReturnDelta', 'afterSwapReturnDelta', 'afterAddLiquidityReturnDelta', 'afterRemoveLiquidityReturnDelta',
] as const;
type Permission = (typeof PERMISSION_BITS)[number];
const flagsOf = (permissions: readonly Permission[]) => permissions.reduce((f, p) => f | (1 << (13 - PERMISSION_BITS.indexOf(p))), 0);

type HookName = 'volume-oracle' | 'dynamic-fee' | 'owner-fee' | 'upgradeable-counter' | 'loyalty' | 'zero-fee-drain';

interface HookPlan {
  name: HookName;
  /** What its code implements: its address must carry exactly these. */
  permissions: Permission[];
  risks: string[];
  deploy: (manager: Address, owner: Address, host: WorldHost) => { abi: Abi; bytecode: Hex; args: readonly unknown[]; implementation?: Address };
  owned: boolean;
}

const HOOKS: readonly HookPlan[] = [
  { name: 'volume-oracle', permissions: ['afterAddLiquidity', 'afterRemoveLiquidity', 'afterSwap'], risks: [], owned: false, deploy: (m) => ({ abi: VolumeOracleHook.abi, bytecode: VolumeOracleHook.bytecode, args: [m] }) },
  { name: 'dynamic-fee', permissions: ['afterInitialize', 'beforeSwap'], risks: [], owned: false, deploy: (m) => ({ abi: DynamicFeeHook.abi, bytecode: DynamicFeeHook.bytecode, args: [m] }) },
  { name: 'owner-fee', permissions: ['beforeInitialize', 'beforeAddLiquidity', 'beforeSwap'], risks: ['owner-fee', 'owner-pause'], owned: true, deploy: (m, owner) => ({ abi: OwnerFeeHook.abi, bytecode: OwnerFeeHook.bytecode, args: [m, owner] }) },
  {
    name: 'upgradeable-counter', permissions: ['afterInitialize', 'afterSwap'], risks: ['upgradeable', 'delegatecall'], owned: true,
    deploy: (m, admin, host) => {
      const implementation = host.deploy(SwapCounterHook.abi, SwapCounterHook.bytecode, [m], admin);
      return { abi: HookProxy.abi, bytecode: HookProxy.bytecode, args: [implementation, admin], implementation };
    },
  },
  { name: 'loyalty', permissions: ['beforeRemoveLiquidity', 'afterSwap'], risks: ['selfdestruct'], owned: true, deploy: (m, owner) => ({ abi: LoyaltyHook.abi, bytecode: LoyaltyHook.bytecode, args: [m, owner] }) },
  { name: 'zero-fee-drain', permissions: ['beforeSwap', 'beforeSwapReturnDelta'], risks: ['takes-input'], owned: false, deploy: (m) => ({ abi: ZeroFeeSwapHook.abi, bytecode: ZeroFeeSwapHook.bytecode, args: [m] }) },
];

interface PoolPlan { a: string; b: string; fee: number; tickSpacing: number; hook: HookName | null; depthUsd: number }

/** Each chain's pools: symbols (any order), fee (pips, or dynamic), tick spacing, hook (none: a plain pool), USD depth. */
const POOLS: Partial<Record<EvmChainName, readonly PoolPlan[]>> = {
  base: [
    { a: 'WETH', b: 'USDC', fee: 500, tickSpacing: 10, hook: 'volume-oracle', depthUsd: 800_000 },
    { a: 'AERO', b: 'USDC', fee: 3_000, tickSpacing: 60, hook: 'volume-oracle', depthUsd: 300_000 },
    { a: 'WETH', b: 'USDC', fee: DYNAMIC_FEE, tickSpacing: 60, hook: 'dynamic-fee', depthUsd: 500_000 },
    { a: 'VIRTUAL', b: 'WETH', fee: DYNAMIC_FEE, tickSpacing: 60, hook: 'owner-fee', depthUsd: 250_000 },
    { a: 'DEGEN', b: 'WETH', fee: 3_000, tickSpacing: 60, hook: 'upgradeable-counter', depthUsd: 200_000 },
    { a: 'BRETT', b: 'WETH', fee: 10_000, tickSpacing: 200, hook: 'loyalty', depthUsd: 200_000 },
    { a: 'WBTC', b: 'USDC', fee: 0, tickSpacing: 10, hook: 'zero-fee-drain', depthUsd: 300_000 },
    { a: 'WETH', b: 'USDC', fee: 3_000, tickSpacing: 60, hook: null, depthUsd: 400_000 },
  ],
  // The stock chain's genesis has one crypto pair, ETH/USDC (its stock tokens come later, from their own module): every hook gets a pool of it.
  stockchain: [
    { a: 'WETH', b: 'USDC', fee: 500, tickSpacing: 10, hook: 'volume-oracle', depthUsd: 600_000 },
    { a: 'WETH', b: 'USDC', fee: DYNAMIC_FEE, tickSpacing: 60, hook: 'dynamic-fee', depthUsd: 400_000 },
    { a: 'WETH', b: 'USDC', fee: DYNAMIC_FEE, tickSpacing: 60, hook: 'owner-fee', depthUsd: 250_000 },
    { a: 'WETH', b: 'USDC', fee: 3_000, tickSpacing: 60, hook: 'upgradeable-counter', depthUsd: 200_000 },
    { a: 'WETH', b: 'USDC', fee: 10_000, tickSpacing: 200, hook: 'loyalty', depthUsd: 200_000 },
    { a: 'WETH', b: 'USDC', fee: 0, tickSpacing: 10, hook: 'zero-fee-drain', depthUsd: 300_000 },
    { a: 'WETH', b: 'USDC', fee: 3_000, tickSpacing: 60, hook: null, depthUsd: 400_000 },
  ],
};

const MIN_TICK = -887272;
const MAX_TICK = 887272;
const Q96 = 2n ** 96n;
const KEY_TYPES = [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }] as const;

interface PoolState {
  key: { currency0: Address; currency1: Address; fee: number; tickSpacing: number; hooks: Address };
  id: Hex;
  hook: HookName | null;
  /**
   * The module's mirror of the manager's reserves and liquidity, as its swaps were queued (a block may
   * order two traders' swaps otherwise, so it can drift by a fee's worth); amounts are strings when saved.
   */
  r0: bigint;
  r1: bigint;
  liquidity: bigint;
  /** The last block it traded in (the dynamic-fee hook charges more for a second swap in one block). */
  lastSwapBlock: number;
}

/** A victim funded and approved in one block, swapping in a later one (tokens must be there first). */
interface PendingVictim {
  wallet: Address;
  zeroForOne: boolean;
  amountIn: string;
}

interface HooksState {
  hooks: { name: HookName; address: Address; owner: Address | null }[];
  pools: PoolState[];
  setupAt: number;
  upgraded: boolean;
  victims: number;
  pending: PendingVictim[];
}

/**
 * Where mining starts for each hook: the salt it found last time (its init code is the same in
 * every world: the manager's address and owners fixed), so a build usually hashes once. A changed
 * contract simply mines on from there (about 16k hashes, a fraction of a second each hook).
 */
const SALT_HINTS: Record<HookName, bigint> = {
  'volume-oracle': 6_537n, 'dynamic-fee': 15_462n, 'owner-fee': 12_483n, 'upgradeable-counter': 12_855n, loyalty: 5_546n, 'zero-fee-drain': 3_714n,
};
/** Hook owners and the proxy's admin: the same accounts in every world (so the hooks' init code is too). */
const hookOwner = (i: number): Address => getAddress(`0x${keccak256(toHex(`sibyl:hook-owner:${i}`)).slice(26)}`);

const poolIdOf = (key: PoolState['key']): Hex => keccak256(encodeAbiParameters(KEY_TYPES, [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks]));
const fullRange = (tickSpacing: number) => ({ tickLower: Math.trunc(MIN_TICK / tickSpacing) * tickSpacing, tickUpper: Math.trunc(MAX_TICK / tickSpacing) * tickSpacing });
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/**
 * The first salt from `start` whose CREATE2 address carries exactly `flags` in its lowest 14 bits
 * (about 16k tries: a fraction of a second).
 */
export function mineHookSalt(deployer: Address, initCodeHash: Hex, flags: number, start = 0n): { salt: Hex; address: Address; tries: number } {
  // 0xff ++ deployer ++ salt ++ keccak256(init code); the salt's last 8 bytes count up in place.
  const buffer = new Uint8Array(85);
  buffer[0] = 0xff;
  buffer.set(hexToBytes(deployer), 1);
  buffer.set(hexToBytes(initCodeHash), 53);
  const counter = new DataView(buffer.buffer, 45, 8);
  for (let i = start; ; i++) {
    counter.setBigUint64(0, i);
    const hash = keccak256(buffer, 'bytes');
    if ((((hash[30]! << 8) | hash[31]!) & 0x3fff) === flags) return { salt: bytesToHex(buffer.slice(21, 53)), address: getAddress(bytesToHex(hash.slice(12))), tries: Number(i - start) + 1 };
  }
}

export const hooksModule: WorldModuleFactory = (chain, rng) => {
  const manager = V4_POOL_MANAGERS[chain];
  const plans = POOLS[chain];
  if (!manager || !plans) return undefined;
  let state: HooksState = { hooks: [], pools: [], setupAt: 0, upgraded: false, victims: 0, pending: [] };
  const hookAddress = (name: HookName) => state.hooks.find((h) => h.name === name)!.address;
  const tokenBySymbol = (host: WorldHost, symbol: string): TokenInfo => {
    const found = symbol === 'WETH' ? host.native : host.tokens().find((t) => t.symbol === symbol);
    if (!found) throw new Error(`hooks module: no ${symbol} on ${chain}`);
    return found;
  };

  /**
   * Tokens reach an actor a block before it spends them: a transfer from the treasury or a mint by
   * the deployer (other senders) is not ordered before the actor's own transactions in a block.
   */
  const fund = (host: WorldHost, actor: Address, token: Address, amount: bigint) => {
    host.fundToken(actor, token, amount);
    host.approve(actor, token, manager);
  };
  const bag = (host: WorldHost, token: Address) => host.toRaw(host.token(token)!, TRADER_BAG_USD);

  const swapOn = (host: WorldHost, pool: PoolState, actor: Address, zeroForOne: boolean, amountIn: bigint) => {
    const [tokenIn, tokenOut] = zeroForOne ? [pool.key.currency0, pool.key.currency1] : [pool.key.currency1, pool.key.currency0];
    host.queue({
      from: actor, to: manager, gas: GAS.swap,
      data: encodeFunctionData({ abi: SibylPoolManager.abi, functionName: 'swap', args: [pool.key, { zeroForOne, amountSpecified: -amountIn, sqrtPriceLimitX96: 0n }, '0x'] }),
    });
    host.credit(actor, tokenIn, -amountIn);
    if (pool.hook === 'zero-fee-drain') return; // the hook keeps it all
    const fee = BigInt(feeOf(pool, host.nextBlock()));
    pool.lastSwapBlock = host.nextBlock();
    const [reserveIn, reserveOut] = zeroForOne ? [pool.r0, pool.r1] : [pool.r1, pool.r0];
    const afterFee = (amountIn * (1_000_000n - fee)) / 1_000_000n;
    const out = (reserveOut * afterFee) / (reserveIn + afterFee);
    if (zeroForOne) [pool.r0, pool.r1] = [reserveIn + amountIn, reserveOut - out];
    else [pool.r0, pool.r1] = [reserveOut - out, reserveIn + amountIn];
    host.credit(actor, tokenOut, out);
  };

  /** The LP fee a swap in `block` pays, as each hook sets it. */
  const feeOf = (pool: PoolState, block: number): number => {
    if (pool.hook === 'dynamic-fee') return pool.lastSwapBlock === block ? 10_000 : 500;
    if (pool.hook === 'owner-fee') return 3_000; // the hook's fee, which its owner never changes here
    return pool.key.fee;
  };

  /** A trade by one of the module's traders on a pool that trades, $100-$10k, either way, from what it holds. */
  const trade = (host: WorldHost) => {
    const pools = state.pools.filter((p) => p.hook !== 'zero-fee-drain' && p.liquidity > 0n);
    const pool = rng.pick(pools);
    const zeroForOne = rng.chance(0.5);
    const token = host.token(zeroForOne ? pool.key.currency0 : pool.key.currency1)!;
    const amountIn = host.toRaw(token, rng.logUniform(100, 10_000));
    const trader = host.actorAddress('hook-trader', rng.int(0, TRADERS - 1));
    // Never more than a tenth of the pool's side: the full-range pool would move too far.
    const [reserveIn] = zeroForOne ? [pool.r0] : [pool.r1];
    if (amountIn <= 0n || amountIn * 10n > reserveIn || host.balance(trader, token.address) < amountIn) return;
    swapOn(host, pool, trader, zeroForOne, amountIn);
    // A bag running low is topped up now, for the blocks after this one.
    if (host.balance(trader, token.address) < bag(host, token.address) / 4n) fund(host, trader, token.address, bag(host, token.address));
  };

  /** A fresh wallet arrives with the tokens it means to swap on the "zero-fee" pool (it swaps in a later block). */
  const victimArrives = (host: WorldHost) => {
    const pool = state.pools.find((p) => p.hook === 'zero-fee-drain')!;
    const wallet = host.actorAddress('hook-victim', state.victims++);
    const zeroForOne = rng.chance(0.5);
    const token = host.token(zeroForOne ? pool.key.currency0 : pool.key.currency1)!;
    const amountIn = host.toRaw(token, rng.logUniform(200, 5_000));
    if (amountIn <= 0n) return;
    host.queueBalance(wallet, parseEther('1'));
    fund(host, wallet, token.address, amountIn);
    state.pending.push({ wallet, zeroForOne, amountIn: amountIn.toString() });
  };

  /** Waiting victims swap, and lose their whole input to the hook. */
  const victimsSwap = (host: WorldHost) => {
    const pool = state.pools.find((p) => p.hook === 'zero-fee-drain')!;
    for (const v of state.pending.splice(0)) {
      const amountIn = BigInt(v.amountIn);
      const token = v.zeroForOne ? pool.key.currency0 : pool.key.currency1;
      swapOn(host, pool, v.wallet, v.zeroForOne, amountIn);
      const hook = pool.key.hooks;
      host.onMined((block) => host.labels.hookVictims.push({ hook, pool: pool.id, victim: v.wallet, token, amountIn: amountIn.toString(), block }));
    }
  };

  return {
    name: 'hooks',
    async setup(host) {
      await host.rpc.call('anvil_setCode', [manager, SibylPoolManager.deployedBytecode]);
      if ((await host.client.getCode({ address: CREATE2_DEPLOYER })) === undefined) throw new Error('hooks module: the chain has no CREATE2 deployer at 0x4e59…956c');
      const labelled: HooksState['hooks'] = [];
      const implementations = new Map<HookName, Address>();
      for (const [i, plan] of HOOKS.entries()) {
        const owner = plan.owned ? host.labelActor('hook-owner', hookOwner(i)) : null;
        if (owner) host.queueBalance(owner, parseEther('10'));
        const { abi, bytecode, args, implementation } = plan.deploy(manager, owner ?? host.deployer, host);
        const initCode = encodeDeployData({ abi, bytecode, args } as never);
        const { salt, address } = mineHookSalt(CREATE2_DEPLOYER, keccak256(initCode), flagsOf(plan.permissions), SALT_HINTS[plan.name]);
        host.queue({ from: host.deployer, to: CREATE2_DEPLOYER, data: concat([salt, initCode]), gas: GAS.deploy });
        labelled.push({ name: plan.name, address, owner });
        if (implementation) implementations.set(plan.name, implementation);
      }
      state = { hooks: labelled, pools: [], setupAt: host.time(), upgraded: false, victims: 0, pending: [] };

      // Pools at the world's prices, each with one full-range position of the module's LP. Everyone is
      // funded in this block; the pools open in the next.
      const lp = host.actorAddress('hook-lp', 0);
      host.queueBalance(lp, parseEther('10'));
      const opening: { key: PoolState['key']; sqrtPriceX96: bigint; liquidity: bigint; creator: Address }[] = [];
      for (const plan of plans) {
        const [a, b] = [tokenBySymbol(host, plan.a), tokenBySymbol(host, plan.b)];
        const [t0, t1] = a.address.toLowerCase() < b.address.toLowerCase() ? [a, b] : [b, a];
        const key = { currency0: t0.address, currency1: t1.address, fee: plan.fee, tickSpacing: plan.tickSpacing, hooks: plan.hook ? hookAddress(plan.hook) : ('0x0000000000000000000000000000000000000000' as Address) };
        // sqrt(token1 raw per token0 raw) in Q64.96.
        const ratio = (host.usdOf(t0) / host.usdOf(t1)) * 10 ** (t1.decimals - t0.decimals);
        const sqrtPriceX96 = BigInt(Math.round(Math.sqrt(ratio) * 2 ** 48)) * 2n ** 48n;
        const amount0 = host.toRaw(t0, plan.depthUsd / 2);
        const liquidity = (amount0 * sqrtPriceX96) / Q96;
        // What the manager takes for that liquidity from an empty pool (rounded up, as it does).
        const [need0, need1] = [ceilDiv(liquidity * Q96, sqrtPriceX96), ceilDiv(liquidity * sqrtPriceX96, Q96)];
        fund(host, lp, t0.address, need0);
        fund(host, lp, t1.address, need1);
        host.credit(lp, t0.address, -need0);
        host.credit(lp, t1.address, -need1);
        opening.push({ key, sqrtPriceX96, liquidity, creator: (plan.hook && state.hooks.find((h) => h.name === plan.hook)?.owner) || lp });
        state.pools.push({ key, id: poolIdOf(key), hook: plan.hook, r0: need0, r1: need1, liquidity, lastSwapBlock: 0 });
      }
      // Traders hold a bag of every token the pools trade.
      const traded = [...new Set(state.pools.flatMap((p) => [p.key.currency0, p.key.currency1]))];
      for (let i = 0; i < TRADERS; i++) {
        const trader = host.actorAddress('hook-trader', i);
        host.queueBalance(trader, parseEther('100'));
        for (const token of traded) fund(host, trader, token, bag(host, token));
      }
      await host.mineSetupBlock();
      for (const h of labelled) {
        const code = await host.client.getCode({ address: h.address });
        if (!code || code === '0x') throw new Error(`hooks module: ${h.name} was not deployed at ${h.address}`);
      }
      for (const { key, sqrtPriceX96, liquidity, creator } of opening) {
        host.queue({ from: creator, to: manager, gas: GAS.initialize, data: encodeFunctionData({ abi: SibylPoolManager.abi, functionName: 'initialize', args: [key, sqrtPriceX96] }) });
        host.queue({
          from: lp, to: manager, gas: GAS.liquidity,
          data: encodeFunctionData({ abi: SibylPoolManager.abi, functionName: 'modifyLiquidity', args: [key, { ...fullRange(key.tickSpacing), liquidityDelta: liquidity, salt: `0x${'0'.repeat(64)}` }, '0x'] }),
        });
      }
      host.labels.hooks.push(...HOOKS.map((plan) => {
        const h = state.hooks.find((x) => x.name === plan.name)!;
        return {
          hook: h.address, name: plan.name, permissions: [...plan.permissions], risks: [...plan.risks], owner: h.owner,
          implementation: implementations.get(plan.name) ?? null, pools: state.pools.filter((p) => p.hook === plan.name).map((p) => p.id),
        };
      }));
    },
    step(host, t, dt) {
      if (!state.upgraded && t - state.setupAt >= UPGRADE_AFTER_S) {
        // The proxy's admin moves the hook to a new implementation, as an upgradeable hook's admin can at any time.
        state.upgraded = true;
        const proxy = state.hooks.find((h) => h.name === 'upgradeable-counter')!;
        const implementation = host.deploy(SwapCounterHook.abi, SwapCounterHook.bytecode, [manager], proxy.owner!);
        host.queue({ from: proxy.owner!, to: proxy.address, gas: GAS.upgrade, data: encodeFunctionData({ abi: HookProxy.abi, functionName: 'upgradeTo', args: [implementation] }) });
        host.onMined(() => {
          const label = host.labels.hooks.find((h) => h.hook === proxy.address);
          if (label) label.implementation = implementation;
        });
      }
      victimsSwap(host);
      const trades = rng.poisson((dt / 3600) * SWAPS_PER_HOUR);
      for (let i = 0; i < trades; i++) trade(host);
      if (rng.chance((dt / 3600) * VICTIMS_PER_HOUR)) victimArrives(host);
    },
    toState: () => ({
      ...state,
      pools: state.pools.map((p) => ({ ...p, r0: p.r0.toString(), r1: p.r1.toString(), liquidity: p.liquidity.toString() })),
    }),
    restore(saved) {
      const s = saved as Omit<HooksState, 'pools'> & { pools: (Omit<PoolState, 'r0' | 'r1' | 'liquidity'> & { r0: string; r1: string; liquidity: string })[] };
      state = { ...s, pools: s.pools.map((p) => ({ ...p, r0: BigInt(p.r0), r1: BigInt(p.r1), liquidity: BigInt(p.liquidity) })) };
    },
  };
};
