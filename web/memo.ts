/**
 * A value per key computed at most once per `ttlMs` in this process; callers meanwhile (concurrent
 * ones included) share the same promise. A run that rejects is forgotten at once unless
 * `keepFailures` (then a failure counts as the run, e.g. an example that ran and failed).
 */
export class TimedMemo<K, V> {
  private readonly entries = new Map<K, { readonly startedAt: number; readonly value: Promise<V> }>();

  constructor(private readonly ttlMs: number, private readonly now: () => number = Date.now, private readonly keepFailures = false) {}

  get(key: K, compute: (startedAt: number) => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.startedAt < this.ttlMs) return hit.value;
    const startedAt = this.now();
    const value = compute(startedAt);
    this.entries.set(key, { startedAt, value });
    if (!this.keepFailures) value.catch(() => { if (this.entries.get(key)?.value === value) this.entries.delete(key); });
    return value;
  }
}
