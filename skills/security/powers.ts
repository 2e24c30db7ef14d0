/**
 * Owner powers read from deployed bytecode: the 4-byte selectors a contract dispatches on
 * (PUSH4 operands) matched against the functions scanners look for, and whether the owner
 * still exists (owner() returns a non-zero address).
 */
import { parseAbi, toFunctionSelector, type Address } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { pushedSelectors } from './bytecode.js';

const POWERS = {
  mint: ['mint(address,uint256)', 'mint(uint256)', 'mintTo(address,uint256)'],
  blacklist: ['setBlacklisted(address,bool)', 'blacklist(address)', 'addToBlacklist(address)', 'setBlacklist(address,bool)', 'blockAddress(address)', 'setBots(address[],bool)'],
  pause: ['pause()', 'setPaused(bool)', 'setTradingEnabled(bool)', 'enableTrading()'],
  fees: ['setFee(uint256)', 'setFees(uint256,uint256)', 'setTaxFee(uint256)', 'setSellTax(uint256)', 'setBuyTax(uint256)', 'setSellTaxBps(uint16)', 'setPool(address,bool)'],
  limits: ['setMaxTxAmount(uint256)', 'setMaxWalletSize(uint256)'],
} as const;

export type Power = keyof typeof POWERS;
const SELECTORS = Object.fromEntries(Object.entries(POWERS).map(([power, sigs]) => [power, sigs.map((s) => toFunctionSelector(`function ${s}`))])) as Record<Power, `0x${string}`[]>;
const OWNER_ABI = parseAbi(['function owner() view returns (address)']);

export interface OwnerPowers {
  available: true;
  powers: Power[];
  functions: string[];
  owner: Address | null;
  renounced: boolean | null;
}

export async function ownerPowers(chain: ConnectedChain, token: Address, blockNumber: bigint): Promise<OwnerPowers | { available: false; reason: string }> {
  const code = await chain.client.getCode({ address: token, blockNumber });
  if (!code || code === '0x') return { available: false, reason: 'no contract code at this address' };
  const pushed = pushedSelectors(code);
  const powers: Power[] = [];
  const functions: string[] = [];
  for (const power of Object.keys(POWERS) as Power[]) {
    const hits = POWERS[power].filter((_, i) => pushed.has(SELECTORS[power][i]!));
    if (hits.length) {
      powers.push(power);
      functions.push(...hits);
    }
  }
  const owner = await chain.client.readContract({ address: token, abi: OWNER_ABI, functionName: 'owner', blockNumber }).catch(() => null);
  return { available: true, powers, functions, owner, renounced: owner === null ? null : /^0x0{40}$/i.test(owner) };
}
