/**
 * The world's prediction markets as one plan, the same whenever it is asked: events are drawn a
 * day at a time (each day from its own generator, numbered in day order), from two weeks before
 * the history's origin (markets already open when the history starts) on, and every market's
 * trades cover its whole life. Extending the plan to a later day adds events and their traders
 * and changes nothing drawn before, so a venue built on it shows what stands at its own clock,
 * and the Polygon module funds the very accounts the venues show. The truth in it (chances,
 * outcomes, insiders, planted gaps) is for the labels, never for the engines.
 */
import { drawEvents, type PredictionEvent } from './events.js';
import { simulateTrading, type PredictionTrading } from './trading.js';

const DAY = 86_400;
/** Events drawn per day of the plan. */
export const EVENTS_PER_DAY = 2;
/** Days before the origin whose events are drawn too (the longest market runs 14 days). */
export const DAYS_BEFORE_ORIGIN = 14;
/** The crypto questions' assets (the reference paths'), with the volatility their fair chance is priced with. */
export const PREDICTION_ASSETS = [
  { asset: 'BTC', annualVol: 0.55 },
  { asset: 'ETH', annualVol: 0.7 },
  { asset: 'SOL', annualVol: 0.9 },
] as const;

export interface PredictionPlanState {
  readonly events: readonly PredictionEvent[];
  readonly trading: PredictionTrading;
  /** The plan holds every event opening before this (unix seconds). */
  readonly through: number;
}

export class PredictionPlan {
  private readonly days: PredictionEvent[][] = [];
  private current: PredictionPlanState | undefined;

  constructor(
    readonly seed: string,
    /** The history's origin (unix seconds; the reference paths'). */
    readonly origin: number,
    private readonly priceAt: (asset: string, time: number) => number,
  ) {}

  /** The plan with every event opening before `t` (drawn up to the end of that day). */
  through(t: number): PredictionPlanState {
    const lastDay = Math.floor((t - this.origin) / DAY);
    if (this.current && this.days.length - DAYS_BEFORE_ORIGIN > lastDay) return this.current;
    for (let day = this.days.length - DAYS_BEFORE_ORIGIN; day <= lastDay; day++) this.days.push(this.drawDay(day));
    const events = this.days.flat();
    // Trades over each market's whole life: a venue shows those up to its clock.
    const trading = simulateTrading(events, { seed: this.seed, until: Number.POSITIVE_INFINITY, since: this.origin - DAYS_BEFORE_ORIGIN * DAY, priceAt: this.priceAt });
    this.current = { events, trading, through: this.origin + (lastDay + 1) * DAY };
    return this.current;
  }

  private drawDay(day: number): PredictionEvent[] {
    return drawEvents({
      seed: `${this.seed}:day:${day}`,
      origin: this.origin + day * DAY,
      days: 1,
      count: EVENTS_PER_DAY,
      firstNumber: 1 + (day + DAYS_BEFORE_ORIGIN) * EVENTS_PER_DAY,
      opensWithinSeconds: DAY,
      // Before the origin the reference paths stand still: only drawn events open there.
      assets: day < 0 ? [] : PREDICTION_ASSETS,
      priceAt: this.priceAt,
    });
  }
}
