/**
 * Approval security scan: an address's live ERC-20 approvals on a chain, read from the chain
 * (approvals/v2): spender and its kind, allowance (unlimited flagged), value at risk, and the
 * unsigned revoke transaction for each. Nothing is signed or sent by Sibyl.
 */
import { z } from 'zod';
import type { Address } from 'viem';
import { APPROVALS_METHODOLOGY, liveApprovals } from './engine.js';
import { provenance } from '../data/provenance.js';
import { admitChain } from '../core/admission.js';
import { loadMarket } from '../data/load.js';
import { address, provenanceShape } from '../core/outputs.js';
import { EVM_CHAINS, chainParam, evmAddressParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { usd } from '../core/summary.js';

const approvalRow = z.object({
  standard: z.enum(['erc20', 'operator']).describe('erc20: an allowance; operator: an ERC-721/1155 ApprovalForAll over every item the owner holds in the collection.'),
  token: address,
  symbol: z.string().nullable(),
  spender: address,
  spenderKind: z.enum(['router', 'drainer', 'contract', 'eoa', 'self-destructed']).describe('router: its factory() is a DEX factory of the chain; drainer: it has swept other owners who approved it, in transactions they did not send and that paid them nothing (drainers/v1): revoke at once; eoa: no code; self-destructed: code at the approval, none now.'),
  dex: z.string().nullable(),
  drained: z.array(z.object({ owner: address, token: address, tx: z.string(), block: z.number().int() })).nullable().describe('For a drainer: the owners it swept, each with the sweep transaction (the evidence).'),
  allowance: z.string().describe('Decimal, token units; "all" for an operator.'),
  unlimited: z.boolean().describe('At least 2^255 raw units, or an operator.'),
  balance: z.string().describe('The owner\'s balance now, token units (items held for ERC-721; "unknown" for ERC-1155).'),
  valueAtRiskUsd: z.number().nullable().describe('min(allowance, balance) at the indexed price now; null when the token has no price.'),
  approvedAt: z.object({ block: z.number().int(), tx: z.string() }),
  revoke: z.object({ to: address, data: z.string() }).describe('Unsigned: approve(spender, 0), or setApprovalForAll(operator, false), on the token, for the owner to send.'),
});

export const approvalScanSkill = defineSkill({
  id: 'approval-security-scan',
  title: 'Approval security scan',
  description: 'An address\'s live approvals on a chain, ERC-20 allowances and ERC-721/1155 operator grants: each spender and what it is (DEX router, known drainer by its sweeps of other wallets, contract, externally owned account, self-destructed contract), the allowance (unlimited flagged), the value at risk now, and the unsigned transaction that revokes it.',
  tags: ['approvals', 'allowance', 'revoke', 'wallet-safety', 'drainer'],
  examples: ['Which approvals on my wallet 0x... are risky?', 'What should I revoke on 0x... on base?'],
  input: z.strictObject({
    address: evmAddressParam('The owner whose approvals to scan (0x + 40 hex).'),
    chain: chainParam('base', EVM_CHAINS),
  }),
  price: '0.50',
  toolName: 'approval_security_scan',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...provenanceShape,
    owner: address,
    approvalLogs: z.number().int().describe('Approval logs of the owner read (all blocks to asOf).'),
    approvals: z.array(approvalRow).describe('Live ones (allowance above zero), most value at risk first.'),
  }),
  summarize: (r) => {
    const rows = r.approvals as { symbol: string | null; token: string; spender: string; spenderKind: string; unlimited: boolean; valueAtRiskUsd: number | null }[];
    if (!rows.length) return `${r.owner} has no live approval on ${r.chain} (${r.approvalLogs} approval logs read).`;
    const risky = rows.filter((a) => a.spenderKind !== 'router');
    const drainers = rows.filter((a) => a.spenderKind === 'drainer');
    const alarm = drainers.length ? `DRAINER: ${drainers.map((a) => `${a.symbol ?? a.token} approved to ${a.spender}, a drainer that has swept other wallets (${usd(a.valueAtRiskUsd)} at risk)`).join('; ')}: revoke now. ` : '';
    return `${alarm}${r.owner} has ${rows.length} live approval${rows.length === 1 ? '' : 's'} on ${r.chain}, ${rows.filter((a) => a.unlimited).length} unlimited; ` +
      `${risky.length ? `${risky.length} to spenders that are no DEX router (revoke first): ${risky.slice(0, 3).map((a) => `${a.symbol ?? a.token} to ${a.spender} (${a.spenderKind}, ${usd(a.valueAtRiskUsd)} at risk)`).join('; ')}` : 'every spender is a DEX router'}.`;
  },
  admit: async (input, ctx) => void admitChain(ctx, input.chain),
  async handler(input, ctx) {
    const chain = ctx.chains.get(input.chain);
    const head = await chain.client.getBlock();
    // Prices come from the chain's index when it has one; without it the allowances stand unpriced.
    const market = await loadMarket(ctx, input.chain).then((m) => m.market, () => null);
    const { approvals, logs } = await liveApprovals(chain, input.address as Address, market, head.number);
    return {
      ...provenance(chain, { number: head.number, timestamp: head.timestamp }, APPROVALS_METHODOLOGY, { from: 0n, to: head.number }),
      owner: input.address.toLowerCase(),
      approvalLogs: logs,
      approvals,
    };
  },
});
