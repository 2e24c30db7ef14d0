/**
 * The world is one market, not six: every asset follows one reference price path (what a
 * centralised exchange would quote), and every chain's pools and the embedded Solana venue are
 * held on it by arbitrageurs. A path is a market factor (regimes of bull, bear and range, shared
 * by every asset through its beta) plus the asset's own regimes and noise, on a five-minute
 * grid from the history's origin, linear within a step.
 *
 * Deterministic for (seed, origin): each day's draws come from their own generator, so a
 * price does not depend on how far the path was read before, and a world resumed from a cache
 * continues the same path.
 */
import { Rng } from '../lib/random.js';

/** Seconds between grid points. */
export const REFERENCE_STEP_SECONDS = 300;
const STEPS_PER_DAY = 86_400 / REFERENCE_STEP_SECONDS;
const STEPS_PER_YEAR = (365 * 86_400) / REFERENCE_STEP_SECONDS;

export type RegimeLabel = 'bull' | 'bear' | 'range';

export interface ReferenceAsset {
  /** USD price at the origin. */
  readonly startUsd: number;
  /** Exposure to the market factor. */
  readonly beta: number;
  /** Annualised volatility of the asset's own moves (beside the factor's). */
  readonly idioVol: number;
}

/** The market factor: roughly Bitcoin's annualised volatility. */
const MARKET_VOL = 0.5;
/** Drift per day of each regime, as a fraction: the factor's, and an asset's own (smaller). */
const MARKET_DRIFT: Record<RegimeLabel, number> = { bull: 0.012, bear: -0.012, range: 0 };
const OWN_DRIFT: Record<RegimeLabel, number> = { bull: 0.008, bear: -0.008, range: 0 };
/** Volatility multiplier of each regime: ranges are calmer. */
const REGIME_VOL: Record<RegimeLabel, number> = { bull: 1, bear: 1.2, range: 0.7 };

/**
 * Every asset with a path, by its canonical symbol. Opening prices are those the genesis
 * market was sized with; volatilities sit in realistic ranges (BTC ~50%/yr, ETH ~65%, SOL
 * ~85%, large caps ~90%, memes 120-150%).
 */
export const REFERENCE_ASSETS: Readonly<Record<string, ReferenceAsset>> = {
  BTC: { startUsd: 64_000, beta: 1, idioVol: 0.1 },
  ETH: { startUsd: 3_000, beta: 1.15, idioVol: 0.3 },
  SOL: { startUsd: 150, beta: 1.35, idioVol: 0.5 },
  BNB: { startUsd: 600, beta: 0.8, idioVol: 0.35 },
  ADA: { startUsd: 0.45, beta: 1.2, idioVol: 0.55 },
  DOT: { startUsd: 4.5, beta: 1.2, idioVol: 0.55 },
  POL: { startUsd: 0.45, beta: 1.2, idioVol: 0.6 },
  LINK: { startUsd: 14, beta: 1.2, idioVol: 0.55 },
  UNI: { startUsd: 7.5, beta: 1.2, idioVol: 0.6 },
  AAVE: { startUsd: 150, beta: 1.2, idioVol: 0.6 },
  ARB: { startUsd: 0.75, beta: 1.3, idioVol: 0.6 },
  OP: { startUsd: 1.7, beta: 1.3, idioVol: 0.6 },
  GMX: { startUsd: 24, beta: 1.1, idioVol: 0.6 },
  PENDLE: { startUsd: 3.5, beta: 1.3, idioVol: 0.7 },
  SNX: { startUsd: 1.5, beta: 1.2, idioVol: 0.65 },
  CAKE: { startUsd: 2.2, beta: 1.0, idioVol: 0.6 },
  AERO: { startUsd: 1.1, beta: 1.3, idioVol: 0.7 },
  VIRTUAL: { startUsd: 1.6, beta: 1.5, idioVol: 0.9 },
  VELO: { startUsd: 0.09, beta: 1.3, idioVol: 0.8 },
  QUICK: { startUsd: 0.04, beta: 1.2, idioVol: 0.8 },
  PEPE: { startUsd: 0.00001, beta: 1.6, idioVol: 1.0 },
  DEGEN: { startUsd: 0.008, beta: 1.6, idioVol: 1.1 },
  BRETT: { startUsd: 0.07, beta: 1.6, idioVol: 1.0 },
};

/** Token symbols that stand for a reference asset on some chain (wrapped and bridged forms). */
const ALIASES: Readonly<Record<string, string>> = {
  WBTC: 'BTC', BTCB: 'BTC', WETH: 'ETH', WSOL: 'SOL', WBNB: 'BNB', WADA: 'ADA', WDOT: 'DOT', WPOL: 'POL', WMATIC: 'POL',
};

/** The reference asset a token symbol tracks, or undefined (USDC is the numeraire: 1). */
export function referenceAssetOf(symbol: string): string | undefined {
  const s = symbol.toUpperCase();
  const id = ALIASES[s] ?? s;
  return REFERENCE_ASSETS[id] ? id : undefined;
}

export interface Regime {
  readonly label: RegimeLabel;
  /** Unix seconds, inclusive start and exclusive end. */
  readonly from: number;
  readonly until: number;
}

interface Series {
  /** Log price at each grid point. */
  readonly logs: number[];
}

export class ReferencePaths {
  private readonly market: { shocks: number[]; regimes: Regime[] };
  private readonly series = new Map<string, Series>();

  /** `origin`: Unix seconds where every path starts at its opening price. */
  constructor(readonly seed: string, readonly origin: number) {
    this.market = { shocks: [], regimes: [] };
  }

  /** USD price of a reference asset at `time` (the opening price before the origin). */
  priceUsd(asset: string, time: number): number {
    const spec = REFERENCE_ASSETS[asset];
    if (!spec) throw new Error(`no reference path for ${asset}`);
    const x = Math.max(0, (time - this.origin) / REFERENCE_STEP_SECONDS);
    const i = Math.floor(x);
    const logs = this.extend(asset, i + 1).logs;
    const f = x - i;
    return Math.exp(logs[i]! * (1 - f) + logs[i + 1]! * f);
  }

  /** The asset's regime at `time`: the market's, unless its own drift outweighs it. */
  regimeAt(asset: string, time: number): Regime {
    return this.regimes(asset, time, time + 1)[0]!;
  }

  /** Every labelled regime of an asset that overlaps [from, to). */
  regimes(asset: string, from: number, to: number): Regime[] {
    const step = Math.max(0, Math.ceil((to - this.origin) / REFERENCE_STEP_SECONDS));
    this.extendMarket(step);
    const all = combinedRegimes(this.market.regimes, this.ownRegimes(asset, step), REFERENCE_ASSETS[asset]!.beta);
    return all.filter((r) => r.until > from && r.from < to);
  }

  /** The market factor's regimes that overlap [from, to). */
  marketRegimes(from: number, to: number): Regime[] {
    this.extendMarket(Math.ceil((to - this.origin) / REFERENCE_STEP_SECONDS));
    return this.market.regimes.filter((r) => r.until > from && r.from < to);
  }

  /** Grows an asset's series to cover grid point `step`. */
  private extend(asset: string, step: number): Series {
    let s = this.series.get(asset);
    if (!s) {
      s = { logs: [Math.log(REFERENCE_ASSETS[asset]!.startUsd)] };
      this.series.set(asset, s);
    }
    if (s.logs.length > step) return s;
    const spec = REFERENCE_ASSETS[asset]!;
    this.extendMarket(step);
    const own = this.ownRegimes(asset, step);
    const baseSigma = MARKET_VOL / Math.sqrt(STEPS_PER_YEAR);
    const idioSigma = spec.idioVol / Math.sqrt(STEPS_PER_YEAR);
    while (s.logs.length <= step) {
      const i = s.logs.length; // the move from i-1 to i
      const day = Math.floor((i - 1) / STEPS_PER_DAY);
      const rng = this.dayRng(`asset:${asset}`, day, (i - 1) % STEPS_PER_DAY);
      const t = this.origin + (i - 1) * REFERENCE_STEP_SECONDS;
      const m = regimeOf(this.market.regimes, t);
      const o = regimeOf(own, t);
      const marketMove = (MARKET_DRIFT[m.label] / STEPS_PER_DAY) + baseSigma * REGIME_VOL[m.label] * this.market.shocks[i - 1]!;
      const ownMove = (OWN_DRIFT[o.label] / STEPS_PER_DAY) + idioSigma * REGIME_VOL[o.label] * rng.normal();
      // Itô: a zero-drift regime is a martingale in price, not in log price.
      const variance = (spec.beta * baseSigma * REGIME_VOL[m.label]) ** 2 + (idioSigma * REGIME_VOL[o.label]) ** 2;
      s.logs.push(s.logs[i - 1]! + spec.beta * marketMove + ownMove - variance / 2);
    }
    return s;
  }

  private extendMarket(step: number): void {
    const m = this.market;
    while (m.regimes.length === 0 || m.regimes.at(-1)!.until <= this.origin + (step + 1) * REFERENCE_STEP_SECONDS) {
      m.regimes.push(nextRegime(new Rng(`ref:${this.seed}:market:regime:${m.regimes.length}`), m.regimes.at(-1)?.until ?? this.origin, [24, 120]));
    }
    while (m.shocks.length < step) {
      const i = m.shocks.length;
      m.shocks.push(this.dayRng('market', Math.floor(i / STEPS_PER_DAY), i % STEPS_PER_DAY).normal());
    }
  }

  private readonly ownCache = new Map<string, Regime[]>();
  private ownRegimes(asset: string, step: number): Regime[] {
    let list = this.ownCache.get(asset);
    if (!list) this.ownCache.set(asset, (list = []));
    while (list.length === 0 || list.at(-1)!.until <= this.origin + (step + 1) * REFERENCE_STEP_SECONDS) {
      list.push(nextRegime(new Rng(`ref:${this.seed}:${asset}:regime:${list.length}`), list.at(-1)?.until ?? this.origin, [16, 96]));
    }
    return list;
  }

  /** Draws of one day, advanced to the step within it; one generator per (name, day) is cached. */
  private readonly days = new Map<string, { rng: Rng; at: number }>();
  private dayRng(name: string, day: number, stepInDay: number): Rng {
    const key = `${name}:${day}`;
    let d = this.days.get(key);
    if (!d || d.at > stepInDay) {
      d = { rng: new Rng(`ref:${this.seed}:${key}`), at: 0 };
      this.days.set(key, d);
    }
    // Steps are read in order; a day's generator advances by one normal per step.
    while (d.at < stepInDay) {
      d.rng.normal();
      d.at++;
    }
    d.at++;
    if (this.days.size > 64) this.days.delete(this.days.keys().next().value!);
    return d.rng;
  }
}

function nextRegime(rng: Rng, from: number, hours: [number, number]): Regime {
  const roll = rng.next();
  const label: RegimeLabel = roll < 0.35 ? 'bull' : roll < 0.65 ? 'bear' : 'range';
  return { label, from, until: from + rng.int(hours[0], hours[1]) * 3600 };
}

function regimeOf(list: readonly Regime[], t: number): Regime {
  for (const r of list) if (t >= r.from && t < r.until) return r;
  return list.at(-1)!;
}

/**
 * What an asset's price did, labelled: each stretch where neither the market's nor the asset's
 * own regime changes gets the sign of their combined drift (beyond 0.5% a day), merged with its
 * neighbours of the same label.
 */
function combinedRegimes(market: readonly Regime[], own: readonly Regime[], beta: number): Regime[] {
  // Both lists start at the origin; they are cut where the shorter one ends.
  const until = Math.min(market.at(-1)!.until, own.at(-1)!.until);
  const cuts = [...new Set([...market, ...own].flatMap((r) => [r.from, r.until]))].filter((t) => t <= until).sort((a, b) => a - b);
  const out: Regime[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const from = cuts[i]!;
    const drift = beta * MARKET_DRIFT[regimeOf(market, from).label] + OWN_DRIFT[regimeOf(own, from).label];
    const label: RegimeLabel = drift > 0.005 ? 'bull' : drift < -0.005 ? 'bear' : 'range';
    const last = out.at(-1);
    if (last && last.label === label) out[out.length - 1] = { ...last, until: cuts[i + 1]! };
    else out.push({ label, from, until: cuts[i + 1]! });
  }
  return out;
}
