/**
 * Market movers: the tokens of a chain moving most over a period against the market (the chain's
 * wrapped native), gainers or losers, each with the flows behind its move: what was bought and
 * sold in its pools. Screened as the gainers ranking is.
 */
import { z } from 'zod';
import { round } from '../data/market.js';
import { TOKEN_FLOW_METHODOLOGY, tokenFlow } from '../whales/flows.js';
import { periodChangePct, periodWindow } from '../data/pricing.js';
import { SCREEN_RULES } from '../data/screening.js';
import { admitMarket } from '../core/admission.js';
import { address, screenedTokenRow } from '../core/outputs.js';
import { chainParam, limitParam, periodParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { pct, usd } from '../core/summary.js';
import { loadMarket, periodStartBlock } from '../data/load.js';
import { MOVER_SIDES, rankings, rankingsOutput } from '../top-tokens/top-tokens.js';

const flow = z.object({
  boughtUsd: z.number(), soldUsd: z.number(), netUsd: z.number().describe('Bought minus sold.'), buys: z.number().int(), sells: z.number().int(),
});

type Mover = { symbol: string | null; token: string; changePct: number | null; vsBenchmarkPct: number | null; flagged: boolean; risks: string[]; flow: z.infer<typeof flow> };

export const marketMoversSkill = defineSkill({
  id: 'market-movers',
  title: 'Market movers',
  description: `Tokens of a chain moving most over the period, gainers or losers (side), each with its price change, its change against the chain's wrapped native (the market) and the flows behind the move: USD bought and sold in its pools, buys and sells. Gainers leave out tokens failing the screen (${SCREEN_RULES}); losers keep them, flagged.`,
  tags: ['movers', 'moving', 'momentum', 'flows', 'market'],
  examples: ['What is moving the market on base today, and who is buying it?', 'Which tokens fell hardest against ETH on arbitrum this week?'],
  input: z.strictObject({
    chain: chainParam('base'),
    limit: limitParam(1, 100, 10),
    timeperiod: periodParam('24h'),
    side: z.enum(MOVER_SIDES).default('gainers').describe('gainers (largest rise first, what pumped) or losers (largest fall first, what dumped).'),
  }),
  price: '0.35',
  toolName: 'market_movers',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: rankingsOutput.extend({
    benchmark: z.object({ token: address, symbol: z.string().nullable(), changePct: z.number().nullable() }).describe('The chain\'s wrapped native over the same period: the market the moves are measured against.'),
    tokens: z.array(screenedTokenRow.extend({ vsBenchmarkPct: z.number().nullable().describe('changePct minus the benchmark\'s.'), flow })),
  }),
  summarize: (r) => {
    const movers = r.tokens as Mover[];
    if (!movers.length) return `${r.reason ?? `No token on ${r.chain} moved over ${r.timeperiod}`}.`;
    const row = (t: Mover) => `${t.symbol ?? t.token} ${pct(t.changePct)} (${pct(t.vsBenchmarkPct)} against ${r.benchmark.symbol}; net ${usd(t.flow.netUsd)} from ${t.flow.buys} buys and ${t.flow.sells} sells)${t.flagged ? ` flagged: ${t.risks.join('; ')}` : ''}`;
    return `${r.side === 'losers' ? 'Falling' : 'Rising'} most on ${r.chain} over ${r.timeperiod}, ${r.benchmark.symbol} ${pct(r.benchmark.changePct)}: ${movers.slice(0, 3).map(row).join('; ')}.`;
  },
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const ranked = await rankings(ctx, input, 'changePct', input.side);
    const { market, checkpoint } = await loadMarket(ctx, input.chain);
    const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
    const native = market.chain.spec.wrappedNative.toLowerCase();
    const nativeNow = market.priceNow(native)?.usd ?? null;
    const { start } = periodWindow(checkpoint, input.timeperiod);
    const benchmarkPct = nativeNow === null ? null : await periodChangePct(market, native, nativeNow, fromBlock, start);
    const tokens = await Promise.all(ranked.tokens.map(async (t) => {
      const f = await tokenFlow(market, t.token.toLowerCase(), fromBlock);
      return {
        ...t,
        vsBenchmarkPct: t.changePct === null || benchmarkPct === null ? null : round(t.changePct - benchmarkPct, 4),
        flow: { boughtUsd: round(f.boughtUsd, 2), soldUsd: round(f.soldUsd, 2), netUsd: round(f.netUsd, 2), buys: f.buys, sells: f.sells },
      };
    }));
    return {
      ...ranked,
      tokens,
      benchmark: { token: market.tokens.get(native)?.address ?? native, symbol: market.tokens.get(native)?.symbol ?? null, changePct: benchmarkPct === null ? null : round(benchmarkPct, 4) },
      methodology: `${ranked.methodology}; ${TOKEN_FLOW_METHODOLOGY}`,
    };
  },
});
