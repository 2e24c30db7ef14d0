/**
 * pqc-wallet-scan: which of a wallet's funds sit behind a public key already revealed on chain
 * (what a quantum attacker running Shor's algorithm needs), per chain, with the evidence and the
 * USD at risk. An EVM address is read on every indexed EVM chain (or the one named), a Bitcoin
 * address on the Bitcoin chain through Esplora. The shapes here are shared by the other exposure skills.
 */
import { z } from 'zod';
import { admitChain } from '../../core/admission.js';
import type { SkillContext } from '../../core/context.js';
import { SibylError } from '../../core/errors.js';
import { parseAddress, parsedAddress, type ParsedAddress } from './address.js';
import { EXPOSURE_METHODOLOGY, NO_BITCOIN, exposureChains, walletExposure } from './engine.js';
import { chainGap, multiChainProvenanceShape } from '../../core/outputs.js';
import { EVM_CHAINS } from '../../core/params.js';
import { defineSkill } from '../../core/registry.js';
import { usd } from '../../core/summary.js';

/** An EVM address (0x + 40 hex) or a Bitcoin mainnet address whose checksum holds. */
export const walletAddressParam = (what: string) =>
  z.string().trim().superRefine((s, c) => {
    const parsed = parseAddress(s);
    if ('error' in parsed) c.addIssue({ code: 'custom', message: `must be an EVM address or a Bitcoin mainnet address: ${parsed.error}` });
  }).describe(what);

export const EXPOSURE_CHAINS = [...EVM_CHAINS, 'bitcoin'] as const;

/**
 * What the request alone decides: a Bitcoin address needs a Bitcoin chain here, a named EVM chain
 * must be connected, and some chain of the address's kind must be read.
 */
export function admitWallet(ctx: SkillContext, parsed: ParsedAddress, chain?: string): void {
  if (parsed.kind === 'bitcoin') {
    if (!ctx.bitcoin) throw new SibylError('chain_unavailable', `${parsed.address} is a Bitcoin address and ${NO_BITCOIN}; nothing was charged`, { reason: 'no_bitcoin' });
    return;
  }
  if (chain && chain !== 'bitcoin') admitChain(ctx, chain as never);
  else if (!exposureChains(ctx, parsed).length) throw new SibylError('chain_unavailable', 'this deployment reads no EVM chain; nothing was charged', { reason: 'not_indexed' });
}

export const evidenceShape = z.object({
  tx: z.string().describe('The revealing transaction (empty when it could not be found).'),
  block: z.number().int().nullable(),
  time: z.string().nullable(),
  first: z.boolean().describe('The first revealing transaction (the history was read to its start).'),
  publicKeys: z.array(z.string()).describe('The key(s) revealed, hex (a script\'s keys for P2SH/P2WSH; the x-only output key for P2TR).'),
  script: z.string().nullable(),
  verified: z.boolean().describe('The revealed key (or script) hashes to what the address commits to (EVM: the signature recovers the address).'),
  note: z.string(),
});

export const chainExposureShape = z.object({
  chain: z.string(),
  provenance: z.object({
    source: z.string().describe('embedded / rpc for an EVM chain; embedded:<url> / esplora:<url> for Bitcoin.'),
    chainId: z.number().int().nullable(),
    asOf: z.object({ block: z.string(), timestamp: z.string() }),
    methodology: z.string(),
  }),
  accountType: z.string().describe('eoa, eoa-delegated or contract on EVM; p2pkh, p2sh, v0_p2wpkh, v0_p2wsh or v1_p2tr on Bitcoin.'),
  keyRevealed: z.boolean(),
  exposed: z.boolean().describe('Key revealed and value held behind it.'),
  why: z.string().nullable().describe('sent-transaction, delegation-signed, reused-after-spend or taproot-key-path.'),
  status: z.enum(['exposed', 'revealed-empty', 'hidden', 'unused', 'contract-wallet']),
  explanation: z.string(),
  evidence: evidenceShape.nullable(),
  owners: z.array(z.object({ address: z.string(), nonce: z.number().int(), keyRevealed: z.boolean() })).nullable().describe('A contract wallet\'s owners, each checked.'),
  holdings: z.array(z.object({ asset: z.string(), token: z.string().nullable(), amount: z.string().describe('Decimal, in the asset\'s units.'), decimals: z.number().int(), valueUsd: z.number().nullable() })),
  sats: z.number().int().nullable(),
  pendingSats: z.number().int().nullable().describe('Bitcoin: the mempool\'s net change to the address (negative while a spend is pending).'),
  valueUsd: z.number(),
  unpriced: z.number().int(),
  atRiskUsd: z.number(),
});

export const totalsShape = z.object({ chainsRead: z.number().int(), exposedChains: z.number().int(), valueUsd: z.number(), atRiskUsd: z.number(), unpriced: z.number().int() });

/** The multi-chain provenance of an exposure answer. */
export function exposureProvenance(chains: readonly { provenance: { source: string; asOf: { timestamp: string } } }[]) {
  return {
    source: [...new Set(chains.map((c) => c.provenance.source))].join(',') || 'none',
    asOf: { timestamp: chains.map((c) => c.provenance.asOf.timestamp).sort().at(-1) ?? new Date().toISOString() },
    methodology: EXPOSURE_METHODOLOGY,
  };
}

export const pqcWalletScanSkill = defineSkill({
  id: 'pqc-wallet-scan',
  title: 'Post-quantum wallet exposure scan',
  description: 'Whether an address\'s funds sit behind a public key already revealed on chain (what a quantum attacker running Shor\'s algorithm needs), per chain: EVM accounts that have sent a transaction (and contract wallets\' owners), Bitcoin addresses reused after a spend and taproot key paths (P2PKH/P2WPKH never spent stay hidden behind a hash). With the first revealing transaction, the balance and the USD at risk.',
  tags: ['quantum', 'post-quantum', 'pqc', 'exposure', 'shor', 'public-key', 'bitcoin', 'wallet-safety'],
  examples: ['Is my address safe from quantum computers?', 'Quantum exposure of bc1q...', 'Has 0x... revealed its public key?'],
  input: z.strictObject({
    address: walletAddressParam('The wallet: an EVM address (0x + 40 hex) or a Bitcoin mainnet address (1…, 3…, bc1q…, bc1p…).'),
    chain: z.enum(EXPOSURE_CHAINS).optional().describe(`One of ${EXPOSURE_CHAINS.join(', ')}; every chain of the address's kind when absent.`),
  }).superRefine((i, c) => {
    const parsed = parseAddress(i.address);
    if ('error' in parsed || !i.chain) return;
    if ((parsed.kind === 'bitcoin') !== (i.chain === 'bitcoin')) c.addIssue({ code: 'custom', path: ['chain'], message: `a ${parsed.kind === 'bitcoin' ? 'Bitcoin' : 'EVM'} address is not read on ${i.chain}` });
  }),
  price: '0.50',
  catalog: { rateLimitPerMinute: 10, timeTargetSeconds: 60 },
  toolName: 'pqc_wallet_scan',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...multiChainProvenanceShape,
    address: z.string(),
    kind: z.enum(['evm', 'bitcoin']),
    chains: z.array(chainExposureShape).describe('Each chain read, with its own provenance.'),
    unavailable: z.array(chainGap).describe('Chains that could not be read (a Bitcoin chain this deployment lacks, a node that did not answer).'),
    totals: totalsShape,
  }),
  summarize: (r) => {
    const exposed = (r.chains as z.infer<typeof chainExposureShape>[]).filter((c) => c.exposed);
    const read = `${r.chains.length} chain${r.chains.length === 1 ? '' : 's'} read${r.unavailable.length ? `, ${r.unavailable.length} unreadable` : ''}`;
    if (!exposed.length) return `${r.address}: no funds behind a revealed public key (${read}); ${(r.chains as z.infer<typeof chainExposureShape>[]).map((c) => `${c.chain} ${c.status}`).join(', ') || 'nothing read'}.`;
    return `${r.address}: ${usd(r.totals.atRiskUsd)} at quantum risk on ${exposed.map((c) => `${c.chain} (${c.why}${c.evidence?.tx ? `, revealed in ${c.evidence.tx.slice(0, 12)}…` : ''})`).join(', ')} (${read}).`;
  },
  admit: async (input, ctx) => admitWallet(ctx, parsedAddress(input.address), input.chain),
  async handler(input, ctx) {
    const scan = await walletExposure(ctx, parsedAddress(input.address), input.chain);
    if (!scan.chains.length) throw new SibylError('upstream_unavailable', `no chain could be read: ${scan.unavailable.map((u) => `${u.chain}: ${u.reason}`).join('; ')}; nothing was charged`);
    return { ...exposureProvenance(scan.chains), address: scan.address, kind: scan.kind, chains: scan.chains, unavailable: scan.unavailable, totals: scan.totals };
  },
});
