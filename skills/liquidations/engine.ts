/**
 * Lending positions near liquidation and recent liquidations (`liquidations/v1`), read from an
 * Aave v3 Pool's public interface and events, so the world's lending market and a real Aave v3
 * deployment are read alike: borrowers from Borrow logs, each one's account
 * (getUserAccountData) at the head, the positions at or under a health factor with their
 * collateral and debt per reserve (the reserve tokens' balances), the price fall that
 * liquidates, and the period's LiquidationCall logs with the liquidator's bonus in USD.
 */
import { erc20Abi, formatUnits, getAddress, parseAbi, parseAbiItem, type Address, type Hex } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { readInHalves } from '../../chain/log-ranges.js';

export const LIQUIDATIONS_METHODOLOGY =
  'liquidations/v1 (Aave v3 Pool interface: borrowers = onBehalfOf of every Borrow log; each borrower\'s getUserAccountData at the head block, health factor with 18 decimals; ' +
  'positions with debt and a health factor at or under the threshold, lowest first; collateral = reserves the user supplies as collateral (getUserConfiguration), debt = reserves it borrows, ' +
  'amounts from the reserve tokens\' balances, valued at the pool oracle\'s getAssetPrice (USD, 8 decimals); price fall that liquidates = 1 - 1/HF (every collateral price falling together, debt prices unchanged), ' +
  'for a single collateral its liquidation price = price / HF; liquidations = LiquidationCall logs in the period, bonus = seized collateral value - debt covered, at the oracle\'s prices of that block ' +
  '(read at the block, or from the oracle\'s price logs where the node keeps no state of it; null when neither gives them))';

const BORROW = parseAbiItem('event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)');
const LIQUIDATION_CALL = parseAbiItem('event LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken)');
/** The embedded oracle's price log (not Aave's): a price as of a past block where the node has no state for it. */
const PRICE_UPDATED = parseAbiItem('event AssetPriceUpdated(address indexed asset, uint256 price, uint256 timestamp)');

export const POOL_ABI = parseAbi([
  'function getUserAccountData(address user) view returns (uint256 totalCollateralBase, uint256 totalDebtBase, uint256 availableBorrowsBase, uint256 currentLiquidationThreshold, uint256 ltv, uint256 healthFactor)',
  'function getReservesList() view returns (address[])',
  'function getUserConfiguration(address user) view returns (uint256)',
  'struct ReserveDataLegacy { uint256 configuration; uint128 liquidityIndex; uint128 currentLiquidityRate; uint128 variableBorrowIndex; uint128 currentVariableBorrowRate; uint128 currentStableBorrowRate; uint40 lastUpdateTimestamp; uint16 id; address aTokenAddress; address stableDebtTokenAddress; address variableDebtTokenAddress; address interestRateStrategyAddress; uint128 accruedToTreasury; uint128 unbacked; uint128 isolationModeTotalDebt; }',
  'function getReserveData(address asset) view returns (ReserveDataLegacy)',
  'function liquidationCall(address collateralAsset, address debtAsset, address user, uint256 debtToCover, bool receiveAToken)',
]);
export const ORACLE_ABI = parseAbi(['function getAssetPrice(address asset) view returns (uint256)']);

const WAD = 10n ** 18n;
const NO_DEBT_HF = 2n ** 256n - 1n;
/** Oracle prices and account values: USD with 8 decimals. */
const BASE = 1e8;

export interface LendingMarketRef {
  readonly protocol: string;
  readonly pool: Address;
  readonly oracle: Address;
}

export interface Holding { asset: Address; symbol: string | null; amount: string; valueUsd: number | null }

export interface NearPosition {
  borrower: Address;
  healthFactor: number;
  /** The pool's figure exactly: 18 decimals, as a decimal integer string. */
  healthFactorRaw: string;
  liquidatable: boolean;
  totalCollateralUsd: number;
  totalDebtUsd: number;
  liquidationThresholdPct: number;
  ltvPct: number;
  collateral: Holding[];
  debt: Holding[];
  /**
   * The fall of the collateral prices (together; debt prices unchanged) at which the health
   * factor reaches 1: `pct` = -(1 - 1/HF) * 100, rounded away from zero. With a single
   * collateral, the price it liquidates at (price / HF, one oracle unit under it).
   */
  priceMoveToLiquidation: { pct: number; collateral: Address | null; priceUsd: number | null; liquidationPriceUsd: number | null };
}

export interface RecentLiquidation {
  block: number;
  tx: Hex;
  borrower: Address;
  liquidator: Address;
  collateral: Holding;
  debt: Holding;
  receiveAToken: boolean;
  /** Seized collateral value minus the debt covered, at the oracle's prices of its block; null where unknown. */
  bonusUsd: number | null;
  pricedFrom: 'block-state' | 'oracle-log' | null;
}

export type LiquidationScan =
  | { available: false; reason: string }
  | {
    available: true;
    borrowLogs: number;
    borrowers: number;
    positionsWithDebt: number;
    positionsAtOrUnder: number;
    positions: NearPosition[];
    liquidations: { count: number; bonusUsd: number; unpriced: number; rows: RecentLiquidation[] };
  };

interface Reserve { asset: Address; id: number; symbol: string | null; decimals: number; aToken: Address; debtToken: Address; liquidationThreshold: number; bonus: number; price: bigint | null }

const round = (x: number, places = 2) => Math.round(x * 10 ** places) / 10 ** places;
const usdOf = (amount: bigint, decimals: number, price: bigint | null) => (price === null ? null : round((Number(amount) / 10 ** decimals) * (Number(price) / BASE)));
const hfToNumber = (hf: bigint) => Number((hf * 1_000_000n) / WAD) / 1e6;

/** Everything about a market's positions at `head`: those at or under `maxHealthFactor` (up to `limit`) and the liquidations since `fromBlock`. */
export async function scanLiquidations(
  chain: ConnectedChain, market: LendingMarketRef,
  options: { head: bigint; fromBlock: bigint; maxHealthFactor: number; limit: number },
): Promise<LiquidationScan> {
  const { head } = options;
  const client = chain.client;
  const code = await client.getCode({ address: market.pool, blockNumber: head });
  if (!code || code === '0x') return { available: false, reason: `no lending pool is deployed at ${market.pool} on ${chain.name} (${market.protocol}'s address) as of block ${head}` };

  const borrowLogs = await readInHalves((from, to) => client.getLogs({ address: market.pool, event: BORROW, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }), 0, Number(head));
  const borrowers = [...new Set(borrowLogs.map((l) => getAddress(l.args.onBehalfOf!)))];
  const accounts = borrowers.length
    ? await client.multicall({ allowFailure: true, blockNumber: head, contracts: borrowers.map((user) => ({ address: market.pool, abi: POOL_ABI, functionName: 'getUserAccountData', args: [user] }) as const) })
    : [];
  const threshold = BigInt(Math.round(options.maxHealthFactor * 1e6)) * 10n ** 12n;
  const withDebt = borrowers.flatMap((borrower, i) => {
    const read = accounts[i]!;
    if (read.status !== 'success') return [];
    const [collateralBase, debtBase, , lt, ltv, hf] = read.result as readonly bigint[];
    return debtBase! > 0n && hf !== NO_DEBT_HF ? [{ borrower, collateralBase: collateralBase!, debtBase: debtBase!, lt: lt!, ltv: ltv!, hf: hf! }] : [];
  });
  const near = withDebt.filter((p) => p.hf <= threshold).sort((a, b) => (a.hf < b.hf ? -1 : a.hf > b.hf ? 1 : 0));
  const listed = near.slice(0, options.limit);

  const reserves = await readReserves(chain, market, head);
  const positions = await describePositions(chain, market, reserves, listed, head);
  const liquidations = await recentLiquidations(chain, market, reserves, options.fromBlock, head, options.limit);
  return {
    available: true,
    borrowLogs: borrowLogs.length,
    borrowers: borrowers.length,
    positionsWithDebt: withDebt.length,
    positionsAtOrUnder: near.length,
    positions,
    liquidations,
  };
}

/** Every reserve with its tokens, risk parameters (Aave's configuration bits), symbol, decimals and oracle price now. */
async function readReserves(chain: ConnectedChain, market: LendingMarketRef, head: bigint): Promise<Map<string, Reserve>> {
  const client = chain.client;
  const [list] = await client.multicall({ allowFailure: false, blockNumber: head, contracts: [{ address: market.pool, abi: POOL_ABI, functionName: 'getReservesList' }] });
  const assets = list as readonly Address[];
  const reads = await client.multicall({
    allowFailure: true,
    blockNumber: head,
    contracts: assets.flatMap((asset) => [
      { address: market.pool, abi: POOL_ABI, functionName: 'getReserveData', args: [asset] },
      { address: market.oracle, abi: ORACLE_ABI, functionName: 'getAssetPrice', args: [asset] },
      { address: asset, abi: erc20Abi, functionName: 'symbol' },
      { address: asset, abi: erc20Abi, functionName: 'decimals' },
    ] as const),
  });
  const out = new Map<string, Reserve>();
  assets.forEach((asset, i) => {
    const [data, price, symbol, decimals] = reads.slice(4 * i, 4 * i + 4);
    if (data!.status !== 'success') return;
    const d = data!.result as { configuration: bigint; id: number; aTokenAddress: Address; variableDebtTokenAddress: Address };
    const config = d.configuration;
    out.set(asset.toLowerCase(), {
      asset: getAddress(asset), id: Number(d.id),
      symbol: symbol!.status === 'success' ? String(symbol!.result) : null,
      decimals: decimals!.status === 'success' ? Number(decimals!.result) : Number((config >> 48n) & 0xffn),
      aToken: d.aTokenAddress, debtToken: d.variableDebtTokenAddress,
      liquidationThreshold: Number((config >> 16n) & 0xffffn), bonus: Number((config >> 32n) & 0xffffn),
      price: price!.status === 'success' ? (price!.result as bigint) : null,
    });
  });
  return out;
}

async function describePositions(
  chain: ConnectedChain, market: LendingMarketRef, reserves: Map<string, Reserve>,
  listed: { borrower: Address; collateralBase: bigint; debtBase: bigint; lt: bigint; ltv: bigint; hf: bigint }[], head: bigint,
): Promise<NearPosition[]> {
  if (!listed.length) return [];
  const list = [...reserves.values()];
  const reads = await chain.client.multicall({
    allowFailure: true,
    blockNumber: head,
    contracts: listed.flatMap((p) => [
      { address: market.pool, abi: POOL_ABI, functionName: 'getUserConfiguration', args: [p.borrower] },
      ...list.flatMap((r) => [
        { address: r.aToken, abi: erc20Abi, functionName: 'balanceOf', args: [p.borrower] },
        { address: r.debtToken, abi: erc20Abi, functionName: 'balanceOf', args: [p.borrower] },
      ]),
    ] as const),
  });
  const stride = 1 + 2 * list.length;
  return listed.map((p, i) => {
    const at = (k: number) => reads[i * stride + k]!;
    const userConfig = at(0).status === 'success' ? (at(0).result as bigint) : null;
    const collateral: Holding[] = [];
    const debt: Holding[] = [];
    list.forEach((r, j) => {
      const supplied = at(1 + 2 * j).status === 'success' ? (at(1 + 2 * j).result as bigint) : 0n;
      const owed = at(2 + 2 * j).status === 'success' ? (at(2 + 2 * j).result as bigint) : 0n;
      // As collateral: flagged so in the user's configuration where the pool tells it, else any supply with a threshold.
      const asCollateral = userConfig !== null ? ((userConfig >> BigInt(2 * r.id + 1)) & 1n) === 1n : r.liquidationThreshold > 0;
      if (supplied > 0n && asCollateral) collateral.push({ asset: r.asset, symbol: r.symbol, amount: formatUnits(supplied, r.decimals), valueUsd: usdOf(supplied, r.decimals, r.price) });
      if (owed > 0n) debt.push({ asset: r.asset, symbol: r.symbol, amount: formatUnits(owed, r.decimals), valueUsd: usdOf(owed, r.decimals, r.price) });
    });
    return {
      borrower: p.borrower,
      healthFactor: hfToNumber(p.hf),
      healthFactorRaw: p.hf.toString(),
      liquidatable: p.hf < WAD,
      totalCollateralUsd: round(Number(p.collateralBase) / BASE),
      totalDebtUsd: round(Number(p.debtBase) / BASE),
      liquidationThresholdPct: Number(p.lt) / 100,
      ltvPct: Number(p.ltv) / 100,
      collateral,
      debt,
      priceMoveToLiquidation: priceMove(p.hf, collateral.length === 1 ? reserves.get(collateral[0]!.asset.toLowerCase()) ?? null : null),
    };
  });
}

/**
 * The collateral price fall that brings the health factor to 1: the health factor is collateral
 * value times threshold over debt, so scaling every collateral price by (1 - d) scales it by the
 * same factor, and d = 1 - 1/HF. Rounded away from zero, so moving by it does liquidate; a
 * single collateral's liquidation price is the oracle unit just under price / HF.
 */
export function priceMove(hf: bigint, single: Reserve | null): NearPosition['priceMoveToLiquidation'] {
  // Already under 1: liquidatable as prices stand.
  if (hf < WAD) return { pct: 0, collateral: single?.asset ?? null, priceUsd: single?.price ? Number(single.price) / BASE : null, liquidationPriceUsd: single?.price ? Number(single.price) / BASE : null };
  const pct = -Math.ceil((1 - Number(WAD) / Number(hf)) * 1e6) / 1e4;
  if (!single || single.price === null) return { pct, collateral: single?.asset ?? null, priceUsd: null, liquidationPriceUsd: null };
  const liquidationPrice = (single.price * WAD + hf - 1n) / hf - 1n; // ceil(price / HF) - 1, in oracle units
  return { pct, collateral: single.asset, priceUsd: Number(single.price) / BASE, liquidationPriceUsd: Number(liquidationPrice) / BASE };
}

async function recentLiquidations(chain: ConnectedChain, market: LendingMarketRef, reserves: Map<string, Reserve>, fromBlock: bigint, head: bigint, limit: number): Promise<{ count: number; bonusUsd: number; unpriced: number; rows: RecentLiquidation[] }> {
  const client = chain.client;
  if (fromBlock > head) return { count: 0, bonusUsd: 0, unpriced: 0, rows: [] };
  const logs = await readInHalves((from, to) => client.getLogs({ address: market.pool, event: LIQUIDATION_CALL, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }), Number(fromBlock), Number(head));
  const prices = new PricesAt(chain, market, head);
  const rows: RecentLiquidation[] = [];
  for (const l of logs) {
    const c = reserves.get(l.args.collateralAsset!.toLowerCase());
    const d = reserves.get(l.args.debtAsset!.toLowerCase());
    const block = Number(l.blockNumber);
    const priced = await prices.at([l.args.collateralAsset!, l.args.debtAsset!], block);
    const [pc, pd] = priced ? priced.prices : [null, null];
    const seizedUsd = c ? usdOf(l.args.liquidatedCollateralAmount!, c.decimals, pc ?? null) : null;
    const coveredUsd = d ? usdOf(l.args.debtToCover!, d.decimals, pd ?? null) : null;
    rows.push({
      block, tx: l.transactionHash,
      borrower: getAddress(l.args.user!), liquidator: getAddress(l.args.liquidator!),
      collateral: { asset: getAddress(l.args.collateralAsset!), symbol: c?.symbol ?? null, amount: c ? formatUnits(l.args.liquidatedCollateralAmount!, c.decimals) : l.args.liquidatedCollateralAmount!.toString(), valueUsd: seizedUsd },
      debt: { asset: getAddress(l.args.debtAsset!), symbol: d?.symbol ?? null, amount: d ? formatUnits(l.args.debtToCover!, d.decimals) : l.args.debtToCover!.toString(), valueUsd: coveredUsd },
      receiveAToken: l.args.receiveAToken!,
      bonusUsd: seizedUsd !== null && coveredUsd !== null ? round(seizedUsd - coveredUsd) : null,
      pricedFrom: seizedUsd !== null && coveredUsd !== null ? priced!.from : null,
    });
  }
  rows.sort((a, b) => b.block - a.block);
  const priced = rows.filter((r) => r.bonusUsd !== null);
  return { count: rows.length, bonusUsd: round(priced.reduce((s, r) => s + r.bonusUsd!, 0)), unpriced: rows.length - priced.length, rows: rows.slice(0, limit) };
}

/**
 * Oracle prices as of a past block: read at that block where the node keeps its state, else the
 * last price the oracle logged at or before it (read once), else unknown.
 */
class PricesAt {
  private logs?: Promise<{ asset: string; block: number; logIndex: number; price: bigint }[]>;

  constructor(private readonly chain: ConnectedChain, private readonly market: LendingMarketRef, private readonly head: bigint) {}

  async at(assets: readonly Address[], block: number): Promise<{ prices: (bigint | null)[]; from: 'block-state' | 'oracle-log' } | null> {
    try {
      const reads = await this.chain.client.multicall({ allowFailure: false, blockNumber: BigInt(block), contracts: assets.map((asset) => ({ address: this.market.oracle, abi: ORACLE_ABI, functionName: 'getAssetPrice', args: [asset] }) as const) });
      return { prices: reads as bigint[], from: 'block-state' };
    } catch {
      const logs = await (this.logs ??= this.priceLogs());
      const prices = assets.map((asset) => {
        let last: bigint | null = null;
        for (const l of logs) if (l.asset === asset.toLowerCase() && l.block <= block) last = l.price;
        return last;
      });
      return prices.every((p) => p !== null) ? { prices, from: 'oracle-log' } : null;
    }
  }

  private async priceLogs() {
    const logs = await readInHalves((from, to) => this.chain.client.getLogs({ address: this.market.oracle, event: PRICE_UPDATED, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }), 0, Number(this.head)).catch(() => []);
    return logs
      .map((l) => ({ asset: l.args.asset!.toLowerCase(), block: Number(l.blockNumber), logIndex: l.logIndex, price: l.args.price! }))
      .sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
  }
}

/** The first block at or after `timestamp` (head + 1 when none), by bisection over block timestamps. */
export async function firstBlockAtOrAfter(chain: ConnectedChain, timestamp: number, head: { number: bigint; timestamp: bigint }): Promise<bigint> {
  if (Number(head.timestamp) < timestamp) return head.number + 1n;
  let [lo, hi] = [0n, head.number];
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    const block = await chain.client.getBlock({ blockNumber: mid });
    if (Number(block.timestamp) < timestamp) lo = mid + 1n;
    else hi = mid;
  }
  return lo;
}
