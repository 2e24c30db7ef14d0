/**
 * A lending market on every chain: LendingPool and LendingOracle placed at the chain's Aave v3
 * Pool and AaveOracle addresses (chain/chains.ts LENDING_MARKETS), USDC lent against the wrapped
 * native and the chain's other majors. The oracle follows the reference prices (posted by the
 * module's price feed when one moved more than ORACLE_STEP). Suppliers lend USDC and earn what borrowers pay; borrowers arrive with
 * a spread of loan-to-values, so as prices move some drift towards liquidation; attentive ones
 * top up or repay when their health factor sinks, negligent ones do not; liquidation bots
 * liquidate every position under a health factor of 1 in the block it gets there and keep the
 * bonus. The module mirrors the pool exactly (lending-mirror.ts), so it reads nothing per block,
 * and labels every position's health factor and every liquidation.
 *
 * The node does not keep the order of different senders' transactions within a block (measured:
 * the feed's price post sealed after borrows sent after it). So nothing here
 * depends on another sender's transaction in the same block: actors are funded a block before
 * they use the funds, positions act on posted prices a block after the feed posts them, and a
 * position its borrower acts on is not liquidated in that block.
 */
import { encodeFunctionData, parseEther, parseUnits, type Address } from 'viem';
import { LendingOracle, LendingPool } from '../../chain/artifacts/index.js';
import { LENDING_MARKETS } from '../../chain/chains.js';
import type { TokenInfo } from '../world.js';
import { LendingMirror, MAX_UINT256, WAD, type MirrorState, type ReserveConfig } from './lending-mirror.js';
import type { WorldHost, WorldModuleFactory } from './module.js';

/**
 * The lending market's pool and oracle; every borrower position (collateral and debt in raw
 * units, health factor as of `asOfBlock`, refreshed every block from the module's exact mirror of
 * the pool; `open: false` once repaid in full or liquidated away); every liquidation with what
 * was seized and covered and the liquidator's bonus in USD at the oracle's prices of its block.
 */
export interface LendingLabels {
  lendingMarket: { pool: Address; oracle: Address } | null;
  lendingPositions: {
    borrower: Address; collateral: Address; collateralSymbol: string; collateralAmount: string; debtAsset: Address; debt: string;
    healthFactor: number | null; openedBlock: number; asOfBlock: number; open: boolean;
  }[];
  liquidations: {
    block: number; borrower: Address; liquidator: Address; collateral: Address; debtAsset: Address;
    collateralSeized: string; debtCovered: string; bonusUsd: number;
  }[];
}

export function emptyLendingLabels(): LendingLabels {
  return { lendingMarket: null, lendingPositions: [], liquidations: [] };
}

const GAS = { admin: 3_000_000n, action: 600_000n };
/** The oracle posts a price once the reference has moved this far from the last one posted. */
const ORACLE_STEP = 0.002;
const SUPPLIERS = 3;
const SUPPLY_USDC_EACH = 3_000_000;
const LIQUIDATORS = 2;
const OPENING_BORROWERS = 24;
const BORROWERS_PER_HOUR = 0.6;
/** Borrowers open with a health factor between their collateral's floor (LT / LTV) and this. */
const OPENING_HF_MAX = 1.6;
/** Chance per hour that an attentive borrower under its comfort acts (tops up or repays). */
const ATTENTION_PER_HOUR = 0.35;
/** A levered borrower borrows more once its health factor is this far above its target. */
const LEVER_SLACK = 0.005;
/** Chance per day that a borrower closes its loan (repays all, withdraws its collateral). */
const CLOSE_PER_DAY = 0.08;
/** USDC borrow rate, 8% a year; collateral reserves lend nothing. */
const USDC_RATE = (8n * 10n ** 27n) / 100n;

/**
 * Risk parameters (basis points) by reference asset, Aave-like: the calmer the asset, the higher
 * its LTV and liquidation threshold and the smaller the liquidator's bonus. The collateral is
 * the wrapped native and every genesis major the chain carries (BTC, ETH, SOL, BNB, ADA, DOT).
 */
const RISK: Record<string, { ltv: number; lt: number; bonus: number }> = {
  USD: { ltv: 7_500, lt: 7_800, bonus: 10_450 },
  BTC: { ltv: 7_600, lt: 7_850, bonus: 10_500 },
  ETH: { ltv: 8_050, lt: 8_300, bonus: 10_500 },
  BNB: { ltv: 7_200, lt: 7_500, bonus: 10_750 },
  SOL: { ltv: 7_000, lt: 7_300, bonus: 10_750 },
  POL: { ltv: 6_200, lt: 6_500, bonus: 10_800 },
  ADA: { ltv: 6_200, lt: 6_500, bonus: 10_800 },
  DOT: { ltv: 6_200, lt: 6_500, bonus: 10_800 },
};

/**
 * attentive: tops up or repays under its comfort; negligent: never acts; levered: borrows more
 * whenever prices rise, back to a health factor just above its floor (it lives near liquidation).
 */
type Style = 'attentive' | 'negligent' | 'levered';

interface Position {
  borrower: Address;
  collateral: Address;
  style: Style;
  /** attentive: acts under this health factor; levered: borrows back down to it. */
  target: number;
  /** Funded, to be opened in a later block with this much collateral at this health factor. */
  pending?: { amount: string; hf0: number };
  /** Its entry in the labels' lendingPositions, once opened. */
  label?: number;
  open: boolean;
}

interface LendingState {
  mirror: MirrorState;
  positions: Position[];
  suppliers: Address[];
  liquidators: Address[];
  feed: Address;
  posted: [string, number][];
  liquidations: number;
  pricedLastBlock: boolean;
  /** Seconds since the positions last acted. */
  idle: number;
}

const hfNumber = (hf: bigint) => (hf === MAX_UINT256 ? null : Number((hf * 1_000_000n) / WAD) / 1_000_000);
const scale = (amount: bigint, factor: number) => (amount * BigInt(Math.round(factor * 1e6))) / 1_000_000n;

export const lendingModule: WorldModuleFactory = (chain, rng) => {
  const market = LENDING_MARKETS[chain];
  if (!market) return undefined;
  let mirror = new LendingMirror();
  let positions: Position[] = [];
  let suppliers: Address[] = [];
  let liquidators: Address[] = [];
  let feed: Address | undefined;
  /** Last price posted per asset, in USD. */
  let posted = new Map<string, number>();
  let liquidationCount = 0;
  let pricedLastBlock = false;
  let idle = 0;

  /** The wrapped native first, then the chain's other majors. */
  const collaterals = (host: WorldHost): TokenInfo[] => [
    host.native,
    ...host.tokens().filter((t) => t.kind === 'genesis' && t !== host.native && t.asset && RISK[t.asset]),
  ];
  const poolCall = (host: WorldHost, from: Address, functionName: string, args: readonly unknown[]) =>
    host.queue({ from, to: market.pool, data: encodeFunctionData({ abi: LendingPool.abi, functionName, args } as never), gas: GAS.action });

  /** Actors funded in the block being assembled: what they were sent may land after their own transactions. */
  const fundedNow = new Set<string>();
  const settled = (host: WorldHost, actor: Address, token: Address, amount: bigint) => !fundedNow.has(`${actor}:${token}`.toLowerCase()) && host.balance(actor, token) >= amount;

  /**
   * Whether `actor` already holds `amount` of `token` (not counting what it was sent in this block);
   * if not, funds it (twice the shortfall) for a later block and answers false.
   */
  const holds = (host: WorldHost, actor: Address, token: Address, amount: bigint): boolean => {
    if (settled(host, actor, token, amount)) return true;
    const short = amount - host.balance(actor, token);
    if (short > 0n) host.fundToken(actor, token, short * 2n);
    fundedNow.add(`${actor}:${token}`.toLowerCase());
    return false;
  };

  /** Posts every reference price that moved past the step (all of them, USDC's too, with `all`); whether it posted. */
  const postPrices = (host: WorldHost, from: Address, t: number, all = false): boolean => {
    const assets: Address[] = [];
    const prices: bigint[] = [];
    for (const token of collaterals(host)) {
      const usd = host.referenceUsd(token, t);
      if (!usd) continue;
      const last = posted.get(token.address.toLowerCase());
      if (!all && last !== undefined && Math.abs(usd / last - 1) < ORACLE_STEP) continue;
      const price = BigInt(Math.round(usd * 1e8));
      posted.set(token.address.toLowerCase(), usd);
      mirror.setPrice(token.address, price);
      assets.push(token.address);
      prices.push(price);
    }
    if (all) {
      mirror.setPrice(host.usdc.address, 100_000_000n);
      assets.push(host.usdc.address);
      prices.push(100_000_000n);
    }
    if (assets.length) host.queue({ from, to: market.oracle, data: encodeFunctionData({ abi: LendingOracle.abi, functionName: 'setAssetPrices', args: [assets, prices] }), gas: GAS.action });
    return assets.length > 0;
  };

  /** Supplies what the actor holds (the caller checked `holds`). */
  const supplyFrom = (host: WorldHost, actor: Address, token: Address, amount: bigint, t: number) => {
    host.approve(actor, token, market.pool);
    poolCall(host, actor, 'supply', [token, amount, actor, 0]);
    host.credit(actor, token, -amount);
    mirror.supply(token, actor, amount, t);
  };

  /** Repays up to `amount` (all with MAX_UINT256) from what the actor holds; false when it must be funded first. */
  const repayFrom = (host: WorldHost, actor: Address, amount: bigint, t: number): boolean => {
    const usdc = host.usdc.address;
    const debt = mirror.debt(usdc, actor, t);
    const paid = amount > debt ? debt : amount;
    if (paid === 0n || !holds(host, actor, usdc, paid)) return false;
    mirror.repay(usdc, actor, amount, t);
    host.approve(actor, usdc, market.pool);
    poolCall(host, actor, 'repay', [usdc, amount, 2n, actor]);
    host.credit(actor, usdc, -paid);
    return true;
  };

  /**
   * A new borrower: collateral worth $3k-$150k (half of them the wrapped native), funded now;
   * opened in a later block at a health factor drawn between the collateral's floor
   * (liquidation threshold / LTV) and OPENING_HF_MAX, skewed low.
   */
  const prepare = (host: WorldHost) => {
    const options = collaterals(host);
    const token = options.length === 1 || rng.chance(0.5) ? options[0]! : rng.pick(options.slice(1));
    const price = mirror.price(token.address);
    if (price === 0n) return;
    const usd = rng.logUniform(3_000, 150_000);
    const amount = (BigInt(Math.round((usd / (Number(price) / 1e8)) * 1e6)) * 10n ** BigInt(token.decimals)) / 1_000_000n;
    const risk = RISK[token.asset!]!;
    const floor = risk.lt / risk.ltv;
    const hf0 = floor + (OPENING_HF_MAX - floor) * rng.next() ** 2;
    const roll = rng.next();
    const style: Style = roll < 0.35 ? 'attentive' : roll < 0.65 ? 'negligent' : 'levered';
    const target = style === 'attentive' ? 1.04 + rng.next() * 0.08 : style === 'levered' ? floor + 0.002 + rng.next() * 0.015 : 0;
    const borrower = host.actorAddress('lending-borrower', positions.length);
    host.queueBalance(borrower, parseEther('1'));
    // Half as much again kept in the wallet, for top-ups.
    host.fundToken(borrower, token.address, scale(amount, 1.5));
    positions.push({ borrower, collateral: token.address, style, target, pending: { amount: amount.toString(), hf0 }, open: false });
  };

  /** Supplies the funded collateral and borrows USDC so that LT * collateral / debt = hf0, a hair inside the LTV. */
  const open = (host: WorldHost, p: Position, t: number) => {
    const { amount: raw, hf0 } = p.pending!;
    const amount = BigInt(raw);
    const token = host.token(p.collateral)!;
    const risk = RISK[token.asset!]!;
    const valueUsd = Number((amount * mirror.price(p.collateral)) / 10n ** BigInt(token.decimals)) / 1e8;
    const debtUsd = Math.min((valueUsd * risk.lt) / 10_000 / hf0, ((valueUsd * risk.ltv) / 10_000) * 0.999);
    const debt = parseUnits(debtUsd.toFixed(6), 6);
    const usdc = host.usdc.address;
    // Waits while the pool lacks the cash to lend (suppliers come back).
    if (debt <= 0n || debt > mirror.cash(usdc) / 2n) return;
    delete p.pending;
    supplyFrom(host, p.borrower, p.collateral, amount, t);
    if (!mirror.borrow(usdc, p.borrower, debt, t)) throw new Error(`lending: a borrow the mirror refuses (${p.borrower})`);
    poolCall(host, p.borrower, 'borrow', [usdc, debt, 2n, 0, p.borrower]);
    host.credit(p.borrower, usdc, debt);
    p.open = true;
    p.label = host.labels.lendingPositions.push(label(host, p, t)) - 1;
  };

  const label = (host: WorldHost, p: Position, t: number): WorldHost['labels']['lendingPositions'][number] => ({
    borrower: p.borrower, collateral: p.collateral, collateralSymbol: host.token(p.collateral)?.symbol ?? '?',
    collateralAmount: mirror.supplied(p.collateral, p.borrower, t).toString(), debtAsset: host.usdc.address,
    debt: mirror.debt(host.usdc.address, p.borrower, t).toString(), healthFactor: hfNumber(mirror.accountData(p.borrower, t).healthFactor),
    openedBlock: host.nextBlock(), asOfBlock: host.nextBlock(), open: p.open,
  });

  /**
   * What the borrower does this block: an attentive one under its comfort brings its health
   * factor back to about 1.3 (more collateral or a partial repay); a levered one borrows back
   * down to its target once prices lifted it; now and then one closes its loan. True when it acted.
   */
  const tend = (host: WorldHost, p: Position, t: number, dt: number): boolean => {
    const usdc = host.usdc.address;
    if (rng.chance(Math.min(1, (dt / 86_400) * CLOSE_PER_DAY))) return close(host, p, t);
    const hf = Number(mirror.accountData(p.borrower, t).healthFactor) / 1e18;
    if (p.style === 'levered') {
      if (hf < p.target * (1 + LEVER_SLACK)) return false;
      const more = scale(mirror.debt(usdc, p.borrower, t), hf / p.target - 1);
      if (more <= 0n || more > mirror.cash(usdc) / 2n || !mirror.borrow(usdc, p.borrower, more, t)) return false;
      poolCall(host, p.borrower, 'borrow', [usdc, more, 2n, 0, p.borrower]);
      host.credit(p.borrower, usdc, more);
      return true;
    }
    if (p.style !== 'attentive' || hf >= p.target || !rng.chance(Math.min(1, (dt / 3600) * ATTENTION_PER_HOUR))) return false;
    if (rng.chance(0.5)) {
      const more = scale(mirror.supplied(p.collateral, p.borrower, t), 1.3 / hf - 1);
      if (more <= 0n || !holds(host, p.borrower, p.collateral, more)) return false;
      supplyFrom(host, p.borrower, p.collateral, more, t);
      return true;
    }
    return repayFrom(host, p.borrower, scale(mirror.debt(usdc, p.borrower, t), 1 - hf / 1.3), t);
  };

  /** Repays everything and takes the collateral back (once the wallet holds the debt). */
  const close = (host: WorldHost, p: Position, t: number): boolean => {
    if (!repayFrom(host, p.borrower, MAX_UINT256, t)) return false;
    const held = mirror.supplied(p.collateral, p.borrower, t);
    if (held > 0n && mirror.withdraw(p.collateral, p.borrower, held, t)) {
      poolCall(host, p.borrower, 'withdraw', [p.collateral, MAX_UINT256, p.borrower]);
      host.credit(p.borrower, p.collateral, held);
    }
    p.open = false;
    return true;
  };

  /** A bot liquidates a position under a health factor of 1, as much as the close factor lets it. */
  const liquidate = (host: WorldHost, p: Position, t: number) => {
    if (mirror.accountData(p.borrower, t).healthFactor >= WAD) return;
    const usdc = host.usdc.address;
    const debt = mirror.debt(usdc, p.borrower, t);
    const bot = liquidators.find((b) => settled(host, b, usdc, debt));
    if (!bot) return void holds(host, liquidators[liquidationCount % liquidators.length]!, usdc, debt * 4n);
    const [priceC, priceD] = [mirror.price(p.collateral), mirror.price(usdc)];
    const result = mirror.liquidate(p.collateral, usdc, p.borrower, MAX_UINT256, t);
    if (!result) return;
    liquidationCount++;
    host.approve(bot, usdc, market.pool);
    host.queue({ from: bot, to: market.pool, data: encodeFunctionData({ abi: LendingPool.abi, functionName: 'liquidationCall', args: [p.collateral, usdc, p.borrower, MAX_UINT256, false] }), gas: GAS.action });
    host.credit(bot, usdc, -result.covered);
    host.credit(bot, p.collateral, result.seized);
    const decimals = host.token(p.collateral)?.decimals ?? 18;
    const bonusUsd = (Number(result.seized) / 10 ** decimals) * (Number(priceC) / 1e8) - (Number(result.covered) / 1e6) * (Number(priceD) / 1e8);
    const entry = { borrower: p.borrower, liquidator: bot, collateral: p.collateral, debtAsset: usdc, collateralSeized: result.seized.toString(), debtCovered: result.covered.toString(), bonusUsd: Math.round(bonusUsd * 100) / 100 };
    host.onMined((block) => host.labels.liquidations.push({ block, ...entry }));
    if (mirror.debt(usdc, p.borrower, t) === 0n) p.open = false;
  };

  /** Suppliers now and then take out part of what they earned or add more. */
  const supplierFlow = (host: WorldHost, t: number, dt: number) => {
    if (!rng.chance((dt / 86_400) * 0.5)) return;
    const supplier = rng.pick(suppliers);
    const usdc = host.usdc.address;
    if (rng.chance(0.5)) {
      const amount = (mirror.supplied(usdc, supplier, t) * BigInt(rng.int(1, 5))) / 100n;
      if (amount > 0n && amount < mirror.cash(usdc) / 2n && mirror.withdraw(usdc, supplier, amount, t)) {
        poolCall(host, supplier, 'withdraw', [usdc, amount, supplier]);
        host.credit(supplier, usdc, amount);
      }
    } else {
      const amount = parseUnits(String(rng.int(50, 500) * 1_000), 6);
      if (holds(host, supplier, usdc, amount)) supplyFrom(host, supplier, usdc, amount, t);
    }
  };

  /** Every position's label, as the mirror has it once this block's transactions are in (a closed one once more, then left). */
  const relabel = (host: WorldHost, t: number) => {
    for (const p of positions) {
      const l = p.label === undefined ? undefined : host.labels.lendingPositions[p.label];
      if (!l || (!p.open && !l.open)) continue;
      host.labels.lendingPositions[p.label!] = { ...label(host, p, t), openedBlock: l.openedBlock };
    }
  };

  return {
    name: 'lending',
    async setup(host) {
      await host.rpc.call('anvil_setCode', [market.pool, LendingPool.deployedBytecode]);
      await host.rpc.call('anvil_setCode', [market.oracle, LendingOracle.deployedBytecode]);
      const admin = host.deployer;
      feed = host.actorAddress('lending-price-feed', 0);
      suppliers = Array.from({ length: SUPPLIERS }, (_, i) => host.actorAddress('lending-supplier', i));
      liquidators = Array.from({ length: LIQUIDATORS }, (_, i) => host.actorAddress('lending-liquidator', i));
      // Block 1: the market (the deployer's own transactions, in order), and everyone funded.
      let t = host.time();
      const oracleCall = (functionName: 'initialize' | 'setPoster', arg: Address) =>
        host.queue({ from: admin, to: market.oracle, data: encodeFunctionData({ abi: LendingOracle.abi, functionName, args: [arg] }), gas: GAS.action });
      oracleCall('initialize', admin);
      oracleCall('setPoster', feed);
      host.queue({ from: admin, to: market.pool, data: encodeFunctionData({ abi: LendingPool.abi, functionName: 'initialize', args: [admin, market.oracle] }), gas: GAS.action });
      postPrices(host, admin, t, true);
      const reserves: [TokenInfo, string, boolean, bigint][] = [[host.usdc, 'USD', true, USDC_RATE], ...collaterals(host).map((token) => [token, token.asset!, false, 0n] as [TokenInfo, string, boolean, bigint])];
      for (const [token, asset, borrowingEnabled, rate] of reserves) {
        const r = RISK[asset]!;
        const config: ReserveConfig = { asset: token.address, decimals: token.decimals, ltv: r.ltv, liquidationThreshold: r.lt, liquidationBonus: r.bonus, borrowingEnabled, borrowRate: rate };
        host.queue({ from: admin, to: market.pool, data: encodeFunctionData({ abi: LendingPool.abi, functionName: 'initReserve', args: [token.address, r.ltv, r.lt, r.bonus, borrowingEnabled, rate] }), gas: GAS.admin });
        mirror.initReserve(config, t);
      }
      host.labels.lendingMarket = { pool: market.pool, oracle: market.oracle };
      for (const a of [feed, ...suppliers, ...liquidators]) host.queueBalance(a, parseEther('10'));
      for (const a of [...suppliers, ...liquidators]) host.fundToken(a, host.usdc.address, parseUnits(String(SUPPLY_USDC_EACH), 6));
      for (let i = 0; i < OPENING_BORROWERS; i++) prepare(host);
      await host.mineSetupBlock();
      // Block 2: suppliers lend, the first borrowers open.
      t = host.time();
      for (const s of suppliers) supplyFrom(host, s, host.usdc.address, parseUnits(String(SUPPLY_USDC_EACH), 6), t);
      for (const p of positions) if (p.pending) open(host, p, t);
    },
    step(host, t, dt) {
      fundedNow.clear();
      idle += dt;
      // A block that posts prices does nothing that depends on them (the node may seal the feed's
      // transaction after others' of the same block): positions act on them a block later.
      if (!pricedLastBlock && postPrices(host, feed!, t)) {
        pricedLastBlock = true;
      } else {
        pricedLastBlock = false;
        const acted = new Set<Position>();
        for (const p of positions) {
          if (p.pending) open(host, p, t);
          else if (p.open && tend(host, p, t, idle)) acted.add(p);
        }
        for (const p of positions) if (p.open && !acted.has(p)) liquidate(host, p, t);
        supplierFlow(host, t, idle);
        idle = 0;
      }
      for (let i = rng.poisson((dt / 3600) * BORROWERS_PER_HOUR); i > 0; i--) prepare(host);
      relabel(host, t);
    },
    toState: (): LendingState => ({ mirror: mirror.toState(), positions, suppliers, liquidators, feed: feed!, posted: [...posted], liquidations: liquidationCount, pricedLastBlock, idle }),
    restore(state) {
      const s = state as LendingState;
      mirror = LendingMirror.restore(s.mirror);
      positions = s.positions;
      suppliers = s.suppliers;
      liquidators = s.liquidators;
      feed = s.feed;
      posted = new Map(s.posted);
      liquidationCount = s.liquidations;
      pricedLastBlock = s.pricedLastBlock;
      idle = s.idle;
    },
  };
};
