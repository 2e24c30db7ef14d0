/**
 * One part's health (a chain's node, the store, the Bitcoin chain) from probes that a health
 * request never waits on for long. A part is `up` when its last probe answered quickly, `slow`
 * when it answered late or the running probe has not answered yet but nothing says it is gone,
 * and `down` only on evidence: an error (refused, wrong chain), a failure with no answer since,
 * or silence for DOWN_AFTER_MS. A busy machine makes parts slow, never down, so readiness does
 * not flap while every part still answers.
 */
import { within } from '../lib/time.js';

export type PartState = 'up' | 'slow' | 'down';

/** An answer that took this long or longer marks its part slow. */
export const SLOW_AFTER_MS = 500;
/**
 * A part silent this long is down: a request waiting so long fails anyway (a chain read's
 * attempt and a store command both give up after 5 s), so the part can serve nothing.
 */
export const DOWN_AFTER_MS = 5_000;

export interface Observation<T> {
  readonly state: PartState;
  /** The last answer's value (from an earlier probe while the running one has not answered). */
  readonly value: T | undefined;
  /** How long the last answer took or, while a probe waits, how long it has waited so far. */
  readonly latencyMs: number | null;
  /** Why the part is down, or what keeps it slow. */
  readonly detail?: string;
}

/** What other traffic to the part says (a chain's RPC outcomes). */
export interface Evidence {
  /** The part's last request failed and nothing answered since. */
  readonly failing: boolean;
  readonly lastFailure?: string | undefined;
  /** How long the part's requests have waited with no answer to any of them. */
  readonly silentForMs?: number;
}

type Outcome<T> = { readonly ok: true; readonly value: T; readonly latencyMs: number } | { readonly ok: false; readonly error: string };

export class Probe<T> {
  private last?: Outcome<T>;
  private lastValue?: T;
  private running?: { readonly done: Promise<void>; readonly startedAt: number };

  constructor(
    private readonly check: () => Promise<T>,
    private readonly evidence: () => Evidence | undefined = () => undefined,
  ) {}

  /** Starts a probe unless one runs, and reports within `budgetMs` of when that probe started. */
  async observe(budgetMs: number): Promise<Observation<T>> {
    const running = this.start();
    const wait = Math.max(0, budgetMs - (Date.now() - running.startedAt));
    const answered = await within(wait, running.done.then(() => true), false);
    return answered ? this.answered() : this.waiting(Date.now() - running.startedAt);
  }

  private start(): { readonly done: Promise<void>; readonly startedAt: number } {
    if (this.running) return this.running;
    const startedAt = Date.now();
    const done = this.check().then(
      (value): Outcome<T> => ({ ok: true, value, latencyMs: Date.now() - startedAt }),
      (err: unknown): Outcome<T> => ({ ok: false, error: (err as Error).message.split('\n')[0]! }),
    ).then((outcome) => {
      this.last = outcome;
      if (outcome.ok) this.lastValue = outcome.value;
      this.running = undefined;
    });
    this.running = { done, startedAt };
    return this.running;
  }

  private answered(): Observation<T> {
    const last = this.last!;
    if (!last.ok) return { state: 'down', value: this.lastValue, latencyMs: null, detail: last.error };
    return { state: last.latencyMs >= SLOW_AFTER_MS ? 'slow' : 'up', value: last.value, latencyMs: last.latencyMs };
  }

  private waiting(waitedMs: number): Observation<T> {
    const seen = { value: this.lastValue, latencyMs: waitedMs };
    const other = this.evidence();
    if (other?.failing) return { state: 'down', ...seen, detail: `no answer for ${waitedMs} ms, and its last request failed: ${other.lastFailure ?? 'no answer'}` };
    if (this.last && !this.last.ok) return { state: 'down', ...seen, detail: `no answer since: ${this.last.error}` };
    const silentMs = Math.max(waitedMs, other?.silentForMs ?? 0);
    if (silentMs >= DOWN_AFTER_MS) return { state: 'down', ...seen, detail: `no answer for ${silentMs} ms` };
    return { state: 'slow', ...seen, detail: `no answer yet after ${waitedMs} ms` };
  }
}
