/**
 * The world's perpetual-futures venue as one plan, the same whenever it is asked for a seed and
 * origin: hourly marks that track the reference paths with a premium of their own, hourly funding
 * from that premium, and accounts that trade it (whales who see twelve hours ahead, whales who do
 * not, market makers with huge volume on small accounts, retail), each holding at most one
 * position at a time under cross margin, liquidated when the mark crosses its liquidation price.
 * What each account is, and every liquidation, is the labels' (never the engines').
 */
import { Rng } from '../../lib/random.js';

const HOUR = 3_600;

/** The venue's coins, as Hyperliquid lists them (size decimals, maximum leverage). */
export const PERP_COINS = [
  { name: 'BTC', szDecimals: 5, maxLeverage: 40 },
  { name: 'ETH', szDecimals: 4, maxLeverage: 25 },
  { name: 'SOL', szDecimals: 2, maxLeverage: 20 },
  { name: 'ARB', szDecimals: 1, maxLeverage: 10 },
  { name: 'LINK', szDecimals: 1, maxLeverage: 10 },
  { name: 'AAVE', szDecimals: 2, maxLeverage: 10 },
] as const;
export type PerpCoin = (typeof PERP_COINS)[number]['name'];
export const coinSpec = (coin: PerpCoin) => PERP_COINS.find((c) => c.name === coin)!;

/** Hyperliquid's hourly funding: the premium plus a clamped interest term (0.01% per 8 h), an eighth an hour, capped at 4%. */
const INTEREST_8H = 0.0001;
const FUNDING_CAP_HOURLY = 0.04;
/** The premium's mean reversion per hour and its hourly noise. */
const PREMIUM_REVERSION = 0.2;
const PREMIUM_NOISE = 0.0004;
/** Taker fee on every fill (Hyperliquid's base tier). */
export const TAKER_FEE = 0.00035;
/** The history the venue holds before the world's origin (the longest timeframe read is 30 days). */
export const PERP_DAYS_BEFORE_ORIGIN = 2;

export type PerpRole = 'whale-skilled' | 'whale-poor' | 'market-maker' | 'retail';

/** How many accounts of each role, their starting equity, leverage, how often they act, how long they hold. */
const ROLES: Readonly<Record<PerpRole, { count: number; equityUsd: readonly [number, number]; leverage: readonly [number, number]; actsPerDay: number; holdHours: readonly [number, number] }>> = {
  'whale-skilled': { count: 8, equityUsd: [600_000, 4_000_000], leverage: [1, 3], actsPerDay: 3, holdHours: [6, 36] },
  'whale-poor': { count: 6, equityUsd: [600_000, 3_000_000], leverage: [8, 20], actsPerDay: 3, holdHours: [6, 48] },
  'market-maker': { count: 3, equityUsd: [300_000, 2_500_000], leverage: [1, 1], actsPerDay: 24, holdHours: [0, 0] },
  retail: { count: 30, equityUsd: [500, 25_000], leverage: [3, 25], actsPerDay: 1, holdHours: [2, 36] },
};
/**
 * A skilled whale's view is the next twelve hours' move blurred by noise of this size (about one and
 * a half times BTC's twelve-hour volatility: right about two times in three, not always); it opens
 * when the view is at least SKILLED_EDGE one way and closes when it turns that much the other way.
 */
const SKILLED_EDGE = 0.02;
const SKILLED_NOISE = 0.03;
/** Positions are sized on the balance, at most this multiple of the deposit (no account compounds without bound). */
const MAX_SIZING_MULTIPLE = 1.5;
const LOOKAHEAD_S = 12 * HOUR;
/** Market makers turn over this many times their equity in an hour they trade, at this half-spread, with this maker rebate. */
const MM_TURNOVER = 3;
const MM_HALF_SPREAD = 0.00015;
/** Market makers quote the first this many coins (the majors). */
const MM_COINS = 3;
const MAKER_REBATE = 0.00002;
/** Accounts the venue fails to read (a state it answers with an error): a few of the skilled whales. */
export const UNREADABLE_WHALES = 2;

export interface PerpFill {
  readonly coin: PerpCoin;
  readonly px: number;
  readonly sz: number;
  /** B buys, A sells (Hyperliquid's bid/ask sides). */
  readonly side: 'B' | 'A';
  readonly time: number;
  readonly dir: 'Open Long' | 'Close Long' | 'Open Short' | 'Close Short' | 'Liquidated Long' | 'Liquidated Short';
  readonly startPosition: number;
  readonly closedPnl: number;
  readonly fee: number;
  /** Took liquidity (a taker); a market maker's resting orders are filled uncrossed. */
  readonly crossed: boolean;
}

export interface PerpPosition {
  readonly coin: PerpCoin;
  /** Signed size: long above zero. */
  szi: number;
  entryPx: number;
  leverage: number;
  openedAt: number;
  closeAt: number;
  /** Funding paid since it opened (positive = paid out). */
  cumFunding: number;
}

export interface PerpAccount {
  readonly user: string;
  readonly role: PerpRole;
  /** USDC deposited at the start. */
  readonly deposit: number;
  /** The deposit plus realised PnL, less fees and funding paid. */
  balance: number;
  /** Funding paid over every position held (positive = paid out). */
  fundingPaid: number;
  position: PerpPosition | null;
  readonly fills: PerpFill[];
  /** Equity (balance plus unrealised PnL at the mark) at the end of each hour of the plan, oldest first. */
  readonly equity: number[];
  readonly unreadable: boolean;
}

export interface PerpHour {
  readonly time: number;
  readonly coin: PerpCoin;
  readonly oraclePx: number;
  readonly markPx: number;
  readonly premium: number;
  readonly fundingRate: number;
  /** Notional traded this hour. */
  volumeUsd: number;
  open: number;
  high: number;
  low: number;
  trades: number;
}

export interface PerpLiquidation {
  readonly user: string;
  readonly coin: PerpCoin;
  readonly time: number;
  readonly szi: number;
  readonly liquidationPx: number;
  readonly markPx: number;
}

export interface PerpState {
  readonly accounts: readonly PerpAccount[];
  /** Each coin's hours, oldest first. */
  readonly hours: ReadonlyMap<PerpCoin, readonly PerpHour[]>;
  readonly liquidations: readonly PerpLiquidation[];
  /** The plan stands at this hour (unix seconds). */
  readonly through: number;
  /** Its first hour: the accounts' equity histories start here. */
  readonly start: number;
}

/** The maintenance margin rate Hyperliquid applies: half the initial margin at maximum leverage. */
export const maintenanceRate = (coin: PerpCoin) => 1 / (2 * coinSpec(coin).maxLeverage);

/**
 * Where an account's only position is liquidated under cross margin: where its equity (balance plus
 * unrealised PnL) falls to the maintenance margin; null when no price gets there.
 */
export function liquidationPx(balance: number, position: Pick<PerpPosition, 'coin' | 'szi' | 'entryPx'>): number | null {
  const { szi, entryPx } = position;
  const mmr = maintenanceRate(position.coin);
  // balance + szi (P - entry) = |szi| P mmr
  const px = (szi * entryPx - balance) / (szi - Math.abs(szi) * mmr);
  return px > 0 && Number.isFinite(px) ? px : null;
}

export class PerpPlan {
  private state: PerpState | undefined;

  constructor(
    readonly seed: string,
    /** The history's origin (unix seconds; the reference paths'). */
    readonly origin: number,
    private readonly priceAt: (asset: string, time: number) => number,
  ) {}

  /** The venue at the last whole hour at or before `t`, simulated from two days before the origin. */
  through(t: number): PerpState {
    const until = Math.floor(t / HOUR) * HOUR;
    if (this.state && this.state.through === until) return this.state;
    this.state = this.simulate(until);
    return this.state;
  }

  private simulate(until: number): PerpState {
    const rng = new Rng(`${this.seed}:perps`);
    const start = Math.floor(this.origin / HOUR) * HOUR - PERP_DAYS_BEFORE_ORIGIN * 86_400;
    const accounts: PerpAccount[] = [];
    for (const role of Object.keys(ROLES) as PerpRole[]) {
      for (let i = 0; i < ROLES[role].count; i++) {
        const user = `0x${hex(`${this.seed}:perp:${role}:${i}`)}`;
        const deposit = Math.round(rng.logUniform(...ROLES[role].equityUsd));
        accounts.push({ user, role, deposit, balance: deposit, fundingPaid: 0, position: null, fills: [], equity: [], unreadable: role === 'whale-skilled' && i < UNREADABLE_WHALES });
      }
    }
    const hours = new Map<PerpCoin, PerpHour[]>(PERP_COINS.map((c) => [c.name, []]));
    const premium = new Map<PerpCoin, number>(PERP_COINS.map((c) => [c.name, 0.0002]));
    const liquidations: PerpLiquidation[] = [];
    const view = (coin: string, time: number) => this.edge(coin, time) + rng.normal() * SKILLED_NOISE;
    for (let time = start; time <= until; time += HOUR) {
      const now = new Map<PerpCoin, PerpHour>();
      for (const { name } of PERP_COINS) {
        const oraclePx = this.priceAt(name, time);
        const p = premium.get(name)! * (1 - PREMIUM_REVERSION) + rng.normal() * PREMIUM_NOISE;
        premium.set(name, p);
        const markPx = oraclePx * (1 + p);
        const fundingRate = clamp((p + clamp(INTEREST_8H - p, -0.0005, 0.0005)) / 8, -FUNDING_CAP_HOURLY, FUNDING_CAP_HOURLY);
        const open = hours.get(name)!.at(-1)?.markPx ?? markPx;
        const hour: PerpHour = { time, coin: name, oraclePx, markPx, premium: p, fundingRate, volumeUsd: 0, open, high: Math.max(open, markPx), low: Math.min(open, markPx), trades: 0 };
        hours.get(name)!.push(hour);
        now.set(name, hour);
      }
      for (const a of accounts) {
        const pos = a.position;
        if (pos) {
          const hour = now.get(pos.coin)!;
          // Funding at the oracle price: longs pay a positive rate.
          const paid = pos.szi * hour.oraclePx * hour.fundingRate;
          a.balance -= paid;
          a.fundingPaid += paid;
          pos.cumFunding += paid;
          const liq = liquidationPx(a.balance, pos);
          const crossed = liq !== null && (pos.szi > 0 ? hour.markPx <= liq : hour.markPx >= liq);
          if (crossed) {
            liquidations.push({ user: a.user, coin: pos.coin, time, szi: pos.szi, liquidationPx: liq, markPx: hour.markPx });
            close(a, hour, liq, true);
            continue;
          }
          if (time >= pos.closeAt || (a.role === 'whale-skilled' && view(pos.coin, time) * Math.sign(pos.szi) <= -SKILLED_EDGE)) close(a, hour, hour.markPx, false);
          continue;
        }
        if (a.balance <= 0) continue;
        const spec = ROLES[a.role];
        if (!rng.chance(spec.actsPerDay / 24)) continue;
        if (a.role === 'market-maker') {
          // Bought at the bid and sold at the ask within the hour: volume far beyond the account, the
          // spread and a maker rebate earned, no position kept.
          const hour = now.get(PERP_COINS[rng.int(0, MM_COINS - 1)]!.name)!;
          const bid = hour.markPx * (1 - MM_HALF_SPREAD);
          const ask = hour.markPx * (1 + MM_HALF_SPREAD);
          const sz = (a.balance * MM_TURNOVER) / 2 / hour.markPx;
          const closedPnl = sz * (ask - bid);
          a.fills.push({ coin: hour.coin, px: bid, sz, side: 'B', time, dir: 'Open Long', startPosition: 0, closedPnl: 0, fee: -sz * bid * MAKER_REBATE, crossed: false });
          a.fills.push({ coin: hour.coin, px: ask, sz, side: 'A', time, dir: 'Close Long', startPosition: sz, closedPnl, fee: -sz * ask * MAKER_REBATE, crossed: false });
          a.balance += closedPnl + sz * (bid + ask) * MAKER_REBATE;
          hour.volumeUsd += sz * (bid + ask);
          hour.trades += 2;
          continue;
        }
        const listed = PERP_COINS[rng.int(0, PERP_COINS.length - 1)]!;
        const coin = listed.name;
        const hour = now.get(coin)!;
        let direction: 1 | -1;
        if (a.role === 'whale-skilled') {
          const edge = view(coin, time);
          if (Math.abs(edge) < SKILLED_EDGE) continue;
          direction = edge > 0 ? 1 : -1;
        } else direction = rng.chance(0.5) ? 1 : -1;
        const leverage = rng.int(spec.leverage[0], Math.min(spec.leverage[1], listed.maxLeverage));
        const sz = round((Math.min(a.balance, a.deposit * MAX_SIZING_MULTIPLE) * leverage) / hour.markPx, listed.szDecimals);
        if (sz <= 0) continue;
        const fee = sz * hour.markPx * TAKER_FEE;
        a.balance -= fee;
        a.position = { coin, szi: direction * sz, entryPx: hour.markPx, leverage, openedAt: time, closeAt: time + rng.int(spec.holdHours[0], spec.holdHours[1]) * HOUR, cumFunding: 0 };
        a.fills.push({ coin, px: hour.markPx, sz, side: direction > 0 ? 'B' : 'A', time, dir: direction > 0 ? 'Open Long' : 'Open Short', startPosition: 0, closedPnl: 0, fee, crossed: true });
        hour.volumeUsd += sz * hour.markPx;
        hour.trades++;
      }
      for (const a of accounts) a.equity.push(a.balance + (a.position ? a.position.szi * (now.get(a.position.coin)!.markPx - a.position.entryPx) : 0));
    }
    return { accounts, hours, liquidations, through: until, start };

    function close(a: PerpAccount, hour: PerpHour, px: number, liquidated: boolean): void {
      const pos = a.position!;
      const sz = Math.abs(pos.szi);
      const closedPnl = pos.szi * (px - pos.entryPx);
      const fee = sz * px * TAKER_FEE;
      a.balance += closedPnl - fee;
      const long = pos.szi > 0;
      a.fills.push({ coin: pos.coin, px, sz, side: long ? 'A' : 'B', time: hour.time, dir: liquidated ? (long ? 'Liquidated Long' : 'Liquidated Short') : long ? 'Close Long' : 'Close Short', startPosition: pos.szi, closedPnl, fee, crossed: true });
      hour.volumeUsd += sz * px;
      hour.trades++;
      a.position = null;
    }
  }

  /** The reference's move over the next twelve hours: what a skilled whale sees through its noise. */
  private edge(coin: string, time: number): number {
    return this.priceAt(coin, time + LOOKAHEAD_S) / this.priceAt(coin, time) - 1;
  }
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const round = (x: number, decimals: number) => Math.floor(x * 10 ** decimals) / 10 ** decimals;

/** A stable 20-byte address from a label (FNV-1a over five lanes): accounts on the venue, not keys on any chain. */
function hex(label: string): string {
  let out = '';
  for (let lane = 0; lane < 5; lane++) {
    let h = 0x811c9dc5 ^ lane;
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out;
}
