import { decodeFunctionData, erc20Abi, erc4626Abi, getAddress, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { CHAINS } from '../../chain/chains.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { addr } from '../data/testing/fixtures.js';
import type { VaultHead } from '../vaults/engine.js';
import { PlanRefused, STATED_GAS, planDeposit, planRebalance } from './engine.js';

const USDC = getAddress(CHAINS.base.usdc);
const [WALLET, A, B, WETH_VAULT] = [addr(0x111), addr(0x4626a), addr(0x4626b), addr(0x4626c)].map((a) => getAddress(a)) as [Address, Address, Address, Address];
const usdc = (n: number) => BigInt(Math.round(n * 1e6));

const head = (vault: Address, over: Partial<VaultHead> = {}): VaultHead => ({
  vault, name: `Vault ${vault.slice(-2)}`, symbol: 'sv', shareDecimals: 6, asset: USDC, assetSymbol: 'USDC', assetDecimals: 6,
  totalAssets: usdc(1_000_000), totalSupply: usdc(1_000_000), sharePrice: 1.05, depositsOpen: true, deprecated: false, idle: usdc(200_000), ...over,
});

/** A node answering the plan's reads from a table: the wallet's balances and allowances, each vault's previews and limits; estimateGas succeeds only where the wallet's state allows the call. */
function node(state: { balance: bigint; allowance: Record<string, bigint>; shares: Record<string, bigint>; maxRedeem?: bigint; maxDeposit?: bigint }) {
  const price = 1.05;
  const client = {
    readContract: async ({ address, functionName, args }: { address: Address; functionName: string; args: readonly unknown[] }) => {
      const a = address.toLowerCase();
      if (a === USDC.toLowerCase()) {
        if (functionName === 'balanceOf') return state.balance;
        if (functionName === 'allowance') return state.allowance[(args[1] as string).toLowerCase()] ?? 0n;
      }
      switch (functionName) {
        case 'balanceOf': return state.shares[a] ?? 0n;
        case 'maxDeposit': return state.maxDeposit ?? 2n ** 255n;
        case 'maxRedeem': return state.maxRedeem ?? state.shares[a] ?? 0n;
        case 'maxWithdraw': return BigInt(Math.floor(Number(state.maxRedeem ?? state.shares[a] ?? 0n) * price));
        case 'previewDeposit': return BigInt(Math.floor(Number(args[0]) / price));
        case 'previewRedeem': return BigInt(Math.floor(Number(args[0]) * price));
        case 'previewWithdraw': return BigInt(Math.ceil(Number(args[0]) / price));
      }
      throw new Error(`unanswered ${functionName}`);
    },
    estimateGas: async ({ to, data }: { to: Address; data: Hex }) => {
      if (to.toLowerCase() === USDC.toLowerCase()) return 46_000n;
      const { functionName, args } = decodeFunctionData({ abi: erc4626Abi, data });
      if (functionName === 'deposit' && (state.allowance[to.toLowerCase()] ?? 0n) < (args![0] as bigint)) throw new Error('execution reverted: ERC20InsufficientAllowance');
      return functionName === 'deposit' ? 98_000n : 71_000n;
    },
    getGasPrice: async () => 1_000_000_000n,
  };
  return { name: 'base', spec: CHAINS.base, client } as unknown as ConnectedChain;
}

const refused = async (run: () => Promise<unknown>) => {
  const err = await run().then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(PlanRefused);
  return { field: (err as PlanRefused).field, message: (err as PlanRefused).message };
};

describe('yield-plans/v1', () => {
  it('a deposit: approve for the exact amount (the allowance is short) + deposit, expected shares from previewDeposit, the deposit\'s gas stated until the approval is mined', async () => {
    const chain = node({ balance: usdc(5_000), allowance: {}, shares: {} });
    const plan = await planDeposit(chain, head(A), WALLET, usdc(1_050), 10n);
    expect(plan.transactions.map((t) => t.action)).toEqual(['approve', 'deposit']);
    expect(decodeFunctionData({ abi: erc20Abi, data: plan.transactions[0]!.data })).toMatchObject({ functionName: 'approve', args: [A, usdc(1_050)] });
    expect(plan.transactions[0]!.gas).toEqual({ units: '46000', source: 'estimateGas' });
    expect(plan.transactions[1]!.gas).toMatchObject({ units: STATED_GAS.deposit.toString(), source: 'stated', why: expect.stringContaining('approval') });
    expect(decodeFunctionData({ abi: erc4626Abi, data: plan.transactions[1]!.data })).toMatchObject({ functionName: 'deposit', args: [usdc(1_050), WALLET] });
    expect(plan).toMatchObject({ expectedShares: '1000', minShares: '995', amount: '1050', gas: { totalGas: String(46_000n + STATED_GAS.deposit) } });
    expect(plan.transactions.every((t) => t.value === '0')).toBe(true);
  });

  it('with the allowance already given: the deposit alone, its gas estimated', async () => {
    const plan = await planDeposit(node({ balance: usdc(5_000), allowance: { [A.toLowerCase()]: usdc(5_000) }, shares: {} }), head(A), WALLET, usdc(1_050), 10n);
    expect(plan.transactions.map((t) => [t.action, t.gas.source, t.gas.units])).toEqual([['deposit', 'estimateGas', '98000']]);
  });

  it('refuses what the wallet cannot execute, naming the field', async () => {
    expect(await refused(() => planDeposit(node({ balance: usdc(100), allowance: {}, shares: {} }), head(A), WALLET, usdc(1_050), 10n))).toMatchObject({ field: 'amount', message: expect.stringContaining('holds 100 USDC') });
    expect((await refused(() => planDeposit(node({ balance: usdc(5_000), allowance: {}, shares: {} }), head(A, { deprecated: true, depositsOpen: false }), WALLET, usdc(1), 10n))).field).toBe('vault');
    expect((await refused(() => planDeposit(node({ balance: usdc(5_000), allowance: {}, shares: {}, maxDeposit: 0n }), head(A), WALLET, usdc(1), 10n))).field).toBe('vault');
    expect((await refused(() => planRebalance(node({ balance: 0n, allowance: {}, shares: {} }), head(A), head(B), WALLET, undefined, 10n))).field).toBe('fromVault');
    expect((await refused(() => planRebalance(node({ balance: 0n, allowance: {}, shares: {} }), head(A), head(WETH_VAULT, { asset: CHAINS.base.wrappedNative, assetSymbol: 'WETH' }), WALLET, undefined, 10n))).field).toBe('toVault');
    // The vault holds too little itself to pay every share out now.
    expect(await refused(() => planRebalance(node({ balance: 0n, allowance: {}, shares: { [A.toLowerCase()]: usdc(1_000) }, maxRedeem: usdc(400) }), head(A), head(B), WALLET, undefined, 10n))).toMatchObject({ field: 'fromVault', message: expect.stringContaining('give an amount') });
  });

  it('a rebalance: redeem every share (gas estimated: the wallet owns them), approve the target for what they redeem, deposit it (gas stated)', async () => {
    const plan = await planRebalance(node({ balance: 0n, allowance: {}, shares: { [A.toLowerCase()]: usdc(1_000) } }), head(A), head(B), WALLET, undefined, 10n);
    expect(plan.transactions.map((t) => [t.action, t.gas.source])).toEqual([['redeem', 'estimateGas'], ['approve', 'estimateGas'], ['deposit', 'stated']]);
    expect(decodeFunctionData({ abi: erc4626Abi, data: plan.transactions[0]!.data })).toMatchObject({ functionName: 'redeem', args: [usdc(1_000), WALLET, WALLET] });
    expect(plan).toMatchObject({ amount: '1050', sharesBurned: '1000', expectedShares: '1000', from: { redeemable: '1050' } });
    // An amount: withdraw exactly it.
    const part = await planRebalance(node({ balance: 0n, allowance: {}, shares: { [A.toLowerCase()]: usdc(1_000) } }), head(A), head(B), WALLET, usdc(210), 10n);
    expect(decodeFunctionData({ abi: erc4626Abi, data: part.transactions[0]!.data })).toMatchObject({ functionName: 'withdraw', args: [usdc(210), WALLET, WALLET] });
    expect(part).toMatchObject({ amount: '210', sharesBurned: '200', expectedShares: '200' });
  });
});
