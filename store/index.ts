import { MemoryStore } from './memory.js';
import { RedisStore } from './redis.js';
import type { Store } from './store.js';

export type { Store } from './store.js';

/** `REDIS_URL` selects Redis; without it the embedded in-memory store serves one instance. */
export async function openStore(redisUrl: string | undefined, prefix?: string, onError?: (err: Error) => void): Promise<Store> {
  return redisUrl ? RedisStore.connect(redisUrl, prefix, { ...(onError && { onError }) }) : new MemoryStore();
}
