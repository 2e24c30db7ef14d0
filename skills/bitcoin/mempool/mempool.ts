/**
 * bitcoin-mempool-intelligence: what to pay for confirmation within 1, 2, 3, 6 or 144 blocks, how
 * congested the mempool is and the blocks it would make, from the Esplora API.
 */
import { z } from 'zod';
import { bitcoinProvenanceShape } from '../../../indexer/bitcoin/provenance.js';
import type { SkillContext } from '../../core/context.js';
import { SibylError } from '../../core/errors.js';
import { mempoolIntelligence, CONGESTED_FEE_PREMIUM, FEE_TARGETS, STALE_AFTER_TARGETS, TARGET_BLOCK_SECONDS, type MempoolAnswer } from './engine.js';
import { rowsParam, TOOL_ROWS } from '../../core/params.js';
import { defineSkill } from '../../core/registry.js';

/** Refuses, before payment, a Bitcoin call on a deployment without a Bitcoin chain. */
export function admitBitcoin(ctx: SkillContext, title: string) {
  if (!ctx.bitcoin) throw new SibylError('domain_disabled', `${title} reads a Bitcoin chain, and this deployment has none (BITCOIN=off and no BITCOIN_ESPLORA_URL); nothing was charged`, { reason: 'domain_disabled' });
  return ctx.bitcoin;
}

const feerate = z.number().describe('sat/vB.');

export const bitcoinMempoolSkill = defineSkill({
  id: 'bitcoin-mempool-intelligence',
  title: 'Bitcoin mempool intelligence',
  description: `Bitcoin fee recommendations for confirmation within ${FEE_TARGETS.join(', ')} blocks, from the mempool's feerate histogram cut into projected blocks of the chain's own block capacity (learnt from the fullest recent block); congestion relative to the chain's own blocks and fees (backlog in blocks of its capacity, and what the next block costs against the feerate its recent blocks cleared at); the tip's age (stale past ${STALE_AFTER_TARGETS}x the ${TARGET_BLOCK_SECONDS / 60}-minute target); the projected blocks (feerate range, median, transactions); and the Esplora server's own fee estimates side by side.`,
  tags: ['bitcoin', 'btc', 'mempool', 'fees', 'sats-per-vbyte', 'confirmation', 'congestion'],
  examples: ['What fee rate gets a bitcoin transaction confirmed next block?', 'How congested is the bitcoin mempool?', 'What should I pay to confirm within an hour?'],
  input: z.strictObject({ limit: rowsParam(TOOL_ROWS) }),
  price: '0.25',
  toolName: 'bitcoin_mempool_intelligence',
  surfaces: ['a2a', 'mcp', 'agent'],
  catalog: { id: 'bitcoin-mempool', rateLimitPerMinute: 60, timeTargetSeconds: 15 },
  output: z.object({
    ...bitcoinProvenanceShape.shape,
    blockCapacityVsize: z.number().int().describe('vbytes per block: the fullest recent block\'s weight / 4.'),
    capacityFrom: z.object({ blocks: z.number().int(), fullestHeight: z.number().int() }).describe('Recent blocks it was learnt from.'),
    mempool: z.object({ count: z.number().int(), vsize: z.number().int(), totalFee: z.number().int().describe('Satoshis.') }),
    congestion: z.object({
      level: z.enum(['clear', 'busy', 'congested', 'severe']).describe(`Backlog under 1 block clear, under 3 busy, under 12 congested, else severe; congested or severe only when the next block costs at least ${CONGESTED_FEE_PREMIUM}x the chain's usual feerate (feePremium), else busy.`),
      backlogBlocks: z.number().describe('Mempool vsize / block capacity.'),
      recentAverageBlockVsize: z.number().int(),
      recentFullnessPct: z.number().describe('Recent blocks\' average vsize / capacity.'),
      backlogVsRecentAverage: z.number().nullable().describe('Mempool vsize / recent average block vsize: blocks at the recent pace.'),
      nextBlockFeerate: feerate.describe('Where the vsize already waiting fills one block.'),
      typicalFeerate: feerate.nullable().describe('The median feerate the recent blocks cleared at; null when their feerates are unknown (no index at the tip).'),
      baselineFeerate: feerate.describe('What the premium is measured against: typicalFeerate, else the relay floor.'),
      feePremium: z.number().describe('nextBlockFeerate / baselineFeerate.'),
      baseline: z.string().describe('Where baselineFeerate came from.'),
    }),
    tip: z.object({
      height: z.number().int(), time: z.string(),
      ageSeconds: z.number().int().describe('Now less the tip block\'s timestamp.'),
      targetSeconds: z.number().int(), staleAfterSeconds: z.number().int(),
      stale: z.boolean().describe(`No block for over ${STALE_AFTER_TARGETS}x the target: blocks are late or the node is behind; the backlog has grown since.`),
    }),
    recommendations: z.array(z.object({
      targetBlocks: z.number().int(),
      feerate: feerate.describe('What to pay: the higher of the two below.'),
      fromMempool: feerate.describe('Where the vsize already waiting and paying more fills the target blocks.'),
      fromRecentBlocks: feerate.nullable().describe('What recent full blocks cleared at (for transactions still to arrive); null without an index at the tip.'),
      serverEstimate: feerate.nullable().describe('The Esplora server\'s /fee-estimates for the same target.'),
    })),
    projectedBlocks: z.array(z.object({
      index: z.number().int(), vsize: z.number().int(),
      feerateRange: z.tuple([feerate, feerate]).describe('Lowest and highest feerate (histogram bucket bounds).'),
      medianFeerate: feerate,
      txCount: z.null().describe('The Esplora histogram carries no counts.'),
      txCountEstimate: z.number().int().describe('vsize / the mempool\'s mean transaction vsize.'),
    })).describe('Next blocks, highest feerate first, up to limit.'),
    projectedBlocksTotal: z.number().int(),
  }),
  summarize: (r: Omit<MempoolAnswer, 'provenance'>) => {
    const rec = r.recommendations.map((x) => `${x.targetBlocks} block${x.targetBlocks > 1 ? 's' : ''} ${x.feerate}`).join(', ');
    const c = r.congestion;
    const minutes = (s: number) => Math.round(s / 60);
    // A stale tip comes first: everything after it describes a chain that has not moved since.
    const stale = r.tip.stale ? `Stale: the Bitcoin tip (height ${r.tip.height}) is ${minutes(r.tip.ageSeconds)} min old, over twice the ${minutes(r.tip.targetSeconds)}-minute block target (blocks are late or the node is behind). ` : '';
    const usual = c.typicalFeerate === null ? `the ${c.baselineFeerate} sat/vB relay floor (recent block feerates unknown)` : `the chain's usual ${c.typicalFeerate} sat/vB`;
    return `${stale}Bitcoin mempool ${c.level}: ${r.mempool.count} transactions, ${c.backlogBlocks} blocks of backlog in blocks of ${r.blockCapacityVsize} vB (this chain's fullest recent); the next block clears at ${c.nextBlockFeerate} sat/vB, ${c.feePremium}x ${usual}; tip ${minutes(r.tip.ageSeconds)} min old; pay (sat/vB) ${rec}.`;
  },
  needs: ['bitcoin'],
  admit: async (_input, ctx) => void admitBitcoin(ctx, 'Bitcoin mempool intelligence'),
  async handler(input, ctx) {
    const { provenance, ...rest } = await mempoolIntelligence(ctx.bitcoin!, input.limit);
    return { ...provenance, ...rest };
  },
});
