/**
 * A lending market on every chain: LendingPool and LendingOracle placed at the chain's Aave v3
 * Pool and AaveOracle addresses (chain/chains.ts LENDING_MARKETS), USDC lent against the wrapped
 * native and the chain's other majors, and on the stock chain against its genuine stock tokens too
 * (below). The oracle follows the reference prices (posted by the
 * module's price feed when one moved more than ORACLE_STEP). Suppliers lend USDC and earn what borrowers pay; borrowers arrive with
 * a spread of loan-to-values, so as prices move some drift towards liquidation; attentive ones
 * top up or repay when their health factor sinks, negligent ones do not; liquidation bots
 * liquidate every position under a health factor of 1 in the block it gets there and keep the
 * bonus. The module mirrors the pool exactly (lending-mirror.ts), so it reads nothing per block
 * (on the stock chain, one read of its stock tokens), and labels every position's health factor
 * and every liquidation.
 *
 * The node did not keep the order of different senders' transactions within a block when they
 * were sent in large batches (the feed's price post sealed after borrows sent after it). So on the
 * chains this module was written for nothing depends on another sender's transaction in the same
 * block: actors are funded a block before they use the funds, positions act on posted prices a
 * block after the feed posts them, and a position its borrower acts on is not liquidated in that
 * block. Those worlds stay as they were.
 *
 * The stock chain's market also lends against its stock tokens. The module learns them as any
 * risk desk would, from the chain: every six hours it reads the issuers' directory (a token no
 * registered issuer lists is not a genuine stock token), each issuer's tokens, their underlying
 * and its feed in the feed directory, and the token's pool; a token whose pool has liquidity is
 * listed as a collateral reserve (LTV and liquidation threshold by its underlying's volatility,
 * below ETH's) and borrowers take it twelve hours later. Its oracle price is the token's fair
 * value: the feed's answer times the token's ERC-8056 multiplier, per raw token, posted in every
 * block it changes (the feed's round due in that block by the feed's own rule, plan.ts feedDue,
 * from the last round on chain; the multiplier in effect at the block's time from the token's
 * schedule), so a split, which divides the one and multiplies the other, leaves it whole. Stock
 * borrowers buy their tokens on the token's pool in session (in slices, through the mirror its
 * opener published, shared-pools.ts), then supply them and borrow USDC; a token's pause halts
 * every move of it (no buy, supply, withdrawal or liquidation while paused). Blocks are sent in
 * order now (world/rpc.ts), so on the stock chain prices are posted first in a block and
 * positions act and are liquidated on them in that block: a gap down is liquidated where it lands.
 */
import { decodeFunctionResult, encodeFunctionData, erc20Abi, parseAbi, parseEther, parseUnits, zeroAddress, type Abi, type Address, type Hex } from 'viem';
import { LendingOracle, LendingPool, StockFeedDirectory, StockIssuer, StockIssuerDirectory, StockPriceFeed, StockToken } from '../../chain/artifacts/index.js';
import { CHAINS, LENDING_MARKETS, MULTICALL3_ADDRESS } from '../../chain/chains.js';
import { EMBEDDED_STOCK_FEED_DIRECTORY, EMBEDDED_STOCK_ISSUER_DIRECTORY, STOCK_FEED_CHAIN } from '../../chain/stocks.js';
import { inSession } from '../../lib/market-hours.js';
import { pairAddress } from '../market.js';
import { ONE, depthWeight, feedAnswer, feedDue } from '../stocks/plan.js';
import { StockPaths, UNDERLYINGS } from '../stocks/underlyings.js';
import type { TokenInfo } from '../world.js';
import { LendingMirror, MAX_UINT256, WAD, type MirrorState, type ReserveConfig } from './lending-mirror.js';
import type { WorldHost, WorldModuleFactory } from './module.js';
import { publishedPool } from './shared-pools.js';

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
 * Stock collateral by its underlying's own volatility (UNDERLYINGS' idioVol; the index has none):
 * every tier below ETH's 80.5% / 83%, the wilder names lower still, with a larger liquidation bonus.
 */
const STOCK_RISK: readonly { maxIdioVol: number; ltv: number; lt: number; bonus: number }[] = [
  { maxIdioVol: 0.16, ltv: 6_500, lt: 7_200, bonus: 10_500 },
  { maxIdioVol: 0.25, ltv: 5_500, lt: 6_300, bonus: 10_750 },
  { maxIdioVol: 0.4, ltv: 4_500, lt: 5_300, bonus: 11_000 },
  { maxIdioVol: Infinity, ltv: 3_500, lt: 4_300, bonus: 11_250 },
];
export const stockRisk = (underlying: string) => STOCK_RISK.find((r) => UNDERLYINGS[underlying]!.idioVol <= r.maxIdioVol)!;
/** How often the stock chain's directories are read for new tokens (a token found without liquidity has its pool read every block until it has). */
const STOCK_DISCOVERY_EVERY_S = 6 * 3_600;
/** Borrowers take a stock reserve this long after it is listed (and never in a new pool's first blocks, its early buyers'). */
const STOCK_LISTING_WAIT_S = 12 * 3_600;
const STOCK_LISTING_WAIT_BLOCKS = 4;
/** Reserves listed in one block at most (each initReserve deploys its two reserve tokens). */
const STOCK_LISTINGS_PER_BLOCK = 3;
const OPENING_STOCK_BORROWERS = 10;
const STOCK_BORROWERS_PER_HOUR = 0.25;
/** What a stock borrower buys, in USD, a slice a block of at most this share of the pool's USDC side, and the share it keeps for top-ups. */
const STOCK_BUY_USD = [2_000, 40_000] as const;
const STOCK_SLICE = 0.004;
const STOCK_KEPT = 0.2;
const PAIR_ABI = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)']);

const MULTICALL3_ABI = parseAbi(['struct Call3 { address target; bool allowFailure; bytes callData; }', 'struct Result { bool success; bytes returnData; }', 'function aggregate3(Call3[] calls) payable returns (Result[] returnData)']);

/** One view call of a multicall. */
const call = (address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[] = []) => ({ address, abi: abi as Abi, functionName, args });
/**
 * Views read in one Multicall3 call at the last mined block, sent on the world's own connection
 * (one round trip, no client batching to wait for): each result, or undefined where the call
 * failed or found no code.
 */
async function reads(host: WorldHost, calls: ReturnType<typeof call>[]): Promise<unknown[]> {
  if (!calls.length) return [];
  const data = encodeFunctionData({ abi: MULTICALL3_ABI, functionName: 'aggregate3', args: [calls.map((c) => ({ target: c.address, allowFailure: true, callData: encodeFunctionData({ abi: c.abi, functionName: c.functionName, args: c.args } as never) }))] });
  const raw = await host.rpc.call<Hex>('eth_call', [{ to: MULTICALL3_ADDRESS, data }, 'latest']);
  const results = decodeFunctionResult({ abi: MULTICALL3_ABI, functionName: 'aggregate3', data: raw }) as readonly { success: boolean; returnData: Hex }[];
  return results.map((r, i) => {
    if (!r.success || r.returnData === '0x') return undefined;
    const c = calls[i]!;
    return decodeFunctionResult({ abi: c.abi, functionName: c.functionName, data: r.returnData } as never) as unknown;
  });
}

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
  /** A stock borrower still buying its collateral: USDC raw left to spend, and the block it last bought in. */
  buying?: { left: string; lastBlock: number };
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
  /** The stock chain's only. */
  stocks?: StockState;
}

/** A stock token the module has found on chain (a reserve once `listedAt` is set). */
interface StockReserve {
  token: Address;
  symbol: string;
  underlying: string;
  feed: Address;
  pair: Address;
  /** When and in which block it was listed as a reserve (null: its pool had no liquidity yet). */
  listedAt: number | null;
  listedBlock: number | null;
}

interface StockState {
  reserves: StockReserve[];
  /** Every token seen (reserves and those not listable), so each is read once. */
  seen: string[];
  nextDiscovery: number;
  openingDone: boolean;
}

/** A listed stock reserve as the chain has it at the block being assembled. */
interface StockView {
  paused: boolean;
  /** Fair value per raw token, USD with 8 decimals: the feed's answer in this block times the multiplier in effect. */
  price: bigint;
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
  /** A new borrower's opening health factor (between its collateral's floor, LT / LTV, and the maximum), its style and the level it manages to. */
  const openingStance = (risk: { lt: number; ltv: number }) => {
    const floor = risk.lt / risk.ltv;
    const hf0 = floor + (OPENING_HF_MAX - floor) * rng.next() ** 2;
    const roll = rng.next();
    const style: Style = roll < 0.35 ? 'attentive' : roll < 0.65 ? 'negligent' : 'levered';
    const target = style === 'attentive' ? 1.04 + rng.next() * 0.08 : style === 'levered' ? floor + 0.002 + rng.next() * 0.015 : 0;
    return { hf0, style, target };
  };
  const stockChain = chain === STOCK_FEED_CHAIN;
  let stocks: StockState | undefined = stockChain ? { reserves: [], seen: [], nextDiscovery: 0, openingDone: false } : undefined;
  /** The listed stock reserves as read for the block being assembled. */
  const views = new Map<string, StockView>();
  let paths: StockPaths | undefined;

  /** The stock reserves by lower-case address (rebuilt from `stocks` on restore). */
  const stockIndex = new Map<string, StockReserve>();
  const stockOf = (asset: Address) => (stocks ? stockIndex.get(asset.toLowerCase()) : undefined);
  /** Risk parameters and decimals of a collateral: a major's by its reference asset, a stock token's by its underlying. */
  const riskOf = (host: WorldHost, asset: Address) => {
    const stock = stockOf(asset);
    if (stock) return { ...stockRisk(stock.underlying), decimals: 18 };
    const token = host.token(asset)!;
    return { ...RISK[token.asset!]!, decimals: token.decimals };
  };
  const symbolOf = (host: WorldHost, asset: Address) => stockOf(asset)?.symbol ?? host.token(asset)?.symbol ?? '?';
  /** A stock token can be moved this block (not paused); every other collateral always. */
  const movable = (asset: Address) => !stockOf(asset) || views.get(asset.toLowerCase())?.paused === false;

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

  /** Posts every reference price that moved past the step (all of them, USDC's too, with `all`), and `extra`; whether it posted. */
  const postPrices = (host: WorldHost, from: Address, t: number, all = false, extra: [Address, bigint][] = []): boolean => {
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
    for (const [asset, price] of extra) {
      mirror.setPrice(asset, price);
      assets.push(asset);
      prices.push(price);
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
    const { hf0, style, target } = openingStance(risk);
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
    const risk = riskOf(host, p.collateral);
    const valueUsd = Number((amount * mirror.price(p.collateral)) / 10n ** BigInt(risk.decimals)) / 1e8;
    const debtUsd = Math.min((valueUsd * risk.lt) / 10_000 / hf0, ((valueUsd * risk.ltv) / 10_000) * 0.999);
    const debt = parseUnits(debtUsd.toFixed(6), 6);
    const usdc = host.usdc.address;
    // Waits while the pool lacks the cash to lend (suppliers come back), or the stock token is paused.
    if (debt <= 0n || debt > mirror.cash(usdc) / 2n || !movable(p.collateral)) return;
    delete p.pending;
    supplyFrom(host, p.borrower, p.collateral, amount, t);
    if (!mirror.borrow(usdc, p.borrower, debt, t)) throw new Error(`lending: a borrow the mirror refuses (${p.borrower})`);
    poolCall(host, p.borrower, 'borrow', [usdc, debt, 2n, 0, p.borrower]);
    host.credit(p.borrower, usdc, debt);
    p.open = true;
    p.label = host.labels.lendingPositions.push(label(host, p, t)) - 1;
  };

  const label = (host: WorldHost, p: Position, t: number): WorldHost['labels']['lendingPositions'][number] => ({
    borrower: p.borrower, collateral: p.collateral, collateralSymbol: symbolOf(host, p.collateral),
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
    if (stockOf(p.collateral)) {
      // A stock borrower tops up from the tokens it kept (no one hands it more), else repays.
      if (rng.chance(0.5)) {
        const more = scale(mirror.supplied(p.collateral, p.borrower, t), 1.3 / hf - 1);
        if (more > 0n && movable(p.collateral) && settled(host, p.borrower, p.collateral, more)) {
          supplyFrom(host, p.borrower, p.collateral, more, t);
          return true;
        }
      }
    } else if (rng.chance(0.5)) {
      const more = scale(mirror.supplied(p.collateral, p.borrower, t), 1.3 / hf - 1);
      if (more <= 0n || !holds(host, p.borrower, p.collateral, more)) return false;
      supplyFrom(host, p.borrower, p.collateral, more, t);
      return true;
    }
    return repayFrom(host, p.borrower, scale(mirror.debt(usdc, p.borrower, t), 1 - hf / 1.3), t);
  };

  /** Repays everything and takes the collateral back (once the wallet holds the debt). */
  const close = (host: WorldHost, p: Position, t: number): boolean => {
    if (!movable(p.collateral) || !repayFrom(host, p.borrower, MAX_UINT256, t)) return false;
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
    if (mirror.accountData(p.borrower, t).healthFactor >= WAD || !movable(p.collateral)) return;
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
    const decimals = riskOf(host, p.collateral).decimals;
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

  // ---- the stock chain's stock collateral -----------------------------------------------------

  /**
   * Reads the directories for stock tokens not seen yet (and, for those seen without liquidity,
   * their pool again); lists up to a few a block as collateral reserves, each with its first price.
   */
  const discover = async (host: WorldHost, t: number) => {
    const st = stocks!;
    const admin = host.deployer;
    const pending = st.reserves.filter((r) => r.listedAt === null);
    if (t >= st.nextDiscovery) {
      st.nextDiscovery = t + STOCK_DISCOVERY_EVERY_S;
      const issuers = ((await reads(host, [call(EMBEDDED_STOCK_ISSUER_DIRECTORY, StockIssuerDirectory.abi, 'issuers')]))[0] ?? []) as Address[];
      const lists = await reads(host, issuers.map((i) => call(i, StockIssuer.abi, 'tokens')));
      const fresh = lists.flatMap((l) => (l ?? []) as Address[]).filter((token) => !st.seen.includes(token.toLowerCase()));
      if (fresh.length) {
        const meta = await reads(host, fresh.flatMap((token) => [call(token, StockToken.abi, 'underlying'), call(token, erc20Abi, 'symbol'), call(token, erc20Abi, 'decimals')]));
        const underlyings = fresh.map((_, i) => String(meta[3 * i] ?? ''));
        const feeds = await reads(host, underlyings.map((u) => call(EMBEDDED_STOCK_FEED_DIRECTORY, StockFeedDirectory.abi, 'feed', [u])));
        fresh.forEach((token, i) => {
          st.seen.push(token.toLowerCase());
          const feed = (feeds[i] as Address | undefined) ?? zeroAddress;
          // Lendable: an underlying with a feed, 18 decimals (the oracle prices a raw token), a risk tier.
          if (feed === zeroAddress || !UNDERLYINGS[underlyings[i]!] || meta[3 * i + 2] !== 18) return;
          const pair = pairAddress(CHAINS[chain].dexes[0]!.factory, token, host.usdc.address);
          const reserve: StockReserve = { token, symbol: String(meta[3 * i + 1]), underlying: underlyings[i]!, feed, pair, listedAt: null, listedBlock: null };
          st.reserves.push(reserve);
          stockIndex.set(token.toLowerCase(), reserve);
          pending.push(reserve);
        });
      }
    }
    if (!pending.length) return;
    const liquidity = await reads(host, pending.map((r) => call(r.pair, PAIR_ABI, 'getReserves')));
    const liquid = pending.filter((_, i) => ((liquidity[i] as readonly bigint[] | undefined)?.[0] ?? 0n) > 0n);
    for (const r of liquid.slice(0, STOCK_LISTINGS_PER_BLOCK)) {
      const risk = stockRisk(r.underlying);
      host.queue({ from: admin, to: market.pool, data: encodeFunctionData({ abi: LendingPool.abi, functionName: 'initReserve', args: [r.token, risk.ltv, risk.lt, risk.bonus, false, 0n] }), gas: GAS.admin });
      mirror.initReserve({ asset: r.token, decimals: 18, ltv: risk.ltv, liquidationThreshold: risk.lt, liquidationBonus: risk.bonus, borrowingEnabled: false, borrowRate: 0n }, t);
      r.listedAt = t;
      r.listedBlock = host.nextBlock();
    }
  };

  /**
   * Each listed stock reserve as it stands in the block being assembled: paused or not (the chain
   * after the last block: a pause sent in this block lands after this module's transactions), and
   * its fair value: the round its feed posts in this block if one is due (plan.ts feedDue, from the
   * last round on chain), else that last round, times the multiplier in effect at `t`.
   */
  const readStocks = async (host: WorldHost, t: number) => {
    views.clear();
    const listed = stocks!.reserves.filter((r) => r.listedAt !== null);
    if (!listed.length) return;
    const read = await reads(host, listed.flatMap((r) => [
      call(r.token, StockToken.abi, 'paused'), call(r.token, StockToken.abi, 'uiMultiplier'), call(r.token, StockToken.abi, 'newUIMultiplier'),
      call(r.token, StockToken.abi, 'effectiveAt'), call(r.feed, StockPriceFeed.abi, 'latestRoundData'),
    ]));
    paths ??= new StockPaths(host.seed, host.reference.origin);
    listed.forEach((r, i) => {
      const [paused, now, next, effectiveAt, round] = read.slice(5 * i, 5 * i + 5);
      if (paused === undefined || now === undefined || next === undefined || effectiveAt === undefined || round === undefined) return;
      const multiplier = t >= Number(effectiveAt as bigint) ? (next as bigint) : (now as bigint);
      const [, answer, , updatedAt] = round as readonly [bigint, bigint, bigint, bigint, bigint];
      const underlyingUsd = paths!.priceUsd(r.underlying, t);
      const posted = feedDue({ answer, at: Number(updatedAt) }, underlyingUsd, t) ? feedAnswer(underlyingUsd) : answer;
      views.set(r.token.toLowerCase(), { paused: paused as boolean, price: (posted * multiplier) / ONE });
    });
  };

  /** The stock reserves whose fair value differs from the price last posted. */
  const stockPrices = (): [Address, bigint][] =>
    stocks!.reserves.flatMap((r) => {
      const view = views.get(r.token.toLowerCase());
      return view && view.price > 0n && view.price !== mirror.price(r.token) ? [[r.token, view.price] as [Address, bigint]] : [];
    });

  /** Stock reserves borrowers take: listed long enough ago, priced, their pool's mirror published and holding liquidity. */
  const borrowable = (host: WorldHost, t: number) =>
    stocks!.reserves.filter((r) => r.listedAt !== null && t >= r.listedAt + STOCK_LISTING_WAIT_S && host.nextBlock() >= r.listedBlock! + STOCK_LISTING_WAIT_BLOCKS
      && mirror.price(r.token) > 0n && (publishedPool(host, r.pair)?.r0 ?? 0n) > 0n);

  /**
   * A new stock borrower: $2k-$40k of one of the borrowable names (the deeper pools more often),
   * minted in USDC now, bought on the pool from the next block, then opened like any position.
   */
  const prepareStock = (host: WorldHost, options: StockReserve[]) => {
    const weights = options.map((r) => depthWeight(r.underlying));
    let x = rng.next() * weights.reduce((a, b) => a + b, 0);
    const reserve = options.find((_, i) => (x -= weights[i]!) < 0) ?? options.at(-1)!;
    const usd = rng.logUniform(...STOCK_BUY_USD);
    const risk = stockRisk(reserve.underlying);
    const { hf0, style, target } = openingStance(risk);
    const borrower = host.actorAddress('lending-borrower', positions.length);
    const left = parseUnits(usd.toFixed(2), 6);
    host.queueBalance(borrower, parseEther('1'));
    host.fundToken(borrower, host.usdc.address, left);
    positions.push({ borrower, collateral: reserve.token, style, target, pending: { amount: '0', hf0 }, buying: { left: left.toString(), lastBlock: host.nextBlock() }, open: false });
  };

  /**
   * A stock borrower buys a slice in session while the token trades; once its USDC is spent it
   * supplies all but a fifth of what it bought (kept for top-ups) in a later block.
   */
  const buyStock = (host: WorldHost, p: Position, t: number) => {
    const b = p.buying!;
    const r = stockOf(p.collateral)!;
    const pool = publishedPool(host, r.pair);
    if (BigInt(b.left) > 0n) {
      if (host.nextBlock() <= b.lastBlock || !inSession(t) || !movable(r.token) || !pool || pool.r0 === 0n) return;
      const usdcSide = pool.token0.toLowerCase() === host.usdc.address.toLowerCase() ? pool.r0 : pool.r1;
      const cap = (usdcSide * BigInt(Math.round(STOCK_SLICE * 1e6))) / 1_000_000n;
      const spend = BigInt(b.left) < cap ? BigInt(b.left) : cap;
      if (spend <= 0n || host.swap(p.borrower, pool, host.usdc.address, spend) === 0n) return;
      b.left = (BigInt(b.left) - spend).toString();
      b.lastBlock = host.nextBlock();
      return;
    }
    if (host.nextBlock() <= b.lastBlock) return;
    const held = host.balance(p.borrower, r.token);
    delete p.buying;
    if (held === 0n) return void delete p.pending;
    p.pending = { amount: (held - scale(held, STOCK_KEPT)).toString(), hf0: p.pending!.hf0 };
  };

  /** The stock chain's block: its tokens read, every price that moved posted first, then the positions act on them. */
  const stepStock = async (host: WorldHost, t: number, dt: number) => {
    await discover(host, t);
    await readStocks(host, t);
    postPrices(host, feed!, t, false, stockPrices());
    const acted = new Set<Position>();
    for (const p of positions) {
      if (p.buying) buyStock(host, p, t);
      else if (p.pending) open(host, p, t);
      else if (p.open && tend(host, p, t, dt)) acted.add(p);
    }
    for (const p of positions) if (p.open && !acted.has(p)) liquidate(host, p, t);
    supplierFlow(host, t, dt);
    for (let i = rng.poisson((dt / 3600) * BORROWERS_PER_HOUR); i > 0; i--) prepare(host);
    const options = borrowable(host, t);
    if (options.length) {
      const n = stocks!.openingDone ? rng.poisson((dt / 3600) * STOCK_BORROWERS_PER_HOUR) : OPENING_STOCK_BORROWERS;
      stocks!.openingDone = true;
      for (let i = 0; i < n; i++) prepareStock(host, options);
    }
    relabel(host, t);
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
      if (stockChain) return stepStock(host, t, dt);
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
    toState: (): LendingState => ({ mirror: mirror.toState(), positions, suppliers, liquidators, feed: feed!, posted: [...posted], liquidations: liquidationCount, pricedLastBlock, idle, ...(stocks && { stocks }) }),
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
      if (stockChain) {
        stocks = s.stocks ?? { reserves: [], seen: [], nextDiscovery: 0, openingDone: false };
        for (const r of stocks.reserves) stockIndex.set(r.token.toLowerCase(), r);
      }
    },
  };
};
