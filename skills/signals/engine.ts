/**
 * Trade signals (`signals/v1`): one call per token from four pieces of evidence, each worth one
 * point either way: the trend of the moving averages (price above SMA 20 above SMA 50, or the
 * reverse), MACD's bias, RSI at an extreme (oversold counts for, overbought against: a reversion
 * read), and the flow in the token's pools (net buying or selling of at least a tenth of what
 * traded). Long at +2 or more, short at -2 or less, else neutral; confidence is the share of the
 * four points the call has. Evidence that is unavailable (too few candles, no trades) counts
 * nothing and says so.
 */
import type { TokenFlow } from '../whales/flows.js';
import type { technicalAnalysis } from '../candles/technical.js';

export const SIGNALS_METHODOLOGY = 'signals/v1 (one point each for trend (SMA 20/50), MACD 12/26/9 bias, RSI 14 extreme (oversold +, overbought -), and pool flow (net >= 10% of traded USD); long >= +2, short <= -2; confidence = |points| / 4)';
/** Net flow, as a share of what traded, that counts as one side leading. */
export const FLOW_SHARE = 0.1;

export interface TradeSignal {
  signal: 'long' | 'short' | 'neutral';
  score: number;
  confidence: number;
  evidence: string[];
}

type Analysis = Pick<ReturnType<typeof technicalAnalysis>, 'trend' | 'macd' | 'rsi14'>;

export function tradeSignal(analysis: Analysis, flow: TokenFlow): TradeSignal {
  const evidence: string[] = [];
  let score = 0;
  const { trend, macd, rsi14 } = analysis;
  if (typeof trend === 'string') {
    const point = trend === 'up' ? 1 : trend === 'down' ? -1 : 0;
    score += point;
    evidence.push(`trend ${trend} (price, SMA 20, SMA 50)${point ? ` ${point > 0 ? '+1' : '-1'}` : ''}`);
  } else evidence.push(`trend n/a (${trend.reason})`);
  if ('bias' in macd) {
    score += macd.bias === 'bullish' ? 1 : -1;
    evidence.push(`MACD ${macd.bias} (histogram ${macd.histogram}) ${macd.bias === 'bullish' ? '+1' : '-1'}`);
  } else evidence.push(`MACD n/a (${macd.reason})`);
  if ('state' in rsi14) {
    const point = rsi14.state === 'oversold' ? 1 : rsi14.state === 'overbought' ? -1 : 0;
    score += point;
    evidence.push(`RSI ${rsi14.value} ${rsi14.state}${point ? ` ${point > 0 ? '+1' : '-1'}` : ''}`);
  } else evidence.push(`RSI n/a (${rsi14.reason})`);
  const traded = flow.boughtUsd + flow.soldUsd;
  if (traded > 0) {
    const share = flow.netUsd / traded;
    const point = share >= FLOW_SHARE ? 1 : share <= -FLOW_SHARE ? -1 : 0;
    score += point;
    evidence.push(`flow net ${share >= 0 ? 'buying' : 'selling'} ${Math.round(Math.abs(share) * 1000) / 10}% of $${Math.round(traded).toLocaleString('en-US')} traded${point ? ` ${point > 0 ? '+1' : '-1'}` : ''}`);
  } else evidence.push('flow n/a (no trade in the window)');
  return { signal: score >= 2 ? 'long' : score <= -2 ? 'short' : 'neutral', score, confidence: Math.abs(score) / 4, evidence };
}
