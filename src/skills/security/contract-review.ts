/** A contract read from its bytecode: owner powers, whether the owner remains, and whether it is a proxy that can change. */
import { z } from 'zod';
import { getAddress, type Address, type Hex } from 'viem';
import { provenance } from '../../intel/provenance.js';
import { ownerPowers } from '../../intel/security/powers.js';
import { EVM_CHAINS, chainParam, evmAddressParam } from '../params.js';
import { defineSkill } from '../registry.js';

const EIP1967_IMPLEMENTATION_SLOT: Hex = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const EIP1967_ADMIN_SLOT: Hex = '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103';
const REVIEW_METHODOLOGY = 'contract-review/v1 (bytecode at the head block: owner powers from dispatched selectors (mint, blacklist, pause, fees, limits), owner() and whether it is renounced, EIP-1967 implementation and admin slots; no source verification)';

export const contractReviewSkill = defineSkill({
  id: 'contract-review',
  title: 'Contract review',
  description: 'Reviews a deployed contract from its bytecode for risky owner functions (mint, blacklist, pause, fee and limit setters), whether the owner is renounced, and whether it is an upgradeable proxy, with a risk level and findings.',
  tags: ['contract', 'audit', 'review', 'owner', 'privileges', 'proxy', 'risk'],
  examples: ['Does contract 0x... on base have dangerous admin functions?', 'Audit the owner privileges of token contract 0x...'],
  input: z.strictObject({ address: evmAddressParam('Contract address (0x + 40 hex).'), chain: chainParam('base', EVM_CHAINS) }),
  price: '0.25',
  toolName: 'contract_review',
  surfaces: ['a2a', 'mcp', 'agent'],
  summarize: (r) => `Risk ${r.risk}: ${(r.findings as string[]).join('; ') || 'no owner powers, not a proxy'}.`,
  async handler(input, ctx) {
    const chain = ctx.chains.get(input.chain);
    const head = await chain.client.getBlock();
    const address = input.address as Address;
    const [code, powers, implementation, admin] = await Promise.all([
      chain.client.getCode({ address, blockNumber: head.number }),
      ownerPowers(chain, address, head.number),
      chain.client.getStorageAt({ address, slot: EIP1967_IMPLEMENTATION_SLOT, blockNumber: head.number }),
      chain.client.getStorageAt({ address, slot: EIP1967_ADMIN_SLOT, blockNumber: head.number }),
    ]);
    const base = { ...provenance(chain, { number: head.number, timestamp: head.timestamp }, REVIEW_METHODOLOGY), address };
    if (!code || code === '0x') return { ...base, available: false, reason: 'no contract code at this address (an externally owned account, or not deployed on this chain)' };
    const slotAddress = (v: Hex | undefined) => (v && BigInt(v) !== 0n ? getAddress(`0x${v.slice(-40)}`) : null);
    const proxy = { implementation: slotAddress(implementation), admin: slotAddress(admin) };
    const findings: string[] = [];
    if (powers.available) {
      for (const p of powers.powers) findings.push(`owner power: ${p}`);
      if (powers.powers.length && powers.renounced === false) findings.push(`owner ${powers.owner} can still use them`);
      if (powers.renounced) findings.push('ownership renounced');
    }
    if (proxy.implementation) findings.push(`upgradeable proxy: implementation ${proxy.implementation} can be replaced${proxy.admin ? ` by ${proxy.admin}` : ''}`);
    const live = powers.available && powers.powers.length > 0 && powers.renounced !== true;
    const risk = live && powers.powers.some((p) => p === 'blacklist' || p === 'fees' || p === 'pause') ? 'high' : live || proxy.implementation ? 'medium' : 'low';
    return { ...base, available: true, codeBytes: (code.length - 2) / 2, risk, findings, ownerPowers: powers, proxy };
  },
});
