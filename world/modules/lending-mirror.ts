/**
 * The lending module's exact mirror of LendingPool (chain/contracts/LendingPool.sol): the same
 * integer arithmetic in the same order (indexes, scaled balances, account data, liquidation
 * amounts), so the module knows every health factor without reading the chain, sends only
 * transactions that succeed, and labels the truth the pool itself would report.
 */
import type { Address } from 'viem';

export const RAY = 10n ** 27n;
const YEAR = 365n * 86_400n;
const BPS = 10_000n;
export const WAD = 10n ** 18n;
const FULL_CLOSE_BELOW = (95n * WAD) / 100n;
export const MAX_UINT256 = 2n ** 256n - 1n;

export interface ReserveConfig {
  asset: Address;
  decimals: number;
  ltv: number;
  liquidationThreshold: number;
  liquidationBonus: number;
  borrowingEnabled: boolean;
  /** Ray per year. */
  borrowRate: bigint;
}

interface ReserveState extends ReserveConfig {
  lastUpdate: number;
  liquidityIndex: bigint;
  borrowIndex: bigint;
  totalScaledSupply: bigint;
  totalScaledDebt: bigint;
  /** Underlying the pool holds. */
  cash: bigint;
}

export interface AccountData {
  totalCollateralBase: bigint;
  totalDebtBase: bigint;
  currentLiquidationThreshold: bigint;
  ltv: bigint;
  healthFactor: bigint;
}

const ceilDiv = (a: bigint, b: bigint) => (a === 0n ? 0n : (a - 1n) / b + 1n);
const key = (asset: Address, user: Address) => `${asset}:${user}`.toLowerCase();

/** Plain JSON of the mirror (amounts as decimal strings). */
export interface MirrorState {
  reserves: Record<keyof ReserveState, string | number | boolean>[];
  supply: [string, string][];
  debt: [string, string][];
  prices: [string, string][];
}

export class LendingMirror {
  private readonly reserves: ReserveState[] = [];
  /** The same reserves by lower-case asset, and each one's lower-case asset (read every block for every position). */
  private readonly byAsset = new Map<string, ReserveState>();
  private readonly lower = new Map<ReserveState, string>();
  private readonly scaledSupply = new Map<string, bigint>();
  private readonly scaledDebt = new Map<string, bigint>();
  /** Oracle prices, USD with 8 decimals, by lower-case asset. */
  private readonly prices = new Map<string, bigint>();

  initReserve(config: ReserveConfig, t: number): void {
    this.index({ ...config, lastUpdate: t, liquidityIndex: RAY, borrowIndex: RAY, totalScaledSupply: 0n, totalScaledDebt: 0n, cash: 0n });
  }

  private index(r: ReserveState): void {
    this.reserves.push(r);
    this.byAsset.set(r.asset.toLowerCase(), r);
    this.lower.set(r, r.asset.toLowerCase());
  }

  setPrice(asset: Address, price: bigint): void {
    this.prices.set(asset.toLowerCase(), price);
  }

  price(asset: Address): bigint {
    return this.prices.get(asset.toLowerCase()) ?? 0n;
  }

  cash(asset: Address): bigint {
    return this.reserve(asset).cash;
  }

  private reserve(asset: Address): ReserveState {
    const r = this.byAsset.get(asset.toLowerCase());
    if (!r) throw new Error(`lending mirror: no reserve ${asset}`);
    return r;
  }

  private indexesNow(r: ReserveState, t: number): [bigint, bigint] {
    let liquidityIndex = r.liquidityIndex;
    const elapsed = BigInt(t - r.lastUpdate);
    if (elapsed === 0n || r.borrowRate === 0n) return [liquidityIndex, r.borrowIndex];
    const grown = r.borrowIndex + (r.borrowIndex * r.borrowRate * elapsed) / (YEAR * RAY);
    if (r.totalScaledSupply > 0n && r.totalScaledDebt > 0n) {
      const interest = (r.totalScaledDebt * grown) / RAY - (r.totalScaledDebt * r.borrowIndex) / RAY;
      liquidityIndex += (interest * RAY) / r.totalScaledSupply;
    }
    return [liquidityIndex, grown];
  }

  private accrue(asset: Address, t: number): ReserveState {
    const r = this.reserve(asset);
    if (r.lastUpdate === t) return r;
    [r.liquidityIndex, r.borrowIndex] = this.indexesNow(r, t);
    r.lastUpdate = t;
    return r;
  }

  supplied(asset: Address, user: Address, t: number): bigint {
    const r = this.reserve(asset);
    return ((this.scaledSupply.get(key(asset, user)) ?? 0n) * this.indexesNow(r, t)[0]) / RAY;
  }

  debt(asset: Address, user: Address, t: number): bigint {
    const r = this.reserve(asset);
    return ceilDiv((this.scaledDebt.get(key(asset, user)) ?? 0n) * this.indexesNow(r, t)[1], RAY);
  }

  accountData(user: Address, t: number): AccountData {
    let totalCollateralBase = 0n;
    let totalDebtBase = 0n;
    let weightedThreshold = 0n;
    let weightedLtv = 0n;
    const u = `:${user.toLowerCase()}`;
    for (const r of this.reserves) {
      const k = this.lower.get(r)! + u;
      const scaledSupply = this.scaledSupply.get(k) ?? 0n;
      const scaledDebt = this.scaledDebt.get(k) ?? 0n;
      if (scaledDebt === 0n && (scaledSupply === 0n || r.liquidationThreshold === 0)) continue;
      const price = this.price(r.asset);
      const unit = 10n ** BigInt(r.decimals);
      const [liquidityIndex, borrowIndex] = this.indexesNow(r, t);
      if (scaledSupply > 0n && r.liquidationThreshold > 0) {
        const value = (((scaledSupply * liquidityIndex) / RAY) * price) / unit;
        totalCollateralBase += value;
        weightedThreshold += value * BigInt(r.liquidationThreshold);
        weightedLtv += value * BigInt(r.ltv);
      }
      if (scaledDebt > 0n) totalDebtBase += ceilDiv(ceilDiv(scaledDebt * borrowIndex, RAY) * price, unit);
    }
    const currentLiquidationThreshold = totalCollateralBase > 0n ? weightedThreshold / totalCollateralBase : 0n;
    const ltv = totalCollateralBase > 0n ? weightedLtv / totalCollateralBase : 0n;
    const healthFactor = totalDebtBase === 0n ? MAX_UINT256 : (((totalCollateralBase * currentLiquidationThreshold) / BPS) * WAD) / totalDebtBase;
    return { totalCollateralBase, totalDebtBase, currentLiquidationThreshold, ltv, healthFactor };
  }

  // ---- the pool's state changes (each as the contract does it, at block time t) -------------

  supply(asset: Address, user: Address, amount: bigint, t: number): void {
    const r = this.accrue(asset, t);
    const scaled = (amount * RAY) / r.liquidityIndex;
    this.add(this.scaledSupply, asset, user, scaled);
    r.totalScaledSupply += scaled;
    r.cash += amount;
  }

  /** False (and nothing changes) where the pool would revert. */
  withdraw(asset: Address, user: Address, amount: bigint, t: number): boolean {
    const r = this.accrue(asset, t);
    const scaledHeld = this.scaledSupply.get(key(asset, user)) ?? 0n;
    const balance = (scaledHeld * r.liquidityIndex) / RAY;
    if (amount === 0n || amount > balance || amount > r.cash) return false;
    const scaled = amount === balance ? scaledHeld : ceilDiv(amount * RAY, r.liquidityIndex);
    this.add(this.scaledSupply, asset, user, -scaled);
    if (this.accountData(user, t).healthFactor < WAD) {
      this.add(this.scaledSupply, asset, user, scaled);
      return false;
    }
    r.totalScaledSupply -= scaled;
    r.cash -= amount;
    return true;
  }

  borrow(asset: Address, user: Address, amount: bigint, t: number): boolean {
    const r = this.accrue(asset, t);
    if (!r.borrowingEnabled || amount === 0n || amount > r.cash) return false;
    const scaled = ceilDiv(amount * RAY, r.borrowIndex);
    this.add(this.scaledDebt, asset, user, scaled);
    const data = this.accountData(user, t);
    if (data.totalDebtBase > (data.totalCollateralBase * data.ltv) / BPS) {
      this.add(this.scaledDebt, asset, user, -scaled);
      return false;
    }
    r.totalScaledDebt += scaled;
    r.cash -= amount;
    return true;
  }

  /** What was repaid (the debt at most). */
  repay(asset: Address, user: Address, amount: bigint, t: number): bigint {
    const r = this.accrue(asset, t);
    const debt = this.debt(asset, user, t);
    const paid = amount > debt ? debt : amount;
    if (paid === 0n) return 0n;
    this.burnDebt(r, user, paid, debt);
    r.cash += paid;
    return paid;
  }

  /** A liquidation of `user` as the pool computes it: what it covers and seizes, or null where it reverts. */
  liquidate(collateral: Address, debtAsset: Address, user: Address, debtToCover: bigint, t: number): { covered: bigint; seized: bigint } | null {
    const c = this.accrue(collateral, t);
    const d = this.accrue(debtAsset, t);
    const hf = this.accountData(user, t).healthFactor;
    if (hf >= WAD) return null;
    const userDebt = this.debt(debtAsset, user, t);
    const userCollateral = this.supplied(collateral, user, t);
    if (userDebt === 0n || userCollateral === 0n || c.liquidationThreshold === 0) return null;
    const maxDebt = hf < FULL_CLOSE_BELOW ? userDebt : userDebt / 2n;
    let covered = debtToCover < maxDebt ? debtToCover : maxDebt;
    const priceC = this.price(collateral);
    const priceD = this.price(debtAsset);
    const [unitC, unitD, bonus] = [10n ** BigInt(c.decimals), 10n ** BigInt(d.decimals), BigInt(c.liquidationBonus)];
    let seized = (covered * priceD * unitC * bonus) / (priceC * unitD * BPS);
    if (seized > userCollateral) {
      seized = userCollateral;
      covered = (seized * priceC * unitD * BPS) / (priceD * unitC * bonus);
    }
    if (covered === 0n) return null;
    this.burnDebt(d, user, covered, userDebt);
    d.cash += covered;
    const scaledHeld = this.scaledSupply.get(key(collateral, user)) ?? 0n;
    const seizedScaled = seized === userCollateral ? scaledHeld : ceilDiv(seized * RAY, c.liquidityIndex);
    this.add(this.scaledSupply, collateral, user, -seizedScaled);
    c.totalScaledSupply -= seizedScaled;
    c.cash -= seized;
    return { covered, seized };
  }

  private burnDebt(r: ReserveState, user: Address, amount: bigint, debt: bigint): void {
    const held = this.scaledDebt.get(key(r.asset, user)) ?? 0n;
    const scaled = amount >= debt ? held : (amount * RAY) / r.borrowIndex;
    this.add(this.scaledDebt, r.asset, user, -scaled);
    r.totalScaledDebt -= scaled;
  }

  private add(map: Map<string, bigint>, asset: Address, user: Address, amount: bigint): void {
    const k = key(asset, user);
    const next = (map.get(k) ?? 0n) + amount;
    if (next === 0n) map.delete(k);
    else map.set(k, next);
  }

  toState(): MirrorState {
    const big = (m: Map<string, bigint>) => [...m].map(([k, v]) => [k, v.toString()] as [string, string]);
    return {
      reserves: this.reserves.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])) as MirrorState['reserves'][number]),
      supply: big(this.scaledSupply), debt: big(this.scaledDebt), prices: big(this.prices),
    };
  }

  static restore(state: MirrorState): LendingMirror {
    const mirror = new LendingMirror();
    const big = ['borrowRate', 'liquidityIndex', 'borrowIndex', 'totalScaledSupply', 'totalScaledDebt', 'cash'];
    for (const r of state.reserves) mirror.index(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, big.includes(k) ? BigInt(v as string) : v])) as unknown as ReserveState);
    for (const [k, v] of state.supply) mirror.scaledSupply.set(k, BigInt(v));
    for (const [k, v] of state.debt) mirror.scaledDebt.set(k, BigInt(v));
    for (const [k, v] of state.prices) mirror.prices.set(k, BigInt(v));
    return mirror;
  }
}
