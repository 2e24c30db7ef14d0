/**
 * Skills computed over a token's indexed candles: the chart forecast as its own skill, technical
 * analysis, and strategy backtests. Each resolves the token on its chain, cuts candles of the
 * asked timeframe from the index, and says how many it had.
 */
import { z } from 'zod';
import { SibylError } from '../core/errors.js';
import { BACKTEST_METHODOLOGY, STRATEGIES, backtest } from './backtest.js';
import { describeCoverage } from '../data/coverage.js';
import { MARKET_METHODOLOGY } from '../data/market.js';
import { indexProvenance } from '../data/provenance.js';
import { resolveToken } from '../data/resolve.js';
import { TECHNICAL_METHODOLOGY, technicalAnalysis } from './technical.js';
import type { ChainName } from '../../chain/chains.js';
import type { SkillContext } from '../core/context.js';
import { EVM_CHAINS, chainParam, periodParam, tokenParam } from '../core/params.js';
import { coverage, isoTime, provenanceShape, tokenRef, unavailable } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitChartForecast, admitToken } from '../core/admission.js';
import { loadMarket } from '../data/load.js';
import { CHART_FORECAST, chartOutput, chartSummary, tokenchartSkill } from '../charts/tokenchart.js';
import { num, orReason, pct, share, usd } from '../core/summary.js';

/** Candle sizes the analyses accept, in seconds. */
export const TIMEFRAMES = { '5m': 300, '15m': 900, '1h': 3_600, '4h': 14_400, '1d': 86_400 } as const;
export type Timeframe = keyof typeof TIMEFRAMES;
const TIMEFRAME_NAMES = Object.keys(TIMEFRAMES) as [Timeframe, ...Timeframe[]];
export const timeframeParam = (fallback: Timeframe) =>
  z.enum(TIMEFRAME_NAMES).default(fallback).describe(`Candle timeframe: one of ${TIMEFRAME_NAMES.join(', ')}; default ${fallback}.`);
const token = tokenParam('Token symbol (ETH, BTC, DEGEN...) or contract address (0x + 40 hex).');

async function tokenCandles(ctx: SkillContext, input: { token: string; chain: ChainName }, timeframe: Timeframe, count: number) {
  const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
  const address = resolveToken(market, input.token);
  const seconds = TIMEFRAMES[timeframe];
  const { candles, fromBlock, coverage } = await market.candlesOver(address, seconds * count, seconds);
  if (!candles.length) throw new SibylError('price_unavailable', `no qualifying pool prices ${input.token} on ${input.chain} over the last ${count} ${timeframe} candles; nothing was charged`);
  const info = market.tokens.get(address)!;
  return { chain, checkpoint, fromBlock, candles, coverage: describeCoverage(coverage), token: { address: info.address, symbol: info.symbol, name: info.name } };
}

/** An indicator's value, or why it has none (too few candles). */
const indicator = <T extends z.ZodType>(value: T) => z.union([value, unavailable]);
const analysisHead = { ...provenanceShape, token: tokenRef, coverage };

const technicalOutput = z.object({
  ...analysisHead,
  timeframe: z.enum(TIMEFRAME_NAMES),
  candles: z.number().int().describe('Candles analysed.'),
  lastClose: z.number().nullable(),
  rsi14: indicator(z.object({ value: z.number(), state: z.enum(['overbought', 'oversold', 'neutral']) })),
  macd: indicator(z.object({ macd: z.number(), signal: z.number(), histogram: z.number(), bias: z.enum(['bullish', 'bearish']) })),
  sma20: indicator(z.number()),
  sma50: indicator(z.number()),
  ema20: indicator(z.number()),
  bollinger: indicator(z.object({ upper: z.number(), middle: z.number(), lower: z.number(), percentB: z.number() })),
  atr14: indicator(z.number()),
  trend: indicator(z.enum(['up', 'down', 'sideways'])),
  support: z.array(z.number()).describe('Swing lows below the last close, nearest first.'),
  resistance: z.array(z.number()).describe('Swing highs above it, nearest first.'),
});

const backtestOutput = z.object({
  ...analysisHead,
  strategy: z.enum(STRATEGIES),
  parameters: z.object({ fastWindow: z.number().int(), slowWindow: z.number().int(), timeframe: z.enum(TIMEFRAME_NAMES), periodDays: z.number().int(), feeBps: z.number().int() }),
  candles: z.number().int(),
  from: isoTime,
  to: isoTime,
  totalReturnPct: z.number(),
  buyAndHoldReturnPct: z.number(),
  maxDrawdownPct: z.number(),
  sharpe: z.number().nullable().describe('Annualised; null without variance.'),
  exposurePct: z.number().describe('Share of the time in the market.'),
  tradeCount: z.number().int(),
  winRate: z.number().nullable().describe('0-1 over closed trades.'),
  trades: z.array(z.object({ entryTime: isoTime, entryPrice: z.number(), exitTime: isoTime.nullable(), exitPrice: z.number(), returnPct: z.number(), open: z.boolean() })),
});

function candleCount(v: { periodDays: number; timeframe: Timeframe }): number {
  return Math.floor((v.periodDays * 86_400) / TIMEFRAMES[v.timeframe]);
}

export const chartForecastSkill = defineSkill({
  id: CHART_FORECAST.id,
  title: 'Chart forecast',
  description: 'Where a token price goes next: a two-model forecast with q10/q50/q90 bands, direction, verdict and commentary on top of its chart over the period (the tokenchart operation with forecast on).',
  tags: ['forecast', 'prediction', 'price', 'outlook', 'bands'],
  examples: ['Forecast DEGEN for the next few hours', 'Where is WETH heading this week, with confidence bands?'],
  input: z.strictObject({ token, chain: chainParam('base', EVM_CHAINS), timeperiod: periodParam('24h') }),
  price: CHART_FORECAST.price,
  toolName: 'chart_forecast',
  surfaces: ['a2a', 'mcp', 'agent'],
  catalog: CHART_FORECAST.catalog,
  summarize: chartSummary,
  output: chartOutput,
  admit: (input, ctx) => admitChartForecast(ctx, input.chain, input.token, input.timeperiod),
  handler: (input, ctx) => tokenchartSkill.handler({ tokenAddress: input.token, chain: input.chain, timeperiod: input.timeperiod, forecast: true }, ctx),
});

export const technicalAnalysisSkill = defineSkill({
  id: 'technical-analysis',
  title: 'Technical analysis',
  description: 'Indicators of a token over its indexed candles: RSI, MACD, SMA/EMA, Bollinger bands, ATR, support and resistance levels and the trend, each unavailable with the reason when there are too few candles.',
  tags: ['technical-analysis', 'indicators', 'rsi', 'macd', 'support', 'resistance', 'trend', 'ta'],
  examples: ['RSI and MACD for WETH on the 1h chart', 'Support and resistance for DEGEN on base, daily candles'],
  input: z.strictObject({
    token,
    chain: chainParam('base', EVM_CHAINS),
    timeframe: timeframeParam('1h'),
    candles: z.number().int().min(30).max(500).default(200).describe('Candles to analyse, 30-500; default 200.'),
  }),
  price: '0.60',
  toolName: 'technical_analysis',
  surfaces: ['a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 30, timeTargetSeconds: 30 },
  output: technicalOutput,
  summarize: (r) =>
    `${r.token.symbol} on ${r.timeframe} candles (${r.candles}): last ${usd(r.lastClose)}; RSI 14 ${orReason(r.rsi14, (x) => `${x.value} (${x.state})`)}; ` +
    `MACD ${orReason(r.macd, (x) => `histogram ${num(x.histogram)} (${x.bias})`)}; SMA 20 ${orReason(r.sma20, usd)}, SMA 50 ${orReason(r.sma50, usd)}; ` +
    `Bollinger ${orReason(r.bollinger, (x) => `${usd(x.lower)}-${usd(x.upper)}, %B ${x.percentB}`)}; trend ${orReason(r.trend, String)}; ` +
    `support ${r.support.map(usd).join(', ') || 'none below'}; resistance ${r.resistance.map(usd).join(', ') || 'none above'}.`,
  admit: (input, ctx) => admitToken(ctx, input.chain, input.token, { priced: true }),
  async handler(input, ctx) {
    const { chain, checkpoint, fromBlock, candles, coverage, token: t } = await tokenCandles(ctx, input, input.timeframe, input.candles);
    return {
      ...indexProvenance(chain, checkpoint, `${TECHNICAL_METHODOLOGY}; ${MARKET_METHODOLOGY}`, fromBlock),
      token: t,
      timeframe: input.timeframe,
      coverage,
      ...technicalAnalysis(candles),
    };
  },
});

export const strategyBacktestSkill = defineSkill({
  id: 'strategy-backtest',
  title: 'Strategy backtest',
  description: 'Backtest a trading strategy (moving-average crossover, RSI reversion, breakout, buy and hold) on a token\'s indexed candles: return, drawdown, Sharpe, win rate and every trade, against buying and holding.',
  tags: ['backtest', 'strategy', 'trading', 'simulation', 'crossover'],
  examples: ['Backtest an SMA 10/30 cross on WETH over 14 days', 'How would RSI mean reversion have done on DEGEN on the 1h chart?'],
  input: z
    .strictObject({
      token,
      chain: chainParam('base', EVM_CHAINS),
      strategy: z.enum(STRATEGIES).default('moving-average-cross').describe(`Strategy: one of ${STRATEGIES.join(', ')}; default moving-average-cross.`),
      fastWindow: z.number().int().min(2).max(200).default(20).describe('Fast window in candles (fast moving average; breakout exit low), 2-200; default 20.'),
      slowWindow: z.number().int().min(3).max(400).default(50).describe('Slow window in candles (slow moving average; breakout entry high), 3-400; default 50.'),
      timeframe: timeframeParam('1h'),
      periodDays: z.number().int().min(1).max(30).default(14).describe('Days of history to test over, 1-30; default 14.'),
      feeBps: z.number().int().min(0).max(500).default(30).describe('Fee per side in basis points, 0-500; default 30 (a V2 pool fee).'),
    })
    .refine((v) => v.slowWindow > v.fastWindow, { path: ['slowWindow'], message: 'must be greater than fastWindow' })
    .refine((v) => candleCount(v) >= v.slowWindow + 2, { path: ['periodDays'], message: 'must hold at least slowWindow + 2 candles of the timeframe' }),
  price: '1.50',
  toolName: 'strategy_backtest',
  surfaces: ['a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 5, timeTargetSeconds: 120 },
  output: backtestOutput,
  summarize: (r) =>
    `${r.strategy} on ${r.token.symbol} (${r.parameters.timeframe} candles, ${r.parameters.periodDays} days${r.coverage?.complete === false ? ` asked, ${r.coverage.candles} candles of history since ${r.coverage.from}` : ''}, fee ${r.parameters.feeBps} bps): ${pct(r.totalReturnPct)} ` +
    `against ${pct(r.buyAndHoldReturnPct)} buying and holding; max drawdown ${pct(-r.maxDrawdownPct)}; Sharpe ${r.sharpe ?? 'n/a'}; ${r.tradeCount} trades, ` +
    `win rate ${r.winRate === null ? 'n/a' : share(r.winRate * 100)}; in the market ${share(r.exposurePct)} of the time.`,
  admit: (input, ctx) => admitToken(ctx, input.chain, input.token, { priced: true }),
  async handler(input, ctx) {
    const count = candleCount(input);
    const { chain, checkpoint, fromBlock, candles, coverage, token: t } = await tokenCandles(ctx, input, input.timeframe, count);
    return {
      ...indexProvenance(chain, checkpoint, `${BACKTEST_METHODOLOGY}; ${MARKET_METHODOLOGY}`, fromBlock),
      token: t,
      strategy: input.strategy,
      // The test runs over what the index holds: fewer days than periodDays when its history is shorter.
      coverage,
      parameters: { fastWindow: input.fastWindow, slowWindow: input.slowWindow, timeframe: input.timeframe, periodDays: input.periodDays, feeBps: input.feeBps },
      ...backtest(candles, { ...input, candleSeconds: TIMEFRAMES[input.timeframe] }),
    };
  },
});

/** The spec's A2A backtest skills at their own prices, on the same engine as strategy-backtest. */
const backtestAlias = (id: string, title: string) => defineSkill({
  ...strategyBacktestSkill,
  id,
  title,
  price: '0.75',
  toolName: id.replace(/-/g, '_'),
  // Not an agent tool: the report agent already has strategy-backtest, which answers the same.
  surfaces: ['a2a', 'mcp'],
  catalog: undefined,
});
export const backtestCustomStrategySkill = backtestAlias('backtest-custom-strategy', 'Custom strategy backtest');
export const backtestStrategySkill = backtestAlias('backtest-strategy', 'Strategy backtest (engine)');
