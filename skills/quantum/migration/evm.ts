/**
 * The EVM leg of a post-quantum migration (pqc-migration/v1): the unsigned transfers that empty
 * an exposed account into a destination whose key is not on chain — best a contract wallet whose
 * signature check can be upgraded (a proxy: EIP-1967 implementation slot set), else an account
 * that has never sent. ERC-20 transfers first (largest value first, balances read at the latest
 * block), the native coin last, less a gas reserve for the transfers. Sibyl never signs.
 */
import { encodeFunctionData, erc20Abi, formatUnits, type Address, type PublicClient } from 'viem';
import type { Holding } from '../exposure/engine.js';

/** keccak256('eip1967.proxy.implementation') - 1. */
const EIP1967_IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const TRANSFER_GAS = 65_000n;
const NATIVE_GAS = 21_000n;

export interface DestinationCheck {
  readonly address: string;
  readonly kind: 'contract' | 'eoa';
  /** No key of it is on chain: a contract, or an account that never sent (and is not the source). */
  readonly fresh: boolean;
  /** A contract behind an EIP-1967 proxy (its logic, hence its signature check, can be upgraded); null for an account. */
  readonly upgradeable: boolean | null;
  readonly note: string;
}

export async function checkEvmDestination(client: PublicClient, source: Address, destination: Address): Promise<DestinationCheck> {
  if (destination.toLowerCase() === source.toLowerCase()) {
    return { address: destination, kind: 'eoa', fresh: false, upgradeable: null, note: 'the destination is the exposed account itself' };
  }
  const [code, nonce] = await Promise.all([client.getCode({ address: destination }), client.getTransactionCount({ address: destination })]);
  if (code && code !== '0x' && !code.toLowerCase().startsWith('0xef0100')) {
    const slot = await client.getStorageAt({ address: destination, slot: EIP1967_IMPLEMENTATION_SLOT }).catch(() => undefined);
    const upgradeable = !!slot && BigInt(slot) !== 0n;
    return {
      address: destination, kind: 'contract', fresh: true, upgradeable,
      note: upgradeable
        ? 'a contract wallet behind an EIP-1967 proxy: its signature check can be upgraded to a post-quantum scheme'
        : 'a contract wallet (no key of its own); its code is not an EIP-1967 proxy, so check that its signature check can be changed (a module or upgrade path)',
    };
  }
  if (nonce > 0 || code?.toLowerCase().startsWith('0xef0100')) {
    return { address: destination, kind: 'eoa', fresh: false, upgradeable: null, note: `the destination has ${nonce > 0 ? `sent ${nonce} transaction${nonce === 1 ? '' : 's'}` : 'signed a delegation'}: its key is on chain too` };
  }
  return { address: destination, kind: 'eoa', fresh: true, upgradeable: null, note: 'an account that has never sent: its key is hidden until its first transaction (a contract wallet with an upgradeable signature check is the lasting fix)' };
}

export interface UnsignedEvmTx {
  readonly chainId: number;
  readonly to: string;
  readonly data: string;
  /** Wei, decimal. */
  readonly value: string;
  readonly asset: string;
  readonly amount: string;
  readonly description: string;
}

/** Transfers moving what `source` holds (of `holdings`) to `destination`, in the order to send them. */
export async function evmSweepTxs(
  client: PublicClient,
  chainId: number,
  nativeSymbol: string,
  source: Address,
  destination: Address,
  holdings: readonly Holding[],
): Promise<{ txs: UnsignedEvmTx[]; notes: string[] }> {
  const tokens = holdings.filter((h) => h.token !== null).sort((a, b) => (b.valueUsd ?? -1) - (a.valueUsd ?? -1));
  const txs: UnsignedEvmTx[] = [];
  const notes: string[] = [];
  const balances = await Promise.all(tokens.map((t) => client.readContract({ address: t.token as Address, abi: erc20Abi, functionName: 'balanceOf', args: [source] }).catch(() => null)));
  tokens.forEach((t, i) => {
    const raw = balances[i];
    if (raw === null || raw === undefined) return void notes.push(`${t.asset}: balanceOf could not be read; move it by hand`);
    if (raw === 0n) return;
    const amount = formatUnits(raw, t.decimals);
    txs.push({
      chainId, to: t.token!, value: '0', asset: t.asset, amount,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [destination, raw] }),
      description: `transfer ${amount} ${t.asset} to ${destination}`,
    });
  });
  const [balance, gasPrice] = await Promise.all([client.getBalance({ address: source }), client.getGasPrice()]);
  // Twice the gas the transfers need at today's price, so they still go through if it rises.
  const reserve = 2n * gasPrice * (NATIVE_GAS + TRANSFER_GAS * BigInt(txs.length));
  if (balance > reserve) {
    const amount = formatUnits(balance - reserve, 18);
    txs.push({ chainId, to: destination, data: '0x', value: (balance - reserve).toString(), asset: nativeSymbol, amount, description: `send ${amount} ${nativeSymbol} to ${destination} (last: ${formatUnits(reserve, 18)} ${nativeSymbol} is kept for gas)` });
  } else if (balance > 0n) {
    notes.push(`the ${formatUnits(balance, 18)} ${nativeSymbol} left is about what the transfers' gas costs; it stays behind`);
  }
  return { txs, notes };
}
