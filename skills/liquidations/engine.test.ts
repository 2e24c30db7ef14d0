import { describe, expect, it } from 'vitest';
import { getAddress, parseUnits, type Address } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { CHAINS } from '../../chain/chains.js';
import { firstBlockAtOrAfter, scanLiquidations } from './engine.js';
import { addr } from '../data/testing/fixtures.js';

const [POOL, ORACLE, USDC, WETH, A_USDC, D_USDC, A_WETH, D_WETH] = [addr(0x9001), addr(0x9002), addr(0x6c), addr(0xe7), addr(0xa6c), addr(0xd6c), addr(0xae7), addr(0xde7)];
const [RISKY, SAFE, REPAID, UNDER, LIQUIDATOR] = [addr(0xb1), addr(0xb2), addr(0xb3), addr(0xb4), addr(0x1b)];
const HEAD = 4_000n;
const WAD = 10n ** 18n;
const MAX = 2n ** 256n - 1n;
/** Aave's configuration bits: LTV 0-15, liquidation threshold 16-31, bonus 32-47, decimals 48-55. */
const config = (ltv: number, lt: number, bonus: number, decimals: number) => BigInt(ltv) | (BigInt(lt) << 16n) | (BigInt(bonus) << 32n) | (BigInt(decimals) << 48n);
const hf = (x: string) => parseUnits(x, 18);

/** Account data by borrower: collateral and debt (USD, 8 decimals), threshold, LTV, health factor. */
const ACCOUNTS: Record<string, [bigint, bigint, bigint, bigint, bigint, bigint]> = {
  [RISKY]: [3_000n * 10n ** 8n, 2_417n * 10n ** 8n, 0n, 8_300n, 8_050n, hf('1.030161')],
  [SAFE]: [9_000n * 10n ** 8n, 3_000n * 10n ** 8n, 0n, 8_300n, 8_050n, hf('2.49')],
  [REPAID]: [1_000n * 10n ** 8n, 0n, 800n * 10n ** 8n, 8_300n, 8_050n, MAX],
  [UNDER]: [2_900n * 10n ** 8n, 2_460n * 10n ** 8n, 0n, 8_300n, 8_050n, hf('0.978455')],
};
/** Reserve token balances: WETH supplied, USDC owed. */
const BALANCES: Record<string, Record<string, bigint>> = {
  [A_WETH]: { [RISKY]: 10n ** 18n, [SAFE]: 3n * 10n ** 18n, [UNDER]: parseUnits('0.9666', 18) },
  [D_USDC]: { [RISKY]: parseUnits('2417', 6), [SAFE]: parseUnits('3000', 6), [UNDER]: parseUnits('2460', 6) },
};

function node(options: { poolCode?: boolean } = {}) {
  const asked: [bigint, bigint][] = [];
  const borrows = [RISKY, SAFE, RISKY, REPAID, UNDER].map((user, i) => ({ blockNumber: BigInt(100 + 900 * i), args: { reserve: USDC, user, onBehalfOf: user } }));
  const liquidations = [
    // Before the period: not listed.
    { blockNumber: 900n, logIndex: 0, transactionHash: `0x${'a'.repeat(64)}`, args: { collateralAsset: WETH, debtAsset: USDC, user: SAFE, debtToCover: parseUnits('100', 6), liquidatedCollateralAmount: parseUnits('0.035', 18), liquidator: LIQUIDATOR, receiveAToken: false } },
    // 1,400 USDC covered for 0.49 WETH at $3,000 (bonus 5%: $70).
    { blockNumber: 3_500n, logIndex: 0, transactionHash: `0x${'b'.repeat(64)}`, args: { collateralAsset: WETH, debtAsset: USDC, user: UNDER, debtToCover: parseUnits('1400', 6), liquidatedCollateralAmount: parseUnits('0.49', 18), liquidator: LIQUIDATOR, receiveAToken: false } },
  ];
  // The oracle's logged prices: WETH at $3,100 until block 3,000, then $3,000.
  const priceLogs = [
    { blockNumber: 10n, logIndex: 0, args: { asset: USDC, price: 10n ** 8n } },
    { blockNumber: 10n, logIndex: 1, args: { asset: WETH, price: 3_100n * 10n ** 8n } },
    { blockNumber: 3_000n, logIndex: 0, args: { asset: WETH, price: 3_000n * 10n ** 8n } },
  ];
  const read = (c: { address: Address; functionName: string; args?: readonly unknown[] }, blockNumber: bigint): unknown => {
    const a = c.address.toLowerCase();
    const user = String(c.args?.[0] ?? '').toLowerCase();
    if (a === ORACLE && c.functionName === 'getAssetPrice') {
      // The node keeps no state of past blocks (as after a state reload).
      if (blockNumber !== HEAD) throw new Error('BlockOutOfRangeError: block height is 4000 but requested was ' + blockNumber);
      return String(c.args![0]).toLowerCase() === WETH ? 3_000n * 10n ** 8n : 10n ** 8n;
    }
    if (a === POOL && c.functionName === 'getUserAccountData') return ACCOUNTS[user];
    if (a === POOL && c.functionName === 'getReservesList') return [USDC, WETH];
    if (a === POOL && c.functionName === 'getUserConfiguration') return user === REPAID ? 0n : (1n << 0n) | (1n << 3n); // borrows USDC (id 0), WETH (id 1) as collateral
    if (a === POOL && c.functionName === 'getReserveData') {
      return String(c.args![0]).toLowerCase() === USDC
        ? { configuration: config(7_500, 7_800, 10_450, 6), id: 0, aTokenAddress: A_USDC, variableDebtTokenAddress: D_USDC }
        : { configuration: config(8_050, 8_300, 10_500, 18), id: 1, aTokenAddress: A_WETH, variableDebtTokenAddress: D_WETH };
    }
    if (c.functionName === 'balanceOf') return BALANCES[a]?.[user] ?? 0n;
    if (c.functionName === 'symbol') return a === USDC ? 'USDC' : a === WETH ? 'WETH' : '?';
    if (c.functionName === 'decimals') return a === USDC ? 6 : 18;
    throw new Error(`no ${c.functionName} on ${a}`);
  };
  const client = {
    async getCode() { return options.poolCode === false ? undefined : '0x6080'; },
    async getLogs({ event, fromBlock, toBlock }: { event: { name: string }; fromBlock: bigint; toBlock: bigint }) {
      asked.push([fromBlock, toBlock]);
      if (toBlock - fromBlock > 1_000n) throw new Error('query exceeds max block range 1000');
      const rows = event.name === 'Borrow' ? borrows : event.name === 'LiquidationCall' ? liquidations : priceLogs;
      return (rows as { blockNumber: bigint }[]).filter((l) => l.blockNumber >= fromBlock && l.blockNumber <= toBlock);
    },
    async multicall({ contracts, allowFailure, blockNumber }: { contracts: { address: Address; functionName: string; args?: readonly unknown[] }[]; allowFailure: boolean; blockNumber: bigint }) {
      return contracts.map((c) => {
        try {
          const result = read(c, blockNumber);
          return allowFailure ? { status: 'success', result } : result;
        } catch (error) {
          if (!allowFailure) throw error;
          return { status: 'failure', error };
        }
      });
    },
    async getBlock({ blockNumber }: { blockNumber: bigint }) { return { number: blockNumber, timestamp: 1_000_000n + blockNumber * 2n }; },
  };
  return { chain: { name: 'base', spec: CHAINS.base, client } as unknown as ConnectedChain, asked };
}

describe('liquidations/v1', () => {
  it('lists borrowers at or under the threshold, lowest health factor first, with collateral, debt and the price fall that liquidates', async () => {
    const { chain, asked } = node();
    const scan = await scanLiquidations(chain, { protocol: 'aave-v3', pool: POOL, oracle: ORACLE }, { head: HEAD, fromBlock: 3_000n, maxHealthFactor: 1.1, limit: 10 });
    if (!scan.available) throw new Error(scan.reason);
    // Borrow logs read at once first, then in halves the node accepts.
    expect(asked[0]).toEqual([0n, HEAD]);
    expect(scan).toMatchObject({ borrowLogs: 5, borrowers: 4, positionsWithDebt: 3, positionsAtOrUnder: 2 });
    expect(scan.positions.map((p) => [p.borrower, p.healthFactor, p.liquidatable])).toEqual([[getAddress(UNDER), 0.978455, true], [getAddress(RISKY), 1.030161, false]]);
    const risky = scan.positions[1]!;
    expect(risky).toMatchObject({ healthFactorRaw: hf('1.030161').toString(), totalCollateralUsd: 3_000, totalDebtUsd: 2_417, liquidationThresholdPct: 83, ltvPct: 80.5 });
    expect(risky.collateral).toEqual([{ asset: getAddress(WETH), symbol: 'WETH', amount: '1', valueUsd: 3_000 }]);
    expect(risky.debt).toEqual([{ asset: getAddress(USDC), symbol: 'USDC', amount: '2417', valueUsd: 2_417 }]);
    // 1 - 1/1.030161 = 2.92779..%: rounded away from zero; the single collateral's price / HF, an oracle unit under.
    expect(risky.priceMoveToLiquidation.pct).toBe(-2.9278);
    expect(risky.priceMoveToLiquidation.collateral).toBe(getAddress(WETH));
    const liquidationPrice = risky.priceMoveToLiquidation.liquidationPriceUsd!;
    expect(liquidationPrice).toBeLessThan(3_000 / 1.030161);
    expect(liquidationPrice).toBeGreaterThan(3_000 / 1.030161 - 2e-8);
    expect(3_000 * (1 + risky.priceMoveToLiquidation.pct / 100)).toBeLessThanOrEqual(liquidationPrice);
    // Already under 1: no fall needed.
    expect(scan.positions[0]!.priceMoveToLiquidation.pct).toBe(0);
  });

  it('lists the period\'s liquidations with the bonus at the oracle\'s prices of their block (from its price logs where the node has no state)', async () => {
    const { chain } = node();
    const scan = await scanLiquidations(chain, { protocol: 'aave-v3', pool: POOL, oracle: ORACLE }, { head: HEAD, fromBlock: 3_000n, maxHealthFactor: 1.1, limit: 10 });
    if (!scan.available) throw new Error(scan.reason);
    expect(scan.liquidations.count).toBe(1);
    expect(scan.liquidations.rows[0]).toMatchObject({
      block: 3_500, borrower: getAddress(UNDER), liquidator: getAddress(LIQUIDATOR),
      collateral: { asset: getAddress(WETH), symbol: 'WETH', amount: '0.49', valueUsd: 1_470 },
      debt: { asset: getAddress(USDC), symbol: 'USDC', amount: '1400', valueUsd: 1_400 },
      bonusUsd: 70, pricedFrom: 'oracle-log',
    });
    expect(scan.liquidations.bonusUsd).toBe(70);
  });

  it('a threshold of 1 lists only liquidatable positions; the limit cuts the list, not the counts', async () => {
    const { chain } = node();
    const scan = await scanLiquidations(chain, { protocol: 'aave-v3', pool: POOL, oracle: ORACLE }, { head: HEAD, fromBlock: 0n, maxHealthFactor: 1, limit: 1 });
    if (!scan.available) throw new Error(scan.reason);
    expect(scan.positions.map((p) => p.borrower)).toEqual([getAddress(UNDER)]);
    expect(scan.positionsAtOrUnder).toBe(1);
    expect(scan.liquidations.count).toBe(2);
    expect(scan.liquidations.rows.map((r) => r.block)).toEqual([3_500]);
  });

  it('a chain without the pool\'s code is unavailable, with why', async () => {
    const { chain } = node({ poolCode: false });
    const scan = await scanLiquidations(chain, { protocol: 'aave-v3', pool: POOL, oracle: ORACLE }, { head: HEAD, fromBlock: 0n, maxHealthFactor: 1.1, limit: 10 });
    expect(scan).toMatchObject({ available: false, reason: expect.stringContaining('no lending pool') });
  });

  it('the period starts at the first block at or after its first second', async () => {
    const { chain } = node();
    expect(await firstBlockAtOrAfter(chain, 1_000_000 + 3_001 * 2, { number: HEAD, timestamp: 1_000_000n + HEAD * 2n })).toBe(3_001n);
    expect(await firstBlockAtOrAfter(chain, 1_000_000 + 9_000 * 2, { number: HEAD, timestamp: 1_000_000n + HEAD * 2n })).toBe(HEAD + 1n);
  });
});
