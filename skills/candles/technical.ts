/**
 * Technical analysis over indexed candles (`technical/v1`): RSI, MACD, moving averages,
 * Bollinger bands and ATR computed by `trading-signals`, support and resistance from swing
 * pivots, and a trend call from the averages. An indicator with too few candles is reported
 * unavailable with how many it needs, never extrapolated.
 */
import { ATR, BollingerBands, EMA, MACD, RSI, SMA } from 'trading-signals';
import type { Candle } from '../data/market.js';
import { round } from '../data/market.js';

/** Prices span many magnitudes (a meme token at 1e-7): keep significant digits, not decimals. */
const sig = (v: number) => Number(v.toPrecision(8));

export const TECHNICAL_METHODOLOGY =
  'technical/v1 (candles from market/v1, forward-filled where no trade; RSI 14 Wilder, MACD 12/26/9 on EMAs, SMA 20/50, EMA 20, Bollinger 20/2, ATR 14 by trading-signals; support/resistance = swing lows/highs over +-3 candles, merged within 1.5%)';

const PIVOT_SPAN = 3;
const LEVEL_MERGE = 0.015;
const LEVELS_SHOWN = 3;

type Unavailable = { available: false; reason: string };
const needs = (n: number, have: number): Unavailable => ({ available: false, reason: `needs ${n} candles, ${have} indexed` });

export function technicalAnalysis(candles: readonly Candle[]) {
  const closes = candles.map((c) => c.close);
  const last = closes[closes.length - 1] ?? null;
  const n = candles.length;
  const feed = <T extends { add(v: never): unknown }>(indicator: T, values: readonly unknown[]) => {
    for (const v of values) indicator.add(v as never);
    return indicator;
  };
  const value = (ind: { isStable: boolean; getResult(): unknown }, period: number) => (ind.isStable ? sig(Number(ind.getResult())) : needs(period, n));

  const rsi = feed(new RSI(14), closes);
  const macd = feed(new MACD(new EMA(12), new EMA(26), new EMA(9)), closes);
  const sma20 = feed(new SMA(20), closes);
  const sma50 = feed(new SMA(50), closes);
  const ema20 = feed(new EMA(20), closes);
  const bands = feed(new BollingerBands(20, 2), closes);
  const atr = feed(new ATR(14), candles.map((c) => ({ high: c.high, low: c.low, close: c.close })));

  const rsiValue = rsi.isStable ? Number(rsi.getResult()) : null;
  // trading-signals calls MACD stable once the slow EMA is (26 candles), when the signal EMA has
  // seen one MACD value; the signal line is only real from 26 + 9 − 1 = 34 candles.
  const macdResult = macd.isStable && n >= 34 ? macd.getResult() : null;
  const band = bands.isStable ? bands.getResult() : null;
  const fast = sma20.isStable ? Number(sma20.getResult()) : null;
  const slow = sma50.isStable ? Number(sma50.getResult()) : null;
  const levels = pivotLevels(candles, last);

  return {
    candles: n,
    lastClose: last,
    rsi14: rsiValue === null ? needs(15, n) : { value: round(rsiValue, 2), state: rsiValue >= 70 ? ('overbought' as const) : rsiValue <= 30 ? ('oversold' as const) : ('neutral' as const) },
    macd: macdResult
      ? { macd: sig(Number(macdResult.macd)), signal: sig(Number(macdResult.signal)), histogram: sig(Number(macdResult.histogram)), bias: Number(macdResult.histogram) > 0 ? ('bullish' as const) : ('bearish' as const) }
      : needs(34, n),
    sma20: value(sma20, 20),
    sma50: value(sma50, 50),
    ema20: value(ema20, 20),
    bollinger: band && last !== null
      ? { upper: sig(Number(band.upper)), middle: sig(Number(band.middle)), lower: sig(Number(band.lower)), percentB: round((last - Number(band.lower)) / (Number(band.upper) - Number(band.lower) || 1), 4) }
      : needs(20, n),
    atr14: value(atr, 15),
    trend: fast !== null && slow !== null && last !== null
      ? (last > fast && fast > slow ? ('up' as const) : last < fast && fast < slow ? ('down' as const) : ('sideways' as const))
      : needs(50, n),
    support: levels.support,
    resistance: levels.resistance,
  };
}

/** Swing lows below the last close (support) and swing highs above it (resistance), nearest first. */
function pivotLevels(candles: readonly Candle[], last: number | null): { support: number[]; resistance: number[] } {
  if (last === null) return { support: [], resistance: [] };
  const lows: number[] = [];
  const highs: number[] = [];
  for (let i = PIVOT_SPAN; i < candles.length - PIVOT_SPAN; i++) {
    const window = candles.slice(i - PIVOT_SPAN, i + PIVOT_SPAN + 1);
    if (window.every((c) => c.low >= candles[i]!.low)) lows.push(candles[i]!.low);
    if (window.every((c) => c.high <= candles[i]!.high)) highs.push(candles[i]!.high);
  }
  const merge = (levels: number[]) =>
    levels.sort((a, b) => a - b).reduce<number[]>((acc, l) => {
      const prev = acc[acc.length - 1];
      if (prev !== undefined && Math.abs(l - prev) / prev <= LEVEL_MERGE) acc[acc.length - 1] = (prev + l) / 2;
      else acc.push(l);
      return acc;
    }, []);
  return {
    support: merge(lows).filter((l) => l < last).sort((a, b) => b - a).slice(0, LEVELS_SHOWN).map((l) => sig(l)),
    resistance: merge(highs).filter((l) => l > last).sort((a, b) => a - b).slice(0, LEVELS_SHOWN).map((l) => sig(l)),
  };
}
