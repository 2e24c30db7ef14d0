/**
 * bitcoin-staking-analysis: Babylon-style Bitcoin staking from the Bitcoin index's staking
 * plug-in — total staked, active stakes, timelock distribution, unbonding, stakers and
 * finality providers.
 */
import { z } from 'zod';
import { STAKING_OBSERVER } from '../observers/observers.js';
import { bitcoinProvenanceShape } from '../../../indexer/bitcoin/provenance.js';
import { admitObserver, coverageGap, observerOf, observerProvenance } from '../observers/read.js';
import type { StakingIndex } from './indexer.js';
import { stakingReport, STAKING_METHODOLOGY } from './report.js';
import { isoTime } from '../../core/outputs.js';
import { rowsParam, TOOL_ROWS } from '../../core/params.js';
import { defineSkill } from '../../core/registry.js';

const tally = z.object({ count: z.number().int(), sats: z.number().int(), btc: z.string() });
const share = z.number().describe('Of the active stake, percent.');

export const bitcoinStakingSkill = defineSkill({
  id: 'bitcoin-staking-analysis',
  title: 'Bitcoin staking analysis',
  description: 'Bitcoin staked in Babylon-style timelocked taproot outputs, from a staking index read through the Esplora API: total staked, active stakes, the timelock distribution (and stakes whose timelock has passed), unbonding in progress and completed, withdrawals and slashing, the largest stakers and finality providers, and the most recent stakes. Each answer names the blocks read.',
  tags: ['bitcoin', 'staking', 'babylon', 'timelock', 'unbonding', 'finality-providers'],
  examples: ['How much BTC is staked?', 'How much bitcoin staking is unbonding?', 'Largest Bitcoin finality providers by stake'],
  input: z.strictObject({ limit: rowsParam(TOOL_ROWS) }),
  price: '0.75',
  toolName: 'bitcoin_staking_analysis',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    available: z.boolean(),
    reason: z.string().optional().describe('With available: false: why the index cannot give the whole picture.'),
    ...bitcoinProvenanceShape.shape,
    totalStaked: z.object({ sats: z.number().int(), btc: z.string() }).optional().describe('In active stakes.'),
    activeStakes: z.number().int().optional(),
    stakesEver: z.number().int().optional().describe('Staking transactions read, ended ones included.'),
    timelocks: z.array(tally.extend({ band: z.string(), fromBlocks: z.number().int(), toBlocks: z.number().int().nullable() })).describe('Active stakes by staking time (blocks; ~144 a day).'),
    timelockExpired: tally.extend({ note: z.string() }).optional(),
    unbonding: z.object({
      inProgress: tally.describe('Unbonded early; the unbonding output is still locked.'),
      completed: tally.describe('Unbonded early and withdrawn.'),
      withdrawnAtExpiry: tally.describe('Withdrawn through the timelock leaf.'),
      slashed: tally,
    }).optional(),
    stakers: z.object({ count: z.number().int(), top: z.array(z.object({ stakerPk: z.string(), funders: z.array(z.string()).describe('Addresses that funded the stakes.'), stakes: z.number().int(), sats: z.number().int(), btc: z.string(), sharePct: share })) }).optional(),
    finalityProviders: z.object({ count: z.number().int(), top: z.array(z.object({ finalityProviderPk: z.string(), stakes: z.number().int(), stakers: z.number().int(), sats: z.number().int(), btc: z.string(), sharePct: share })) }).optional(),
    recentStakes: z.array(z.object({
      txid: z.string(), stakerPk: z.string(), finalityProviderPk: z.string(), sats: z.number().int(), stakingTimeBlocks: z.number().int(), height: z.number().int(), time: isoTime,
      state: z.enum(['active', 'unbonding', 'unbonded', 'withdrawn', 'slashed']), endedAt: z.number().int().nullable(),
    })).describe('Newest first, up to limit.'),
  }),
  summarize: (r) => {
    if (!r.available) return `Bitcoin staking analysis not available: ${r.reason}`;
    return `${r.totalStaked.btc} BTC staked in ${r.activeStakes} active stakes by ${r.stakers.count} stakers with ${r.finalityProviders.count} finality providers; unbonding ${r.unbonding.inProgress.btc} BTC (${r.unbonding.inProgress.count}), ${r.timelockExpired.btc} BTC past its timelock.`;
  },
  needs: ['bitcoin'],
  admit: (_input, ctx) => admitObserver(ctx, STAKING_OBSERVER, 'Bitcoin staking analysis', 'staking'),
  async handler(input, ctx) {
    const { bitcoin, index, observer } = observerOf<StakingIndex>(ctx, STAKING_OBSERVER);
    const coverage = observer.coverage;
    const provenance = observerProvenance(bitcoin, index, coverage, 'staking', STAKING_METHODOLOGY);
    const gap = await coverageGap(bitcoin, coverage, 'staking');
    if (gap) return { available: false, reason: gap, ...provenance, timelocks: [], recentStakes: [] };
    return { available: true, ...provenance, ...stakingReport(observer, provenance.asOf.height, input.limit) };
  },
});
