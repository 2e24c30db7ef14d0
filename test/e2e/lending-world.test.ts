/**
 * The liquidation monitor on the shared world's lending market (world/modules/lending.ts), paid
 * through the A2A endpoint: every position it reports has the health factor the pool gives, the
 * positions the world labels within 5% of liquidation are all found, the labelled liquidations
 * appear with their bonus, and moving the oracle by the fall it reports does make the position
 * liquidatable (a liquidation then goes through). Bad input is refused before any 402.
 */
import { createWalletClient, encodeFunctionData, erc20Abi, formatUnits, http, parseEventLogs, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LendingOracle, LendingPool } from '../../chain/artifacts/index.js';
import { demoAccount } from '../../chain/accounts.js';
import { CHAINS, LENDING_MARKETS } from '../../chain/chains.js';
import { viemChain } from '../../chain/runtime.js';
import { json, mintUsdc, postJson, walletPoster } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const SKILL = '/api/a2a/skills/liquidation-monitor';
const { pool, oracle } = LENDING_MARKETS.base!;
const WAD = 10n ** 18n;
let w: WorldSibyl;

beforeAll(async () => {
  w = await startSharedWorldSibyl();
}, 300_000);
afterAll(() => w?.close());

const account = (user: Address, blockNumber?: bigint) =>
  w.client.readContract({ address: pool, abi: LendingPool.abi, functionName: 'getUserAccountData', args: [user], ...(blockNumber !== undefined && { blockNumber }) }) as Promise<readonly bigint[]>;
const send = async (from: Address, to: Address, data: `0x${string}`) => {
  const wallet = createWalletClient({ account: from, chain: viemChain('base', w.rpcUrl), transport: http(w.rpcUrl) });
  const receipt = await w.client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to, data } as never) });
  expect(receipt.status).toBe('success');
  return receipt;
};

describe('liquidation monitor on the world', () => {
  /** The scan the tests read, bought once through A2A (read only afterwards), with what it charged. */
  let paid: { status: number; body: any; charged: bigint };
  let scan: any;
  beforeAll(async () => {
    const p = await walletPoster(w.sibyl.url, '5', w.rpcUrl);
    const before = await p.balance();
    const res = await p.post(SKILL, { params: { chain: 'base', maxHealthFactor: 1.05, limit: 100, timeperiod: '30d' } });
    const body = await json(res);
    paid = { status: res.status, body, charged: before - (await p.balance()) };
    scan = body.response;
  });

  it('the world labels what the pool holds: each open position\'s health factor is the chain\'s', async () => {
    const open = w.labels.lendingPositions.filter((p) => p.open);
    expect(w.labels.lendingMarket).toEqual({ pool, oracle });
    expect(open.length).toBeGreaterThan(10);
    // Labelled as of the world's last block (the test's payer was funded in a block since).
    const last = Math.max(...open.map((p) => p.asOfBlock));
    expect(Number(await w.client.getBlockNumber())).toBeGreaterThanOrEqual(last);
    for (const p of open) {
      expect(p.asOfBlock).toBe(last);
      const hf = (await account(p.borrower, BigInt(last)))[5]!;
      expect(Number((hf * 1_000_000n) / WAD) / 1e6, p.borrower).toBe(p.healthFactor);
    }
  });

  it('paid through A2A at the spec\'s price: every position reported has the pool\'s health factor, and every one the world labels within 5% of liquidation is found', async () => {
    expect(paid.status, JSON.stringify(paid.body).slice(0, 400)).toBe(200);
    expect(paid.charged).toBe(SPEC_SKILL_PRICE['liquidation-monitor']);
    expect(scan).toMatchObject({ chain: 'base', protocol: 'aave-v3', pool, oracle, maxHealthFactor: 1.05, methodology: expect.stringContaining('liquidations/v1') });

    const asOf = BigInt(scan.asOf.block);
    for (const row of scan.positions) {
      const [collateral, debt, , , , hf] = await account(row.borrower, asOf);
      expect(row.healthFactorRaw, row.borrower).toBe(hf!.toString());
      expect(hf!).toBeLessThanOrEqual(WAD * 105n / 100n);
      expect(row.totalDebtUsd).toBeCloseTo(Number(debt) / 1e8, 2);
      expect(row.totalCollateralUsd).toBeCloseTo(Number(collateral) / 1e8, 2);
      expect(row.debt.map((d: { symbol: string }) => d.symbol)).toEqual(['USDC']);
    }
    const hfs = scan.positions.map((r: { healthFactor: number }) => r.healthFactor);
    expect(hfs).toEqual([...hfs].sort((a, b) => a - b));

    // The world's truth: open positions at or under 1.05 as its mirror of the pool has them (interest only lowers them since).
    const near = w.labels.lendingPositions.filter((l) => l.open && l.healthFactor !== null && l.healthFactor <= 1.05);
    expect(near.length, 'the world holds positions within 5% of liquidation').toBeGreaterThan(0);
    const found = new Set(scan.positions.map((r: { borrower: string }) => r.borrower.toLowerCase()));
    for (const l of near) expect(found.has(l.borrower.toLowerCase()), `${l.borrower} at ${l.healthFactor}`).toBe(true);
    expect(scan.positionsAtOrUnder).toBe(scan.positions.length);
    // Each labelled collateral is the one reported, in the same amount.
    for (const l of near) {
      const row = scan.positions.find((r: { borrower: string }) => r.borrower.toLowerCase() === l.borrower.toLowerCase());
      expect(row.collateral.map((c: { asset: string }) => c.asset.toLowerCase())).toEqual([l.collateral.toLowerCase()]);
    }
  });

  it('the world\'s liquidations appear with their liquidator, amounts and bonus', async () => {
    expect(w.labels.liquidations.length, 'the world liquidated someone').toBeGreaterThan(0);
    expect(scan.liquidations.count).toBe(w.labels.liquidations.length);
    for (const l of w.labels.liquidations) {
      const row = scan.liquidations.rows.find((r: any) => r.block === l.block && r.borrower.toLowerCase() === l.borrower.toLowerCase());
      expect(row, `liquidation of ${l.borrower} in block ${l.block}`).toBeDefined();
      expect(row.liquidator.toLowerCase()).toBe(l.liquidator.toLowerCase());
      expect(row.collateral.asset.toLowerCase()).toBe(l.collateral.toLowerCase());
      expect(row.debt.amount).toBe(formatUnits(BigInt(l.debtCovered), 6));
      expect(row.bonusUsd).toBeCloseTo(l.bonusUsd, 1);
      expect(row.bonusUsd).toBeGreaterThan(0);
    }
  });

  it('moving the oracle by the fall it reports makes the position liquidatable, and a liquidation goes through', async () => {
    const row = scan.positions.find((r: any) => !r.liquidatable && r.priceMoveToLiquidation.collateral && r.priceMoveToLiquidation.pct < 0);
    expect(row, 'a single-collateral position not yet liquidatable').toBeDefined();
    const { collateral, pct, priceUsd, liquidationPriceUsd } = row.priceMoveToLiquidation;
    expect(priceUsd * (1 + pct / 100)).toBeLessThanOrEqual(liquidationPriceUsd + 1e-8);
    const price = await w.client.readContract({ address: oracle, abi: LendingOracle.abi, functionName: 'getAssetPrice', args: [collateral] }) as bigint;
    const moved = (price * BigInt(Math.round((1 + pct / 100) * 1e8))) / 10n ** 8n;
    // The world's deployer owns the oracle.
    await send(demoAccount(0).address, oracle, encodeFunctionData({ abi: LendingOracle.abi, functionName: 'setAssetPrices', args: [[collateral], [moved]] }));
    const [, debtBefore, , , , hf] = await account(row.borrower);
    expect(hf!).toBeLessThanOrEqual(WAD);

    const liquidator = privateKeyToAccount(generatePrivateKey()).address;
    await mintUsdc(liquidator, '1000000', w.rpcUrl);
    await w.client.request({ method: 'anvil_setBalance' as never, params: [liquidator, '0xde0b6b3a7640000'] as never });
    const usdc = CHAINS.base.usdc as Address;
    await send(liquidator, usdc, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [pool, 2n ** 256n - 1n] }));
    const receipt = await send(liquidator, pool, encodeFunctionData({ abi: LendingPool.abi, functionName: 'liquidationCall', args: [collateral, usdc, row.borrower, 2n ** 256n - 1n, false] }));
    const [event] = parseEventLogs({ abi: LendingPool.abi, eventName: 'LiquidationCall', logs: receipt.logs });
    expect(event!.args).toMatchObject({ user: row.borrower, liquidator });
    expect((await account(row.borrower))[1]!).toBeLessThan(debtBefore!);
  });

  it('bad input is a 400 naming the field, before any 402', async () => {
    for (const [params, field] of [
      [{ maxHealthFactor: 0.5 }, 'params.maxHealthFactor'],
      [{ maxHealthFactor: 3 }, 'params.maxHealthFactor'],
      [{ chain: 'solana' }, 'params.chain'],
      [{ limit: 0 }, 'params.limit'],
      [{ timeperiod: '2d' }, 'params.timeperiod'],
    ] as const) {
      const res = await postJson(`${w.sibyl.url}${SKILL}`, { params });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(JSON.stringify(await json(res))).toContain(field);
    }
  });
});
