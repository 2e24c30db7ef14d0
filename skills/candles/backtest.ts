/**
 * Strategy backtests over indexed candles (`backtest/v1`), long or flat: a signal computed on a
 * candle's close is traded at the next candle's open (no look-ahead), each side pays the fee,
 * and the result is set against buying and holding over the same candles.
 */
import { RSI, SMA } from 'trading-signals';
import type { Candle } from '../data/market.js';
import { round } from '../data/market.js';

export const STRATEGIES = ['moving-average-cross', 'rsi-reversion', 'breakout', 'buy-and-hold'] as const;
export type Strategy = (typeof STRATEGIES)[number];

export const BACKTEST_METHODOLOGY =
  'backtest/v1 (candles from market/v1; long or flat; signals on the close, fills at the next open; fee per side; moving-average-cross: long while SMA(fast) > SMA(slow); rsi-reversion: enter RSI(14) < 30, exit > 70; breakout: enter above the slow-window high, exit below the fast-window low; Sharpe annualised from per-candle returns)';

export interface BacktestParams {
  readonly strategy: Strategy;
  readonly fastWindow: number;
  readonly slowWindow: number;
  readonly feeBps: number;
  readonly candleSeconds: number;
}

interface Trade {
  entryTime: string;
  entryPrice: number;
  exitTime: string | null;
  exitPrice: number;
  returnPct: number;
  open: boolean;
}

/** Target position (true = long) after each candle's close. */
function signals(candles: readonly Candle[], p: BacktestParams): boolean[] {
  const out: boolean[] = [];
  let long = false;
  const fast = new SMA(p.fastWindow);
  const slow = new SMA(p.slowWindow);
  const rsi = new RSI(14);
  candles.forEach((c, i) => {
    fast.add(c.close);
    slow.add(c.close);
    rsi.add(c.close);
    switch (p.strategy) {
      case 'buy-and-hold':
        long = true;
        break;
      case 'moving-average-cross':
        if (fast.isStable && slow.isStable) long = Number(fast.getResult()) > Number(slow.getResult());
        break;
      case 'rsi-reversion':
        if (rsi.isStable) {
          const r = Number(rsi.getResult());
          if (r < 30) long = true;
          else if (r > 70) long = false;
        }
        break;
      case 'breakout': {
        const prior = candles.slice(Math.max(0, i - p.slowWindow), i);
        const recent = candles.slice(Math.max(0, i - p.fastWindow), i);
        if (prior.length === p.slowWindow && c.close > Math.max(...prior.map((x) => x.high))) long = true;
        else if (recent.length === p.fastWindow && c.close < Math.min(...recent.map((x) => x.low))) long = false;
        break;
      }
    }
    out.push(long);
  });
  return out;
}

export function backtest(candles: readonly Candle[], p: BacktestParams) {
  const target = signals(candles, p);
  const fee = p.feeBps / 10_000;
  let equity = 1;
  let peak = 1;
  let maxDrawdown = 0;
  let long = false;
  let candlesLong = 0;
  const returns: number[] = [];
  const trades: Trade[] = [];
  for (let i = 1; i < candles.length; i++) {
    const c = candles[i]!;
    const prevClose = candles[i - 1]!.close;
    const before = equity;
    const want = target[i - 1]!;
    if (long && !want) {
      // Held until this open, sold there.
      equity *= (c.open / prevClose) * (1 - fee);
      closeTrade(trades[trades.length - 1]!, c.time, c.open, fee);
    } else if (long) {
      equity *= c.close / prevClose;
    } else if (want) {
      // Bought at this open, marked at its close.
      equity *= (1 - fee) * (c.close / c.open);
      trades.push({ entryTime: c.time, entryPrice: c.open, exitTime: null, exitPrice: c.open, returnPct: 0, open: true });
    }
    long = want;
    if (long) candlesLong++;
    returns.push(equity / before - 1);
    peak = Math.max(peak, equity);
    maxDrawdown = Math.max(maxDrawdown, 1 - equity / peak);
  }
  const last = candles[candles.length - 1]!;
  const openTrade = trades[trades.length - 1];
  if (openTrade?.open) openTrade.returnPct = round((last.close / openTrade.entryPrice - 1) * 100, 4);
  const closed = trades.filter((t) => !t.open);
  const mean = returns.reduce((a, b) => a + b, 0) / (returns.length || 1);
  const sd = Math.sqrt(returns.reduce((a, b) => a + (b - mean) ** 2, 0) / (returns.length || 1));
  const perYear = (365 * 86_400) / p.candleSeconds;
  return {
    candles: candles.length,
    from: candles[0]!.time,
    to: last.time,
    totalReturnPct: round((equity - 1) * 100, 4),
    buyAndHoldReturnPct: round((last.close / candles[0]!.close - 1) * 100, 4),
    maxDrawdownPct: round(maxDrawdown * 100, 4),
    sharpe: sd > 0 ? round((mean / sd) * Math.sqrt(perYear), 4) : null,
    exposurePct: round((candlesLong / Math.max(1, candles.length - 1)) * 100, 2),
    tradeCount: trades.length,
    winRate: closed.length ? round(closed.filter((t) => t.returnPct > 0).length / closed.length, 4) : null,
    trades: trades.map((t) => ({ ...t, entryPrice: Number(t.entryPrice.toPrecision(8)), exitPrice: Number(t.exitPrice.toPrecision(8)) })),
  };
}

function closeTrade(trade: Trade, time: string, price: number, fee: number): void {
  trade.exitTime = time;
  trade.exitPrice = price;
  trade.open = false;
  trade.returnPct = round(((price / trade.entryPrice) * (1 - fee) ** 2 - 1) * 100, 4);
}
