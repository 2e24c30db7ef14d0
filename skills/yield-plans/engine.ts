/**
 * Vault plans (`yield-plans/v1`): plans, never custody. For a wallet and an amount, the unsigned
 * transactions that put the amount into an ERC-4626 vault (approve + deposit) or move it from one
 * vault to another (redeem or withdraw + approve + deposit), what the wallet should receive
 * (previewDeposit / previewRedeem at the head), and the gas each takes: eth_estimateGas where the
 * wallet's state already allows the call, otherwise a stated figure and why. A plan the wallet
 * cannot execute (too little balance, no shares, a vault not taking deposits, too little held by
 * the vault to pay out) is refused, naming the field.
 */
import { encodeFunctionData, erc20Abi, erc4626Abi, formatUnits, type Address, type Hex } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { round } from '../data/market.js';
import type { VaultHead } from '../vaults/engine.js';

/**
 * Gas stated for a call that cannot be simulated yet: at most what it takes on an OpenZeppelin
 * ERC-4626 vault and an ERC-20 (a first deposit writes the most storage).
 */
export const STATED_GAS = { approve: 60_000n, deposit: 150_000n, redeem: 150_000n, withdraw: 150_000n } as const;
/** The slippage a plan allows for: ERC-4626 shares move only with the share price (income, losses), never with the deposit's size. */
export const SLIPPAGE_BPS = 50;

export const YIELD_PLANS_METHODOLOGY = `yield-plans/v1 (unsigned transactions for the wallet to sign: approve (exact amount, only when the allowance is short) + deposit, or redeem/withdraw + approve + deposit; expected shares and assets from previewDeposit / previewRedeem / previewWithdraw at the head; gas from eth_estimateGas sent as the wallet where its state allows the call, else a stated figure (deposit ${STATED_GAS.deposit.toLocaleString('en-US')}) for a deposit waiting on its approval or its assets; minimum shares ${SLIPPAGE_BPS / 100}% under expected; balances, allowances and maxRedeem checked first; nothing is signed or sent by Sibyl)`;

/** A plan the wallet could not execute; `field` is the input that makes it so. */
export class PlanRefused extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

export interface PlanTx {
  action: 'approve' | 'deposit' | 'redeem' | 'withdraw';
  to: Address;
  data: Hex;
  value: '0';
  description: string;
  gas: { units: string; source: 'estimateGas' | 'stated'; why?: string };
}

export interface PlanCost {
  totalGas: string;
  gasPriceWei: string;
  costNative: string;
}

const tx = (action: PlanTx['action'], to: Address, data: Hex, description: string): Omit<PlanTx, 'gas'> => ({ action, to, data, value: '0', description });

async function gasOf(chain: ConnectedChain, wallet: Address, t: Omit<PlanTx, 'gas'>, runnable: boolean, why: string): Promise<PlanTx> {
  if (runnable) {
    const estimated = await chain.client.estimateGas({ account: wallet, to: t.to, data: t.data }).then((units) => ({ units }), (err: Error) => ({ err }));
    if ('units' in estimated) return { ...t, gas: { units: estimated.units.toString(), source: 'estimateGas' } };
    why = `eth_estimateGas failed (${((estimated.err as { shortMessage?: string }).shortMessage ?? estimated.err.message).slice(0, 160)})`;
  }
  return { ...t, gas: { units: STATED_GAS[t.action].toString(), source: 'stated', why } };
}

async function costOf(chain: ConnectedChain, txs: readonly PlanTx[]): Promise<PlanCost> {
  const totalGas = txs.reduce((s, t) => s + BigInt(t.gas.units), 0n);
  const gasPrice = await chain.client.getGasPrice();
  return { totalGas: totalGas.toString(), gasPriceWei: gasPrice.toString(), costNative: formatUnits(totalGas * gasPrice, 18) };
}

const fmt = (raw: bigint, decimals: number) => formatUnits(raw, decimals);
const minOut = (shares: bigint) => (shares * BigInt(10_000 - SLIPPAGE_BPS)) / 10_000n;

function slippageNote(sharesWord: string): { bps: number; note: string } {
  return {
    bps: SLIPPAGE_BPS,
    note: `An ERC-4626 deposit has no price impact: ${sharesWord} = assets x supply / total assets at the moment it is mined. Income paid in before then makes the shares slightly fewer (each worth more); a strategy loss would do the opposite. The vault takes no minimum itself: the minimum given (${SLIPPAGE_BPS / 100}% under expected) is for a router or a check after the fact.`,
  };
}

const ZERO = 0n;

/** Approve (when the allowance is short) + deposit `amount` of the vault's underlying into it, for `wallet`. */
export async function planDeposit(chain: ConnectedChain, vault: VaultHead, wallet: Address, amount: bigint, block: bigint) {
  if (amount <= ZERO) throw new PlanRefused('amount', 'must be above 0');
  if (vault.deprecated) throw new PlanRefused('vault', `${vault.name ?? vault.vault} is deprecated and takes no deposits`);
  const c = chain.client;
  const [maxDeposit, balance, allowance, expectedShares] = await Promise.all([
    c.readContract({ address: vault.vault, abi: erc4626Abi, functionName: 'maxDeposit', args: [wallet], blockNumber: block }),
    c.readContract({ address: vault.asset, abi: erc20Abi, functionName: 'balanceOf', args: [wallet], blockNumber: block }),
    c.readContract({ address: vault.asset, abi: erc20Abi, functionName: 'allowance', args: [wallet, vault.vault], blockNumber: block }),
    c.readContract({ address: vault.vault, abi: erc4626Abi, functionName: 'previewDeposit', args: [amount], blockNumber: block }).catch(() => null),
  ]);
  const sym = vault.assetSymbol ?? 'tokens';
  if (maxDeposit === ZERO) throw new PlanRefused('vault', `${vault.name ?? vault.vault} takes no deposits now (maxDeposit is 0)`);
  if (maxDeposit < amount) throw new PlanRefused('amount', `the vault takes at most ${fmt(maxDeposit, vault.assetDecimals)} ${sym} from this wallet now`);
  if (balance < amount) throw new PlanRefused('amount', `the wallet holds ${fmt(balance, vault.assetDecimals)} ${sym}, less than ${fmt(amount, vault.assetDecimals)}`);
  if (expectedShares === null) throw new PlanRefused('vault', 'the vault does not answer previewDeposit');
  const txs: PlanTx[] = [];
  const approved = allowance >= amount;
  if (!approved) {
    txs.push(await gasOf(chain, wallet, tx('approve', vault.asset, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [vault.vault, amount] }), `approve the vault to take ${fmt(amount, vault.assetDecimals)} ${sym}`), true, ''));
  }
  txs.push(await gasOf(chain, wallet, tx('deposit', vault.vault, encodeFunctionData({ abi: erc4626Abi, functionName: 'deposit', args: [amount, wallet] }), `deposit ${fmt(amount, vault.assetDecimals)} ${sym}, shares to the wallet`),
    approved, 'the deposit cannot be simulated before the approval is mined (the vault would revert on the missing allowance)'));
  return {
    wallet,
    vault: { address: vault.vault, name: vault.name, symbol: vault.symbol },
    asset: { address: vault.asset, symbol: vault.assetSymbol, decimals: vault.assetDecimals },
    amount: fmt(amount, vault.assetDecimals),
    balance: fmt(balance, vault.assetDecimals),
    allowance: fmt(allowance, vault.assetDecimals),
    sharePrice: round(vault.sharePrice, 10),
    expectedShares: fmt(expectedShares, vault.shareDecimals),
    minShares: fmt(minOut(expectedShares), vault.shareDecimals),
    slippage: slippageNote('shares'),
    transactions: txs,
    gas: await costOf(chain, txs),
  };
}

/**
 * Moves `amount` of underlying (all the wallet can redeem when undefined) from one vault to
 * another on the same asset: withdraw(amount) or redeem(all shares), approve, deposit.
 */
export async function planRebalance(chain: ConnectedChain, from: VaultHead, to: VaultHead, wallet: Address, amount: bigint | undefined, block: bigint) {
  if (from.vault.toLowerCase() === to.vault.toLowerCase()) throw new PlanRefused('toVault', 'is the vault the funds are already in');
  if (from.asset.toLowerCase() !== to.asset.toLowerCase()) throw new PlanRefused('toVault', `holds ${to.assetSymbol ?? to.asset}, not ${from.assetSymbol ?? from.asset}: a rebalance moves one asset between vaults`);
  if (to.deprecated || !to.depositsOpen) throw new PlanRefused('toVault', `${to.name ?? to.vault} takes no deposits now`);
  if (amount !== undefined && amount <= ZERO) throw new PlanRefused('amount', 'must be above 0');
  const c = chain.client;
  const read = <T>(address: Address, abi: typeof erc4626Abi | typeof erc20Abi, functionName: string, args: readonly unknown[]) =>
    c.readContract({ address, abi: abi as never, functionName, args, blockNumber: block } as never) as Promise<T>;
  const [shares, maxRedeem, allowance, balance] = await Promise.all([
    read<bigint>(from.vault, erc20Abi, 'balanceOf', [wallet]),
    read<bigint>(from.vault, erc4626Abi, 'maxRedeem', [wallet]),
    read<bigint>(to.asset, erc20Abi, 'allowance', [wallet, to.vault]),
    read<bigint>(to.asset, erc20Abi, 'balanceOf', [wallet]),
  ]);
  const sym = from.assetSymbol ?? 'tokens';
  if (shares === ZERO) throw new PlanRefused('fromVault', `the wallet holds no shares of ${from.name ?? from.vault}`);
  const held = await read<bigint>(from.vault, erc4626Abi, 'previewRedeem', [shares]);
  let out: bigint;
  let burned: bigint;
  let exit: Omit<PlanTx, 'gas'>;
  if (amount === undefined) {
    if (maxRedeem < shares) throw new PlanRefused('fromVault', `the vault can pay out ${fmt(await read<bigint>(from.vault, erc4626Abi, 'previewRedeem', [maxRedeem]), from.assetDecimals)} ${sym} to this wallet now, not all ${fmt(held, from.assetDecimals)}: give an amount`);
    burned = shares;
    out = held;
    exit = tx('redeem', from.vault, encodeFunctionData({ abi: erc4626Abi, functionName: 'redeem', args: [shares, wallet, wallet] }), `redeem all ${fmt(shares, from.shareDecimals)} shares for ${fmt(out, from.assetDecimals)} ${sym}`);
  } else {
    if (amount > held) throw new PlanRefused('amount', `the wallet's shares redeem ${fmt(held, from.assetDecimals)} ${sym}, less than ${fmt(amount, from.assetDecimals)}`);
    const maxWithdraw = await read<bigint>(from.vault, erc4626Abi, 'maxWithdraw', [wallet]);
    if (maxWithdraw < amount) throw new PlanRefused('amount', `the vault can pay out ${fmt(maxWithdraw, from.assetDecimals)} ${sym} to this wallet now`);
    burned = await read<bigint>(from.vault, erc4626Abi, 'previewWithdraw', [amount]);
    out = amount;
    exit = tx('withdraw', from.vault, encodeFunctionData({ abi: erc4626Abi, functionName: 'withdraw', args: [amount, wallet, wallet] }), `withdraw ${fmt(amount, from.assetDecimals)} ${sym} (burns ${fmt(burned, from.shareDecimals)} shares)`);
  }
  const [maxDeposit, expectedShares] = await Promise.all([read<bigint>(to.vault, erc4626Abi, 'maxDeposit', [wallet]), read<bigint>(to.vault, erc4626Abi, 'previewDeposit', [out])]);
  if (maxDeposit < out) throw new PlanRefused('toVault', `${to.name ?? to.vault} takes at most ${fmt(maxDeposit, to.assetDecimals)} ${sym} from this wallet now`);
  const txs: PlanTx[] = [await gasOf(chain, wallet, exit, true, '')];
  const approved = allowance >= out;
  if (!approved) txs.push(await gasOf(chain, wallet, tx('approve', to.asset, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [to.vault, out] }), `approve ${to.name ?? to.vault} to take ${fmt(out, to.assetDecimals)} ${sym}`), true, ''));
  txs.push(await gasOf(chain, wallet, tx('deposit', to.vault, encodeFunctionData({ abi: erc4626Abi, functionName: 'deposit', args: [out, wallet] }), `deposit ${fmt(out, to.assetDecimals)} ${sym} into ${to.name ?? to.vault}`),
    approved && balance >= out, 'the deposit cannot be simulated before the withdrawal and approval before it are mined (the wallet holds neither the assets nor the allowance yet)'));
  return {
    wallet,
    from: { address: from.vault, name: from.name, symbol: from.symbol, sharesHeld: fmt(shares, from.shareDecimals), redeemable: fmt(held, from.assetDecimals) },
    to: { address: to.vault, name: to.name, symbol: to.symbol },
    asset: { address: from.asset, symbol: from.assetSymbol, decimals: from.assetDecimals },
    amount: fmt(out, from.assetDecimals),
    sharesBurned: fmt(burned, from.shareDecimals),
    expectedShares: fmt(expectedShares, to.shareDecimals),
    minShares: fmt(minOut(expectedShares), to.shareDecimals),
    slippage: slippageNote('new shares'),
    transactions: txs,
    gas: await costOf(chain, txs),
  };
}
