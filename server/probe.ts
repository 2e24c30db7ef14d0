/**
 * One part's health (a chain's node, the store, the Bitcoin chain) from probes that run in the
 * background; a health request reads the last known state and never waits long. A part is
 * `up` when its last probe answered quickly, `slow` when it answered late or its last probes
 * failed fewer than DOWN_AFTER_FAILURES times in a row, and `down` only on evidence: that many
 * failed probes in a row, or one definite error (connection refused, no such host, a node that
 * is not the chain, a node process that died). The first answer brings it back. A probe waits
 * for its answer a budget that grows with the event loop's delay, and a timer that fires late
 * because the loop was held does not count against it: a busy process makes parts slow, never
 * down, so readiness does not flap while every part still answers.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { errorCode, isAbsent } from '../lib/errors.js';
import { stallAwareDeadline } from '../store/deadline.js';

export type PartState = 'up' | 'slow' | 'down';

/** An answer that took this long or longer marks its part slow. */
export const SLOW_AFTER_MS = 500;
/** Failed probes in a row (none of them definite) that make a part down. */
export const DOWN_AFTER_FAILURES = 3;
/** Pause between probes of a part that answers. */
export const PROBE_INTERVAL_MS = 2_000;
/** Pause after a failed probe: a part that is gone is found down within a few seconds. */
export const PROBE_RETRY_MS = 500;
/** How long a probe waits for its answer on an idle process. */
export const PROBE_BUDGET_MS = 2_500;
/** Milliseconds of budget added per millisecond of event-loop delay (p99 over the last seconds). */
export const PROBE_BUDGET_PER_DELAY_MS = 10;
export const PROBE_BUDGET_MAX_MS = 20_000;

/** The probe budget for an event-loop delay: a saturated process waits longer before calling a silence a failure. */
export function probeBudgetMs(loopDelayMs: number): number {
  return Math.min(PROBE_BUDGET_MAX_MS, Math.round(PROBE_BUDGET_MS + PROBE_BUDGET_PER_DELAY_MS * loopDelayMs));
}

/** The event loop's delay: the largest p99 of the last few one-second windows. */
export class LoopDelay {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 20 });
  private readonly windows: number[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(windowCount = 5) {
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.windows.push(this.current());
      if (this.windows.length > windowCount) this.windows.shift();
      this.histogram.reset();
    }, 1_000);
    this.timer.unref();
  }

  /** Milliseconds (p99 of the recent windows, the running one included). */
  recentMs(): number {
    return Math.max(this.current(), ...this.windows);
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }

  private current(): number {
    // An empty window reads as NaN or a huge min; the resolution itself is not delay.
    const p99 = this.histogram.count ? this.histogram.percentile(99) / 1e6 - 20 : 0;
    return Number.isFinite(p99) ? Math.max(0, Math.round(p99)) : 0;
  }
}

export interface Observation<T> {
  readonly state: PartState;
  /** The last answer's value (kept while later probes fail or wait). */
  readonly value: T | undefined;
  /** How long the last answer took or, while a probe waits past its budget, how long it has waited. */
  readonly latencyMs: number | null;
  /** Why the part is down, or what keeps it slow. */
  readonly detail?: string;
  /** Failed probes in a row. */
  readonly failures: number;
}

function describe(err: unknown): string {
  const code = errorCode(err);
  const message = ((err as Error)?.message ?? String(err)).split('\n')[0]!;
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** A finding that makes the part down at once, whatever its probes say. */
export interface Definite {
  readonly error: string;
}

export interface ProbeOptions<T> {
  readonly check: () => Promise<T>;
  /** A definite problem with an answer (a node that is not the chain): down, with the value kept. */
  readonly problemOf?: (value: T) => string | null;
  /** Other evidence of a definite failure (a chain's last request refused, its node process dead). */
  readonly evidence?: () => Definite | undefined;
  /** The budget of the probe starting now (it grows with the event loop's delay). */
  readonly budgetMs: () => number;
  readonly intervalMs?: number;
  readonly retryMs?: number;
  readonly downAfter?: number;
}

type Outcome<T> =
  | { readonly ok: true; readonly value: T; readonly latencyMs: number }
  | { readonly ok: false; readonly error: string; readonly definite: boolean };

export class Probe<T> {
  private lastValue?: T;
  private lastLatencyMs: number | null = null;
  private failures = 0;
  private lastError?: string;
  private definite = false;
  private answered = false;
  /** The check in flight (a probe that ran out of budget leaves it for the next one to wait on). */
  private pending?: { readonly result: Promise<Outcome<T>>; readonly startedAt: number };
  /** The probe running now. */
  private running?: Promise<void>;
  private lastEndedAt = 0;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly options: ProbeOptions<T>) {}

  /** Probes now and then in the background until stopped. */
  start(): this {
    this.kick();
    return this;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /**
   * The part's state. A caller wanting a fresh reading (a health request: the head block it
   * shows) has a probe started when none ran in the last `freshMs`, and waits for it at most
   * `waitMs`; a probe still waiting then is judged by its own budget, not by this wait.
   */
  async observe(waitMs = 0, freshMs = 250): Promise<Observation<T>> {
    const running = this.running ?? (Date.now() - this.lastEndedAt >= freshMs && !this.stopped ? this.kick() : undefined);
    if (running && waitMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise((r) => (timer = setTimeout(r, waitMs)))]).finally(() => clearTimeout(timer));
    }
    return this.now();
  }

  /** The state as last known, without waiting. */
  now(): Observation<T> {
    const failures = this.failures;
    const waited = this.waitedMs();
    const late = waited !== null && waited >= SLOW_AFTER_MS;
    const seen = { value: this.lastValue, latencyMs: late ? waited : this.lastLatencyMs, failures };
    const other = this.options.evidence?.();
    if (other) return { state: 'down', ...seen, detail: other.error };
    const downAfter = this.options.downAfter ?? DOWN_AFTER_FAILURES;
    if (failures > 0 && (this.definite || failures >= downAfter)) {
      return { state: 'down', ...seen, detail: this.definite ? this.lastError! : `${failures} probes failed in a row; the last: ${this.lastError}` };
    }
    if (failures > 0) return { state: 'slow', ...seen, detail: `${failures} of ${downAfter} probes failed in a row; the last: ${this.lastError}` };
    if (!this.answered || late) return { state: 'slow', ...seen, detail: waited === null ? 'not probed yet' : `no answer yet after ${waited} ms` };
    return { state: this.lastLatencyMs! >= SLOW_AFTER_MS ? 'slow' : 'up', ...seen };
  }

  private waitedMs(): number | null {
    return this.pending ? Date.now() - this.pending.startedAt : null;
  }

  private kick(): Promise<void> {
    clearTimeout(this.timer);
    const run = this.probe().finally(() => {
      this.running = undefined;
      this.lastEndedAt = Date.now();
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.kick(), this.failures ? this.options.retryMs ?? PROBE_RETRY_MS : this.options.intervalMs ?? PROBE_INTERVAL_MS);
      this.timer.unref();
    });
    this.running = run;
    return run;
  }

  /** One probe: the check in flight (or a new one), waited for within the budget. */
  private async probe(): Promise<void> {
    const pending = this.pending ?? this.begin();
    const budget = this.options.budgetMs();
    const outcome = await stallAwareDeadline(pending.result, budget, () => undefined);
    if (outcome === undefined) return this.failed(`no answer within ${budget} ms`, false);
    if (!outcome.ok) return this.failed(outcome.error, outcome.definite);
    this.lastValue = outcome.value;
    const problem = this.options.problemOf?.(outcome.value);
    if (problem) return this.failed(problem, true);
    this.answered = true;
    this.lastLatencyMs = outcome.latencyMs;
    this.failures = 0;
    this.definite = false;
    this.lastError = undefined;
  }

  private begin(): NonNullable<Probe<T>['pending']> {
    const startedAt = Date.now();
    const result = this.options.check().then(
      (value): Outcome<T> => ({ ok: true, value, latencyMs: Date.now() - startedAt }),
      (err: unknown): Outcome<T> => ({ ok: false, error: describe(err), definite: isAbsent(err) }),
    );
    const pending = { result, startedAt };
    void result.then(() => {
      if (this.pending === pending) this.pending = undefined;
    });
    this.pending = pending;
    return pending;
  }

  private failed(error: string, definite: boolean): void {
    this.failures++;
    this.lastError = error;
    this.definite = definite;
    this.lastLatencyMs = null;
  }
}

