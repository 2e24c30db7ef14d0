/** The embedded default: a single-process store with the same semantics as the Redis one. */
import type { Store } from './store.js';

interface Entry {
  value: string;
  expiresAt: number; // Infinity when the key has no ttl
}

export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly hashes = new Map<string, Map<string, string>>();
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

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.write(key, { value, expiresAt: ttlMs === undefined ? Infinity : Date.now() + ttlMs });
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
    this.hashes.delete(key);
  }

  async incrBy(key: string, by: number, ttlMs?: number): Promise<number> {
    const entry = this.live(key);
    const next = (entry ? Number(entry.value) : 0) + by;
    const expiresAt = entry && entry.expiresAt !== Infinity ? entry.expiresAt : ttlMs === undefined ? Infinity : Date.now() + ttlMs;
    this.write(key, { value: String(next), expiresAt });
    return next;
  }

  async hashSet(key: string, field: string, value: string): Promise<void> {
    let hash = this.hashes.get(key);
    if (!hash) this.hashes.set(key, (hash = new Map()));
    hash.set(field, value);
  }

  async hashGet(key: string, field: string): Promise<string | null> {
    return this.hashes.get(key)?.get(field) ?? null;
  }

  async hashGetAll(key: string): Promise<Record<string, string>> {
    return Object.fromEntries(this.hashes.get(key) ?? []);
  }

  async hashDelete(key: string, field: string): Promise<void> {
    this.hashes.get(key)?.delete(field);
  }

  async close(): Promise<void> {}
}
