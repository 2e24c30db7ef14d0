import { describe, expect, it } from 'vitest';
import { inSession } from '../../lib/market-hours.js';
import { STOCK_STEP_SECONDS, StockPaths, UNDERLYINGS } from '../../world/stocks/underlyings.js';

const DAY = 86_400;
/** A Monday, 00:00 UTC. */
const ORIGIN = Date.UTC(2026, 0, 5) / 1000;

/** Annualised volatility of hourly log returns over the session hours of `days`. */
function sessionVol(paths: StockPaths, symbol: string, days: number, skip: (t: number) => boolean = () => false): number {
  const r: number[] = [];
  for (let t = ORIGIN + STOCK_STEP_SECONDS; t < ORIGIN + days * DAY; t += STOCK_STEP_SECONDS) {
    if (!inSession(t - STOCK_STEP_SECONDS) || skip(t)) continue;
    r.push(Math.log(paths.priceUsd(symbol, t) / paths.priceUsd(symbol, t - STOCK_STEP_SECONDS)));
  }
  const mean = r.reduce((s, x) => s + x, 0) / r.length;
  return Math.sqrt((r.reduce((s, x) => s + (x - mean) ** 2, 0) / (r.length - 1)) * 24 * 5 * 52);
}

describe('the stocks behind the tokenized equities', () => {
  it('is the same path whichever moment is read first', () => {
    const a = new StockPaths('stocks-test', ORIGIN);
    const b = new StockPaths('stocks-test', ORIGIN);
    const late = a.priceUsd('NVDA', ORIGIN + 40 * DAY + 1_234);
    for (let t = ORIGIN; t <= ORIGIN + 40 * DAY; t += 7 * 3_600) b.priceUsd('NVDA', t);
    expect(b.priceUsd('NVDA', ORIGIN + 40 * DAY + 1_234)).toBe(late);
    expect(new StockPaths('other', ORIGIN).priceUsd('NVDA', ORIGIN + 40 * DAY)).not.toBe(late);
  });

  it('stands still at the weekend and moves in session', () => {
    const paths = new StockPaths('stocks-test', ORIGIN);
    const saturday = ORIGIN + 5 * DAY;
    const close = paths.priceUsd('AAPL', saturday);
    for (let h = 1; h < 48; h += 5) expect(paths.priceUsd('AAPL', saturday + h * 3_600)).toBe(close);
    expect(inSession(saturday + 3_600)).toBe(false);
    expect(paths.priceUsd('AAPL', saturday + 2 * DAY + 5 * 3_600)).not.toBe(close);
    expect(paths.priceUsd('AAPL', ORIGIN + DAY)).not.toBe(paths.priceUsd('AAPL', ORIGIN + DAY + 3 * 3_600));
  });

  it('moves at realistic volatility: the index near its factor, a high-beta name well above it', () => {
    const paths = new StockPaths('stocks-test', ORIGIN);
    const jumps = (symbol: string) => new Set(paths.events(ORIGIN, ORIGIN + 200 * DAY, symbol).map((e) => e.at));
    const index = sessionVol(paths, 'SPY', 180, (t) => jumps('SPY').has(t));
    expect(index).toBeGreaterThan(0.12);
    expect(index).toBeLessThan(0.24);
    expect(sessionVol(paths, 'NVDA', 180, (t) => jumps('NVDA').has(t))).toBeGreaterThan(index * 1.5);
    expect(sessionVol(paths, 'JNJ', 180, (t) => jumps('JNJ').has(t))).toBeLessThan(sessionVol(paths, 'NVDA', 180, (t) => jumps('NVDA').has(t)));
  });

  it('schedules earnings each quarter, dividends for the payers, and one split, every one in session', () => {
    const paths = new StockPaths('stocks-test', ORIGIN);
    const year = paths.events(ORIGIN - DAY, ORIGIN + 400 * DAY);
    // Earnings and dividends end an hour in session; a split takes effect at a session's open.
    for (const e of year) expect(inSession(e.kind === 'split' ? e.at : e.at - STOCK_STEP_SECONDS), `${e.kind} ${e.symbol}`).toBe(true);
    for (const [symbol, spec] of Object.entries(UNDERLYINGS)) {
      expect(year.filter((e) => e.symbol === symbol && e.kind === 'earnings').length, symbol).toBe(spec.sector === 'index' ? 0 : 4);
      expect(year.filter((e) => e.symbol === symbol && e.kind === 'dividend').length, symbol).toBe(spec.dividendYield > 0 ? 4 : 0);
    }
    expect(year.filter((e) => e.kind === 'split')).toHaveLength(1);
  });

  it('a split divides the quoted price by its ratio from its effective moment, and the split factor says so', () => {
    const paths = new StockPaths('stocks-test', ORIGIN);
    const split = paths.events(ORIGIN, ORIGIN + 400 * DAY).find((e) => e.kind === 'split')!;
    if (split.kind !== 'split') throw new Error('no split');
    const before = paths.priceUsd(split.symbol, split.at - 1);
    const after = paths.priceUsd(split.symbol, split.at);
    // One hour's own move at most a few percent: the ratio dominates.
    expect((before / after) / split.ratio).toBeGreaterThan(0.9);
    expect((before / after) / split.ratio).toBeLessThan(1.1);
    expect(paths.splitFactor(split.symbol, split.at - 1)).toBe(1);
    expect(paths.splitFactor(split.symbol, split.at)).toBe(split.ratio);
    // A holder's value is continuous through it: shares × price.
    expect((after * split.ratio) / before).toBeCloseTo(1, 1);
  });

  it('a dividend lowers the price by about the dividend on its ex-date; an earnings jump moves it more than an ordinary hour', () => {
    const paths = new StockPaths('stocks-test', ORIGIN);
    const dividends = paths.events(ORIGIN, ORIGIN + 400 * DAY).filter((e) => e.kind === 'dividend' && e.symbol === 'XOM');
    for (const d of dividends) {
      if (d.kind !== 'dividend') continue;
      const drop = paths.priceUsd('XOM', d.at - STOCK_STEP_SECONDS) - paths.priceUsd('XOM', d.at);
      // The dividend plus one hour's move (~0.3% of ~$115).
      expect(Math.abs(drop - d.usdPerShare)).toBeLessThan(1.5);
    }
    const earnings = paths.events(ORIGIN, ORIGIN + 400 * DAY).filter((e) => e.kind === 'earnings');
    const moveAt = (symbol: string, t: number) => Math.abs(Math.log(paths.priceUsd(symbol, t) / paths.priceUsd(symbol, t - STOCK_STEP_SECONDS)));
    const atEarnings = earnings.reduce((s, e) => s + moveAt(e.symbol, e.at), 0) / earnings.length;
    const ordinary = earnings.reduce((s, e) => s + moveAt(e.symbol, e.at - 2 * STOCK_STEP_SECONDS), 0) / earnings.length;
    expect(atEarnings).toBeGreaterThan(ordinary * 3);
  });
});

describe('the stocks on a grid aligned to UTC hours', () => {
  it('stand still from Friday 24:00 to Monday 00:00 whatever minute the origin falls on', () => {
    // A Wednesday, 13:47:13 UTC.
    const origin = Date.UTC(2026, 0, 7, 13, 47, 13) / 1000;
    const paths = new StockPaths('aligned', origin);
    const close = Date.UTC(2026, 0, 10) / 1000;
    const open = Date.UTC(2026, 0, 12) / 1000;
    const atClose = paths.priceUsd('TSLA', close);
    expect(paths.priceUsd('TSLA', close - 1_800)).not.toBe(atClose);
    for (let t = close; t <= open; t += 1_234) expect(paths.priceUsd('TSLA', t)).toBe(atClose);
    expect(paths.priceUsd('TSLA', open + 1_800)).not.toBe(atClose);
    for (const e of paths.events(origin, origin + 120 * DAY)) expect(e.at % STOCK_STEP_SECONDS, `${e.kind} ${e.symbol}`).toBe(0);
  });
});
