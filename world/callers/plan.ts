/**
 * The world's market callers as one plan, the same whenever it is asked for a seed and origin:
 * about forty sources (X accounts, YouTube channels, newsletters, sell-side analysts) that call
 * crypto majors and stocks long or short over 1, 7 or 30 days, and sometimes close a call early
 * with a hold. What each caller is, and its true hit probability, is the labels' (never the feed's):
 * - skilled callers see the asset's move against its benchmark up to where the call closes and call
 *   it right with probability 0.6-0.7, so grading recovers their skill by construction;
 * - contrarians do the same with probability 0.3-0.4 (reliably wrong);
 * - random callers flip a coin, some often and some rarely;
 * - lucky callers made two to five calls early on, all of which happened to hit (a coin flipper's
 *   record, true hit probability one half).
 * A call hits when the asset's return beats its benchmark's in the called direction (BTC for crypto,
 * SPY for stocks, cash for the benchmarks themselves); a hold by the caller on the asset closes every
 * call it has open there. Each day's calls come from their own generator, so a call never depends
 * on how far the plan was read.
 */
import { inSession } from '../../lib/market-hours.js';
import { Rng } from '../../lib/random.js';

const DAY = 86_400;

export type CallerKind = 'skilled' | 'contrarian' | 'random' | 'lucky';
export type SourceType = 'x' | 'youtube' | 'newsletter' | 'analyst';
export type AssetClass = 'crypto' | 'equity';
export type CallDirection = 'long' | 'short' | 'hold';
export type CallHorizon = '1d' | '7d' | '30d';

export const HORIZON_SECONDS: Readonly<Record<CallHorizon, number>> = { '1d': DAY, '7d': 7 * DAY, '30d': 30 * DAY };
const MAX_HORIZON_SECONDS = Math.max(...Object.values(HORIZON_SECONDS));
/** The assets called, by class: majors with a reference path, and stocks with an underlying path. */
export const CALLED_ASSETS: Readonly<Record<AssetClass, readonly string[]>> = {
  crypto: ['BTC', 'ETH', 'SOL', 'BNB', 'LINK', 'AAVE', 'ARB', 'OP', 'PEPE'],
  equity: ['SPY', 'AAPL', 'NVDA', 'TSLA', 'MSFT', 'AMZN', 'META', 'COIN'],
};
/**
 * What a call is measured against: BTC is crypto's market (every major moves with it, beta about
 * one), so beating it isolates calling the asset from calling the market, as SPY does for stocks.
 * A call on the benchmark itself is measured against cash.
 */
export const BENCHMARKS: Readonly<Record<AssetClass, string>> = { crypto: 'BTC', equity: 'SPY' };

/** How many callers of each kind, their true hit probability and how often they call. */
const KINDS: Readonly<Record<CallerKind, { count: number; hitProbability: readonly [number, number]; callsPerDay: readonly [number, number] }>> = {
  skilled: { count: 10, hitProbability: [0.6, 0.7], callsPerDay: [2, 5] },
  contrarian: { count: 5, hitProbability: [0.3, 0.4], callsPerDay: [1.5, 4] },
  // Log-uniform rates: some call several times a day, some once a week.
  random: { count: 19, hitProbability: [0.5, 0.5], callsPerDay: [0.15, 5] },
  lucky: { count: 6, hitProbability: [0.5, 0.5], callsPerDay: [0, 0] },
};
/** A lucky caller's calls: how many, made in the first days, on short horizons (graded early). */
const LUCKY_CALLS: readonly [number, number] = [2, 5];
const LUCKY_DAYS = 5;
/** Horizons drawn for a call, with their odds. */
const HORIZON_ODDS: readonly (readonly [CallHorizon, number])[] = [['1d', 0.4], ['7d', 0.4], ['30d', 0.2]];
/** Share of calls the caller closes early with a hold, somewhere in this part of the horizon. */
const HOLD_SHARE = 0.15;
const HOLD_WITHIN: readonly [number, number] = [0.25, 0.85];
/** Share of a mixed caller's calls on stocks (a stock-focused caller makes only stock calls). */
const MIXED_EQUITY_SHARE = 0.3;

export interface CallerSpec {
  readonly id: string;
  readonly sourceType: SourceType;
  readonly label: string;
  readonly focus: 'crypto' | 'equity' | 'mixed';
  readonly kind: CallerKind;
  /** The probability each of its long or short calls hits (the truth grading should recover). */
  readonly hitProbability: number;
}

export interface PlannedCall {
  readonly id: string;
  readonly caller: string;
  readonly asset: string;
  readonly assetClass: AssetClass;
  readonly direction: CallDirection;
  readonly horizon: CallHorizon;
  /** Unix seconds. */
  readonly madeAt: number;
  /** The asset's price when the call was made (the plan's price reader: split-adjusted for stocks). */
  readonly priceAtCall: number;
}

export interface CallersState {
  readonly callers: readonly CallerSpec[];
  /** Every call made at or before `through`, oldest first (ties by id). */
  readonly calls: readonly PlannedCall[];
  readonly through: number;
}

/** A call as scheduled, before its direction is drawn. */
interface Scheduled {
  readonly id: string;
  readonly caller: CallerSpec;
  readonly asset: string;
  readonly assetClass: AssetClass;
  readonly horizon: CallHorizon;
  readonly madeAt: number;
  readonly hold: boolean;
}

export class CallersPlan {
  readonly callers: readonly CallerSpec[];
  private readonly days = new Map<string, Scheduled[]>();
  private readonly luckyDays = new Map<string, Map<number, number>>();
  private readonly planned = new Map<string, PlannedCall>();
  private state: CallersState | undefined;

  constructor(
    readonly seed: string,
    /** The history's origin (unix seconds): the first call is made then. */
    readonly origin: number,
    /** The price of an asset at a time (USD; split-adjusted for stocks): the paths the callers call. */
    private readonly priceAt: (asset: string, time: number) => number,
  ) {
    this.callers = drawCallers(seed);
  }

  /** Every caller and the calls made by `t`. */
  through(t: number): CallersState {
    const until = Math.floor(t);
    if (this.state?.through === until) return this.state;
    const calls: PlannedCall[] = [];
    const lastDay = Math.floor((until - this.origin) / DAY);
    for (const caller of this.callers) {
      for (let d = 0; d <= lastDay; d++) {
        for (const s of this.scheduled(caller, d)) {
          if (s.madeAt > until) continue;
          calls.push(this.call(s));
        }
      }
    }
    calls.sort((a, b) => a.madeAt - b.madeAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.state = { callers: this.callers, calls, through: until };
    return this.state;
  }

  /** Where a long or short call closes: at its horizon, or earlier at the caller's first hold on the asset. */
  closeOf(call: Pick<PlannedCall, 'caller' | 'asset' | 'horizon' | 'madeAt'>): number {
    const end = call.madeAt + HORIZON_SECONDS[call.horizon];
    const caller = this.callers.find((c) => c.id === call.caller)!;
    let close = end;
    // A hold is scheduled with the call it follows, which may be up to the longest horizon older than this one.
    for (let d = Math.max(0, Math.floor((call.madeAt - MAX_HORIZON_SECONDS - this.origin) / DAY)); d <= Math.floor((end - this.origin) / DAY); d++) {
      for (const s of this.scheduled(caller, d)) {
        if (s.hold && s.asset === call.asset && s.madeAt > call.madeAt && s.madeAt < close) close = s.madeAt;
      }
    }
    return close;
  }

  /** The asset's return over [from, to] less its benchmark's (cash for a benchmark). */
  excessReturn(asset: string, assetClass: AssetClass, from: number, to: number): number {
    const ret = (a: string) => this.priceAt(a, to) / this.priceAt(a, from) - 1;
    const benchmark = BENCHMARKS[assetClass];
    return ret(asset) - (asset === benchmark ? 0 : ret(benchmark));
  }

  private call(s: Scheduled): PlannedCall {
    let call = this.planned.get(s.id);
    if (!call) {
      call = { id: s.id, caller: s.caller.id, asset: s.asset, assetClass: s.assetClass, direction: this.direction(s), horizon: s.horizon, madeAt: s.madeAt, priceAtCall: this.priceAt(s.asset, s.madeAt) };
      this.planned.set(s.id, call);
    }
    return call;
  }

  private direction(s: Scheduled): CallDirection {
    if (s.hold) return 'hold';
    const rng = new Rng(`${this.seed}:callers:direction:${s.id}`);
    let direction: CallDirection;
    if (s.caller.kind === 'random') direction = rng.chance(0.5) ? 'long' : 'short';
    else {
      const excess = this.excessReturn(s.asset, s.assetClass, s.madeAt, this.closeOf({ caller: s.caller.id, asset: s.asset, horizon: s.horizon, madeAt: s.madeAt }));
      const right = s.caller.kind === 'lucky' || rng.chance(s.caller.hitProbability);
      direction = (excess >= 0) === right ? 'long' : 'short';
    }
    return direction;
  }

  /** A caller's calls scheduled on day `d` of the history (and the holds that close some of them later). */
  private scheduled(caller: CallerSpec, d: number): Scheduled[] {
    const key = `${caller.id}:${d}`;
    const known = this.days.get(key);
    if (known) return known;
    const rng = new Rng(`${this.seed}:callers:day:${key}`);
    const dayStart = this.origin + d * DAY;
    const count = caller.kind === 'lucky' ? (this.luckySchedule(caller).get(d) ?? 0) : rng.poisson(callsPerDay(this.seed, caller));
    const out: Scheduled[] = [];
    for (let k = 0; k < count; k++) {
      const assetClass: AssetClass = caller.focus === 'equity' || (caller.focus === 'mixed' && rng.chance(MIXED_EQUITY_SHARE)) ? 'equity' : 'crypto';
      const asset = rng.pick(CALLED_ASSETS[assetClass]);
      const madeAt = dayStart + rng.int(0, DAY - 1);
      const horizon = caller.kind === 'lucky' ? rng.pick(['1d', '7d'] as const) : drawHorizon(rng);
      const closesEarly = caller.kind !== 'lucky' && rng.chance(HOLD_SHARE);
      const holdAt = madeAt + Math.round(HORIZON_SECONDS[horizon] * (HOLD_WITHIN[0] + rng.next() * (HOLD_WITHIN[1] - HOLD_WITHIN[0])));
      // Stocks are called while their market is in session; a hold may come at any time.
      if (assetClass === 'equity' && !inSession(madeAt)) continue;
      const id = `${caller.id}.${d}.${k}`;
      out.push({ id, caller, asset, assetClass, horizon, madeAt, hold: false });
      if (closesEarly) out.push({ id: `${id}.hold`, caller, asset, assetClass, horizon, madeAt: holdAt, hold: true });
    }
    this.days.set(key, out);
    return out;
  }

  /** The days a lucky caller calls on, and how many calls each. */
  private luckySchedule(caller: CallerSpec): Map<number, number> {
    let days = this.luckyDays.get(caller.id);
    if (days) return days;
    const rng = new Rng(`${this.seed}:callers:lucky:${caller.id}`);
    days = new Map();
    for (let n = rng.int(...LUCKY_CALLS); n > 0; n--) {
      const d = rng.int(0, LUCKY_DAYS - 1);
      days.set(d, (days.get(d) ?? 0) + 1);
    }
    this.luckyDays.set(caller.id, days);
    return days;
  }
}

function drawHorizon(rng: Rng): CallHorizon {
  let u = rng.next();
  for (const [h, p] of HORIZON_ODDS) if ((u -= p) < 0) return h;
  return HORIZON_ODDS.at(-1)![0];
}

function callsPerDay(seed: string, caller: CallerSpec): number {
  const [lo, hi] = KINDS[caller.kind].callsPerDay;
  return new Rng(`${seed}:callers:rate:${caller.id}`).logUniform(lo, hi);
}

const NAMES_A = ['Alpha', 'Chart', 'Moon', 'Whale', 'Macro', 'Degen', 'Quant', 'Bull', 'Bear', 'Signal', 'Satoshi', 'Value', 'Momentum', 'Crypto', 'Options', 'Trend', 'Delta', 'Gamma', 'Sigma', 'Candle'];
const NAMES_B = ['Hawk', 'Wizard', 'Oracle', 'Desk', 'Insider', 'Trader', 'Capital', 'Research', 'Daily', 'Weekly', 'Pro', 'Labs', 'Report', 'Watch', 'Lens'];
const SOURCE_TYPES: readonly SourceType[] = ['x', 'youtube', 'newsletter', 'analyst'];

/** The callers, in a shuffled order so no kind sits together; each named once. */
function drawCallers(seed: string): CallerSpec[] {
  const rng = new Rng(`${seed}:callers:roster`);
  const kinds = (Object.keys(KINDS) as CallerKind[]).flatMap((kind) => Array.from({ length: KINDS[kind].count }, () => kind));
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  const used = new Set<string>();
  return kinds.map((kind, i) => {
    const sourceType = rng.pick(SOURCE_TYPES);
    let name: string;
    do name = `${rng.pick(NAMES_A)} ${rng.pick(NAMES_B)}`;
    while (used.has(name));
    used.add(name);
    const slug = name.toLowerCase().replace(/[^a-z]/g, '');
    const [lo, hi] = KINDS[kind].hitProbability;
    return {
      id: `${sourceType}-${slug}-${String(i).padStart(2, '0')}`,
      sourceType,
      label: sourceType === 'x' ? `@${slug}` : sourceType === 'analyst' ? `${name} (sell-side)` : name,
      focus: sourceType === 'analyst' ? 'equity' : rng.chance(0.3) ? 'mixed' : 'crypto',
      kind,
      hitProbability: Math.round((lo + rng.next() * (hi - lo)) * 1000) / 1000,
    };
  });
}
