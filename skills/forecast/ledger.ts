/**
 * The public accuracy ledger. Every forecast served for a known asset (the chart forecast and
 * the background majors) is recorded as an event due when its last step's time comes; once the
 * index holds a price at that time, the event is scored into per-(asset, chain, interval, model)
 * buckets with the fields the leaderboard publishes (docs/skills.md, "Accuracy ledger"). Beside the models, each event also scores a random walk
 * (no change: the error baseline) and "always bullish" (the base rate of the hit rate), so no
 * one mistakes drift for skill.
 *
 * Error figures use every scored event; the hit rate uses directional calls (not neutral) whose
 * outcome moved more than the neutral band (smaller moves are scratches). Calls whose windows do
 * not overlap the previous independent call are independent, and the hit rate is stated on
 * them when there are any (`sample_basis`), with the overlapping figures beside.
 *
 * Rows have an `origin`: `live` for forecasts served and scored as their time came, `backfill`
 * for forecasts made at start over the indexed history (each from the history before its origin
 * only) and scored at once. Their buckets are kept apart, so a backfill never passes for a live
 * record, and each backfill event is claimed in the store before it counts, so restarts and
 * other instances never count it twice.
 */
import { z } from 'zod';
import type { Store } from '../../store/store.js';
import { price } from './precision.js';
import { NEUTRAL_BAND_PCT, type Direction } from './signal.js';

export const RANDOM_WALK = 'random-walk';
export const ALWAYS_BULLISH = 'always-bullish';
export const ACCURACY_ROW_LIMIT = { min: 1, max: 50, default: 50 } as const;

const PENDING = 'forecast:ledger:pending';
const BUCKETS = 'forecast:ledger:buckets';
/** Live buckets keep the key they always had; backfill ones are suffixed. */
const bucketKey = (b: BucketId) => `forecast:ledger:bucket:${b.asset}|${b.chain}|${b.interval}|${b.model}${b.origin === 'backfill' ? '|backfill' : ''}`;
/** A backfill event is counted once, ever: its claim outlives any history it could be re-derived from. */
const BACKFILL_CLAIM_MS = 400 * 86_400_000;
const backfillClaimKey = (id: string) => `forecast:ledger:backfilled:${id}`;

export type Origin = 'live' | 'backfill';

export interface ForecastCall {
  /** The last step's forecast price; null for a rule with no price (always bullish). */
  readonly point: number | null;
  readonly direction: Direction;
}

export interface ForecastEvent {
  readonly id: string;
  readonly asset: string;
  readonly chain: string;
  readonly token: string;
  /** The horizon as a duration label (`4h`, `1d`, `6h`, ...). */
  readonly interval: string;
  readonly originTs: number;
  readonly dueTs: number;
  readonly lastClose: number;
  /** Model id (and `consensus`) → its call. */
  readonly calls: Readonly<Record<string, ForecastCall>>;
  /** Absent on live events (and on those recorded before origins existed). */
  readonly origin?: Origin;
}

export interface BucketId {
  asset: string;
  chain: string;
  interval: string;
  model: string;
  origin: Origin;
}

/** Running sums of one bucket. */
const bucketState = z.object({
  samples: z.number(), errorSamples: z.number(), sumAbsPct: z.number(), sumSq: z.number(), scratch: z.number(),
  independent: z.number(), lastIndependentDue: z.number(),
  indDir: z.number(), indHits: z.number(), ovDir: z.number(), ovHits: z.number(),
  first: z.number(), last: z.number(),
});
type BucketState = z.infer<typeof bucketState>;
const empty: BucketState = { samples: 0, errorSamples: 0, sumAbsPct: 0, sumSq: 0, scratch: 0, independent: 0, lastIndependentDue: 0, indDir: 0, indHits: 0, ovDir: 0, ovHits: 0, first: 0, last: 0 };

/** `3600 * 6` → `6h`; `86400 * 30` → `1M`. */
export function durationLabel(seconds: number): string {
  const units: [number, string][] = [[2_592_000, 'M'], [604_800, 'w'], [86_400, 'd'], [3_600, 'h'], [60, 'm']];
  for (const [size, unit] of units) if (seconds % size === 0) return `${seconds / size}${unit}`;
  return `${seconds}s`;
}

/** The base rows scored beside the models of every event. */
export function withBaselines(calls: Record<string, ForecastCall>, lastClose: number): Record<string, ForecastCall> {
  return { ...calls, [RANDOM_WALK]: { point: lastClose, direction: 'neutral' }, [ALWAYS_BULLISH]: { point: null, direction: 'bullish' } };
}

export class AccuracyLedger {
  constructor(private readonly store: Store) {}

  async record(event: ForecastEvent): Promise<void> {
    await this.store.sortedAdd(PENDING, [{ score: event.dueTs, member: JSON.stringify(event) }]);
  }

  pendingCount(): Promise<number> {
    return this.store.sortedCount(PENDING);
  }

  /**
   * Scores every due event whose realized price is known. One scorer at a time across
   * instances (a lease), and an event is claimed by removing it before it is counted.
   */
  async scoreDue(realized: (event: ForecastEvent) => Promise<number | null>, nowSeconds = Date.now() / 1000): Promise<number> {
    if (!(await this.store.reserve('forecast:ledger:scoring', '1', 60_000))) return 0;
    let scored = 0;
    try {
      for (const entry of await this.store.sortedRange(PENDING, 0, nowSeconds, 500)) {
        const event = JSON.parse(entry.member) as ForecastEvent;
        const price = await realized(event);
        if (price === null) continue; // the index has not reached the due time yet
        if ((await this.store.sortedRemove(PENDING, [entry.member])) !== 1) continue;
        await this.score(event, price);
        scored++;
      }
    } finally {
      await this.store.delete('forecast:ledger:scoring');
    }
    return scored;
  }

  /** Whether a backfill event was already counted (by this instance or another). */
  async backfilled(id: string): Promise<boolean> {
    return (await this.store.get(backfillClaimKey(id))) !== null;
  }

  /**
   * Scores a backfill event at once: it is claimed first, so it counts once across restarts and
   * instances. Callers score a bucket's events in origin order (independence is judged in order).
   */
  async scoreBackfill(event: ForecastEvent, realized: number): Promise<boolean> {
    if (!(await this.store.reserve(backfillClaimKey(event.id), '1', BACKFILL_CLAIM_MS))) return false;
    await this.score({ ...event, origin: 'backfill' }, realized);
    return true;
  }

  private async score(event: ForecastEvent, realized: number): Promise<void> {
    const origin = event.origin ?? 'live';
    for (const [model, call] of Object.entries(event.calls)) await this.scoreCall({ asset: event.asset, chain: event.chain, interval: event.interval, model, origin }, event, call, realized);
  }

  private async scoreCall(id: BucketId, event: ForecastEvent, call: ForecastCall, realized: number): Promise<void> {
    const key = bucketKey(id);
    const raw = await this.store.get(key);
    const s: BucketState = raw ? bucketState.parse(JSON.parse(raw)) : { ...empty };
    s.samples++;
    if (call.point !== null) {
      s.errorSamples++;
      s.sumAbsPct += (Math.abs(call.point - realized) / realized) * 100;
      s.sumSq += (call.point - realized) ** 2;
    }
    const independent = event.originTs >= s.lastIndependentDue;
    if (independent) {
      s.independent++;
      s.lastIndependentDue = event.dueTs;
    }
    const movePct = (realized / event.lastClose - 1) * 100;
    if (Math.abs(movePct) <= NEUTRAL_BAND_PCT) s.scratch++;
    else if (call.direction !== 'neutral') {
      const hit = (call.direction === 'bullish') === movePct > 0 ? 1 : 0;
      s.ovDir++;
      s.ovHits += hit;
      if (independent) {
        s.indDir++;
        s.indHits += hit;
      }
    }
    s.first = s.first ? Math.min(s.first, event.dueTs * 1000) : event.dueTs * 1000;
    s.last = Math.max(s.last, event.dueTs * 1000);
    await this.store.set(key, JSON.stringify(s));
    await this.store.hashSet(BUCKETS, key, JSON.stringify(id));
  }

  /** One bucket's row, or null before anything was scored in it. */
  async row(id: BucketId) {
    const raw = await this.store.get(bucketKey(id));
    return raw ? toRow(id, bucketState.parse(JSON.parse(raw))) : null;
  }

  /** The leaderboard rows, optionally for one asset. */
  async rows(asset?: string) {
    // Buckets recorded before origins existed are live ones.
    const ids = Object.values(await this.store.hashGetAll(BUCKETS)).map((v) => ({ origin: 'live', ...JSON.parse(v) }) as BucketId);
    const wanted = ids.filter((b) => !asset || b.asset.toUpperCase() === asset.toUpperCase());
    const rows = [];
    for (const id of wanted) {
      const row = await this.row(id);
      if (row) rows.push(row);
    }
    const order = (m: string) => (m === RANDOM_WALK ? 2 : m === ALWAYS_BULLISH ? 3 : m === 'consensus' ? 1 : 0);
    const byOrigin = (o: Origin) => (o === 'live' ? 0 : 1);
    rows.sort((a, b) => a.asset.localeCompare(b.asset) || a.chain.localeCompare(b.chain) || a.interval.localeCompare(b.interval) || byOrigin(a.origin) - byOrigin(b.origin) || order(a.model) - order(b.model) || a.model.localeCompare(b.model));
    return { totalBuckets: ids.length, assetsScored: [...new Set(ids.map((b) => b.asset))].sort(), rows };
  }
}

const r = (n: number, d: number) => Math.round(n * 10 ** d) / 10 ** d;

function toRow(id: BucketId, s: BucketState) {
  const basis = s.indDir > 0 ? 'independent' : 'overlapping';
  const dir = basis === 'independent' ? s.indDir : s.ovDir;
  const hits = basis === 'independent' ? s.indHits : s.ovHits;
  return {
    asset: id.asset,
    chain: id.chain,
    interval: id.interval,
    model: id.model,
    origin: id.origin,
    samples: s.samples,
    direction_samples: dir,
    mape_pct: s.errorSamples ? r(s.sumAbsPct / s.errorSamples, 4) : null,
    rmse: s.errorSamples ? price(Math.sqrt(s.sumSq / s.errorSamples)) : null, // in price units: significant digits at any magnitude
    direction_hit_rate: dir ? r(hits / dir, 4) : null,
    sample_basis: basis,
    overlapping_direction_samples: s.ovDir,
    overlapping_hit_rate: s.ovDir ? r(s.ovHits / s.ovDir, 4) : null,
    scratch_samples: s.scratch,
    independent_samples: s.independent,
    first_sample_ts: s.first || null,
    last_sample_ts: s.last || null,
  };
}
