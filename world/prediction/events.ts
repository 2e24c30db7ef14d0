/**
 * The events the world's prediction markets ask about: the question, when it closes, the truth,
 * and what the public believes along the way. Two kinds:
 *  - crypto ("Will ETH close above $K on <date>?"), decided by the world's reference price path;
 *    the fair chance at a moment is the lognormal chance of finishing above K from the price then;
 *  - drawn (elections, sports, macro releases): the world draws a true chance; the public belief
 *    starts near it and moves with each piece of news along a calibrated path (a side it puts at p
 *    wins p of the time), the last news all but settling it; it ends at the outcome at the close.
 * Some events are listed on both venues, with a rule that differs (a cutoff hours apart, another
 * resolution source): the risk behind a cross-venue price gap. Deterministic per seed; the truth
 * (chances, outcomes, news) is for the labels, never for the engines.
 */
import { Rng } from '../../lib/random.js';

export type EventCategory = 'crypto' | 'election' | 'sports' | 'macro';

/** A piece of news: the public belief from `at` on. */
export interface NewsJump {
  readonly at: number;
  readonly belief: number;
}

/** How an event is listed on the second venue when it is listed on both. */
export interface CrossListing {
  /** Its close on the second venue, seconds after (or before) the first's. */
  readonly closeShiftSeconds: number;
  /** The rule that differs, as its question says it. */
  readonly ruleDifference: string;
}

export interface PredictionEvent {
  readonly id: string;
  readonly title: string;
  readonly category: EventCategory;
  readonly opensAt: number;
  readonly closesAt: number;
  /** The chance of yes the world drew (crypto: the fair chance when it opened). */
  readonly truth: number;
  readonly outcome: boolean;
  /** Drawn events: the news, in time order (the last one just before the close). */
  readonly news: readonly NewsJump[];
  /** Crypto events: the asset, the strike and the volatility the fair chance is priced with. */
  readonly strike?: { readonly asset: string; readonly usd: number; readonly annualVol: number };
  readonly crossListing?: CrossListing;
}

export interface EventWorldOptions {
  readonly seed: string;
  /** Unix seconds: the history starts here and runs `days`. */
  readonly origin: number;
  readonly days: number;
  /** Events drawn (default 48). */
  readonly count?: number;
  /** The first event's number (ids are `pm-<n>`; default 1), so batches drawn apart never share one. */
  readonly firstNumber?: number;
  /** Seconds after the origin within which events open (default: all but the history's last day). */
  readonly opensWithinSeconds?: number;
  /** The crypto events' assets, with the volatility their fair chance is priced with. */
  readonly assets: readonly { readonly asset: string; readonly annualVol: number }[];
  /** The world's reference price of `asset` at `time` (USD). */
  priceAt(asset: string, time: number): number;
}

const DAY = 86_400;
const YEAR = 365 * DAY;
/** Share of events listed on both venues. */
const CROSS_LISTED = 0.35;
/** A drawn event's news as fractions of its life: the opening belief's, and the window the last news falls in. */
const OPENING_INFORMATION = 0.03;
const LAST_NEWS_FROM = 0.97;
const LAST_NEWS_TO = 0.99;
const DRAWN_TOPICS: Record<Exclude<EventCategory, 'crypto'>, readonly string[]> = {
  election: ['Will the incumbent win the Northland governor race?', 'Will the Harbor Party win a majority in the Vale parliament?', 'Will turnout in the Eastmark referendum exceed 60%?'],
  sports: ['Will the Rovers win the Cup final?', 'Will Okafor win the Riverside marathon?', 'Will the Falcons reach the league semi-finals?'],
  macro: ['Will the central bank cut rates at its next meeting?', 'Will monthly CPI come in above 0.3%?', 'Will the unemployment rate rise above 4.5%?'],
};
const RULE_DIFFERENCES = [
  'resolves on the official certified result, not the first reported one',
  'uses a different price source for the close',
  'counts the result at the end of regular time only',
  'closes at midnight UTC instead of the announcement time',
];

/** Every event of the history, in the order drawn. */
export function drawEvents(options: EventWorldOptions): PredictionEvent[] {
  const rng = new Rng(`${options.seed}:prediction-events`);
  const end = options.origin + options.days * DAY;
  const events: PredictionEvent[] = [];
  for (let i = 0; i < (options.count ?? 48); i++) {
    const r = rng.fork(`event-${i}`);
    const category: EventCategory = options.assets.length && r.chance(0.4) ? 'crypto' : r.pick(['election', 'sports', 'macro'] as const);
    // Opens within the history; closes 1-14 days later, most inside it (those resolve in the history).
    const opensAt = options.origin + Math.floor(r.next() * Math.max(1, options.opensWithinSeconds ?? end - options.origin - DAY));
    const closesAt = opensAt + Math.round(r.logUniform(DAY, 14 * DAY));
    const crossListing = r.chance(CROSS_LISTED)
      ? { closeShiftSeconds: r.pick([-6, -3, 3, 6, 12]) * 3_600, ruleDifference: r.pick(RULE_DIFFERENCES) }
      : undefined;
    const base = { id: `pm-${(options.firstNumber ?? 1) + i}`, opensAt, closesAt, ...(crossListing && { crossListing }) };
    events.push(category === 'crypto' ? cryptoEvent(base, r, options) : drawnEvent(base, category, r));
  }
  return events;
}

/** The public belief (fair chance of yes) at `time`: the outcome from the close on. */
export function beliefAt(event: PredictionEvent, time: number, priceAt: (asset: string, time: number) => number): number {
  if (time >= event.closesAt) return event.outcome ? 1 : 0;
  if (event.strike) return fairChanceAbove(priceAt(event.strike.asset, Math.max(time, event.opensAt)), event.strike.usd, event.strike.annualVol, (event.closesAt - Math.max(time, event.opensAt)) / YEAR);
  let belief = event.news.length ? firstBelief(event) : event.truth;
  for (const n of event.news) if (n.at <= time) belief = n.belief;
  return belief;
}

/** The lognormal chance that a price `now` finishes above `strike` after `years` at `annualVol`. */
export function fairChanceAbove(now: number, strike: number, annualVol: number, years: number): number {
  if (years <= 0) return now > strike ? 1 : 0;
  const sd = annualVol * Math.sqrt(years);
  return normalCdf((Math.log(now / strike) - (sd * sd) / 2) / sd);
}

function cryptoEvent(base: Pick<PredictionEvent, 'id' | 'opensAt' | 'closesAt' | 'crossListing'>, r: Rng, options: EventWorldOptions): PredictionEvent {
  const { asset, annualVol } = r.pick(options.assets);
  const open = options.priceAt(asset, base.opensAt);
  // A strike around the money: a chance between ~10% and ~90% when it opens.
  const years = (base.closesAt - base.opensAt) / YEAR;
  const usd = roundStrike(open * Math.exp(r.normal() * annualVol * Math.sqrt(years)));
  const date = new Date(base.closesAt * 1000).toISOString().slice(0, 10);
  return {
    ...base, category: 'crypto', title: `Will ${asset} be above $${usd.toLocaleString('en-US')} on ${date}?`,
    truth: fairChanceAbove(open, usd, annualVol, years), outcome: options.priceAt(asset, base.closesAt) > usd,
    news: [], strike: { asset, usd, annualVol },
  };
}

function drawnEvent(base: Pick<PredictionEvent, 'id' | 'opensAt' | 'closesAt' | 'crossListing'>, category: Exclude<EventCategory, 'crypto'>, r: Rng): PredictionEvent {
  // Longshots and favourites both: the chance is drawn on the logit scale.
  const truth = clamp(logistic(r.normal() * 1.6), 0.02, 0.98);
  // What the public learns is a Brownian path W on the event's life scaled to [0, 1], and yes is c + W(1) > 0 with
  // Φ(c) = truth; the belief at s is then the chance of that given W(s), Φ((c + W(s)) / √(1 − s)): a martingale, so a
  // side the public puts at p wins p of the time at every moment, not only at the opening.
  const c = inverseNormalCdf(truth);
  const life = base.closesAt - base.opensAt;
  const steps = r.int(2, 5);
  // The opening belief has a little news in it already (as if at s = 0.03: a probit sd of 0.17, near the logit's 0.3 it had).
  const fractions = [OPENING_INFORMATION];
  for (let k = 1; k < steps; k++) fractions.push(clamp((life * k) / (steps + 1) + r.normal() * 1_800, 60, life - 60) / life);
  // The last news, just before the close, all but settles it.
  fractions.push(Math.min(LAST_NEWS_FROM + r.next() * (LAST_NEWS_TO - LAST_NEWS_FROM), (life - 60) / life));
  const sorted = [fractions[0]!, ...fractions.slice(1).sort((a, b) => a - b)];
  const news: NewsJump[] = [];
  let w = 0;
  let s = 0;
  for (const [k, f] of sorted.entries()) {
    w += r.normal() * Math.sqrt(Math.max(0, f - s));
    s = f;
    news.push({ at: k === 0 ? base.opensAt : base.opensAt + Math.round(f * life), belief: clamp(normalCdf((c + w) / Math.sqrt(1 - s)), 0.01, 0.99) });
  }
  const outcome = c + w + r.normal() * Math.sqrt(1 - s) > 0;
  return { ...base, category, title: r.pick(DRAWN_TOPICS[category]), truth, outcome, news };
}

function firstBelief(event: PredictionEvent): number {
  return event.news[0]!.belief;
}

function roundStrike(usd: number): number {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(usd)) - 1);
  return Math.max(unit, Math.round(usd / unit) * unit);
}

function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/** The standard normal CDF (Abramowitz-Stegun 7.1.26 on erf; error below 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** The standard normal quantile, Φ⁻¹(p) for 0 < p < 1 (Acklam's rational approximation; relative error below 1.2e-9). */
export function inverseNormalCdf(p: number): number {
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) => (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}
