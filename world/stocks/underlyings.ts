/**
 * The stocks behind the world's tokenized equities: a dozen names and an index, each a reference
 * price path in the one-market style of world/reference.ts (an equity factor shared through each
 * name's beta, plus its own moves) at realistic volatility, quoted only while their market is in
 * session. The underlying trades 24/5 (Monday 00:00 to Friday 24:00 UTC): at the weekend its price
 * stands still while tokens keep trading on chain, so premiums can open then. Scheduled events move
 * it: quarterly earnings with a jump, dividends (the price drops by the dividend on its ex-date), and
 * one split (the quoted price divided by its ratio from the effective date, a wrapper's multiplier
 * carrying it). Deterministic per (seed, origin): each day's draws come from their own generator,
 * so a price never depends on how far the path was read before. The hourly grid is aligned to UTC
 * hours (from the hour at or before the origin), so the session's edges fall on grid points and the
 * weekend's price is exactly Friday's close from Saturday 00:00 to Monday 00:00.
 */
import { EQUITIES, type Sector } from '../../lib/equities.js';
import { inSession } from '../../lib/market-hours.js';
import { Rng } from '../../lib/random.js';


export interface Underlying {
  readonly name: string;
  readonly sector: Sector;
  /** Quoted USD price at the origin. */
  readonly startUsd: number;
  /** Exposure to the equity factor (the index is the factor). */
  readonly beta: number;
  /** Annualised volatility of the name's own moves. */
  readonly idioVol: number;
  /** Annual dividend as a share of the price (0: pays none). */
  readonly dividendYield: number;
}

/** The names, by ticker (company and sector from lib/equities.ts). Volatilities and yields in realistic ranges; the index is the factor itself. */
export const UNDERLYINGS: Readonly<Record<string, Underlying>> = {
  SPY: { ...EQUITIES.SPY!, startUsd: 560, beta: 1, idioVol: 0, dividendYield: 0.013 },
  AAPL: { ...EQUITIES.AAPL!, startUsd: 225, beta: 1.1, idioVol: 0.18, dividendYield: 0.005 },
  MSFT: { ...EQUITIES.MSFT!, startUsd: 430, beta: 1.05, idioVol: 0.17, dividendYield: 0.008 },
  NVDA: { ...EQUITIES.NVDA!, startUsd: 120, beta: 1.7, idioVol: 0.4, dividendYield: 0 },
  TSLA: { ...EQUITIES.TSLA!, startUsd: 250, beta: 1.8, idioVol: 0.5, dividendYield: 0 },
  AMZN: { ...EQUITIES.AMZN!, startUsd: 185, beta: 1.2, idioVol: 0.25, dividendYield: 0 },
  META: { ...EQUITIES.META!, startUsd: 560, beta: 1.3, idioVol: 0.3, dividendYield: 0.004 },
  GOOGL: { ...EQUITIES.GOOGL!, startUsd: 165, beta: 1.1, idioVol: 0.24, dividendYield: 0.005 },
  JPM: { ...EQUITIES.JPM!, startUsd: 210, beta: 1.05, idioVol: 0.16, dividendYield: 0.022 },
  XOM: { ...EQUITIES.XOM!, startUsd: 115, beta: 0.8, idioVol: 0.2, dividendYield: 0.033 },
  JNJ: { ...EQUITIES.JNJ!, startUsd: 160, beta: 0.6, idioVol: 0.14, dividendYield: 0.03 },
  COIN: { ...EQUITIES.COIN!, startUsd: 200, beta: 1.6, idioVol: 0.6, dividendYield: 0 },
  MSTR: { ...EQUITIES.MSTR!, startUsd: 1_400, beta: 1.8, idioVol: 0.7, dividendYield: 0 },
};

/** Seconds between grid points (linear within a step). */
export const STOCK_STEP_SECONDS = 3_600;
const DAY = 86_400;
/** Session hours in a year (24 h a day, 5 days a week). */
const SESSION_STEPS_PER_YEAR = 24 * 5 * 52;
/** The equity factor's annualised volatility (the index's). */
const FACTOR_VOL = 0.17;
/** Earnings come about every quarter; the jump's standard deviation in log terms. */
const EARNINGS_EVERY_DAYS = 91;
const EARNINGS_JUMP_SD = 0.06;
/** Dividends are paid quarterly. */
const DIVIDEND_EVERY_DAYS = 91;
/** The split's ratios, one drawn. */
const SPLIT_RATIOS = [2, 3, 4, 10] as const;

export type StockEvent =
  | { readonly kind: 'earnings'; readonly symbol: string; readonly at: number; readonly jump: number }
  | { readonly kind: 'dividend'; readonly symbol: string; readonly at: number; readonly usdPerShare: number }
  | { readonly kind: 'split'; readonly symbol: string; readonly at: number; readonly ratio: number };

export class StockPaths {
  /** Log price per grid point, per symbol (index 0 at the grid's start, the UTC hour at or before the origin). */
  private readonly logs = new Map<string, number[]>();
  private readonly factor: number[] = [0];
  private readonly schedule: readonly StockEvent[];

  /** The grid's first point: the UTC hour at or before the origin. */
  private readonly start: number;

  constructor(readonly seed: string, readonly origin: number) {
    this.start = origin - (((origin % STOCK_STEP_SECONDS) + STOCK_STEP_SECONDS) % STOCK_STEP_SECONDS);
    this.schedule = drawSchedule(seed, origin, this.start);
  }

  /** The quoted USD price of `symbol` at `time` (after splits and dividends; the opening price before the grid's start). */
  priceUsd(symbol: string, time: number): number {
    const x = Math.max(0, (time - this.start) / STOCK_STEP_SECONDS);
    const i = Math.floor(x);
    const logs = this.extend(symbol, i + 1);
    const f = x - i;
    // An event at a grid point moves the price there, never before it: no interpolation across it.
    const next = this.eventAt(symbol, i + 1) ? logs[i]! : logs[i + 1]!;
    return Math.exp(logs[i]! * (1 - f) + next * f);
  }

  /** How many shares of today one share at the origin became (the product of the splits up to `time`). */
  splitFactor(symbol: string, time: number): number {
    return this.schedule.filter((e) => e.kind === 'split' && e.symbol === symbol && e.at <= time).reduce((r, e) => r * (e as { ratio: number }).ratio, 1);
  }

  /** The scheduled events of `symbol` (every symbol when omitted) in [from, to), in time order. */
  events(from: number, to: number, symbol?: string): StockEvent[] {
    return this.schedule.filter((e) => e.at >= from && e.at < to && (!symbol || e.symbol === symbol));
  }

  private eventAt(symbol: string, step: number): boolean {
    const at = this.start + step * STOCK_STEP_SECONDS;
    return this.schedule.some((e) => e.symbol === symbol && e.at === at);
  }

  /** The equity factor's log moves, grown to cover grid point `step`. */
  private extendFactor(step: number): number[] {
    for (let i = this.factor.length; i <= step; i++) {
      const t = this.start + i * STOCK_STEP_SECONDS;
      const shock = inSession(t - STOCK_STEP_SECONDS) ? stepRng(this.seed, 'factor', this.origin, i).normal() * FACTOR_VOL / Math.sqrt(SESSION_STEPS_PER_YEAR) : 0;
      this.factor.push(this.factor[i - 1]! + shock);
    }
    return this.factor;
  }

  private extend(symbol: string, step: number): number[] {
    const spec = UNDERLYINGS[symbol];
    if (!spec) throw new Error(`no underlying ${symbol}`);
    let logs = this.logs.get(symbol);
    if (!logs) this.logs.set(symbol, (logs = [Math.log(spec.startUsd)]));
    if (logs.length > step) return logs;
    const factor = this.extendFactor(step);
    for (let i = logs.length; i <= step; i++) {
      const t = this.start + i * STOCK_STEP_SECONDS;
      // Only hours in session move it: the weekend's price is Friday's close.
      const open = inSession(t - STOCK_STEP_SECONDS);
      const own = open ? stepRng(this.seed, symbol, this.origin, i).normal() * spec.idioVol / Math.sqrt(SESSION_STEPS_PER_YEAR) : 0;
      let log = logs[i - 1]! + spec.beta * (factor[i]! - factor[i - 1]!) + own;
      for (const e of this.schedule) {
        if (e.symbol !== symbol || e.at !== t) continue;
        if (e.kind === 'earnings') log += e.jump;
        if (e.kind === 'split') log -= Math.log(e.ratio);
        if (e.kind === 'dividend') log += Math.log(Math.max(0.01, 1 - e.usdPerShare / Math.exp(log)));
      }
      logs.push(log);
    }
    return logs;
  }
}

/** One generator per (what, day), so a step's draw does not depend on what was read before. */
function stepRng(seed: string, what: string, origin: number, step: number): Rng {
  const perDay = DAY / STOCK_STEP_SECONDS;
  const rng = new Rng(`${seed}:stocks:${what}:${origin}:${Math.floor(step / perDay)}`);
  for (let k = 0; k < step % perDay; k++) rng.normal();
  return rng;
}

/** The grid point at or after `time` that ends an hour in session (events happen while the market trades). */
function sessionPoint(start: number, time: number): number {
  let t = start + Math.max(0, Math.ceil((time - start) / STOCK_STEP_SECONDS)) * STOCK_STEP_SECONDS;
  while (!inSession(t - STOCK_STEP_SECONDS)) t += STOCK_STEP_SECONDS;
  return t;
}

/** The first grid point at or after `time` in session: a day's open (Monday to Friday 00:00 UTC) or later. */
function sessionOpenPoint(start: number, time: number): number {
  let t = start + Math.max(0, Math.ceil((time - start) / STOCK_STEP_SECONDS)) * STOCK_STEP_SECONDS;
  while (!inSession(t)) t += STOCK_STEP_SECONDS;
  return t;
}

/** Every name's events over the first year from the origin: earnings and dividends each quarter, one split. */
function drawSchedule(seed: string, origin: number, start: number): StockEvent[] {
  const rng = new Rng(`${seed}:stocks:schedule:${origin}`);
  const events: StockEvent[] = [];
  const symbols = Object.keys(UNDERLYINGS);
  for (const symbol of symbols) {
    const spec = UNDERLYINGS[symbol]!;
    const r = rng.fork(symbol);
    if (spec.sector !== 'index') {
      // Earnings at 21:00 UTC (after the close of the main session) on a drawn day each quarter.
      for (let first = r.int(1, EARNINGS_EVERY_DAYS), q = 0; q < 4; q++) {
        const day = origin - (origin % DAY) + (first + q * EARNINGS_EVERY_DAYS) * DAY + 21 * 3_600;
        events.push({ kind: 'earnings', symbol, at: sessionPoint(start, day), jump: r.normal() * EARNINGS_JUMP_SD });
      }
    }
    if (spec.dividendYield > 0) {
      for (let first = r.int(1, DIVIDEND_EVERY_DAYS), q = 0; q < 4; q++) {
        const day = origin - (origin % DAY) + (first + q * DIVIDEND_EVERY_DAYS) * DAY + 14 * 3_600;
        // A quarter of the yearly yield on the opening price, in cents.
        events.push({ kind: 'dividend', symbol, at: sessionPoint(start, day), usdPerShare: Math.round((spec.startUsd * spec.dividendYield * 100) / 4) / 100 });
      }
    }
  }
  // One split, of a high-priced name, effective at a session's open within the first weeks.
  const splitter = rng.pick(symbols.filter((s) => UNDERLYINGS[s]!.startUsd >= 400 && UNDERLYINGS[s]!.sector !== 'index'));
  events.push({ kind: 'split', symbol: splitter, at: sessionOpenPoint(start, origin - (origin % DAY) + rng.int(3, 21) * DAY), ratio: rng.pick(SPLIT_RATIOS) });
  return events.sort((a, b) => a.at - b.at || a.symbol.localeCompare(b.symbol));
}
