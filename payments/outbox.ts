/**
 * Store writes that must happen after money moved (a settlement record, a credit top-up, a
 * refund), kept in process until the store takes them. A write gets a short first attempt so
 * an answer never waits on a store that is down or hung; if it does not finish in time it stays
 * in the backlog and is retried with backoff until it succeeds. Only one attempt of a job is
 * ever in flight: a retry starts only after the previous attempt failed. Every job must be safe
 * to run twice (a timed-out command may still run once the store is back): records are keyed
 * writes, and credits apply once per key (`Store.addOnce`).
 */

export interface OutboxOptions {
  /** How long a caller waits for the first attempt before its answer goes out without it. */
  readonly answerWithinMs?: number;
  readonly firstRetryMs?: number;
  readonly maxRetryMs?: number;
  readonly log?: (msg: string, err?: unknown) => void;
}

interface Entry {
  readonly kind: string;
  /** What the job writes, for the log if the process stops with it unwritten. */
  readonly detail: unknown;
  readonly run: () => Promise<void>;
  readonly since: number;
  attempts: number;
  timer?: NodeJS.Timeout;
}

export class Outbox {
  private readonly entries = new Set<Entry>();
  private readonly waiters = new Set<() => void>();
  private closed = false;
  private readonly answerWithinMs: number;
  private readonly firstRetryMs: number;
  private readonly maxRetryMs: number;
  private readonly log: (msg: string, err?: unknown) => void;

  constructor(options: OutboxOptions = {}) {
    this.answerWithinMs = options.answerWithinMs ?? 500;
    this.firstRetryMs = options.firstRetryMs ?? 200;
    this.maxRetryMs = options.maxRetryMs ?? 5_000;
    this.log = options.log ?? (() => {});
  }

  /**
   * Runs `run` now and keeps retrying it until it succeeds. Resolves true when it finished
   * within the answer window, false when it is still in the backlog. Never rejects.
   */
  submit(kind: string, detail: unknown, run: () => Promise<void>): Promise<boolean> {
    const entry: Entry = { kind, detail, run, since: Date.now(), attempts: 0 };
    this.entries.add(entry);
    const first = this.attempt(entry);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), this.answerWithinMs);
      void first.then((ok) => {
        clearTimeout(timer);
        resolve(ok);
      });
    });
  }

  /** Jobs not yet written, in all and by kind. */
  get backlog(): number {
    return this.entries.size;
  }

  byKind(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const e of this.entries) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
    return counts;
  }

  /** Age of the oldest unwritten job, in ms (0 when none). */
  oldestMs(now = Date.now()): number {
    let oldest = now;
    for (const e of this.entries) oldest = Math.min(oldest, e.since);
    return now - oldest;
  }

  /** Resolves true once the backlog is empty, false after `timeoutMs`. */
  async drained(timeoutMs: number): Promise<boolean> {
    if (!this.entries.size) return true;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        resolve(false);
      }, timeoutMs);
      this.waiters.add(done);
    });
  }

  /** Stops retrying; whatever is still unwritten is logged in full so an operator can replay it. */
  close(): void {
    this.closed = true;
    for (const e of this.entries) {
      clearTimeout(e.timer);
      this.log(`outbox: ${e.kind} not written after ${e.attempts} attempts: ${JSON.stringify(e.detail, bigintSafe)}`);
    }
    this.entries.clear();
  }

  /** One attempt; on failure the next is scheduled. Resolves whether it succeeded. */
  private async attempt(entry: Entry): Promise<boolean> {
    entry.attempts++;
    try {
      await entry.run();
    } catch (err) {
      if (this.closed) {
        this.entries.delete(entry);
        this.log(`outbox: ${entry.kind} not written (closing): ${JSON.stringify(entry.detail, bigintSafe)}`, err);
        return false;
      }
      if (entry.attempts === 1) this.log(`outbox: ${entry.kind} deferred, the store refused it`, err);
      const delay = Math.min(this.maxRetryMs, this.firstRetryMs * 2 ** (entry.attempts - 1));
      entry.timer = setTimeout(() => void this.attempt(entry), delay * (0.75 + Math.random() / 2));
      entry.timer.unref();
      return false;
    }
    if (entry.attempts > 1) this.log(`outbox: ${entry.kind} written after ${entry.attempts} attempts`);
    this.finish(entry);
    return true;
  }

  private finish(entry: Entry): void {
    this.entries.delete(entry);
    if (!this.entries.size) for (const w of [...this.waiters]) w();
  }
}

function bigintSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
