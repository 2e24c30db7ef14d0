import { describe, expect, it } from 'vitest';
import { tradeSignal } from './engine.js';

const flow = (boughtUsd: number, soldUsd: number) => ({ boughtUsd, soldUsd, netUsd: boughtUsd - soldUsd, buys: 1, sells: 1 });
const macd = (bias: 'bullish' | 'bearish') => ({ macd: 1, signal: 0, histogram: bias === 'bullish' ? 1 : -1, bias });
const na = (reason: string) => ({ available: false as const, reason });

describe('signals/v1', () => {
  it('four points agreeing: long at full confidence, every piece of evidence named', () => {
    const r = tradeSignal({ trend: 'up', macd: macd('bullish'), rsi14: { value: 25, state: 'oversold' } }, flow(800, 200));
    expect(r).toMatchObject({ signal: 'long', score: 4, confidence: 1 });
    expect(r.evidence).toEqual(['trend up (price, SMA 20, SMA 50) +1', 'MACD bullish (histogram 1) +1', 'RSI 25 oversold +1', 'flow net buying 60% of $1,000 traded +1']);
  });

  it('two against: short; a neutral RSI and a balanced flow count nothing', () => {
    expect(tradeSignal({ trend: 'down', macd: macd('bearish'), rsi14: { value: 50, state: 'neutral' } }, flow(505, 495))).toMatchObject({ signal: 'short', score: -2, confidence: 0.5 });
  });

  it('one point is no call; net selling of a tenth counts', () => {
    // Sideways 0, MACD +1, overbought -1, net selling of exactly a tenth -1: -1, no call.
    expect(tradeSignal({ trend: 'sideways', macd: macd('bullish'), rsi14: { value: 75, state: 'overbought' } }, flow(450, 550))).toMatchObject({ signal: 'neutral', score: -1, confidence: 0.25 });
    expect(tradeSignal({ trend: 'sideways', macd: macd('bullish'), rsi14: { value: 50, state: 'neutral' } }, flow(0, 0))).toMatchObject({ signal: 'neutral', score: 1, confidence: 0.25 });
  });

  it('too few candles and no trades: nothing counts, and the reasons are said', () => {
    const r = tradeSignal({ trend: na('needs 50 candles, 10 indexed'), macd: na('needs 34 candles, 10 indexed'), rsi14: na('needs 15 candles, 10 indexed') }, flow(0, 0));
    expect(r).toEqual({ signal: 'neutral', score: 0, confidence: 0, evidence: ['trend n/a (needs 50 candles, 10 indexed)', 'MACD n/a (needs 34 candles, 10 indexed)', 'RSI n/a (needs 15 candles, 10 indexed)', 'flow n/a (no trade in the window)'] });
  });
});
