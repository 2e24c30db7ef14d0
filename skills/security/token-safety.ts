/** The free token-safety check (check_token_safety): a token's row of the cached scan of every indexed token. */
import { z } from 'zod';
import { DEX_CHAIN_NAMES } from '../../chain/chains.js';
import { defineFreeTool, freeOutput, fromSnapshot } from '../core/free.js';
import { evmAddressParam } from '../core/params.js';
import { MINUTE_MS, type SnapshotJob } from '../core/snapshots.js';
import { tokenSafety } from './token-safety-snapshot.js';

export const tokenSafetySnapshot: SnapshotJob = { id: 'token-safety', everyMs: 30 * MINUTE_MS, build: tokenSafety };

const chain = z.enum(DEX_CHAIN_NAMES);

export const tokenSafetyTool = defineFreeTool({
  id: 'token-safety', toolName: 'check_token_safety', title: 'Token safety check',
  snapshot: tokenSafetySnapshot,
  description: 'Honeypot and risk flags of a token from the cached scan of every indexed token (simulated buy and sell, owner powers, liquidity); `screened: false` means not in the dataset, not a clean result.',
  tags: ['security', 'honeypot', 'safety'], input: z.strictObject({
    contract: evmAddressParam('Token contract (0x + 40 hex).'),
    chain: chain.default('base').describe(`One of ${DEX_CHAIN_NAMES.join(', ')}; default base.`),
  }),
  output: freeOutput({
    contract: z.string().optional(),
    chain: chain.optional(),
    screened: z.boolean().optional().describe('false: not in the cached dataset, not a clean result.'),
    honeypot: z.boolean().nullable().optional(),
    riskLevel: z.string().nullable().optional(),
    flags: z.array(z.string()).optional(),
    result: z.looseObject({}).nullable().optional(),
  }),
  read: ({ contract, chain }, ctx) => fromSnapshot(ctx, tokenSafetySnapshot, null, (d) => {
    const row = (d.rows as Record<string, Record<string, unknown>>)[`${chain}:${contract.toLowerCase()}`];
    return row ? { contract, chain, screened: true, ...row } : { contract, chain, screened: false, honeypot: null, riskLevel: null, flags: [], result: null };
  }),
});
