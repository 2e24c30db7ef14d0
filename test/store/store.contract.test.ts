/** One contract, two implementations: the in-memory store and Redis on a real server. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/memory.js';
import { RedisStore } from '../../src/store/redis.js';
import type { Store } from '../../src/store/store.js';
import { TEST_REDIS_URL } from '../helpers/env.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const implementations: [string, () => Promise<Store>][] = [
  ['memory', async () => new MemoryStore()],
  ['redis', () => RedisStore.connect(TEST_REDIS_URL, `sibyl-test:${randomUUID()}:`)],
];

describe.each(implementations)('Store contract: %s', (_name, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.close());

  it('reserve is granted once until it expires', async () => {
    expect(await store.reserve('r1', 'a', 150)).toBe(true);
    expect(await store.reserve('r1', 'b', 150)).toBe(false);
    expect(await store.get('r1')).toBe('a');
    await sleep(200);
    expect(await store.reserve('r1', 'c', 1000)).toBe(true);
  });

  it('exactly one of many concurrent reservations wins', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => store.reserve('race', String(i), 5_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('set, get, delete and ttl', async () => {
    expect(await store.get('missing')).toBeNull();
    await store.set('k', 'v');
    expect(await store.get('k')).toBe('v');
    await store.set('k', 'w', 100);
    expect(await store.get('k')).toBe('w');
    await sleep(150);
    expect(await store.get('k')).toBeNull();
    await store.set('d', 'x');
    await store.delete('d');
    expect(await store.get('d')).toBeNull();
  });

  it('incrBy counts atomically and keeps the first ttl', async () => {
    const values = await Promise.all(Array.from({ length: 20 }, () => store.incrBy('c', 1, 10_000)));
    expect(Math.max(...values)).toBe(20);
    expect(new Set(values).size).toBe(20);
    expect(await store.incrBy('c', -5)).toBe(15);
    await store.incrBy('short', 2, 100);
    await store.incrBy('short', 2, 60_000); // must not extend the first window
    await sleep(150);
    expect(await store.get('short')).toBeNull();
  });

  it('hashes hold fields independently', async () => {
    await store.hashSet('h', 'a', '1');
    await store.hashSet('h', 'b', '2');
    expect(await store.hashGet('h', 'a')).toBe('1');
    expect(await store.hashGetAll('h')).toEqual({ a: '1', b: '2' });
    await store.hashDelete('h', 'a');
    expect(await store.hashGetAll('h')).toEqual({ b: '2' });
    expect(await store.hashGetAll('nothing')).toEqual({});
  });
});
