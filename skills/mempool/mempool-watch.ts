/**
 * Mempool watch: listens to a chain's transaction pool for a window of 30-120 s (docs/skills.md, "Mempool watch")
 * and reports, before inclusion, large swaps, approvals to drainers and pending sandwiches
 * (mempool/v1). The node must expose a pending-transaction filter; one that does not is refused
 * before payment.
 */
import { z } from 'zod';
import type { Address } from 'viem';
import { FALLBACK_LARGE_SWAP_USD, LARGE_SWAP_QUANTILE, MEMPOOL_METHODOLOGY, largeSwapRule, listenPending, mempoolReport } from './engine.js';
import { DRAINERS_METHODOLOGY } from '../approvals/drainers.js';
import { MARKET_METHODOLOGY } from '../data/market.js';
import { provenance } from '../data/provenance.js';
import { SibylError } from '../core/errors.js';
import { admitMarket, admitToken } from '../core/admission.js';
import { resolveToken } from '../data/resolve.js';
import { loadMarket, periodStartBlock } from '../data/load.js';
import { address, isoTime, provenanceShape } from '../core/outputs.js';
import { DEX_CHAINS, chainParam, tokenParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { usd } from '../core/summary.js';

/** The listening window, in seconds. */
export const MEMPOOL_WINDOW = { min: 30, max: 120, default: 30 } as const;

const seen = { seenAt: isoTime.describe('When the pool first named it.'), includedIn: z.number().int().nullable().describe('The block that holds it by the window\'s end (null: still pending).') };

export const mempoolWatchSkill = defineSkill({
  id: 'mempool-watch',
  title: 'Mempool watch',
  description: `Listens to a chain's pending transactions for ${MEMPOOL_WINDOW.min}-${MEMPOOL_WINDOW.max} seconds and reports what it saw before inclusion: large swaps for that chain (valued at the index's prices; large is at least the chain's own ${LARGE_SWAP_QUANTILE * 100}th percentile swap of the last day unless minUsd is given), approvals to drainers (spenders that have swept other wallets), and pending sandwiches (a front-run and back-run by one sender around another's swap on the same pool).`,
  tags: ['mempool', 'pending', 'mev', 'sandwich', 'front-running', 'drainer', 'whale-swaps'],
  examples: ['What is pending in the base mempool right now?', 'Watch the mempool for 60 seconds for sandwiches'],
  input: z.strictObject({
    chain: chainParam('base', DEX_CHAINS),
    windowSeconds: z.number().int().min(MEMPOOL_WINDOW.min).max(MEMPOOL_WINDOW.max).default(MEMPOOL_WINDOW.default).describe(`Listening window in seconds, ${MEMPOOL_WINDOW.min}-${MEMPOOL_WINDOW.max}; default ${MEMPOOL_WINDOW.default}.`),
    minUsd: z.number().min(0).max(1e12).optional().describe(`A swap at least this large in USD is reported as large; default: the chain's own ${LARGE_SWAP_QUANTILE * 100}th percentile swap of the last day (from the index), or $${FALLBACK_LARGE_SWAP_USD.toLocaleString('en-US')} when that day holds too few swaps to measure.`),
    token: tokenParam('Only transactions touching this token: contract address (0x + 40 hex) or symbol the chain\'s index knows.').optional(),
  }),
  price: '0.45',
  toolName: 'mempool_watch',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...provenanceShape,
    window: z.object({ from: isoTime, to: isoTime, seconds: z.number().int() }),
    seen: z.object({
      transactions: z.number().int(), stillPending: z.number().int(), swaps: z.number().int(), approvals: z.number().int(), deployments: z.number().int(),
      unpricedSwaps: z.number().int().describe('Swaps of a token the index cannot price: counted, never valued.'),
    }),
    largeSwapRule: z.object({ minUsd: z.number(), basis: z.enum(['given', 'chain-quantile', 'fixed-floor']), note: z.string() }).describe('What "large" meant here.'),
    largeSwaps: z.array(z.object({ tx: z.string(), from: address, dex: z.string(), tokenIn: address, tokenOut: address, symbolIn: z.string().nullable(), symbolOut: z.string().nullable(), amountIn: z.string().describe('Token units; for an exact-output swap, the most it may spend.'), exactIn: z.boolean(), usd: z.number(), ...seen })),
    drainerApprovals: z.array(z.object({
      tx: z.string(), owner: address, token: address, symbol: z.string().nullable(), spender: address, unlimited: z.boolean(),
      drained: z.array(z.object({ owner: address, token: address, tx: z.string(), block: z.number().int() })).describe('Wallets this spender swept before (the evidence).'), ...seen,
    })),
    pendingSandwiches: z.array(z.object({ pool: address, attacker: address, victim: address, front: z.string(), victimTx: z.string(), back: z.string(), victimUsd: z.number().nullable(), ...seen })),
  }),
  summarize: (r) => {
    const parts = [`${r.seen.transactions} transactions entered the ${r.chain} mempool in ${r.window.seconds} s (${r.seen.swaps} swaps, ${r.seen.approvals} approvals)`];
    if (r.pendingSandwiches.length) parts.push(`${r.pendingSandwiches.length} pending sandwich${r.pendingSandwiches.length === 1 ? '' : 'es'} (e.g. ${r.pendingSandwiches[0].attacker} around ${r.pendingSandwiches[0].victim}, ${usd(r.pendingSandwiches[0].victimUsd)} victim swap)`);
    if (r.drainerApprovals.length) parts.push(`${r.drainerApprovals.length} approval${r.drainerApprovals.length === 1 ? '' : 's'} to a known drainer (${r.drainerApprovals.map((a: { owner: string; spender: string }) => `${a.owner} to ${a.spender}`).slice(0, 3).join('; ')})`);
    if (r.largeSwaps.length) parts.push(`${r.largeSwaps.length} large swap${r.largeSwaps.length === 1 ? '' : 's'} (${r.largeSwapRule.note}), the largest ${usd(r.largeSwaps[0].usd)} ${r.largeSwaps[0].symbolIn ?? r.largeSwaps[0].tokenIn} → ${r.largeSwaps[0].symbolOut ?? r.largeSwaps[0].tokenOut}`);
    return `${parts.join('; ')}.`;
  },
  async admit(input, ctx) {
    await admitMarket(ctx, input.chain);
    if (input.token) await admitToken(ctx, input.chain, input.token);
    // Whether the node shows its pool is a property of the configured chain: known before payment.
    const client = ctx.chains.get(input.chain).client;
    try {
      await client.uninstallFilter({ filter: await client.createPendingTransactionFilter() });
    } catch {
      throw new SibylError('upstream_unavailable', `${input.chain}'s node does not expose pending transactions (eth_newPendingTransactionFilter), so its mempool cannot be watched; nothing was charged`, { reason: 'no_pending_filter' });
    }
  },
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const rule = await largeSwapRule(market, await periodStartBlock(market, checkpoint, '24h'), input.minUsd);
    const start = await chain.client.getBlock();
    const from = new Date();
    const txs = await listenPending(chain.client, input.windowSeconds * 1000);
    const to = new Date();
    const end = await chain.client.getBlock();
    const report = await mempoolReport(chain, market, txs, { minUsd: rule.minUsd, head: end.number, token: input.token ? (resolveToken(market, input.token) as Address) : undefined });
    const { largeSwaps, drainerApprovals, pendingSandwiches, unpricedSwaps, ...counts } = report;
    return {
      ...provenance(chain, { number: end.number, timestamp: end.timestamp }, `${MEMPOOL_METHODOLOGY}; ${DRAINERS_METHODOLOGY}; prices ${MARKET_METHODOLOGY}`, { from: start.number, to: end.number }),
      window: { from: from.toISOString(), to: to.toISOString(), seconds: input.windowSeconds },
      seen: { ...counts, unpricedSwaps },
      largeSwapRule: rule,
      largeSwaps,
      drainerApprovals,
      pendingSandwiches,
    };
  },
});
