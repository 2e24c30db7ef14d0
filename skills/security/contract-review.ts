/** A contract read from its bytecode: the quick review, and the full audit that adds opcodes and, for a token, a live trade simulation. */
import { z } from 'zod';
import type { Address } from 'viem';
import { provenance } from '../data/provenance.js';
import { REVIEW_METHODOLOGY, reviewContract } from './review.js';
import { SECURITY_METHODOLOGY, scanToken } from './scan.js';
import { EVM_CHAINS, chainParam, evmAddressParam } from '../core/params.js';
import { address, ownerPowers, provenanceShape, securityScanShape } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitContract } from '../core/admission.js';
import { loadMarket } from '../data/load.js';

const input = z.strictObject({ address: evmAddressParam('Contract address (0x + 40 hex).'), chain: chainParam('base', EVM_CHAINS) });
const review = z.object({
  available: z.literal(true),
  codeBytes: z.number().int(),
  risk: z.enum(['high', 'medium', 'low']),
  findings: z.array(z.string()),
  ownerPowers,
  proxy: z.object({ implementation: address.nullable(), admin: address.nullable() }).describe('EIP-1967 slots.'),
  opcodes: z.array(z.object({ name: z.string(), severity: z.enum(['high', 'medium', 'low']), why: z.string() })).describe('Dangerous opcodes in the code.'),
});
const reviewHead = { ...provenanceShape, address };
/** No code at the address answers available: false and the reason, without the review's fields. */
const availability = { available: z.boolean(), reason: z.string().optional().describe('Why it is unavailable.') };

const SEVERITY_POINTS = { high: 30, medium: 15, low: 5 } as const;

export const contractReviewSkill = defineSkill({
  id: 'contract-review',
  title: 'Contract review',
  description: 'Reviews a deployed contract from its bytecode for risky owner functions (mint, blacklist, pause, fee and limit setters), whether the owner is renounced, and whether it is an upgradeable proxy, with a risk level and findings.',
  tags: ['contract', 'review', 'owner', 'privileges', 'proxy', 'risk'],
  examples: ['Does contract 0x... on base have dangerous admin functions?', 'Who can upgrade or pause contract 0x...?'],
  input,
  price: '0.25',
  toolName: 'contract_review',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({ ...reviewHead, ...review.partial().shape, ...availability }),
  summarize: (r) => `Risk ${r.risk}: ${(r.findings as string[]).join('; ') || 'no owner powers, not a proxy'}.`,
  // An address with no code is refused before payment (one eth_getCode), never sold as available: false.
  admit: (input, ctx) => admitContract(ctx, input.chain, input.address as Address),
  async handler({ address, chain: chainName }, ctx) {
    const chain = ctx.chains.get(chainName);
    const head = await chain.client.getBlock();
    return { ...provenance(chain, { number: head.number, timestamp: head.timestamp }, REVIEW_METHODOLOGY), address, ...(await reviewContract(chain, address as Address, head.number)) };
  },
});

export const smartContractAuditSkill = defineSkill({
  id: 'smart-contract-audit',
  title: 'Smart contract audit',
  description: 'A bytecode audit of a deployed contract: owner powers and whether the owner remains, upgradeability, dangerous opcodes (selfdestruct, delegatecall, tx.origin), and for an indexed token a simulated buy and sell, taxes and liquidity; scored findings with their severity. No source verification.',
  tags: ['audit', 'contract', 'security', 'bytecode', 'vulnerabilities', 'smart-contract'],
  examples: ['Audit smart contract 0x... on ethereum', 'Full security audit of the token contract 0x...'],
  input,
  price: '2.00',
  toolName: 'smart_contract_audit',
  surfaces: ['a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 5, timeTargetSeconds: 120 },
  output: z.object({
    ...reviewHead,
    ...availability,
    score: z.number().optional().describe('100 minus the findings\' points.'),
    grade: z.enum(['low risk', 'medium risk', 'high risk']).optional(),
    findings: z.array(z.object({ severity: z.enum(['high', 'medium', 'low']), finding: z.string() })).optional(),
    review: review.optional(),
    tokenScan: z.object(securityScanShape).optional().describe('For an indexed token: the security/v1 scan.'),
    caveat: z.string().optional(),
  }),
  summarize: (r) => `Audit score ${r.score}/100 (${r.grade}); ${(r.findings as { severity: string; finding: string }[]).slice(0, 5).map((f) => `${f.severity}: ${f.finding}`).join('; ') || 'no findings'}.`,
  // An address with no code is refused before payment (one eth_getCode), never sold as available: false.
  admit: (input, ctx) => admitContract(ctx, input.chain, input.address as Address),
  async handler({ address, chain: chainName }, ctx) {
    const chain = ctx.chains.get(chainName);
    const head = await chain.client.getBlock();
    const base = { ...provenance(chain, { number: head.number, timestamp: head.timestamp }, `${REVIEW_METHODOLOGY}; ${SECURITY_METHODOLOGY}`), address };
    const review = await reviewContract(chain, address as Address, head.number);
    if (!review.available) return { ...base, ...review };
    const findings: { severity: 'high' | 'medium' | 'low'; finding: string }[] = [
      ...review.findings.filter((f) => f !== 'ownership renounced').map((finding) => ({ severity: (review.risk === 'high' ? 'high' : 'medium') as 'high' | 'medium', finding })),
      ...review.opcodes.map((o) => ({ severity: o.severity, finding: `${o.name}: ${o.why}` })),
    ];
    // An indexed token is also traded in simulation: a honeypot or a tax is the finding that matters most.
    const market = await loadMarket(ctx, chainName).then((m) => m.market).catch(() => null);
    const token = market?.tokens.has(address.toLowerCase()) ? await scanToken(market, address.toLowerCase()) : null;
    for (const f of token?.findings ?? []) findings.push({ severity: f.severity === 'critical' ? 'high' : (f.severity as 'high' | 'medium' | 'low'), finding: f.finding });
    const score = Math.max(0, 100 - findings.reduce((s, f) => s + SEVERITY_POINTS[f.severity], 0));
    return {
      ...base,
      available: true,
      score,
      grade: score >= 80 ? ('low risk' as const) : score >= 50 ? ('medium risk' as const) : ('high risk' as const),
      findings,
      review,
      ...(token && { tokenScan: token }),
      caveat: 'Bytecode only: no source was verified, and a finding says what the code can do, not that it will.',
    };
  },
});
