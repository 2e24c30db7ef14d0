/**
 * pqc-migration-planner: per chain, the ordered steps to move a wallet's exposed funds behind a
 * key that is not on chain, with the unsigned transactions to do it (EVM transfers as
 * {to, data, value, chainId}; on Bitcoin one PSBT sweeping the address). Without a destination for
 * a chain the plan stands with a clearly marked placeholder and no transaction. "Plans, never
 * custody": Sibyl never signs or sends.
 */
import { z } from 'zod';
import { getAddress, type Address } from 'viem';
import type { SkillContext } from '../../core/context.js';
import { SibylError } from '../../core/errors.js';
import { parseAddress, parsedAddress, type ParsedAddress } from '../exposure/address.js';
import { walletExposure, type ChainExposure } from '../exposure/engine.js';
import { sweepFeeRate, sweepPsbt } from './bitcoin.js';
import { checkEvmDestination, evmSweepTxs } from './evm.js';
import { chainGap, multiChainProvenanceShape } from '../../core/outputs.js';
import { EVM_CHAINS } from '../../core/params.js';
import { defineSkill } from '../../core/registry.js';
import { usd } from '../../core/summary.js';
import { admitWallet, exposureProvenance, totalsShape, walletAddressParam } from '../exposure/exposure.js';

export const MIGRATION_METHODOLOGY = 'pqc-migration/v1 (exposure by quantum-exposure/v1; destinations checked on chain: EVM a contract wallet (EIP-1967 proxy = upgradeable signature check) or an account that never sent; Bitcoin a P2WPKH/P2WSH address with no history. EVM: ERC-20 transfers by value, then the native coin less twice the gas; Bitcoin: one PSBT of every confirmed UTXO, fee = estimated vsize x feerate. Unsigned: Sibyl never signs)';

const PLACEHOLDER = {
  evm: '<FRESH_CONTRACT_WALLET_OR_UNUSED_ACCOUNT>',
  bitcoin: '<FRESH_P2WPKH_OR_P2WSH_ADDRESS>',
} as const;

const destinationsShape = z.strictObject(Object.fromEntries([
  ...EVM_CHAINS.map((c) => [c, z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x followed by 40 hex characters').optional().describe(`Where to move the funds on ${c}.`)]),
  ['bitcoin', z.string().trim().superRefine((s, c) => {
    const p = parseAddress(s);
    if ('error' in p || p.kind !== 'bitcoin') return void c.addIssue({ code: 'custom', message: `must be a Bitcoin mainnet address${'error' in p ? `: ${p.error}` : ''}` });
    if (p.type !== 'v0_p2wpkh' && p.type !== 'v0_p2wsh') c.addIssue({ code: 'custom', message: `must be P2WPKH (bc1q…, 42 characters) or P2WSH (bc1q…, 62 characters): a ${p.type} ${p.type === 'v1_p2tr' ? 'output carries its key on chain' : 'address is not the target of this plan'}` });
  }).optional().describe('Where to move the coins on Bitcoin: a fresh P2WPKH or P2WSH address (not P2TR).')],
]) as Record<string, z.ZodOptional<z.ZodString>>);

const unsignedTx = z.object({ chainId: z.number().int(), to: z.string(), data: z.string(), value: z.string().describe('Wei, decimal.'), asset: z.string(), amount: z.string(), description: z.string() });

const chainPlan = z.object({
  chain: z.string(),
  provenance: z.object({ source: z.string(), chainId: z.number().int().nullable(), asOf: z.object({ block: z.string(), timestamp: z.string() }), methodology: z.string() }),
  status: z.enum(['exposed', 'revealed-empty', 'hidden', 'unused', 'contract-wallet']),
  exposed: z.boolean(),
  why: z.string().nullable(),
  valueUsd: z.number(),
  atRiskUsd: z.number(),
  destination: z.object({
    address: z.string(), placeholder: z.boolean().describe('True: no destination was given for this chain; the address shown is a marker, and no transaction is built.'),
    fresh: z.boolean().nullable(), kind: z.string().nullable(), upgradeable: z.boolean().nullable(), note: z.string(),
  }).nullable(),
  steps: z.array(z.string()).describe('In order.'),
  transactions: z.array(unsignedTx).describe('EVM: unsigned, in the order to send them.'),
  psbt: z.object({
    base64: z.string(), inputs: z.array(z.object({ txid: z.string(), vout: z.number().int(), sats: z.number().int() })),
    inputSats: z.number().int(), amountSats: z.number().int(), feeSats: z.number().int(), feeRate: z.number(), vsize: z.number().int(), destination: z.string(),
  }).nullable().describe('Bitcoin: the unsigned sweep (BIP 174, base64).'),
  blocked: z.string().nullable().describe('Why no transaction could be built for a chain that needs one.'),
});

export const pqcMigrationPlannerSkill = defineSkill({
  id: 'pqc-migration-planner',
  title: 'PQC migration planner',
  description: 'Ordered steps per chain to move a wallet\'s funds out from behind a public key already revealed on chain, with the unsigned transactions to do it: on EVM chains ERC-20 transfers and the native send to a contract wallet with an upgradeable signature check (or an account that has never sent), on Bitcoin a PSBT sweeping the address to a fresh P2WPKH/P2WSH address (not a taproot key path). Give a destination per chain to get transactions; without one the plan marks a placeholder. Sibyl never signs.',
  tags: ['quantum', 'migration', 'pqc', 'post-quantum', 'psbt', 'bitcoin', 'wallet-safety', 'move', 'sweep'],
  examples: ['Plan my post-quantum migration for 0x...', 'Move my exposed bitcoin at bc1q... to bc1q... safely'],
  input: z.strictObject({
    address: walletAddressParam('The wallet to migrate: an EVM address or a Bitcoin mainnet address.'),
    destinations: destinationsShape.optional().describe('Per chain, where to move the funds; a chain without one gets a plan with a placeholder and no transaction.'),
    feeRate: z.number().min(1).max(1_000).optional().describe('Bitcoin sweep feerate, sat/vB; default the server\'s 6-block estimate.'),
  }),
  price: '0.75',
  toolName: 'pqc_migration_planner',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...multiChainProvenanceShape,
    address: z.string(),
    kind: z.enum(['evm', 'bitcoin']),
    plans: z.array(chainPlan).describe('Exposed chains first, most at risk first.'),
    unavailable: z.array(chainGap),
    totals: totalsShape,
    custody: z.string(),
    migrationMethodology: z.string(),
  }),
  summarize: (r) => {
    const plans = r.plans as z.infer<typeof chainPlan>[];
    const exposed = plans.filter((p) => p.exposed);
    if (!exposed.length) return `${r.address}: nothing to move now (${plans.map((p) => `${p.chain} ${p.status}`).join(', ') || 'no chain read'}); keep keys hidden: fresh addresses, no reuse.`;
    return `${r.address}: move ${usd(r.totals.atRiskUsd)} on ${exposed.map((p) => `${p.chain} (${p.destination?.placeholder ? 'give a destination' : p.blocked ? `blocked: ${p.blocked}` : p.psbt ? `PSBT of ${p.psbt.inputs.length} input${p.psbt.inputs.length === 1 ? '' : 's'}` : `${p.transactions.length} transaction${p.transactions.length === 1 ? '' : 's'}`})`).join(', ')}; unsigned, Sibyl never signs.`;
  },
  admit: async (input, ctx) => {
    const parsed = parsedAddress(input.address);
    admitWallet(ctx, parsed);
    const dests = Object.keys(input.destinations ?? {});
    const wrong = dests.filter((c) => (c === 'bitcoin') !== (parsed.kind === 'bitcoin'));
    if (wrong.length) throw new SibylError('invalid_body', `destinations for ${wrong.join(', ')} do not fit a ${parsed.kind === 'bitcoin' ? 'Bitcoin' : 'EVM'} address; nothing was charged`, { fields: wrong.map((c) => ({ field: `destinations.${c}`, rule: `a ${parsed.kind} address migrates on its own chains` })) });
  },
  async handler(input, ctx) {
    const parsed = parsedAddress(input.address);
    const scan = await walletExposure(ctx, parsed, undefined, { evidence: false });
    if (!scan.chains.length) throw new SibylError('upstream_unavailable', `no chain could be read: ${scan.unavailable.map((u) => `${u.chain}: ${u.reason}`).join('; ')}; nothing was charged`);
    const destinations = (input.destinations ?? {}) as Record<string, string | undefined>;
    const plans = await Promise.all(scan.chains.map((c) => planChain(ctx, parsed, c, destinations[c.chain], input.feeRate)));
    plans.sort((a, b) => Number(b.exposed) - Number(a.exposed) || b.atRiskUsd - a.atRiskUsd);
    return {
      ...exposureProvenance(scan.chains), address: scan.address, kind: scan.kind, plans, unavailable: scan.unavailable, totals: scan.totals,
      custody: 'Plans, never custody: every transaction here is unsigned; sign and send them from your own wallet. Sibyl never signs, holds keys or sends.',
      migrationMethodology: MIGRATION_METHODOLOGY,
    };
  },
});

type Plan = z.input<typeof chainPlan>;

async function planChain(ctx: SkillContext, parsed: ParsedAddress, c: ChainExposure, given: string | undefined, feeRate: number | undefined): Promise<Plan> {
  const base: Plan = { chain: c.chain, provenance: c.provenance, status: c.status, exposed: c.exposed, why: c.why, valueUsd: c.valueUsd, atRiskUsd: c.atRiskUsd, destination: null, steps: [], transactions: [], psbt: null, blocked: null };
  if (c.status === 'contract-wallet') {
    const revealed = c.owners?.filter((o) => o.keyRevealed) ?? [];
    return { ...base, steps: [
      'A contract wallet has no key of its own: its owners\' keys are what a quantum attacker would target.',
      revealed.length ? `Rotate the ${revealed.length} owner key${revealed.length === 1 ? '' : 's'} already revealed on chain (${revealed.map((o) => o.address).join(', ')}) to fresh keys that have never signed (the wallet's swapOwner / changeOwner).` : 'Its owners read have not revealed their keys; keep owner keys that sign only through this wallet.',
      'Plan the upgrade of its signature check to a post-quantum scheme when one is available (a module or implementation upgrade).',
    ] };
  }
  if (!c.exposed) {
    return { ...base, steps: c.status === 'revealed-empty'
      ? ['The key is on chain but nothing is held behind it: send nothing here again, and retire the address.']
      : ['Nothing to move now: the key is not on chain.', parsed.kind === 'bitcoin' ? 'Keep it so: when you spend, spend the whole address at once and send change to a fresh address; never receive to it again after a spend.' : 'Its first transaction will reveal the key: move the funds to a contract wallet with an upgradeable signature check before the account ever sends.'] };
  }
  return parsed.kind === 'bitcoin' ? planBitcoin(ctx, parsed, c, base, given, feeRate) : planEvm(ctx, parsed.address, c, base, given);
}

async function planBitcoin(ctx: SkillContext, parsed: Extract<ParsedAddress, { kind: 'bitcoin' }>, c: ChainExposure, base: Plan, given: string | undefined, feeRate: number | undefined): Promise<Plan> {
  const esplora = ctx.bitcoin!.esplora;
  const steps = [
    `Create a fresh P2WPKH (or P2WSH multisig) address in your wallet that has never received or spent (not a taproot bc1p address: its output key is on chain by construction).`,
    `Sign the PSBT below in your wallet: it spends every confirmed UTXO of ${parsed.address} (${c.sats} sats, ${c.why}) to that address in one transaction, with opt-in RBF.`,
    'Broadcast it and wait for confirmation; then check the old address holds nothing and never send to it again.',
    'From then on: one fresh address per receipt, change to fresh addresses, no reuse after a spend.',
  ];
  if (!given) return { ...base, destination: { address: PLACEHOLDER.bitcoin, placeholder: true, fresh: null, kind: null, upgradeable: null, note: 'no destinations.bitcoin given: replace the marker with a fresh P2WPKH/P2WSH address and ask again for the PSBT' }, steps };
  const dest = parsedAddress(given) as Extract<ParsedAddress, { kind: 'bitcoin' }>;
  const stats = await esplora.address(dest.address);
  const used = stats.chain_stats.tx_count + stats.mempool_stats.tx_count;
  const destination = { address: dest.address, placeholder: false, fresh: used === 0 && dest.address !== parsed.address, kind: dest.type, upgradeable: null, note: used === 0 ? 'no transaction has used it: its key is hidden behind its hash' : `already used by ${used} transaction${used === 1 ? '' : 's'}: pick a fresh address` };
  if (!destination.fresh) return { ...base, destination, steps, blocked: dest.address === parsed.address ? 'the destination is the exposed address itself' : 'the destination has been used before' };
  const sweep = await sweepPsbt(esplora, parsed, dest, feeRate ?? (await sweepFeeRate(esplora)));
  if (!sweep.ok) return { ...base, destination, steps, blocked: sweep.reason };
  const s = sweep.sweep;
  return { ...base, destination, steps, psbt: { base64: s.psbt, inputs: s.inputs, inputSats: s.inputSats, amountSats: s.amountSats, feeSats: s.feeSats, feeRate: s.feeRate, vsize: s.vsize, destination: s.destination } };
}

async function planEvm(ctx: SkillContext, address: Address, c: ChainExposure, base: Plan, given: string | undefined): Promise<Plan> {
  const chain = ctx.chains.get(c.chain as never);
  const steps = [
    `Deploy or pick a contract wallet on ${c.chain} whose signature check can be upgraded (an ERC-4337 account or a Safe behind an upgradeable module / EIP-1967 proxy); an account that has never sent is a stopgap.`,
    'Send the transfers below from the exposed account in order (tokens by value, the native coin last, less a gas reserve).',
    'After they confirm, the exposed account holds nothing: retire it and revoke its token approvals.',
  ];
  if (!given) return { ...base, destination: { address: PLACEHOLDER.evm, placeholder: true, fresh: null, kind: null, upgradeable: null, note: `no destinations.${c.chain} given: replace the marker with your contract wallet (or a never-used account) and ask again for the transactions` }, steps };
  // Any case is taken (a mistyped checksum is not a different account).
  const dest = getAddress(given.toLowerCase());
  const check = await checkEvmDestination(chain.client, address, dest);
  const destination = { address: check.address, placeholder: false, fresh: check.fresh, kind: check.kind, upgradeable: check.upgradeable, note: check.note };
  if (!check.fresh) return { ...base, destination, steps, blocked: check.note };
  const { txs, notes } = await evmSweepTxs(chain.client, chain.spec.chainId, chain.spec.nativeSymbol, address, dest, c.holdings);
  return { ...base, destination, steps: [...steps, ...notes], transactions: txs, blocked: txs.length ? null : 'nothing left to move at the latest block' };
}
