import { describe, expect, it } from 'vitest';
import { candlesFrom } from '../data/testing/fixtures.js';
import { technicalAnalysis } from './technical.js';

const range = (from: number, to: number) => Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => (from < to ? from + i : from - i));
/** An EMA of period n by hand: weight 2 / (n + 1), seeded with its first input (as trading-signals seeds it). */
const emaByHand = (xs: readonly number[], n: number) => {
  const k = 2 / (n + 1);
  let e: number | undefined;
  return xs.map((x) => (e = e === undefined ? x : x * k + e * (1 - k)));
};
/** MACD 12/26/9 by hand: EMA12 − EMA26 from the 26th close on, its signal the EMA9 of those values. */
const macdByHand = (closes: readonly number[]) => {
  const fast = emaByHand(closes, 12);
  const slow = emaByHand(closes, 26);
  const line = closes.map((_, i) => fast[i]! - slow[i]!).slice(25);
  const signal = emaByHand(line, 9);
  return { macd: line.at(-1)!, signal: signal.at(-1)!, histogram: line.at(-1)! - signal.at(-1)! };
};
const sig8 = (v: number) => Number(v.toPrecision(8));
/** 10, then +2 / −1 seven times: 15 closes, 14 changes. */
const zigzag = [10, 12, 11, 13, 12, 14, 13, 15, 14, 16, 15, 17, 16, 18, 17];

describe('technical/v1', () => {
  it('RSI(14) Wilder: first average over 14 changes, then smoothed by 13/14', () => {
    // Average gain 7·2/14 = 1, average loss 7·1/14 = 0.5: RS 2, RSI 100 − 100/3.
    expect(technicalAnalysis(candlesFrom(zigzag)).rsi14).toEqual({ value: 66.67, state: 'neutral' });
    // +2 more: gain (13·1 + 2)/14, loss 13·0.5/14: RS = 15/6.5.
    const next = 100 - 100 / (1 + 15 / 6.5);
    expect(technicalAnalysis(candlesFrom([...zigzag, 19])).rsi14).toEqual({ value: Math.round(next * 100) / 100, state: 'neutral' });
    // +2 again: gain (13·15/14 + 2)/14, loss 13·6.5/14/14: RS = 223/84.5 → above 70.
    const third = 100 - 100 / (1 + 223 / 84.5);
    expect(technicalAnalysis(candlesFrom([...zigzag, 19, 21])).rsi14).toEqual({ value: Math.round(third * 100) / 100, state: 'overbought' });
  });

  it('14 candles are too few for RSI(14); nothing is extrapolated', () => {
    const r = technicalAnalysis(candlesFrom(zigzag.slice(0, 14)));
    expect(r.rsi14).toEqual({ available: false, reason: 'needs 15 candles, 14 indexed' });
    expect(r.sma20).toEqual({ available: false, reason: 'needs 20 candles, 14 indexed' });
    expect(r.trend).toEqual({ available: false, reason: 'needs 50 candles, 14 indexed' });
  });

  it('a steady rise: RSI 100, SMA20 and SMA50 of the last closes, trend up', () => {
    const r = technicalAnalysis(candlesFrom(range(1, 60)));
    expect(r.rsi14).toEqual({ value: 100, state: 'overbought' });
    expect(r.sma20).toBe(50.5); // mean of 41..60
    expect(r.sma50).toBe(35.5); // mean of 11..60
    expect(r.trend).toBe('up');
    expect(r.lastClose).toBe(60);
  });

  it('a steady fall: RSI 0, trend down', () => {
    const r = technicalAnalysis(candlesFrom(range(60, 1)));
    expect(r.rsi14).toEqual({ value: 0, state: 'oversold' });
    expect(r.trend).toBe('down');
  });

  it('a flat market: Bollinger bands collapse on the price, ATR is the constant range', () => {
    const r = technicalAnalysis(candlesFrom(Array(30).fill(5), 1));
    expect(r.bollinger).toEqual({ upper: 5, middle: 5, lower: 5, percentB: 0 });
    expect(r.atr14).toBe(2); // every true range is high − low = 6 − 4
  });

  it('MACD 12/26/9 is there from 34 candles: 26 for the slow EMA, then 9 MACD values for the signal', () => {
    // A rise that turns: the MACD line is still positive, but it has fallen below its signal.
    const turning = [...range(1, 30), 28, 26, 24, 22];
    const want = macdByHand(turning);
    expect(want.macd).toBeGreaterThan(0);
    expect(want.histogram).toBeLessThan(0);
    const { macd } = technicalAnalysis(candlesFrom(turning));
    expect(macd).toMatchObject({ bias: 'bearish' });
    const m = macd as { macd: number; signal: number; histogram: number };
    expect(m.macd).toBeCloseTo(want.macd, 6);
    expect(m.signal).toBeCloseTo(want.signal, 6);
    expect(m.histogram).toBeCloseTo(want.histogram, 6);
    // A steady rise: the MACD line keeps climbing above its signal.
    const rising = macdByHand(range(1, 34));
    expect(rising.histogram).toBeGreaterThan(0);
    expect(technicalAnalysis(candlesFrom(range(1, 34))).macd).toEqual({ macd: sig8(rising.macd), signal: sig8(rising.signal), histogram: sig8(rising.histogram), bias: 'bullish' });
  });

  it('MACD with 26-33 candles is unavailable, not a signal line seeded from one value', () => {
    expect(technicalAnalysis(candlesFrom(range(1, 30))).macd).toEqual({ available: false, reason: 'needs 34 candles, 30 indexed' });
  });

  it('support and resistance from swing lows and highs over ±3 candles', () => {
    // Swing low 8 (candles 3 and 4 share it: merged), swing high 12 at candle 7; last close 10.
    const r = technicalAnalysis(candlesFrom([10, 10, 10, 8, 10, 10, 10, 12, 10, 10, 10]));
    expect(r.support).toEqual([8]);
    expect(r.resistance).toEqual([12]);
  });

  it('no candles: nothing known, nothing invented', () => {
    const r = technicalAnalysis([]);
    expect(r).toMatchObject({ candles: 0, lastClose: null, support: [], resistance: [] });
    expect(r.rsi14).toEqual({ available: false, reason: 'needs 15 candles, 0 indexed' });
  });
});
