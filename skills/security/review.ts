/**
 * A deployed contract read from its bytecode (`contract-review/v1`): owner powers from the
 * selectors it dispatches, whether its owner remains, EIP-1967 proxy slots, and the dangerous
 * opcodes it contains (DELEGATECALL, SELFDESTRUCT, CALLCODE, ORIGIN, CREATE/CREATE2). No source
 * is read: a finding says what the code can do, not what it will do.
 */
import type { Address, Hex } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { ownerPowers, proxySlots } from './powers.js';

export const REVIEW_METHODOLOGY = 'contract-review/v1 (bytecode at the head block: owner powers from dispatched selectors (mint, blacklist, pause, fees, limits), owner() and whether it is renounced, EIP-1967 implementation and admin slots, dangerous opcodes found by walking the code; no source verification)';

/** Opcodes worth a finding, with why. */
const DANGEROUS_OPCODES: Record<number, { name: string; severity: 'high' | 'medium' | 'low'; why: string }> = {
  0xff: { name: 'SELFDESTRUCT', severity: 'high', why: 'the contract can destroy itself (and send its ether away)' },
  0xf4: { name: 'DELEGATECALL', severity: 'medium', why: 'runs other code with this contract\'s storage (proxies and libraries; dangerous when the target can change)' },
  0xf2: { name: 'CALLCODE', severity: 'medium', why: 'legacy form of delegatecall' },
  0x32: { name: 'ORIGIN', severity: 'low', why: 'reads tx.origin, unsafe for authorisation' },
  0xf0: { name: 'CREATE', severity: 'low', why: 'deploys contracts' },
  0xf5: { name: 'CREATE2', severity: 'low', why: 'deploys contracts at predictable addresses' },
};

/** Opcodes present in runtime code, walking over PUSH data; trailing metadata may add false positives, said in the finding. */
export function opcodesIn(code: Hex): Set<number> {
  const found = new Set<number>();
  const bytes = code.slice(2);
  for (let i = 0; i < bytes.length; i += 2) {
    const op = parseInt(bytes.slice(i, i + 2), 16);
    found.add(op);
    if (op >= 0x60 && op <= 0x7f) i += (op - 0x5f) * 2;
  }
  return found;
}

export async function reviewContract(chain: ConnectedChain, address: Address, blockNumber: bigint) {
  const [code, powers, proxy] = await Promise.all([
    chain.client.getCode({ address, blockNumber }),
    ownerPowers(chain, address, blockNumber),
    proxySlots(chain, address, blockNumber),
  ]);
  if (!code || code === '0x') return { available: false as const, reason: 'no contract code at this address (an externally owned account, or not deployed on this chain)' };
  const findings: string[] = [];
  if (powers.available) {
    for (const p of powers.powers) findings.push(`owner power: ${p}`);
    if (powers.powers.length && powers.renounced === false) findings.push(`owner ${powers.owner} can still use them`);
    if (powers.renounced) findings.push('ownership renounced');
  }
  if (proxy.implementation) findings.push(`upgradeable proxy: implementation ${proxy.implementation} can be replaced${proxy.admin ? ` by ${proxy.admin}` : ''}`);
  const live = powers.available && powers.powers.length > 0 && powers.renounced !== true;
  const risk: 'high' | 'medium' | 'low' = live && powers.powers.some((p) => p === 'blacklist' || p === 'fees' || p === 'pause') ? 'high' : live || proxy.implementation ? 'medium' : 'low';
  const present = opcodesIn(code);
  const opcodes = Object.entries(DANGEROUS_OPCODES).filter(([op]) => present.has(Number(op))).map(([, d]) => d);
  return { available: true as const, codeBytes: (code.length - 2) / 2, risk, findings, ownerPowers: powers, proxy, opcodes };
}
