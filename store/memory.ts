/** The embedded default: a single-process store with the same semantics as the Redis one. */
import type { Journal, SortedEntry, Store, StoreDump } from './store.js';

interface Entry {
  value: string;
  expiresAt: number; // Infinity when the key has no ttl
}

export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly hashes = new Map<string, Map<string, string>>();
  /** Sorted sets: member → score, plus an ordering rebuilt lazily after writes. */
  private readonly sorted = new Map<string, { scores: Map<string, number>; ordered: SortedEntry[] | null }>();
  private writes = 0;

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Expired keys are dropped on read; a periodic sweep bounds memory for keys never read again. */
  private write(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    if (++this.writes % 10_000 === 0) {
      const now = Date.now();
      for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k);
    }
  }

  async reserve(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.live(key)) return false;
    this.write(key, { value, expiresAt: Date.now() + ttlMs });
    return true;
  }

  async renew(key: string, value: string, ttlMs: number): Promise<boolean> {
    const entry = this.live(key);
    if (entry?.value !== value) return false;
    entry.expiresAt = Date.now() + ttlMs;
    return true;
  }

  async release(key: string, value: string): Promise<boolean> {
    if (this.live(key)?.value !== value) return false;
    this.entries.delete(key);
    return true;
  }

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.write(key, { value, expiresAt: ttlMs === undefined ? Infinity : Date.now() + ttlMs });
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
    this.hashes.delete(key);
    this.sorted.delete(key);
  }

  async incrBy(key: string, by: number, ttlMs?: number): Promise<number> {
    const entry = this.live(key);
    const next = (entry ? Number(entry.value) : 0) + by;
    const expiresAt = entry && entry.expiresAt !== Infinity ? entry.expiresAt : ttlMs === undefined ? Infinity : Date.now() + ttlMs;
    this.write(key, { value: String(next), expiresAt });
    return next;
  }

  async takeNext(key: string, floor: number): Promise<number> {
    const stored = Number(this.live(key)?.value ?? floor);
    const next = Math.max(stored, floor);
    this.write(key, { value: String(next + 1), expiresAt: Infinity });
    return next;
  }

  async takeIfEnough(key: string, by: number, journal?: Journal): Promise<{ taken: boolean; value: number }> {
    const entry = this.live(key);
    const have = entry ? Number(entry.value) : 0;
    if (have < by) return { taken: false, value: have };
    const value = have - by;
    this.write(key, { value: String(value), expiresAt: entry?.expiresAt ?? Infinity });
    // No await before the entry is added: nothing else runs between the take and its movement.
    if (journal) this.appendJournal(journal, value);
    return { taken: true, value };
  }

  async addOnce(key: string, by: number, onceKey: string, onceTtlMs: number, journal?: Journal): Promise<{ added: boolean; value: number }> {
    const entry = this.live(key);
    const have = entry ? Number(entry.value) : 0;
    if (this.live(onceKey)) return { added: false, value: have };
    // No await from here on: the once-key, the sum and the movement are one step.
    this.write(onceKey, { value: '1', expiresAt: Date.now() + onceTtlMs });
    const value = have + by;
    this.write(key, { value: String(value), expiresAt: entry?.expiresAt ?? Infinity });
    if (journal) this.appendJournal(journal, value);
    return { added: true, value };
  }

  /** The movement a change writes, with the value and the account's next sequence filled in (synchronously). */
  private appendJournal(journal: Journal, value: number): void {
    const counter = this.live(journal.seqKey);
    const seq = (counter ? Number(counter.value) : 0) + 1;
    this.write(journal.seqKey, { value: String(seq), expiresAt: counter?.expiresAt ?? Infinity });
    void this.sortedAdd(journal.key, [{ score: seq, member: journal.entry.replace('{value}', String(value)).replace('{seq}', String(seq)) }]);
  }

  async hashSet(key: string, field: string, value: string): Promise<void> {
    let hash = this.hashes.get(key);
    if (!hash) this.hashes.set(key, (hash = new Map()));
    hash.set(field, value);
  }

  async hashGet(key: string, field: string): Promise<string | null> {
    return this.hashes.get(key)?.get(field) ?? null;
  }

  async hashGetMany(key: string, fields: readonly string[]): Promise<(string | null)[]> {
    const hash = this.hashes.get(key);
    return fields.map((f) => hash?.get(f) ?? null);
  }

  async hashGetAll(key: string): Promise<Record<string, string>> {
    return Object.fromEntries(this.hashes.get(key) ?? []);
  }

  async hashDelete(key: string, field: string): Promise<void> {
    this.hashes.get(key)?.delete(field);
  }

  async hashSetMany(key: string, fields: Record<string, string>): Promise<void> {
    for (const [field, value] of Object.entries(fields)) await this.hashSet(key, field, value);
  }

  async sortedAdd(key: string, entries: readonly SortedEntry[]): Promise<void> {
    let set = this.sorted.get(key);
    if (!set) this.sorted.set(key, (set = { scores: new Map(), ordered: null }));
    for (const e of entries) set.scores.set(e.member, e.score);
    set.ordered = null;
  }

  private ordered(key: string): SortedEntry[] {
    const set = this.sorted.get(key);
    if (!set) return [];
    // Same order as Redis: by score, then by member.
    set.ordered ??= [...set.scores].map(([member, score]) => ({ member, score })).sort((a, b) => a.score - b.score || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
    return set.ordered;
  }

  async sortedRange(key: string, min: number, max: number, limit?: number): Promise<SortedEntry[]> {
    const all = this.ordered(key);
    let lo = 0;
    let hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (all[mid]!.score < min) lo = mid + 1;
      else hi = mid;
    }
    const out: SortedEntry[] = [];
    for (let i = lo; i < all.length && all[i]!.score <= max && (limit === undefined || out.length < limit); i++) out.push(all[i]!);
    return out;
  }

  async sortedRemove(key: string, members: readonly string[]): Promise<number> {
    const set = this.sorted.get(key);
    if (!set) return 0;
    let removed = 0;
    for (const m of members) if (set.scores.delete(m)) removed++;
    if (removed) set.ordered = null;
    return removed;
  }

  async sortedRemoveRange(key: string, min: number, max: number): Promise<number> {
    const set = this.sorted.get(key);
    if (!set) return 0;
    let removed = 0;
    for (const [member, score] of set.scores) {
      if (score >= min && score <= max) {
        set.scores.delete(member);
        removed++;
      }
    }
    if (removed) set.ordered = null;
    return removed;
  }

  async sortedCount(key: string): Promise<number> {
    return this.sorted.get(key)?.scores.size ?? 0;
  }

  async dump(prefix: string): Promise<StoreDump> {
    const under = (k: string) => k.startsWith(prefix);
    return {
      strings: [...this.entries].filter(([k, e]) => under(k) && e.expiresAt === Infinity).map(([k, e]) => [k, e.value]),
      hashes: [...this.hashes].filter(([k]) => under(k)).map(([k, h]) => [k, Object.fromEntries(h)]),
      sorted: [...this.sorted.keys()].filter(under).map((k) => [k, [...this.ordered(k)]]),
    };
  }

  async restore(dump: StoreDump): Promise<void> {
    for (const [k, v] of dump.strings) this.write(k, { value: v, expiresAt: Infinity });
    for (const [k, fields] of dump.hashes) this.hashes.set(k, new Map(Object.entries(fields)));
    for (const [k, entries] of dump.sorted) this.sorted.set(k, { scores: new Map(entries.map((e) => [e.member, e.score])), ordered: null });
  }

  async clear(prefix: string): Promise<void> {
    for (const map of [this.entries, this.hashes, this.sorted]) for (const k of map.keys()) if (k.startsWith(prefix)) map.delete(k);
  }

  async close(): Promise<void> {}
}
