/** The same asset priced on every indexed chain: where it is cheapest and dearest, and the gap between. */
import { z } from 'zod';
import { SibylError } from '../core/errors.js';
import { MARKET_METHODOLOGY, TRADEABLE_LIQUIDITY_USD, round } from '../data/market.js';
import { CANONICAL_ASSETS, resolveToken } from '../data/resolve.js';
import { liquidityOf } from '../data/rankings.js';
import { limitParam } from '../core/params.js';
import { chainGap, intString, isoTime } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitAnyMarket } from '../core/admission.js';
import { loadAllMarkets } from '../data/load.js';
import { pct, usd } from '../core/summary.js';

const CROSS_CHAIN_METHODOLOGY = `cross-chain/v1 (each canonical asset resolved on every indexed EVM chain to its deepest priced token; USD now from ${MARKET_METHODOLOGY}; gap = dearest / cheapest - 1, before bridge fees, gas and price impact)`;
/** Quotes from pools thinner than this are left out: their price is not tradeable size. */
const MIN_LIQUIDITY_USD = TRADEABLE_LIQUIDITY_USD;

const quote = z.object({ chain: z.string(), token: z.string(), symbol: z.string().nullable(), priceUsd: z.number(), liquidityUsd: z.number(), asOfBlock: intString });

export const crossChainArbitrageSkill = defineSkill({
  id: 'cross-chain-arbitrage',
  title: 'Cross-chain arbitrage',
  description: 'Price gaps of the same asset (ETH, BTC, BNB, SOL, ADA, DOT, POL) between chains: its price on each indexed chain, where it is cheapest and dearest, and the gap before bridging costs.',
  tags: ['arbitrage', 'cross-chain', 'bridge', 'price-gap', 'spread'],
  examples: ['Is ETH cheaper on arbitrum than on base right now?', 'Price gaps between chains for BTC'],
  input: z.strictObject({
    limit: limitParam(1, 100, 10),
    minGapPct: z.number().min(0).max(100).default(0).describe('Only assets whose gap is at least this many percent, 0-100; default 0.'),
  }),
  price: '1.00',
  toolName: 'cross_chain_arbitrage',
  surfaces: ['a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 10, timeTargetSeconds: 60 },
  output: z.object({
    source: z.string(),
    chains: z.array(z.string()).describe('Connected chains.'),
    asOf: z.object({ timestamp: isoTime }),
    methodology: z.string(),
    limit: z.number().int(),
    minGapPct: z.number(),
    unavailableChains: z.array(chainGap),
    assets: z.array(z.object({
      asset: z.string(),
      gapPct: z.number().describe('dearest / cheapest - 1, percent, before bridging costs.'),
      cheapest: quote,
      dearest: quote,
      quotes: z.array(quote).describe('Cheapest first.'),
    })).describe('Widest gap first.'),
  }),
  summarize: (r) => {
    const top = r.assets[0];
    return top ? `${r.assets.length} assets quoted on two or more chains; widest gap: ${top.asset} ${pct(top.gapPct)}, ${usd(top.cheapest.priceUsd)} on ${top.cheapest.chain} against ${usd(top.dearest.priceUsd)} on ${top.dearest.chain} (before bridging).` : 'No asset is quoted on two indexed chains.';
  },
  admit: (_input, ctx) => admitAnyMarket(ctx, ctx.chains.list().map((c) => c.name)),
  async handler(input, ctx) {
    const chains = ctx.chains.list();
    const { loaded, unavailable } = await loadAllMarkets(ctx);
    const quotes = new Map<string, { chain: string; token: string; symbol: string | null; priceUsd: number; liquidityUsd: number; asOfBlock: string }[]>();
    for (const { chain: connected, market, checkpoint } of loaded) {
      for (const asset of CANONICAL_ASSETS) {
        let token: string;
        try {
          token = resolveToken(market, asset);
        } catch {
          continue;
        }
        const price = market.priceNow(token)?.usd;
        const liquidity = liquidityOf(market, token);
        if (price === undefined || liquidity < MIN_LIQUIDITY_USD) continue;
        quotes.set(asset, [...(quotes.get(asset) ?? []), { chain: connected.name, token, symbol: market.tokens.get(token)?.symbol ?? null, priceUsd: price, liquidityUsd: round(liquidity, 2), asOfBlock: String(checkpoint.block) }]);
      }
    }
    if (!quotes.size && unavailable.length === chains.length) throw new SibylError('upstream_unavailable', 'no chain is indexed yet; nothing was charged');
    const assets = [...quotes.entries()]
      .filter(([, q]) => q.length >= 2)
      .map(([asset, q]) => {
        const sorted = [...q].sort((a, b) => a.priceUsd - b.priceUsd);
        const cheapest = sorted[0]!;
        const dearest = sorted[sorted.length - 1]!;
        return { asset, gapPct: round((dearest.priceUsd / cheapest.priceUsd - 1) * 100, 4), cheapest, dearest, quotes: sorted };
      })
      .filter((a) => a.gapPct >= input.minGapPct)
      .sort((a, b) => b.gapPct - a.gapPct);
    return {
      source: chains[0]?.source ?? 'embedded',
      chains: chains.map((c) => c.name),
      asOf: { timestamp: new Date().toISOString() },
      methodology: CROSS_CHAIN_METHODOLOGY,
      limit: input.limit,
      minGapPct: input.minGapPct,
      unavailableChains: unavailable,
      assets: assets.slice(0, input.limit),
    };
  },
});
