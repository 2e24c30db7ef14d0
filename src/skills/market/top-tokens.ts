/** Chain-wide rankings from the index: by liquidity (top-tokens) and by traded volume (topvolume). */
import { MARKET_METHODOLOGY, round, type Market } from '../../intel/market.js';
import { PERIODS } from '../../intel/periods.js';
import { indexProvenance } from '../../intel/provenance.js';
import type { SkillContext } from '../context.js';
import { chainListInput } from '../params.js';
import { defineSkill } from '../registry.js';
import { loadMarket, periodStartBlock } from './load.js';
import type { ChainName } from '../../chain/chains.js';
import type { Period } from '../../intel/periods.js';

async function rankings(ctx: SkillContext, input: { chain: ChainName; limit: number; timeperiod: Period }, sortBy: 'liquidityUsd' | 'volumeUsd') {
  const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
  const start = checkpoint.timestamp - PERIODS[input.timeperiod].seconds;
  const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
  const volumes = await market.volumes(fromBlock);
  const usdc = chain.spec.usdc.toLowerCase();
  const rows = [];
  for (const [address, info] of market.tokens) {
    if (address === usdc) continue; // the numeraire
    const now = market.priceNow(address);
    if (!now) continue;
    // The change runs from the last price before the period (or the first inside it, for a
    // token listed during the period) to now.
    const line = await market.timeline(address, fromBlock);
    const before = line.filter((p) => p.ts <= start);
    const opening = before.length ? before[before.length - 1] : line[0];
    rows.push({
      token: info.address,
      symbol: info.symbol,
      name: info.name,
      priceUsd: now.usd,
      changePct: opening ? round(((now.usd - opening.usd) / opening.usd) * 100, 4) : null,
      liquidityUsd: round(liquidityOf(market, address), 2),
      volumeUsd: round(volumes.get(address)?.usd ?? 0, 2),
      trades: volumes.get(address)?.trades ?? 0,
      pricedBy: now.pool?.pair ?? null,
    });
  }
  rows.sort((a, b) => b[sortBy] - a[sortBy]);
  return {
    ...indexProvenance(chain, checkpoint, MARKET_METHODOLOGY, fromBlock),
    timeperiod: input.timeperiod,
    sortedBy: sortBy,
    limit: input.limit,
    count: Math.min(rows.length, input.limit),
    totalTokens: rows.length,
    tokens: rows.slice(0, input.limit),
  };
}

/** A token's USD liquidity: the sum over its pools whose both sides are priced. */
function liquidityOf(market: Market, token: string): number {
  return market.pools.filter((p) => p.token0 === token || p.token1 === token).reduce((sum, p) => sum + (market.liquidityUsd(p) ?? 0), 0);
}

export const topTokensSkill = defineSkill({
  id: 'top-tokens',
  title: 'Top tokens',
  description: 'Tokens of a chain ranked by USD liquidity across their DEX pools, with price, change and volume over the period.',
  tags: ['market', 'rankings', 'tokens'],
  examples: ['What are the biggest tokens on base?', 'Top 10 tokens on bsc by liquidity this week'],
  input: chainListInput,
  price: '0.55',
  httpPath: '/x402/data/top-tokens',
  toolName: 'top_tokens',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  handler: (input, ctx) => rankings(ctx, input, 'liquidityUsd'),
});

export const topVolumeSkill = defineSkill({
  id: 'topvolume',
  title: 'Top tokens by volume',
  description: 'Tokens of a chain ranked by USD traded volume over the period, with price, change and liquidity.',
  tags: ['market', 'volume', 'rankings'],
  examples: ['Which tokens traded the most on base in the last 24h?', 'Top volume on arbitrum over 7d'],
  input: chainListInput,
  price: '0.55',
  httpPath: '/x402/data/topvolume',
  toolName: 'top_volume',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  handler: (input, ctx) => rankings(ctx, input, 'volumeUsd'),
});
