import { z } from 'zod';
import { LATEST_PAIRS_METHODOLOGY, latestPairs } from './engine.js';
import { indexProvenance } from '../data/provenance.js';
import { loadMarket } from '../data/load.js';
import { chainParam, limitParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { usd } from '../core/summary.js';
import { address, intString, isoTime, provenanceShape, tokenRefWithDecimals } from '../core/outputs.js';
import { admitMarket } from '../core/admission.js';

const pairRow = z.object({
  pair: address,
  dex: z.string(),
  token0: tokenRefWithDecimals,
  token1: tokenRefWithDecimals,
  reserves: z.object({ token0: z.string().nullable(), token1: z.string().nullable() }).describe('Reserves in token units, from the last indexed Sync.'),
  liquidityUsd: z.number().nullable(),
  liquidityBasis: z.enum(['both_sides', 'one_side_doubled']).nullable().describe('Both sides priced, or one side doubled.'),
  unpricedReason: z.string().optional(),
  createdBlock: intString,
  createdAt: isoTime,
  createdTx: z.string(),
});

export const latestPairsSkill = defineSkill({
  id: 'latest-pairs',
  title: 'Latest DEX pairs',
  description:
    'Newest Uniswap-V2-style pairs on a chain, from indexed PairCreated logs: both tokens with symbols, current reserves, USD liquidity, creation block and time.',
  tags: ['dex', 'pairs', 'new-pairs', 'new-pools', 'fresh-pools', 'new-listings', 'market'],
  examples: ['What are the newest trading pairs on base?', 'Show the 10 latest pairs created on ethereum'],
  input: z.strictObject({
    chain: chainParam('base'),
    limit: limitParam(1, 500, 50),
  }),
  price: '0.40',
  httpPath: '/x402/data/latest-pairs',
  toolName: 'latest_pairs',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  output: z.object({ ...provenanceShape, pairs: z.array(pairRow).describe('Newest first.'), count: z.number().int(), limit: z.number().int() }),
  summarize: (r) => r.pairs.length
    ? `${r.count} newest pairs on ${r.chain}; newest: ${r.pairs.slice(0, 3).map((p: { token0: { symbol: string | null }; token1: { symbol: string | null }; dex: string; liquidityUsd: number | null; createdAt: string }) => `${p.token0.symbol ?? '?'}/${p.token1.symbol ?? '?'} on ${p.dex} (${usd(p.liquidityUsd)} liquidity, created ${p.createdAt})`).join('; ')}.`
    : `No pair created on ${r.chain} in the index.`,
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const { pairs, fromBlock } = await latestPairs(market, input.limit);
    return { ...indexProvenance(chain, checkpoint, LATEST_PAIRS_METHODOLOGY, fromBlock), pairs, count: pairs.length, limit: input.limit };
  },
});
