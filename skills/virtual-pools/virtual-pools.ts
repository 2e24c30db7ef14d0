/** Pools paired with VIRTUAL on base (agent tokens), ranked over a period. */
import { z } from 'zod';
import { MARKET_METHODOLOGY, round } from '../data/market.js';
import { indexProvenance } from '../data/provenance.js';
import { describeCoverage } from '../data/coverage.js';
import { periodChange } from '../data/pricing.js';
import { resolveToken } from '../data/resolve.js';
import { limitParam, onlyChainParam, periodParam } from '../core/params.js';
import { address, coverage, isoTime, provenanceShape } from '../core/outputs.js';
import { PERIOD_NAMES } from '../data/periods.js';
import { defineSkill } from '../core/registry.js';
import { admitToken } from '../core/admission.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../data/load.js';

const SORTS = ['volumeUsd', 'swaps', 'priceChange'] as const;

export const virtualPoolsSkill = defineSkill({
  id: 'virtual-pools',
  title: 'VIRTUAL agent-token pools',
  description: 'Pools paired with the VIRTUAL token on base (agent tokens): volume, swaps, price change over the period, liquidity and price, filtered by a minimum volume and sorted as asked.',
  tags: ['agents', 'virtual', 'pools', 'base'],
  examples: ['Top VIRTUAL agent tokens by volume today', 'Which VIRTUAL pools moved the most in the last 4h?'],
  input: z.strictObject({
    chain: onlyChainParam('base'),
    limit: limitParam(1, 500, 50),
    timeperiod: periodParam('24h', ['1h', '4h', '12h', '24h', '7d']),
    sortBy: z.enum(SORTS).default('volumeUsd').describe(`Sort by: one of ${SORTS.join(', ')}; default volumeUsd.`),
    minVolumeUsd: z.number().min(0).default(100).describe('Only pools that traded at least this many USD in the period; default 100.'),
  }),
  price: '0.55',
  httpPath: '/x402/data/virtual-pools',
  toolName: 'virtual_pools',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  output: z.object({
    ...provenanceShape,
    virtual: address.describe('The VIRTUAL token.'),
    timeperiod: z.enum(PERIOD_NAMES),
    coverage,
    sortBy: z.enum(SORTS),
    minVolumeUsd: z.number(),
    limit: z.number().int(),
    poolsPaired: z.number().int().describe('VIRTUAL pools before the volume filter.'),
    count: z.number().int(),
    pools: z.array(z.object({
      pool: address, dex: z.string(), token: address, symbol: z.string().nullable(), name: z.string().nullable(),
      priceUsd: z.number().nullable(),
      priceChange: z.number().nullable().describe('Percent, since priceChangeSince.'),
      priceChangeSince: isoTime.nullable(),
      volumeUsd: z.number(), swaps: z.number().int(), liquidityUsd: z.number().nullable(),
    })),
  }),
  admit: (input, ctx) => admitToken(ctx, input.chain, 'VIRTUAL'),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const virtual = resolveToken(market, 'VIRTUAL');
    const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
    const coverage = periodCoverage(market, checkpoint, input.timeperiod);
    const volumes = await market.poolVolumes(fromBlock);
    const rows = [];
    for (const pool of market.pools.filter((p) => p.token0 === virtual || p.token1 === virtual)) {
      const token = pool.token0 === virtual ? pool.token1 : pool.token0;
      const info = market.tokens.get(token);
      const now = market.priceNow(token);
      const change = now ? await periodChange(market, token, now.usd, fromBlock, coverage.periodFrom) : null;
      rows.push({
        pool: pool.pair,
        dex: pool.dex,
        token: info?.address ?? token,
        symbol: info?.symbol ?? null,
        name: info?.name ?? null,
        priceUsd: now?.usd ?? null,
        priceChange: change?.pct ?? null,
        // Where the change is measured from: the period's start, or later where the history begins later.
        priceChangeSince: change ? new Date(change.since * 1000).toISOString() : null,
        volumeUsd: round(volumes.get(pool.pair)?.usd ?? 0, 2),
        swaps: volumes.get(pool.pair)?.swaps ?? 0,
        liquidityUsd: market.liquidityUsd(pool) === null ? null : round(market.liquidityUsd(pool)!, 2),
      });
    }
    const kept = rows.filter((r) => r.volumeUsd >= input.minVolumeUsd);
    kept.sort((a, b) => (b[input.sortBy] ?? -Infinity) - (a[input.sortBy] ?? -Infinity));
    return {
      ...indexProvenance(chain, checkpoint, MARKET_METHODOLOGY, fromBlock),
      virtual: market.tokens.get(virtual)?.address ?? virtual,
      timeperiod: input.timeperiod,
      coverage: describeCoverage(coverage),
      sortBy: input.sortBy,
      minVolumeUsd: input.minVolumeUsd,
      limit: input.limit,
      poolsPaired: rows.length,
      count: Math.min(kept.length, input.limit),
      pools: kept.slice(0, input.limit),
    };
  },
});
