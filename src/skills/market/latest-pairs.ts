import { z } from 'zod';
import { latestPairs } from '../../intel/pairs.js';
import { chainParam, limitParam } from '../params.js';
import { defineSkill } from '../registry.js';

export const latestPairsSkill = defineSkill({
  id: 'latest-pairs',
  title: 'Latest DEX pairs',
  description:
    'Newest Uniswap-V2-style pairs on a chain, read from PairCreated logs: both tokens with symbols, current reserves, USD liquidity, creation block and time.',
  tags: ['dex', 'pairs', 'new-listings', 'market'],
  examples: ['What are the newest trading pairs on base?', 'Show the 10 latest pairs created on ethereum'],
  input: z.strictObject({
    chain: chainParam('base'),
    limit: limitParam(1, 500, 50),
  }),
  price: '0.40',
  httpPath: '/x402/data/latest-pairs',
  toolName: 'latest_pairs',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  async handler(input, ctx) {
    const result = await latestPairs(ctx.chains.get(input.chain), input.limit, ctx.logs);
    return { ...result, count: result.pairs.length, limit: input.limit };
  },
});
