/**
 * pqc-readiness-assessment: per chain, what is exposed to a quantum attacker and a readiness
 * score with its rule written down — for a wallet (its exposure on each chain) or, without one,
 * for the chains themselves (Bitcoin supply in P2PK, P2TR and reused addresses; the share of
 * active EVM accounts that have sent). A missing Bitcoin chain is `available: false`, never a refusal.
 */
import { z } from 'zod';
import type { SkillContext } from '../../core/context.js';
import { SibylError } from '../../core/errors.js';
import { parsedAddress } from '../exposure/address.js';
import { walletExposure } from '../exposure/engine.js';
import { READINESS_METHODOLOGY, READINESS_RULE, bitcoinPicture, evmPicture, gradeOf, walletScore } from './engine.js';
import { scanChains } from '../../core/across-chains.js';
import { chainGap, multiChainProvenanceShape } from '../../core/outputs.js';
import { EVM_CHAINS } from '../../core/params.js';
import { defineSkill } from '../../core/registry.js';
import { admitWallet, chainExposureShape, exposureProvenance, totalsShape, walletAddressParam } from '../exposure/exposure.js';

const grade = z.enum(['ready', 'partial', 'at-risk']);
const chainScore = z.object({ chain: z.string(), score: z.number(), grade, basis: z.string() });

const bitcoinPictureShape = z.object({
  available: z.boolean(), reason: z.string().nullable(), basis: z.enum(['index-observer', 'index-utxos']).nullable(), asOfHeight: z.number().int().nullable(), supplyBtc: z.number().nullable(),
  shares: z.object({ p2pkPct: z.number(), p2trPct: z.number(), reusedPct: z.number().nullable(), exposedPct: z.number() }).nullable(),
  byTypeBtc: z.record(z.string(), z.number()).nullable(), note: z.string(),
  score: z.number().nullable(), grade: grade.nullable(),
});
const evmPictureShape = z.object({
  chain: z.string(), available: z.boolean(), reason: z.string().nullable(), window: z.object({ fromBlock: z.number().int(), toBlock: z.number().int(), hours: z.number() }).nullable(),
  sampled: z.number().int(), contracts: z.number().int(), accounts: z.number().int(), sent: z.number().int(), sentPct: z.number().nullable(), note: z.string(),
  score: z.number().nullable(), grade: grade.nullable(),
});

const RECOMMENDATIONS = {
  bitcoin: 'Bitcoin: move coins from reused addresses and P2TR key paths to fresh P2WPKH/P2WSH addresses; never receive to an address after spending from it.',
  evm: 'EVM: keep value in contract wallets whose signature check can be upgraded (account abstraction); an account that has sent cannot hide its key again.',
  plan: 'Ask pqc-migration-planner for the transactions, and quantum-portfolio-monitor to watch the addresses.',
};

export const pqcReadinessAssessmentSkill = defineSkill({
  id: 'pqc-readiness-assessment',
  title: 'PQC readiness assessment',
  description: 'How ready a wallet, or the chains themselves, are for quantum attackers: per chain what sits behind public keys already on chain and a readiness score 0-100 with its rule stated. For a wallet its exposure per chain; without one the Bitcoin supply in P2PK, P2TR and reused addresses and the share of active EVM accounts whose keys are revealed.',
  tags: ['quantum', 'readiness', 'pqc', 'post-quantum', 'exposure', 'bitcoin', 'score'],
  examples: ['Is my wallet quantum-ready?', 'How much bitcoin is exposed to quantum computers?', 'Post-quantum readiness of 0x...'],
  input: z.strictObject({ address: walletAddressParam('A wallet (EVM or Bitcoin mainnet address); without one, the chains themselves are assessed.').optional() }),
  price: '0.75',
  toolName: 'pqc_readiness_assessment',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...multiChainProvenanceShape,
    scope: z.enum(['wallet', 'chains']),
    address: z.string().nullable(),
    score: z.number().nullable(), grade: grade.nullable(),
    rule: z.string(),
    chains: z.array(chainScore).describe('Per chain, its score and what it rests on.'),
    exposure: z.array(chainExposureShape).describe('Wallet scope: each chain\'s exposure.'),
    bitcoin: bitcoinPictureShape.nullable().describe('Chain scope: the Bitcoin supply by who can read its key.'),
    evm: z.array(evmPictureShape).describe('Chain scope: per EVM chain, active accounts that have sent.'),
    totals: totalsShape.nullable(),
    unavailable: z.array(chainGap),
    recommendations: z.array(z.string()),
  }),
  summarize: (r) => r.scope === 'wallet'
    ? `${r.address}: readiness ${r.score ?? 'n/a'}/100 (${r.grade ?? 'n/a'}); ${(r.chains as z.infer<typeof chainScore>[]).map((c) => `${c.chain} ${c.score} (${c.basis})`).join('; ')}.`
    : `Chain readiness: ${r.bitcoin?.available ? `Bitcoin ${r.bitcoin.score}/100 (${r.bitcoin.shares.exposedPct}% of supply behind keys on chain: P2PK ${r.bitcoin.shares.p2pkPct}%, P2TR ${r.bitcoin.shares.p2trPct}%, reused ${r.bitcoin.shares.reusedPct ?? 'n/a'}%)` : `Bitcoin n/a (${r.bitcoin?.reason ?? 'not read'})`}; ${(r.evm as z.infer<typeof evmPictureShape>[]).filter((e) => e.available).map((e) => `${e.chain} ${e.score}/100 (${e.sentPct}% of ${e.accounts} active accounts have sent)`).join('; ') || 'no EVM chain read'}.`,
  admit: async (input, ctx) => void (input.address && admitWallet(ctx, parsedAddress(input.address))),
  async handler(input, ctx) {
    return input.address ? walletAssessment(ctx, input.address) : chainAssessment(ctx);
  },
});

async function walletAssessment(ctx: SkillContext, address: string) {
  const parsed = parsedAddress(address);
  const scan = await walletExposure(ctx, parsed);
  if (!scan.chains.length) throw new SibylError('upstream_unavailable', `no chain could be read: ${scan.unavailable.map((u) => `${u.chain}: ${u.reason}`).join('; ')}; nothing was charged`);
  const scored = walletScore(scan.chains);
  return {
    ...exposureProvenance(scan.chains), methodology: READINESS_METHODOLOGY,
    scope: 'wallet' as const, address: scan.address, score: scored.score, grade: scored.grade, rule: READINESS_RULE,
    chains: scored.chains, exposure: scan.chains, bitcoin: null, evm: [], totals: scan.totals, unavailable: scan.unavailable,
    recommendations: scan.totals.exposedChains ? [parsed.kind === 'bitcoin' ? RECOMMENDATIONS.bitcoin : RECOMMENDATIONS.evm, RECOMMENDATIONS.plan] : ['Nothing is exposed now: keep keys off chain (fresh addresses, no reuse; on EVM move to an upgradeable contract wallet before the account ever sends).'],
  };
}

async function chainAssessment(ctx: SkillContext) {
  const btc = bitcoinPicture(ctx);
  const btcScore = btc.shares ? Math.round((100 - btc.shares.exposedPct) * 10) / 10 : null;
  const unavailable: { chain: string; reason: string }[] = [];
  const evm = (await Promise.all(scanChains(ctx, undefined, EVM_CHAINS).map((name) => evmPicture(ctx, name).catch((err: Error) => {
    unavailable.push({ chain: name, reason: err.message.split('\n')[0]! });
    return null;
  })))).filter((e) => e !== null).map((e) => {
    const score = e.sentPct === null ? null : Math.round((100 - e.sentPct) * 10) / 10;
    return { ...e, score, grade: score === null ? null : gradeOf(score) };
  });
  if (!btc.available) unavailable.push({ chain: 'bitcoin', reason: btc.reason! });
  const chains = [
    ...(btcScore !== null ? [{ chain: 'bitcoin', score: btcScore, grade: gradeOf(btcScore), basis: `${btc.shares!.exposedPct}% of supply behind keys on chain` }] : []),
    ...evm.filter((e) => e.score !== null).map((e) => ({ chain: e.chain, score: e.score!, grade: e.grade!, basis: `${e.sentPct}% of ${e.accounts} active accounts have sent` })),
  ];
  if (!chains.length && !evm.length && !btc.available) throw new SibylError('upstream_unavailable', `no chain could be assessed (${unavailable.map((u) => `${u.chain}: ${u.reason}`).join('; ')}); nothing was charged`);
  const sources = [...(ctx.bitcoin ? [`${ctx.bitcoin.kind}:${ctx.bitcoin.esplora.baseUrl}`] : []), ...evm.map((e) => ctx.chains.get(e.chain as never).source)];
  return {
    source: [...new Set(sources)].join(',') || 'none', asOf: { timestamp: new Date().toISOString() }, methodology: READINESS_METHODOLOGY,
    scope: 'chains' as const, address: null,
    score: null, grade: null, rule: READINESS_RULE, chains, exposure: [],
    bitcoin: { ...btc, score: btcScore, grade: btcScore === null ? null : gradeOf(btcScore) },
    evm, totals: null, unavailable, recommendations: [RECOMMENDATIONS.bitcoin, RECOMMENDATIONS.evm],
  };
}
