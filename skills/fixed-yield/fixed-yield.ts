/**
 * Fixed-yield analysis (fixed-yield/v1): the fixed-rate markets of each chain (principal/yield
 * splits of yield-bearing ERC-4626 shares) with the fixed APY each PT's price implies, its
 * maturity and liquidity, beside the variable rate the share really earned. Every indexed chain
 * unless one is named; a chain that cannot be read is listed under `errors`.
 */
import { z } from 'zod';
import { admitAnyMarket, admitMarket } from '../core/admission.js';
import { multiChainProvenance, readEach, scanChains } from '../core/across-chains.js';
import { FIXED_YIELD_METHODOLOGY, byFixedRate, fixedYieldMarkets, type FixedYieldRow } from './engine.js';
import { indexProvenance } from '../data/provenance.js';
import { loadMarket } from '../data/load.js';
import { address, chainGap, multiChainProvenanceShape, provenanceShape } from '../core/outputs.js';
import { DEX_CHAINS, EVM_CHAINS, limitParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { pct, usd } from '../core/summary.js';

const token = z.object({ address, symbol: z.string().nullable(), decimals: z.number().int().nullable() });

const marketRow = z.object({
  chain: z.string(),
  market: address.describe('The market (its yield token, which splits and merges).'),
  pt: token.describe('The principal token: redeems one unit of the underlying\'s value at maturity.'),
  yt: z.object({ address, symbol: z.string().nullable() }).describe('The yield token: the share\'s yield until maturity.'),
  vault: z.object({ address, name: z.string().nullable(), symbol: z.string().nullable() }).describe('The yield-bearing ERC-4626 share split.'),
  underlying: token,
  maturity: z.string().describe('ISO time of maturity.'),
  daysToMaturity: z.number().describe('From the index head; 0 once matured.'),
  matured: z.boolean(),
  pool: z.object({ pair: address, dex: z.string(), reservePt: z.string(), reserveUnderlying: z.string() }).nullable().describe('The PT\'s deepest V2 pool against the underlying, reserves in token units at the index head.'),
  ptPrice: z.number().nullable().describe('Underlying per PT: reserveUnderlying / reservePt.'),
  impliedApyPct: z.number().nullable().describe('(1 / ptPrice)^(365 days / time to maturity) - 1, as %; null once matured or without a pool.'),
  liquidityUsd: z.number().nullable().describe('Both sides of the pool in USD.'),
  variableApy: z.object({
    apyPct: z.number(), from: z.string(), days: z.number(), fullWindow: z.boolean(),
    window: z.enum(['7d', '30d']).describe('vaults/v1\'s window: 7 days, else 30 (over the history there is).'),
  }).nullable().describe('What the share realised (vaults/v1), not an advertised rate.'),
  spreadPct: z.number().nullable().describe('impliedApyPct - variableApy.apyPct: positive, fixing pays more than the share has been earning.'),
  notes: z.array(z.object({ kind: z.enum(['matured', 'near-maturity', 'thin-liquidity', 'no-pool', 'young-history', 'no-variable-rate']), note: z.string() })),
});

export const fixedYieldSkill = defineSkill({
  id: 'fixed-yield-analysis',
  title: 'Fixed-yield analysis',
  description: 'Fixed-rate markets of yield-bearing assets (principal/yield token splits of ERC-4626 shares): for each, the fixed APY its principal token\'s price implies until maturity, maturity, pool liquidity in USD, the variable rate the share really realised, and the spread between them, with notes (matured, near maturity, thin liquidity). Every indexed chain unless one is named.',
  tags: ['fixed-yield', 'fixed-rate', 'pendle', 'principal-token', 'yield-token', 'maturity', 'implied-apy', 'yield'],
  examples: ['Best fixed yields right now', 'What fixed rate can I lock on USDC on base, and how does it compare with the variable rate?'],
  input: z.strictObject({
    chain: z.enum(EVM_CHAINS).optional().describe(`One of ${EVM_CHAINS.join(', ')}; every indexed chain when absent.`),
    limit: limitParam(1, 100, 10),
  }),
  price: '0.50',
  toolName: 'fixed_yield_analysis',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...multiChainProvenanceShape,
    chainsRead: z.array(z.object({ ...provenanceShape, marketsFound: z.number().int() })).describe('Each chain read, with its own provenance.'),
    markets: z.array(marketRow).describe('Live markets by implied APY, highest first, then those without a price, then matured ones; up to limit.'),
    errors: z.array(chainGap).describe('Chains that could not be read.'),
  }),
  summarize: (r) => {
    const rows = r.markets as (FixedYieldRow & { chain: string })[];
    const live = rows.filter((m) => m.impliedApyPct !== null && !m.matured);
    const where = r.chainsRead.map((c: { chain: string }) => c.chain).join(', ');
    if (!live.length) return `No live fixed-rate market with a price on ${where}${rows.length ? ` (${rows.length} matured or unpriced)` : ''}.`;
    return `${live.length} fixed-rate market${live.length === 1 ? '' : 's'}; best: ${live.slice(0, 3).map((m) => `${m.pt.symbol ?? m.pt.address} on ${m.chain}: ${pct(m.impliedApyPct)} fixed for ${Math.round(m.daysToMaturity)} d` +
      `${m.variableApy ? ` vs ${pct(m.variableApy.apyPct)} variable` : ''} (${usd(m.liquidityUsd)} liquidity)`).join('; ')}. Fixed rates are implied by PT prices; variable rates are realised, not promised.`;
  },
  admit: async (input, ctx) => (input.chain ? admitMarket(ctx, input.chain) : admitAnyMarket(ctx, scanChains(ctx, undefined, DEX_CHAINS))),
  async handler(input, ctx) {
    const { done, errors } = await readEach(scanChains(ctx, input.chain, DEX_CHAINS), async (name) => {
      const { chain, market, checkpoint } = await loadMarket(ctx, name);
      const rows = await fixedYieldMarkets(chain, market, checkpoint);
      return { ...indexProvenance(chain, checkpoint, FIXED_YIELD_METHODOLOGY, 0), marketsFound: rows.length, rows };
    });
    const chainsRead = done.map(({ value: { rows: _rows, ...provenance } }) => provenance);
    const markets = done.flatMap(({ name, value }) => value.rows.map((row) => ({ chain: name, ...row }))).sort(byFixedRate).slice(0, input.limit);
    return { ...multiChainProvenance(chainsRead, FIXED_YIELD_METHODOLOGY), chainsRead, markets, errors };
  },
});
