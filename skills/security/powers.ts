/**
 * Owner powers read from deployed bytecode: the 4-byte selectors a contract dispatches on
 * (PUSH4 operands) matched against the functions scanners look for, and whether the owner
 * still exists (owner() returns a non-zero address).
 */
import { getAddress, parseAbi, toFunctionSelector, type Address, type Hex } from 'viem';
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

export type Powers = OwnerPowers | { available: false; reason: string };

/** An owner that still exists (not renounced, or no owner() to tell) can use the powers its code has. */
export function livePowers(powers: Powers): OwnerPowers['powers'] {
  return powers.available && powers.renounced !== true ? powers.powers : [];
}

export async function ownerPowers(chain: ConnectedChain, token: Address, blockNumber: bigint): Promise<Powers> {
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

const EIP1967_IMPLEMENTATION_SLOT: Hex = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const EIP1967_ADMIN_SLOT: Hex = '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103';

export interface ProxySlots {
  /** The EIP-1967 implementation: set when the code behind the address can be replaced. */
  implementation: Address | null;
  admin: Address | null;
}

/** The EIP-1967 implementation and admin slots of a contract at `blockNumber`. */
export async function proxySlots(chain: ConnectedChain, address: Address, blockNumber: bigint): Promise<ProxySlots> {
  const [implementation, admin] = await Promise.all([
    chain.client.getStorageAt({ address, slot: EIP1967_IMPLEMENTATION_SLOT, blockNumber }),
    chain.client.getStorageAt({ address, slot: EIP1967_ADMIN_SLOT, blockNumber }),
  ]);
  const slotAddress = (v: Hex | undefined) => (v && BigInt(v) !== 0n ? getAddress(`0x${v.slice(-40)}`) : null);
  return { implementation: slotAddress(implementation), admin: slotAddress(admin) };
}
