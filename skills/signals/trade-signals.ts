/**
 * Trade signals: the chain's most liquid tokens that pass the screen, each with a long, short or
 * neutral call from its indicators and its pool flow (signals/v1), and the evidence behind it.
 * A token failing the screen gets no signal: it is listed apart with its risks.
 */
import { z } from 'zod';
import { TOKEN_FLOW_METHODOLOGY, tokenFlow } from '../whales/flows.js';
import { round } from '../data/market.js';
import { SCREEN_RULES } from '../data/screening.js';
import { SIGNALS_METHODOLOGY, tradeSignal } from './engine.js';
import { TECHNICAL_METHODOLOGY, technicalAnalysis } from '../candles/technical.js';
import { admitMarket } from '../core/admission.js';
import { address, provenanceShape, screenSummary, screenedTokenRow } from '../core/outputs.js';
import { EVM_CHAINS, chainParam, limitParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { pct, usd } from '../core/summary.js';
import { TIMEFRAMES, timeframeParam } from '../candles/candle-analysis.js';
import { loadMarket } from '../data/load.js';
import { rankings } from '../top-tokens/top-tokens.js';

/** Candles each call reads: enough for SMA 50 and MACD's signal line (34). */
const CANDLES = 60;

const signalRow = z.object({
  token: address,
  symbol: z.string().nullable(),
  priceUsd: z.number(),
  liquidityUsd: z.number(),
  signal: z.enum(['long', 'short', 'neutral']),
  score: z.number().int().describe('Points for (+) and against (-), -4 to 4.'),
  confidence: z.number().describe('|score| / 4.'),
  evidence: z.array(z.string()).describe('Each point, or why it counts nothing.'),
  flow: z.object({ boughtUsd: z.number(), soldUsd: z.number(), netUsd: z.number(), buys: z.number().int(), sells: z.number().int() }).describe('Over the candles read.'),
  candles: z.number().int(),
});

export const tradeSignalsSkill = defineSkill({
  id: 'trade-signals',
  title: 'Trade signals',
  description: `Long, short or neutral calls for a chain's most liquid tokens, each from its trend, MACD, RSI and the buying or selling in its pools over the last ${CANDLES} candles, with every piece of evidence (${SIGNALS_METHODOLOGY}). Tokens failing the screen (${SCREEN_RULES}) get no call and are listed apart.`,
  tags: ['signals', 'trade-signals', 'entries', 'long', 'short'],
  examples: ['Any trade signals on base right now?', 'Long or short calls for arbitrum tokens on the 4h chart'],
  input: z.strictObject({
    chain: chainParam('base', EVM_CHAINS),
    limit: limitParam(1, 100, 10),
    timeframe: timeframeParam('1h'),
  }),
  price: '0.50',
  toolName: 'trade_signals',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...provenanceShape,
    screen: screenSummary,
    timeframe: z.enum(Object.keys(TIMEFRAMES) as [keyof typeof TIMEFRAMES, ...(keyof typeof TIMEFRAMES)[]]),
    limit: z.number().int(),
    signals: z.array(signalRow).describe('Most liquid first.'),
    excludedByScreen: z.array(screenedTokenRow).describe('Tokens failing the screen: no call.'),
  }),
  summarize: (r) => {
    const of = (kind: string) => (r.signals as { signal: string; symbol: string | null; token: string; confidence: number; evidence: string[] }[]).filter((s) => s.signal === kind);
    const named = (kind: string) => of(kind).slice(0, 3).map((s) => `${s.symbol ?? s.token} (${Math.round(s.confidence * 100)}%: ${s.evidence.filter((e) => / [+-]1$/.test(e)).join(', ')})`).join('; ') || 'none';
    return `${r.signals.length} tokens on ${r.chain}, ${r.timeframe} candles: long ${named('long')}; short ${named('short')}; ${of('neutral').length} neutral` +
      `${r.excludedByScreen.length ? `; ${r.excludedByScreen.length} failing the screen get no call` : ''}.`;
  },
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const ranked = await rankings(ctx, { chain: input.chain, limit: input.limit, timeperiod: '24h' }, 'liquidityUsd');
    const { market } = await loadMarket(ctx, input.chain);
    const seconds = TIMEFRAMES[input.timeframe];
    const usable = ranked.tokens.filter((t) => !t.flagged);
    const signals = await Promise.all(usable.map(async (t) => {
      const token = t.token.toLowerCase();
      const { candles, fromBlock } = await market.candlesOver(token, seconds * CANDLES, seconds);
      const flow = await tokenFlow(market, token, fromBlock);
      return {
        token: t.token, symbol: t.symbol, priceUsd: t.priceUsd, liquidityUsd: t.liquidityUsd,
        ...tradeSignal(technicalAnalysis(candles), flow),
        flow: { boughtUsd: round(flow.boughtUsd, 2), soldUsd: round(flow.soldUsd, 2), netUsd: round(flow.netUsd, 2), buys: flow.buys, sells: flow.sells },
        candles: candles.length,
      };
    }));
    // The ranking's provenance and screen; its rows become the signals.
    const { tokens: _rows, sortedBy: _sorted, count: _count, totalTokens: _total, coverage: _coverage, timeperiod: _period, limit: _limit, excludedByScreen: _excluded, side: _side, available: _available, reason: _reason, criterion: _criterion, qualified: _qualified, ...head } = ranked;
    return {
      ...head,
      methodology: `${SIGNALS_METHODOLOGY}; ${TECHNICAL_METHODOLOGY}; ${TOKEN_FLOW_METHODOLOGY}; ${ranked.methodology}`,
      timeframe: input.timeframe,
      limit: input.limit,
      signals,
      excludedByScreen: ranked.tokens.filter((t) => t.flagged),
    };
  },
});
