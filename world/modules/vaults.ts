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
 * The node does not keep the order of transactions from different senders within a block, so a
 * vault sees at most one action per block (income, a deposit or withdrawal, or its curator's
 * lending), and whatever funds an action (a mint) lands in a block before it.
 */
import { encodeFunctionData, parseEther, parseUnits, type Address } from 'viem';
import { SibylVault, SibylVaultFactory } from '../../chain/artifacts/index.js';
import { EMBEDDED_VAULT_FACTORY } from '../../chain/chains.js';
import type { TokenInfo } from '../world.js';
import type { WorldHost, WorldModuleFactory } from './module.js';

export interface VaultLabels {
  /**
   * Each ERC-4626 vault (also fixed-yield.ts's), its underlying, the strategy it lends to and the
   * true rate that strategy pays (as an APY: income compounds into the share price), whether and
   * from when it is deprecated (deposits and income stopped), and for a deprecated one the
   * accounts still holding its shares (forgotten balances).
   */
  vaults: {
    vault: Address; asset: Address; assetSymbol: string; name: string; curator: Address; strategy: Address; block: number;
    incomeApyPct: number; deprecated: boolean; deprecatedAt: number | null; holdersLeft: Address[];
  }[];
}

export function emptyVaultLabels(): VaultLabels {
  return { vaults: [] };
}

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
/** What each depositor holds to deposit from (topped up a block ahead when short), USD per asset. */
const FLOAT_USD = 2_000_000;
/** What a strategy holds to pay income from, beside the principal it owes: days of income at its rate. */
const INCOME_FLOAT_DAYS = 30;
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

/** Mines setup blocks until the node's pool is empty (the world's own setup sends more than one block holds). */
async function drain(host: WorldHost): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const status = await host.rpc.call<{ pending: string }>('txpool_status');
    if (BigInt(status.pending) === 0n) return;
    await host.mineSetupBlock();
  }
}

export const vaultsModule: WorldModuleFactory = (_chain, rng) => {
  let vaults: VaultState[] = [];
  let curator: Address;
  let depositors: Address[] = [];

  const tokenOf = (host: WorldHost, v: VaultState): TokenInfo => (v.asset.toLowerCase() === host.usdc.address.toLowerCase() ? host.usdc : host.native);
  const send = (host: WorldHost, from: Address, to: Address, data: `0x${string}`, gas: bigint) => host.queue({ from, to, data, gas });
  const call = (fn: string, args: readonly unknown[]) => encodeFunctionData({ abi: SibylVault.abi, functionName: fn, args } as never);
  const usd = (host: WorldHost, v: VaultState, amount: number): bigint => {
    const token = tokenOf(host, v);
    return token === host.usdc ? parseUnits(amount.toFixed(2), 6) : host.toRaw(token, amount);
  };

  // The vault's own rounding (OpenZeppelin ERC4626, no decimals offset): shares down on deposit, assets down on redeem.
  const sharesFor = (v: VaultState, assets: bigint) => (assets * (v.supply + 1n)) / (v.totalAssets + 1n);
  const assetsFor = (v: VaultState, shares: bigint) => (shares * (v.totalAssets + 1n)) / (v.supply + 1n);

  /** A deposit from what the depositor holds; when short, its float is topped up now and the deposit waits. */
  const deposit = (host: WorldHost, v: VaultState, who: Address, amount: bigint): boolean => {
    if (amount <= 0n) return false;
    if (host.balance(who, v.asset) < amount) {
      host.fundToken(who, v.asset, amount + usd(host, v, FLOAT_USD));
      return false;
    }
    host.approve(who, v.asset, v.vault);
    send(host, who, v.vault, call('deposit', [amount, who]), GAS.deposit);
    host.credit(who, v.asset, -amount);
    const shares = sharesFor(v, amount);
    v.totalAssets += amount;
    v.supply += shares;
    v.idle += amount;
    v.shares.set(who, (v.shares.get(who) ?? 0n) + shares);
    return true;
  };

  /** Whether the vault holds enough itself for `assets` (maxRedeem rounds idle down to shares: a cushion). */
  const canPay = (v: VaultState, assets: bigint) => assets + v.totalAssets / 1000n + 1n <= v.idle;

  const redeem = (host: WorldHost, v: VaultState, who: Address, shares: bigint) => {
    const assets = assetsFor(v, shares);
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
    host.credit(v.strategy, v.asset, -repay);
    v.lent -= repay;
    v.idle += repay;
  };

  const target = (v: VaultState) => (v.totalAssets * BigInt(Math.round(IDLE_TARGET * 1000))) / 1000n;

  /** The curator keeps IDLE_TARGET of the assets idle: lends the excess above 30%, recalls below 10%. True when it acted. */
  const balanceBook = (host: WorldHost, v: VaultState): boolean => {
    if (v.deprecated || v.totalAssets === 0n) return false;
    const idleShare = Number(v.idle) / Number(v.totalAssets);
    if (idleShare > 0.3) {
      const amount = v.idle - target(v);
      send(host, curator, v.vault, call('lend', [amount]), GAS.admin);
      host.credit(v.strategy, v.asset, amount);
      v.lent += amount;
      v.idle -= amount;
      return true;
    }
    if (idleShare < 0.1 && v.lent > 0n) {
      recall(host, v, target(v) - v.idle);
      return true;
    }
    return false;
  };

  /** Income for the time since the last payment, compounding at the strategy's rate, from its float (topped up a block ahead). */
  const payIncome = (host: WorldHost, v: VaultState, t: number) => {
    const growth = Math.expm1(Math.log1p(v.apyPct / 100) * ((t - v.lastIncome) / YEAR_S));
    const amount = BigInt(Math.floor(Number(v.totalAssets) * growth));
    const float = host.balance(v.strategy, v.asset) - v.lent;
    if (float < amount) {
      host.fundToken(v.strategy, v.asset, amount + incomeFloat(v));
      return; // paid next block, for the time up to then
    }
    v.lastIncome = t;
    v.nextIncome = t + Math.round(INCOME_EVERY_S * (0.75 + rng.next() * 0.5));
    if (amount <= 0n) return;
    send(host, v.strategy, v.vault, call('payIncome', [amount]), GAS.income);
    host.credit(v.strategy, v.asset, -amount);
    v.totalAssets += amount;
    v.idle += amount;
  };

  const incomeFloat = (v: VaultState) => BigInt(Math.floor(Number(v.totalAssets) * (v.apyPct / 100) * (INCOME_FLOAT_DAYS / 365)));

  const deprecate = (host: WorldHost, v: VaultState, t: number) => {
    send(host, curator, v.vault, call('deprecate', []), GAS.admin);
    v.deprecated = true;
    recall(host, v, v.lent);
    const holders = [...v.shares.keys()];
    const forgotten = new Set<Address>();
    // At least one depositor forgets (all of them when there are few), and the others leave.
    while (forgotten.size < Math.min(holders.length, Math.max(1, Math.min(FORGOTTEN, holders.length - 1)))) forgotten.add(rng.pick(holders));
    for (const holder of holders) {
      if (forgotten.has(holder)) continue;
      const held = v.shares.get(holder)!;
      const keep = rng.chance(DUST_SHARE) ? held / 1000n : 0n; // dust: a thousandth left behind
      v.exits.push({ holder, at: t + rng.int(3600, EXIT_WITHIN_S), keep });
    }
    v.exits.sort((a, b) => a.at - b.at);
    const label = host.labels.vaults.find((l) => l.vault === v.vault);
    if (label) label.deprecatedAt = t;
    labelHolders(host, v);
  };

  const labelHolders = (host: WorldHost, v: VaultState) => {
    const label = host.labels.vaults.find((l) => l.vault === v.vault);
    if (label) label.holdersLeft = [...v.shares.keys()];
  };

  /** This block's one action on a live vault: income when due, else the curator's book, else one deposit or withdrawal. */
  const act = (host: WorldHost, v: VaultState, t: number, dt: number) => {
    if (t >= v.nextIncome) return payIncome(host, v, t);
    if (balanceBook(host, v)) return;
    if (!rng.chance(1 - Math.exp(-(dt / 3600) * FLOWS_PER_HOUR))) return;
    const holders = [...v.shares.keys()];
    if (holders.length && rng.chance(WITHDRAW_SHARE)) {
      const who = rng.pick(holders);
      const held = v.shares.get(who)!;
      const shares = rng.chance(0.4) ? held : (held * BigInt(rng.int(20, 80))) / 100n;
      if (shares <= 0n) return;
      if (canPay(v, assetsFor(v, shares))) redeem(host, v, who, shares);
      else recall(host, v, assetsFor(v, shares) - v.idle + target(v)); // the holder comes back later
    } else deposit(host, v, rng.pick(depositors), usd(host, v, rng.logUniform(200, 50_000)));
  };

  return {
    name: 'vaults',
    async setup(host) {
      await drain(host);
      await host.rpc.call('anvil_setCode', [EMBEDDED_VAULT_FACTORY, SibylVaultFactory.deployedBytecode]);
      curator = host.actorAddress('vault-curator', 0);
      depositors = Array.from({ length: DEPOSITORS }, (_, i) => host.actorAddress('vault-depositor', i));
      for (const a of [curator, ...depositors]) host.queueBalance(a, parseEther('10000'));
      const native = host.native.symbol;
      for (const plan of VAULT_PLANS) {
        const asset = plan.asset === 'usdc' ? host.usdc.address : host.native.address;
        send(host, curator, EMBEDDED_VAULT_FACTORY, encodeFunctionData({ abi: SibylVaultFactory.abi, functionName: 'createVault', args: [asset, plan.name(native), plan.symbol(native)] }), GAS.create);
      }
      // Depositors' floats land with the vaults, a block before anything is deposited.
      for (const who of depositors) {
        host.fundToken(who, host.usdc.address, parseUnits(String(FLOAT_USD), 6));
        host.fundToken(who, host.native.address, host.toRaw(host.native, FLOAT_USD));
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
        // Opening deposits from different depositors, so each vault starts with some depth.
        const first = rng.int(0, DEPOSITORS - 1);
        for (let k = rng.int(4, 6); k > 0; k--) deposit(host, v, depositors[(first + k * 5) % DEPOSITORS]!, usd(host, v, rng.logUniform(2_000, 200_000)));
        host.fundToken(strategy, asset, incomeFloat(v) * 4n + 1n); // by then the vault is a few times larger
        host.labels.vaults.push({
          vault, asset, assetSymbol: plan.asset === 'usdc' ? host.usdc.symbol : native, name: plan.name(native), curator, strategy, block,
          incomeApyPct: apyPct, deprecated: Boolean(plan.deprecated), deprecatedAt: null, holdersLeft: [],
        });
      }
      await host.mineSetupBlock();
      for (const v of vaults) balanceBook(host, v); // the curator lends, a block after the deposits
      await host.mineSetupBlock();
      await drain(host);
    },
    step(host, t, dt) {
      for (const v of vaults) {
        if (v.deprecateAt !== null && !v.deprecated && t >= v.deprecateAt) {
          deprecate(host, v, t);
          continue;
        }
        if (!v.deprecated) {
          act(host, v, t, dt);
          continue;
        }
        // One leaver a block.
        const exit = v.exits[0];
        if (exit && exit.at <= t) {
          v.exits.shift();
          const shares = (v.shares.get(exit.holder) ?? 0n) - exit.keep;
          if (shares > 0n) redeem(host, v, exit.holder, shares);
          labelHolders(host, v);
        }
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
