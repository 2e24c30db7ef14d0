/**
 * ERC-4626 vaults: on every chain the vault factory (SibylVaultFactory, at EMBEDDED_VAULT_FACTORY)
 * creates a few SibylVaults on USDC and the wrapped native. Each lends most of what it holds to a
 * strategy (a labelled desk) that pays income back in the underlying every couple of hours at its
 * own true rate, so the share price compounds at that rate. Depositors come and go (Deposit and
 * Withdraw events: the share price at each moment). One USDC vault is deprecated twelve hours in:
 * its curator stops deposits, the strategy repays and pays no more, most depositors leave over the
 * next day and a half, and a few never do, or leave dust behind: forgotten balances.
 *
 * Everything the vaults do is mirrored here exactly (total assets, supply, idle, lent and each
 * depositor's shares, with the vault's own rounding), so the module never reads the chain per block.
 */
import { encodeFunctionData, parseEther, parseUnits, type Address } from 'viem';
import { SibylVault, SibylVaultFactory } from '../../chain/artifacts/index.js';
import { EMBEDDED_VAULT_FACTORY } from '../../chain/chains.js';
import type { TokenInfo } from '../world.js';
import type { WorldHost, WorldModuleFactory } from './module.js';

const YEAR_S = 365 * 86_400;
/** How often a strategy pays its income (jittered by ±25%). */
const INCOME_EVERY_S = 2 * 3600;
/** Deposits and withdrawals per vault per hour (Poisson). */
const FLOWS_PER_HOUR = 1.2;
const WITHDRAW_SHARE = 0.45;
/** The deprecated vault stops this long after the vaults are created; its depositors leave within EXIT_WITHIN_S. */
export const DEPRECATE_AFTER_S = 12 * 3600;
const EXIT_WITHIN_S = 36 * 3600;
/** Of the deprecated vault's depositors: those who never come back, and those who leave dust. */
const FORGOTTEN = 3;
const DUST_SHARE = 0.3;
/** Share of total assets the curator keeps idle for withdrawals; it lends above 30%, recalls under 10%. */
const IDLE_TARGET = 0.2;
const DEPOSITORS = 16;
const GAS = { create: 3_000_000n, admin: 120_000n, deposit: 250_000n, redeem: 250_000n, income: 120_000n };

interface VaultPlan {
  key: string;
  asset: 'usdc' | 'native';
  name: (native: string) => string;
  symbol: (native: string) => string;
  /** The strategy's true rate, as an APY; drawn ±20% per chain. */
  apyPct: number;
  deprecated?: true;
}

/** The vaults of each chain; a later module may build on `usdc-prime` (a live vault with steady income). */
export const VAULT_PLANS: readonly VaultPlan[] = [
  { key: 'usdc-prime', asset: 'usdc', name: () => 'Sibyl Prime USDC', symbol: () => 'spUSDC', apyPct: 4.5 },
  { key: 'usdc-boost', asset: 'usdc', name: () => 'Sibyl Boosted USDC', symbol: () => 'sbUSDC', apyPct: 9 },
  { key: 'usdc-legacy', asset: 'usdc', name: () => 'Sibyl Legacy USDC', symbol: () => 'slUSDC', apyPct: 6, deprecated: true },
  { key: 'native-core', asset: 'native', name: (n) => `Sibyl Core ${n}`, symbol: (n) => `sc${n}`, apyPct: 2.5 },
  { key: 'native-max', asset: 'native', name: (n) => `Sibyl Max ${n}`, symbol: (n) => `sm${n}`, apyPct: 5 },
];

interface VaultState {
  key: string;
  vault: Address;
  asset: Address;
  strategy: Address;
  apyPct: number;
  deprecateAt: number | null;
  deprecated: boolean;
  totalAssets: bigint;
  supply: bigint;
  idle: bigint;
  lent: bigint;
  lastIncome: number;
  nextIncome: number;
  shares: Map<Address, bigint>;
  /** Deprecated vault: when each leaving depositor redeems, and the shares it leaves behind. */
  exits: { holder: Address; at: number; keep: bigint }[];
}

type Saved = Omit<VaultState, 'totalAssets' | 'supply' | 'idle' | 'lent' | 'shares' | 'exits'> & {
  totalAssets: string; supply: string; idle: string; lent: string; shares: [Address, string][]; exits: { holder: Address; at: number; keep: string }[];
};

export const vaultsModule: WorldModuleFactory = (_chain, rng) => {
  let vaults: VaultState[] = [];
  let curator: Address;
  let depositors: Address[] = [];

  const tokenOf = (host: WorldHost, v: VaultState): TokenInfo => (v.asset.toLowerCase() === host.usdc.address.toLowerCase() ? host.usdc : host.native);
  const send = (host: WorldHost, from: Address, to: Address, data: `0x${string}`, gas: bigint) => host.queue({ from, to, data, gas });
  const call = (fn: string, args: readonly unknown[]) => encodeFunctionData({ abi: SibylVault.abi, functionName: fn, args } as never);

  // The vault's own rounding (OpenZeppelin ERC4626, no decimals offset): shares down on deposit, assets down on redeem.
  const sharesFor = (v: VaultState, assets: bigint) => (assets * (v.supply + 1n)) / (v.totalAssets + 1n);
  const assetsFor = (v: VaultState, shares: bigint) => (shares * (v.totalAssets + 1n)) / (v.supply + 1n);

  const deposit = (host: WorldHost, v: VaultState, who: Address, amount: bigint) => {
    if (amount <= 0n) return;
    host.fundToken(who, v.asset, amount);
    host.approve(who, v.asset, v.vault);
    send(host, who, v.vault, call('deposit', [amount, who]), GAS.deposit);
    host.credit(who, v.asset, -amount);
    const shares = sharesFor(v, amount);
    v.totalAssets += amount;
    v.supply += shares;
    v.idle += amount;
    v.shares.set(who, (v.shares.get(who) ?? 0n) + shares);
  };

  const redeem = (host: WorldHost, v: VaultState, who: Address, shares: bigint) => {
    if (shares <= 0n) return;
    const assets = assetsFor(v, shares);
    if (assets > v.idle) recall(host, v, assets - v.idle + (v.totalAssets * BigInt(Math.round(IDLE_TARGET * 1000))) / 1000n);
    send(host, who, v.vault, call('redeem', [shares, who, who]), GAS.redeem);
    host.credit(who, v.asset, assets);
    v.totalAssets -= assets;
    v.supply -= shares;
    v.idle -= assets;
    const left = (v.shares.get(who) ?? 0n) - shares;
    if (left > 0n) v.shares.set(who, left);
    else v.shares.delete(who);
  };

  /** The strategy repays principal (at most what it owes). */
  const recall = (host: WorldHost, v: VaultState, amount: bigint) => {
    const repay = amount > v.lent ? v.lent : amount;
    if (repay <= 0n) return;
    send(host, v.strategy, v.vault, call('repay', [repay]), GAS.admin);
    v.lent -= repay;
    v.idle += repay;
  };

  /** Keeps IDLE_TARGET of the assets idle: lends the excess above 30%, recalls below 10%. */
  const balanceBook = (host: WorldHost, v: VaultState) => {
    if (v.deprecated || v.totalAssets === 0n) return;
    const idleShare = Number(v.idle) / Number(v.totalAssets);
    const target = (v.totalAssets * BigInt(Math.round(IDLE_TARGET * 1000))) / 1000n;
    if (idleShare > 0.3) {
      const amount = v.idle - target;
      send(host, curator, v.vault, call('lend', [amount]), GAS.admin);
      v.lent += amount;
      v.idle -= amount;
    } else if (idleShare < 0.1) recall(host, v, target - v.idle);
  };

  /** Income for the time since the last payment, compounding at the strategy's rate. */
  const payIncome = (host: WorldHost, v: VaultState, t: number) => {
    const growth = Math.expm1(Math.log1p(v.apyPct / 100) * ((t - v.lastIncome) / YEAR_S));
    const amount = BigInt(Math.floor(Number(v.totalAssets) * growth));
    v.lastIncome = t;
    v.nextIncome = t + Math.round(INCOME_EVERY_S * (0.75 + rng.next() * 0.5));
    if (amount <= 0n) return;
    host.fundToken(v.strategy, v.asset, amount);
    send(host, v.strategy, v.vault, call('payIncome', [amount]), GAS.income);
    host.credit(v.strategy, v.asset, -amount);
    v.totalAssets += amount;
    v.idle += amount;
  };

  const depositUsd = (host: WorldHost, v: VaultState, usd: number): bigint => {
    const token = tokenOf(host, v);
    return token === host.usdc ? parseUnits(usd.toFixed(2), 6) : host.toRaw(token, usd);
  };

  const deprecate = (host: WorldHost, v: VaultState, t: number) => {
    send(host, curator, v.vault, call('deprecate', []), GAS.admin);
    v.deprecated = true;
    recall(host, v, v.lent);
    const holders = [...v.shares.keys()];
    const forgotten = new Set<Address>();
    while (forgotten.size < Math.min(FORGOTTEN, holders.length - 1)) forgotten.add(rng.pick(holders));
    for (const holder of holders) {
      if (forgotten.has(holder)) continue;
      const held = v.shares.get(holder)!;
      const keep = rng.chance(DUST_SHARE) ? held / 1000n : 0n; // dust: a thousandth left behind
      v.exits.push({ holder, at: t + rng.int(1, EXIT_WITHIN_S), keep });
    }
    const label = host.labels.vaults.find((l) => l.vault === v.vault);
    if (label) label.deprecatedAt = t;
  };

  const labelHolders = (host: WorldHost, v: VaultState) => {
    const label = host.labels.vaults.find((l) => l.vault === v.vault);
    if (label) label.holdersLeft = [...v.shares.keys()];
  };

  return {
    name: 'vaults',
    async setup(host) {
      await host.rpc.call('anvil_setCode', [EMBEDDED_VAULT_FACTORY, SibylVaultFactory.deployedBytecode]);
      curator = host.actorAddress('vault-curator', 0);
      depositors = Array.from({ length: DEPOSITORS }, (_, i) => host.actorAddress('vault-depositor', i));
      for (const a of [curator, ...depositors]) host.queueBalance(a, parseEther('10000'));
      const native = host.native.symbol;
      for (const plan of VAULT_PLANS) {
        const asset = plan.asset === 'usdc' ? host.usdc.address : host.native.address;
        send(host, curator, EMBEDDED_VAULT_FACTORY, encodeFunctionData({ abi: SibylVaultFactory.abi, functionName: 'createVault', args: [asset, plan.name(native), plan.symbol(native)] }), GAS.create);
      }
      const block = await host.mineSetupBlock();
      const count = Number(await host.client.readContract({ address: EMBEDDED_VAULT_FACTORY, abi: SibylVaultFactory.abi, functionName: 'allVaultsLength' }));
      const t = host.time();
      for (const [i, plan] of VAULT_PLANS.entries()) {
        const vault = (await host.client.readContract({ address: EMBEDDED_VAULT_FACTORY, abi: SibylVaultFactory.abi, functionName: 'allVaults', args: [BigInt(count - VAULT_PLANS.length + i)] })) as Address;
        const strategy = host.actorAddress(`vault-strategy:${plan.key}`, 0);
        host.queueBalance(strategy, parseEther('10000'));
        const asset = plan.asset === 'usdc' ? host.usdc.address : host.native.address;
        const apyPct = Math.round(plan.apyPct * (0.8 + rng.next() * 0.4) * 100) / 100;
        const v: VaultState = {
          key: plan.key, vault, asset, strategy, apyPct, deprecateAt: plan.deprecated ? t + DEPRECATE_AFTER_S : null, deprecated: false,
          totalAssets: 0n, supply: 0n, idle: 0n, lent: 0n, lastIncome: t, nextIncome: t + INCOME_EVERY_S, shares: new Map(), exits: [],
        };
        vaults.push(v);
        send(host, curator, vault, call('setStrategy', [strategy]), GAS.admin);
        host.approve(strategy, asset, vault);
        // Opening deposits, so each vault starts with some depth.
        for (let k = rng.int(4, 6); k > 0; k--) deposit(host, v, rng.pick(depositors), depositUsd(host, v, rng.logUniform(2_000, 200_000)));
        balanceBook(host, v);
        host.labels.vaults.push({
          vault, asset, assetSymbol: plan.asset === 'usdc' ? host.usdc.symbol : native, name: plan.name(native), curator, strategy, block,
          incomeApyPct: apyPct, deprecated: Boolean(plan.deprecated), deprecatedAt: null, holdersLeft: [],
        });
      }
    },
    step(host, t, dt) {
      for (const v of vaults) {
        if (v.deprecateAt !== null && !v.deprecated && t >= v.deprecateAt) deprecate(host, v, t);
        if (!v.deprecated && t >= v.nextIncome) payIncome(host, v, t);
        if (v.deprecated) {
          for (const exit of v.exits.filter((e) => e.at <= t)) redeem(host, v, exit.holder, (v.shares.get(exit.holder) ?? 0n) - exit.keep);
          v.exits = v.exits.filter((e) => e.at > t);
          labelHolders(host, v);
          continue;
        }
        for (let n = rng.poisson((dt / 3600) * FLOWS_PER_HOUR); n > 0; n--) {
          const holders = [...v.shares.keys()];
          if (holders.length && rng.chance(WITHDRAW_SHARE)) {
            const who = rng.pick(holders);
            const held = v.shares.get(who)!;
            redeem(host, v, who, rng.chance(0.4) ? held : (held * BigInt(rng.int(20, 80))) / 100n);
          } else deposit(host, v, rng.pick(depositors), depositUsd(host, v, rng.logUniform(200, 50_000)));
        }
        balanceBook(host, v);
      }
    },
    toState: () => ({
      curator, depositors,
      vaults: vaults.map((v): Saved => ({
        ...v, totalAssets: v.totalAssets.toString(), supply: v.supply.toString(), idle: v.idle.toString(), lent: v.lent.toString(),
        shares: [...v.shares].map(([a, s]) => [a, s.toString()]), exits: v.exits.map((e) => ({ ...e, keep: e.keep.toString() })),
      })),
    }),
    restore(state) {
      const s = state as { curator: Address; depositors: Address[]; vaults: Saved[] };
      curator = s.curator;
      depositors = s.depositors;
      vaults = s.vaults.map((v) => ({
        ...v, totalAssets: BigInt(v.totalAssets), supply: BigInt(v.supply), idle: BigInt(v.idle), lent: BigInt(v.lent),
        shares: new Map(v.shares.map(([a, x]) => [a, BigInt(x)])), exits: v.exits.map((e) => ({ ...e, keep: BigInt(e.keep) })),
      }));
    },
  };
};
