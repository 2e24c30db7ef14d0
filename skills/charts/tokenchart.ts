/** Price history of one token: the chart (tokenchart), its raw OHLCV arrays (tokenchart/raw), and full candles (ohlcv). */
import { z } from 'zod';
import { SibylError } from '../core/errors.js';
import { describeCoverage } from '../data/coverage.js';
import { MARKET_METHODOLOGY, round, type Market } from '../data/market.js';
import { indexProvenance } from '../data/provenance.js';
import { changePct } from '../data/pricing.js';
import { canonicalAsset, resolveToken } from '../data/resolve.js';
import type { ChainName } from '../../chain/chains.js';
import type { SkillContext } from '../core/context.js';
import { EVM_CHAINS, chainParam, periodParam, tokenParam } from '../core/params.js';
import { address, coverage, epochCoverage, isoTime, provenanceShape, tokenRefWithDecimals } from '../core/outputs.js';
import { forecastRecord, forecastSeries } from '../forecast/chart.js';
import { PERIOD_NAMES, type Period } from '../data/periods.js';
import { defineSkill, type CatalogEntry } from '../core/registry.js';
import type { UsdPrice } from '../core/money.js';
import { admitChartForecast, admitToken } from '../core/admission.js';
import { pct, periodSpan, usd } from '../core/summary.js';
import { loadMarket } from '../data/load.js';

const chartInput = z.strictObject({
  tokenAddress: tokenParam('Token contract address (0x + 40 hex) or a canonical symbol such as BTC, ETH, ADA, BNB, DOT.'),
  chain: chainParam('base', EVM_CHAINS),
  timeperiod: periodParam('24h'),
});

const chartHead = {
  ...provenanceShape,
  token: tokenRefWithDecimals,
  pricedBy: z.object({ pool: address, quote: z.string(), quoteLiquidityUsd: z.number() }).nullable().describe('The pool that prices the token.'),
  timeperiod: z.enum(PERIOD_NAMES),
  intervalSeconds: z.number().int().describe('Candle size.'),
  coverage,
};
const candle = z.object({ time: isoTime, open: z.number(), high: z.number(), low: z.number(), close: z.number(), volumeUsd: z.number() });

/** tokenchart's answer (chart-forecast answers the same). */
export const chartOutput = z.object({
  ...chartHead,
  priceUsd: z.number().describe('Last close: the token\'s price at the head, as every engine quotes it.'),
  changePct: z.number().describe('Over coverage: from the first candle\'s open (the price just before the period, or the first price inside it) to the last close.'),
  highUsd: z.number(),
  lowUsd: z.number(),
  volumeUsd: z.number(),
  trades: z.number().int(),
  candles: z.array(candle),
  forecast: forecastRecord.optional().describe('With forecast: true.'),
});

/** Candles the chart forecast looks ahead. */
export const CHART_FORECAST_STEPS = 12;

const tokenchartInput = z.strictObject({
  ...chartInput.shape,
  forecast: z.boolean().default(false).describe(`Add a ${CHART_FORECAST_STEPS}-candle forecast (two models, quantile bands, verdict, commentary); priced higher.`),
});

/** Candles and summary of a token over a period, or price_unavailable (nothing charged). */
async function chart(ctx: SkillContext, input: { tokenAddress: string; chain: ChainName; timeperiod: Period }) {
  const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
  const token = resolveToken(market, input.tokenAddress);
  const { candles, fromBlock, intervalSeconds, coverage, totals } = await market.candles(token, input.timeperiod);
  if (!candles.length) throw new SibylError('price_unavailable', `no qualifying pool prices ${input.tokenAddress} on ${input.chain} in the last ${input.timeperiod}; nothing was charged`);
  return { chain, market, checkpoint, token, candles, fromBlock, intervalSeconds, coverage, totals };
}

function describeToken(market: Market, token: string) {
  const info = market.tokens.get(token)!;
  const main = market.mainPool(token);
  return {
    token: { address: info.address, symbol: info.symbol, name: info.name, decimals: info.decimals },
    pricedBy: main ? { pool: main.pool.pair, quote: market.tokens.get(main.quote)?.symbol ?? main.quote, quoteLiquidityUsd: round(main.quoteUsd, 2) } : null,
  };
}

/** The chart's price line (over the span its history covers) and, with a forecast, its call, band and reasons. */
export const chartSummary = (r: any): string => {
  const f = r.forecast;
  const head = `${r.token.symbol} ${usd(r.priceUsd)} (${pct(r.changePct)} ${periodSpan(r)}).`;
  if (!f) return head;
  const n = f.quantiles ? f.quantiles.q10.length - 1 : -1;
  const band = f.quantiles ? `; q10-q90 at ${f.quantiles.times[n]}: ${usd(f.quantiles.q10[n])} to ${usd(f.quantiles.q90[n])} (${f.quantiles.model})` : '';
  // The consensus's call only when the models agree; each model's figures either way.
  const models = f.models.map((m: any) => `${m.model} ${m.direction} ${pct(m.driftPct)}`).join(', ');
  const call = f.direction ? `models agree: ${f.direction} (drift ${pct(f.driftPct)}; ${models})` : `models disagree, no direction (${models})`;
  return `${head} Forecast for the next ${f.interval}: ${call}${band}; confidence ${f.commentary.confidence}. For ${f.commentary.weighs}: ${f.commentary.supporting.join('; ') || 'none'}. Against: ${f.commentary.contradicting.join('; ') || 'none'}.`;
};

/**
 * The catalogue's chart-forecast service, sold twice: as the chart-forecast skill and
 * as tokenchart with `forecast: true`. Its price and limits are written here, once, for both.
 */
export const CHART_FORECAST = {
  id: 'chart-forecast',
  price: '0.65' as UsdPrice,
  catalog: { rateLimitPerMinute: 20, timeTargetSeconds: 60 } satisfies CatalogEntry,
} as const;

export const tokenchartSkill = defineSkill({
  id: 'tokenchart',
  title: 'Token price chart',
  description: 'USD price chart of a token over a period, from its deepest DEX pool: candles, last price, change, high, low and traded volume, and the span of history they cover (coverage); with forecast: true, a two-model forecast with quantile bands, verdict and commentary.',
  tags: ['chart', 'price', 'market'],
  examples: ['Chart WETH on base over the last 24h', 'How did 0x... trade this week on ethereum?', 'Forecast ETH for the next few hours'],
  input: tokenchartInput,
  price: { variants: [{ price: '0.25', when: {} }, { price: CHART_FORECAST.price, when: { forecast: true } }] },
  httpPath: '/x402/data/tokenchart',
  toolName: 'token_chart',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  // With a forecast it is the catalogue's chart-forecast service, under that service's limits.
  catalog: { ...CHART_FORECAST.catalog, id: CHART_FORECAST.id, when: { forecast: true } },
  summarize: chartSummary,
  output: chartOutput,
  admit: (input, ctx) => (input.forecast ? admitChartForecast(ctx, input.chain, input.tokenAddress, input.timeperiod) : admitToken(ctx, input.chain, input.tokenAddress, { priced: true })),
  async handler(input, ctx) {
    const { chain, market, checkpoint, token, candles, fromBlock, intervalSeconds, coverage, totals } = await chart(ctx, input);
    // The first candle opens at the period's start and the last closes at the head: the same
    // opening, price and change the rankings give for the token over the same window (data/pricing.ts).
    const first = candles[0]!;
    const last = candles[candles.length - 1]!;
    return {
      ...indexProvenance(chain, checkpoint, MARKET_METHODOLOGY, fromBlock),
      ...describeToken(market, token),
      timeperiod: input.timeperiod,
      intervalSeconds,
      // changePct, high, low and volume are over `coverage`, which says when that is less than the period.
      coverage: describeCoverage(coverage),
      priceUsd: last.close,
      changePct: changePct(first.open, last.close),
      highUsd: Math.max(...candles.map((c) => c.high)),
      lowUsd: Math.min(...candles.map((c) => c.low)),
      volumeUsd: totals.volumeUsd,
      trades: totals.trades,
      candles: candles.map(({ time, open, high, low, close, volumeUsd }) => ({ time, open, high, low, close, volumeUsd })),
      ...(input.forecast && { forecast: await chartForecast(ctx, chain.name, market, token, candles, intervalSeconds, checkpoint.timestamp) }),
    };
  },
});

/** The forecast record (docs/skills.md, "Chart forecast") over the chart's candles; unavailable is a 503 and no charge. */
async function chartForecast(ctx: SkillContext, chain: ChainName, market: Market, token: string, candles: { time: string; close: number; volumeUsd: number }[], candleSeconds: number, originTs: number) {
  if (!ctx.forecast) throw new SibylError('forecast_unavailable', 'forecasting is switched off on this deployment; nothing was charged');
  const asset = canonicalAsset(market.tokens.get(token)?.symbol ?? token);
  return forecastSeries(ctx.forecast.service, ctx.forecast.ledger, { asset, chain, token }, candles, candleSeconds, CHART_FORECAST_STEPS, originTs);
}

export const tokenchartRawSkill = defineSkill({
  id: 'tokenchart-raw',
  title: 'Token OHLCV, raw',
  description: 'The raw OHLCV series of a token over a period as arrays [time, open, high, low, close, volumeUsd], and the span of history they cover.',
  tags: ['chart', 'ohlcv', 'raw'],
  examples: ['Raw OHLCV for WETH on base, 4h'],
  input: chartInput,
  price: '0.25',
  httpPath: '/x402/data/tokenchart/raw',
  toolName: 'token_chart_raw',
  surfaces: ['http', 'a2a', 'mcp'],
  output: z.object({
    ...provenanceShape,
    token: address,
    intervalSeconds: z.number().int(),
    coverage: epochCoverage,
    columns: z.array(z.string()).describe('Names of each row\'s values.'),
    ohlcv: z.array(z.array(z.number())).describe('[time (unix s), open, high, low, close, volumeUsd] rows.'),
  }),
  admit: (input, ctx) => admitToken(ctx, input.chain, input.tokenAddress, { priced: true }),
  async handler(input, ctx) {
    const { chain, checkpoint, token, candles, fromBlock, intervalSeconds, coverage } = await chart(ctx, input);
    return {
      ...indexProvenance(chain, checkpoint, MARKET_METHODOLOGY, fromBlock),
      token,
      intervalSeconds,
      // In unix seconds, like the arrays' times.
      coverage: describeCoverage(coverage, 'epoch'),
      columns: ['time', 'open', 'high', 'low', 'close', 'volumeUsd'],
      ohlcv: candles.map((c) => [Date.parse(c.time) / 1000, c.open, c.high, c.low, c.close, c.volumeUsd]),
    };
  },
});

export const ohlcvSkill = defineSkill({
  id: 'ohlcv',
  title: 'Token OHLCV candles',
  description: 'OHLCV candles of a token over a period with USD and token volume and trade counts per candle; candles with no trade carry the previous close and trades 0, and none is made up before the history begins (coverage).',
  tags: ['ohlcv', 'candles', 'market'],
  examples: ['OHLCV candles for WBTC on arbitrum over 7d'],
  input: chartInput,
  price: '0.35',
  httpPath: '/x402/data/ohlcv',
  toolName: 'ohlcv',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  output: z.object({ ...chartHead, candles: z.array(candle.extend({ volumeToken: z.number(), trades: z.number().int().describe('0: no trade, the previous close carried.') })) }),
  admit: (input, ctx) => admitToken(ctx, input.chain, input.tokenAddress, { priced: true }),
  async handler(input, ctx) {
    const { chain, market, checkpoint, token, candles, fromBlock, intervalSeconds, coverage } = await chart(ctx, input);
    return {
      ...indexProvenance(chain, checkpoint, MARKET_METHODOLOGY, fromBlock),
      ...describeToken(market, token),
      timeperiod: input.timeperiod,
      intervalSeconds,
      coverage: describeCoverage(coverage),
      candles,
    };
  },
});
