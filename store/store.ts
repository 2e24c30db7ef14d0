/**
 * Everything Sibyl instances share: replay reservations, settlement records, counters and
 * cached snapshots. Two instances on one Redis behave as one service because all of their
 * shared state goes through this interface.
 */
export interface Store {
  readonly kind: 'memory' | 'redis';
  /** Atomically claims `key` (SET NX PX). True when this caller now holds it. */
  reserve(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Extends `key`'s ttl only while it still holds `value`, atomically (a lease renewal). False when it expired or holds another value. */
  renew(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Deletes `key` only while it still holds `value`, atomically (a lease given back). False otherwise. */
  release(key: string, value: string): Promise<boolean>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Adds `by` and returns the new value; a ttl is applied only when the key has none. */
  incrBy(key: string, by: number, ttlMs?: number): Promise<number>;
  /**
   * Hands out the next number of a counter that never goes below `floor`: returns
   * max(stored, floor) and stores that plus one, atomically (a settler's nonces, seeded by the chain).
   */
  takeNext(key: string, floor: number): Promise<number>;
  /**
   * Takes `by` (>= 0) from the integer at `key` only when at least `by` is there, in one atomic
   * step: the value never goes below zero, not even for an instant, and a refusal changes nothing.
   * When taken and `journal` is given, `journal.entry` is added to the sorted set `journal.key` in
   * the same step, scored by the next value of the counter `journal.seqKey`, its first `{value}`
   * replaced by the value after and its first `{seq}` by that score.
   */
  takeIfEnough(key: string, by: number, journal?: Journal): Promise<{ taken: boolean; value: number }>;
  /**
   * Adds `by` to `key` (and writes `journal`, as `takeIfEnough` does) only the first time
   * `onceKey` is seen within `onceTtlMs`, in one atomic step: a credit sent again after a lost
   * answer, or run late by a client that queued it, applies once. `added` is false for a repeat.
   */
  addOnce(key: string, by: number, onceKey: string, onceTtlMs: number, journal?: Journal): Promise<{ added: boolean; value: number }>;
  hashSet(key: string, field: string, value: string): Promise<void>;
  hashGet(key: string, field: string): Promise<string | null>;
  /** Several fields of one hash at once, in the order asked (null where absent). */
  hashGetMany(key: string, fields: readonly string[]): Promise<(string | null)[]>;
  hashGetAll(key: string): Promise<Record<string, string>>;
  hashDelete(key: string, field: string): Promise<void>;
  /** Writes several fields of one hash at once. */
  hashSetMany(key: string, fields: Record<string, string>): Promise<void>;
  /** Adds members to a sorted set (a member already present takes the new score). */
  sortedAdd(key: string, entries: readonly SortedEntry[]): Promise<void>;
  /** Members with min <= score <= max, lowest score first; `limit` caps how many. */
  sortedRange(key: string, min: number, max: number, limit?: number): Promise<SortedEntry[]>;
  /** Removes members with min <= score <= max; returns how many went. */
  sortedRemoveRange(key: string, min: number, max: number): Promise<number>;
  /** Removes the given members; returns how many were present (the one caller of several to remove a member sees it counted). */
  sortedRemove(key: string, members: readonly string[]): Promise<number>;
  sortedCount(key: string): Promise<number>;
  /** Every key under `prefix` that has no ttl, with its value: a snapshot of, say, one chain's index. */
  dump(prefix: string): Promise<StoreDump>;
  /** Writes a snapshot back (its keys replace what is there). */
  restore(dump: StoreDump): Promise<void>;
  /** Deletes every key under `prefix` (e.g. the index of a chain that was replaced). */
  clear(prefix: string): Promise<void>;
  close(): Promise<void>;
}

/** A movement written with the change it records (see `takeIfEnough`). */
export interface Journal {
  readonly key: string;
  readonly seqKey: string;
  readonly entry: string;
}

export interface StoreDump {
  readonly strings: [key: string, value: string][];
  readonly hashes: [key: string, fields: Record<string, string>][];
  readonly sorted: [key: string, entries: SortedEntry[]][];
}

export interface SortedEntry {
  readonly score: number;
  readonly member: string;
}
