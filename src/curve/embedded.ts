/**
 * The embedded Solana-style bonding-curve venue (`source: "embedded"`): deterministic for a
 * seed and a genesis time, pump-style constant-product curves with virtual reserves, creators
 * launching about three tokens an hour, traders whose interest in a token fades, graduation
 * when the curve's tokens are sold out and migration to an AMM pool minutes later. It is
 * computed lazily: every read first advances the simulation, two minutes at a time, to the wall
 * clock, so nothing runs between reads and "latest" still moves.
 */
import { createHash } from 'node:crypto';
import { base58 } from '@scure/base';
import { Rng } from '../world/random.js';
import type { CurveFeed, CurveLaunch, CurveState, CurveTrade, CurveVenueParams } from './feed.js';

/** History the venue has when the service starts (its genesis is this far back by default). */
export const CURVE_HISTORY_DAYS = 14;
const STEP_SECONDS = 120;
const TRADERS = 5_000;
const SLOT_SECONDS = 0.4;
export const EMBEDDED_VENUE: CurveVenueParams = {
  name: 'embedded pump-style bonding curve',
  totalSupply: 1_000_000_000,
  curveSupply: 793_100_000,
  initialVirtualSol: 30,
  initialVirtualTokens: 1_073_000_000,
  feeBps: 100,
};

interface Live {
  launch: CurveLaunch;
  virtualSol: number;
  virtualTokens: number;
  realSol: number;
  tokensSold: number;
  /** Trades per hour now; decays with `halfLifeHours`. */
  interest: number;
  halfLifeHours: number;
  buyBias: number;
  graduated: { time: number; slot: number } | null;
  migration: { pool: string; time: number } | null;
}

export interface EmbeddedCurveOptions {
  readonly seed: string;
  /** First simulated second; the venue then runs to the wall clock. */
  readonly genesisTime: number;
  readonly now?: () => number;
}

export class EmbeddedCurveVenue implements CurveFeed {
  readonly source = 'embedded';
  readonly venue = EMBEDDED_VENUE;
  private readonly rng: Rng;
  private readonly launchList: CurveLaunch[] = [];
  private readonly tradeList: CurveTrade[] = [];
  private readonly tokens = new Map<string, Live>();
  private readonly active = new Set<Live>();
  private readonly solPath: number[] = []; // SOL/USD per simulated hour since genesis
  private time: number;
  private counter = 0;

  constructor(private readonly options: EmbeddedCurveOptions) {
    this.rng = new Rng(`curve:${options.seed}`);
    this.time = Math.floor(options.genesisTime / STEP_SECONDS) * STEP_SECONDS;
  }

  private now(): number {
    return Math.floor((this.options.now?.() ?? Date.now()) / 1000);
  }

  /** Writes the history up to now in slices, yielding between them so I/O around it proceeds. */
  async warm(): Promise<void> {
    const until = this.now();
    while (this.time + STEP_SECONDS <= until) {
      for (let i = 0; i < 500 && this.time + STEP_SECONDS <= until; i++) this.step((this.time += STEP_SECONDS));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Runs the simulation up to the wall clock. */
  private advance(): void {
    const until = this.now();
    while (this.time + STEP_SECONDS <= until) this.step((this.time += STEP_SECONDS));
  }

  private slotAt(time: number): number {
    return Math.floor((time - this.options.genesisTime) / SLOT_SECONDS);
  }

  /** A base58 key derived from the seed and a label: deterministic, and a valid 32-byte key encoding. */
  private key(label: string): string {
    return base58.encode(createHash('sha256').update(`${this.options.seed}:${label}`).digest());
  }

  private readonly traders = new Map<number, string>();
  private trader(n: number): string {
    let key = this.traders.get(n);
    if (!key) this.traders.set(n, (key = this.key(`trader:${n}`)));
    return key;
  }

  private signature(label: string): string {
    const h = createHash('sha512').update(`${this.options.seed}:sig:${label}`).digest();
    return base58.encode(h);
  }

  private step(t: number): void {
    const hours = STEP_SECONDS / 3600;
    // Creators: about three launches an hour.
    for (let i = this.rng.poisson(3 * hours); i > 0; i--) this.launch(t);
    for (const token of [...this.active]) {
      if (token.graduated) {
        if (!token.migration && t >= token.graduated.time + this.rng.int(1, 10) * 60) {
          token.migration = { pool: this.key(`pool:${token.launch.mint}`), time: t };
          this.active.delete(token);
        }
        continue;
      }
      token.interest *= Math.pow(0.5, hours / token.halfLifeHours);
      if (token.interest < 0.3) {
        this.active.delete(token); // forgotten: no one trades it any more
        continue;
      }
      for (let n = this.rng.poisson(token.interest * hours); n > 0 && !token.graduated; n--) this.trade(token, t);
    }
  }

  private launch(t: number): void {
    const n = ++this.counter;
    const symbol = `${['PEPE', 'DOGE', 'CAT', 'AI', 'MOON', 'FROG', 'WIF', 'BONK'][n % 8]}${n}`;
    const launch: CurveLaunch = { mint: this.key(`mint:${n}`), creator: this.key(`creator:${this.rng.int(1, 400)}`), name: `${symbol} coin`, symbol, time: t, slot: this.slotAt(t), signature: this.signature(`launch:${n}`) };
    const token: Live = {
      launch, virtualSol: EMBEDDED_VENUE.initialVirtualSol, virtualTokens: EMBEDDED_VENUE.initialVirtualTokens, realSol: 0, tokensSold: 0,
      interest: this.rng.logUniform(2, 150), halfLifeHours: this.rng.logUniform(0.3, 6), buyBias: 0.5 + this.rng.next() * 0.25,
      graduated: null, migration: null,
    };
    this.launchList.push(launch);
    this.tokens.set(launch.mint, token);
    this.active.add(token);
  }

  private trade(token: Live, t: number): void {
    const buy = token.tokensSold === 0 || this.rng.chance(token.buyBias);
    const trader = this.trader(this.rng.int(1, TRADERS));
    const k = token.virtualSol * token.virtualTokens;
    let sol: number;
    let tokens: number;
    if (buy) {
      sol = this.rng.logUniform(0.02, 4);
      tokens = token.virtualTokens - k / (token.virtualSol + sol);
      const remaining = EMBEDDED_VENUE.curveSupply - token.tokensSold;
      if (tokens >= remaining) {
        // The last buyer takes what is left and pays exactly for it.
        tokens = remaining;
        sol = k / (token.virtualTokens - remaining) - token.virtualSol;
      }
      token.virtualSol += sol;
      token.virtualTokens -= tokens;
      token.realSol += sol;
      token.tokensSold += tokens;
    } else {
      tokens = Math.min(token.tokensSold, (this.rng.logUniform(0.02, 3) * token.virtualTokens) / token.virtualSol);
      sol = Math.min(token.realSol, token.virtualSol - k / (token.virtualTokens + tokens));
      token.virtualSol -= sol;
      token.virtualTokens += tokens;
      token.realSol -= sol;
      token.tokensSold -= tokens;
    }
    const progressPct = (token.tokensSold / EMBEDDED_VENUE.curveSupply) * 100;
    // Trades of one step share its closing time; their order is the list's. The signature is
    // derived on first read: encoding 64 bytes in base58 costs more than the whole trade.
    const index = this.tradeList.length;
    const sign = (label: string) => this.signature(label);
    this.tradeList.push({
      get signature() {
        return sign(`trade:${index}`);
      },
      mint: token.launch.mint, trader, side: buy ? 'buy' : 'sell', sol, tokens,
      time: t, slot: this.slotAt(t),
      virtualSol: token.virtualSol, virtualTokens: token.virtualTokens, realSol: token.realSol, progressPct,
    });
    if (token.tokensSold >= EMBEDDED_VENUE.curveSupply) token.graduated = { time: t, slot: this.slotAt(t) };
  }

  async head() {
    this.advance();
    return { slot: this.slotAt(this.time), time: this.time };
  }

  async launches(fromTime: number, toTime: number) {
    this.advance();
    return this.launchList.filter((l) => l.time >= fromTime && l.time <= toTime);
  }

  async trades(fromTime: number, toTime: number) {
    this.advance();
    return this.tradeList.filter((x) => x.time >= fromTime && x.time <= toTime); // appended in time order
  }

  async states(mints?: readonly string[]): Promise<CurveState[]> {
    this.advance();
    const wanted = mints ? mints.map((m) => this.tokens.get(m)).filter((x): x is Live => !!x) : [...this.tokens.values()];
    return wanted.map((t) => ({
      mint: t.launch.mint, virtualSol: t.virtualSol, virtualTokens: t.virtualTokens, realSol: t.realSol, tokensSold: t.tokensSold,
      progressPct: (t.tokensSold / EMBEDDED_VENUE.curveSupply) * 100, graduated: t.graduated, migration: t.migration,
    }));
  }

  /** SOL/USD: an hourly random walk from $150 (about 1% an hour), linear within the hour. */
  async solUsd(time: number) {
    const hour = (time - this.options.genesisTime) / 3600;
    if (hour < 0) return null;
    while (this.solPath.length <= Math.ceil(hour) + 1) {
      if (!this.solPath.length) this.solPath.push(150);
      else {
        // Each hour's move depends only on its index, so the path is the same however far it was read.
        const r = new Rng(`sol:${this.options.seed}:${this.solPath.length}`);
        this.solPath.push(this.solPath.at(-1)! * Math.exp(0.01 * r.normal()));
      }
    }
    const i = Math.floor(hour);
    const f = hour - i;
    return { usd: this.solPath[i]! * (1 - f) + this.solPath[i + 1]! * f, source: 'embedded venue SOL/USD path' };
  }
}
