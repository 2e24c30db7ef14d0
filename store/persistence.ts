/**
 * What survives a store restart. Credit balances and their ledgers, bearer tokens and sign-in
 * nonces, replay reservations, settlement records and pending settlements live only in the store:
 * a Redis without persistence loses all of them when it restarts. Checked once at start (and
 * logged when not durable), then shown on /healthz.
 */
import { RedisStore } from './redis.js';
import type { Store } from './store.js';

export interface StorePersistence {
  /**
   * 'aof': every write logged (flushed as the server's appendfsync says); 'rdb': snapshots only,
   * writes since the last one are lost; 'none'; 'process': the in-memory store, gone when Sibyl
   * stops (one instance by design); 'unknown': the server would not say.
   */
  readonly persistence: 'aof' | 'rdb' | 'none' | 'process' | 'unknown';
  readonly appendfsync?: string;
  readonly warning?: string;
}

const FIX = 'run Redis with --appendonly yes --appendfsync everysec (or always) and a data directory that outlives it';
const LOST = 'a Redis restart loses credit balances and ledgers, bearer tokens, replay reservations and the settlement ledger';

const known = new WeakMap<Store, StorePersistence>();

export async function checkPersistence(store: Store): Promise<StorePersistence> {
  const result = await inspect(store);
  known.set(store, result);
  return result;
}

/** What the start-up check found (nothing before it ran). */
export function knownPersistence(store: Store): StorePersistence | undefined {
  return known.get(store);
}

async function inspect(store: Store): Promise<StorePersistence> {
  if (!(store instanceof RedisStore)) return { persistence: 'process' };
  const settings = await store.persistenceSettings();
  if (!settings) return { persistence: 'unknown', warning: `the store's Redis does not say whether it persists (CONFIG and INFO refused): unless it runs with AOF, ${LOST}; ${FIX}` };
  if (settings.aof) {
    const lax = settings.fsync === 'no';
    return { persistence: 'aof', ...(settings.fsync && { appendfsync: settings.fsync }), ...(lax && { warning: `the store's Redis logs writes with appendfsync no: a machine crash can lose the last seconds of credits and settlements; use everysec or always` }) };
  }
  if (settings.rdb) return { persistence: 'rdb', warning: `the store's Redis persists by snapshots only: writes since the last snapshot are lost when it restarts (credits, bearer tokens, settlements); ${FIX}` };
  return { persistence: 'none', warning: `the store's Redis has no persistence (appendonly no, no snapshots): ${LOST}; ${FIX}` };
}
