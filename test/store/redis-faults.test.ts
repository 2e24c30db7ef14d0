/**
 * The Redis store under faults (docs/operations.md, "Faults"): a command Redis does not answer fails that
 * command (a rejected StoreTimeoutError) and nothing else; a stalled event loop fails no command
 * that Redis answered meanwhile; a Redis killed and restarted costs the calls made while it was
 * down, never the process. Nothing here touches the shared Redis except through a proxy.
 */
import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreTimeoutError } from '../../store/deadline.js';
import { RedisStore } from '../../store/redis.js';
import { isStoreOutage, StoreConnectionError, STORE_RETRY_AFTER_SECONDS } from '../../store/outage.js';
import { toSibylError } from '../../skills/core/error-mapping.js';
import { startPrivateRedis } from '../helpers/redis-server.js';
import { TEST_REDIS_URL } from '../helpers/env.js';

/** A TCP proxy to Redis that can hold what clients send (Redis then answers nothing) and let it go. */
async function freezableProxy(target: URL) {
  let frozen = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(upstream);
    upstream.on('data', (d) => client.write(d));
    client.on('data', (d) => (frozen ? held.push(() => upstream.write(d)) : upstream.write(d)));
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      a.on('error', () => b.destroy());
      a.on('close', () => b.destroy());
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    freeze: () => void (frozen = true),
    thaw: () => {
      frozen = false;
      for (const send of held.splice(0)) send();
    },
    /** Resets every connection (RST), as a Redis killed mid-command does: the client reads ECONNRESET. */
    reset: () => {
      for (const s of sockets) s.resetAndDestroy();
      sockets.clear();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Holds the event loop, as a long synchronous start-up step would. */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

/** Anything thrown or rejected with no handler while a test runs. */
const strays: unknown[] = [];
const onStray = (err: unknown) => void strays.push(err);
beforeEach(() => {
  strays.length = 0;
  process.on('uncaughtException', onStray);
  process.on('unhandledRejection', onStray);
});
afterEach(() => {
  process.off('uncaughtException', onStray);
  process.off('unhandledRejection', onStray);
  expect(strays).toEqual([]);
});

describe('Redis store under faults', () => {
  const prefix = `sibyl-test:${randomUUID()}:`;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('a command Redis does not answer is rejected with StoreTimeoutError; the connection then carries on in order', async () => {
    const proxy = await freezableProxy(new URL(TEST_REDIS_URL));
    cleanups.push(proxy.close);
    const store = await RedisStore.connect(proxy.url, prefix, { commandTimeoutMs: 300, onError: () => {} });
    cleanups.push(() => store.close());
    await store.set('a', '1');
    proxy.freeze();
    const started = Date.now();
    await expect(store.get('a')).rejects.toBeInstanceOf(StoreTimeoutError);
    expect(Date.now() - started).toBeLessThan(5_000); // 300 ms, or a few periods more when a loaded machine fires the timer late
    proxy.thaw();
    // The late answer to the timed-out command is consumed in its place: later replies line up.
    await store.set('b', '2');
    expect(await store.get('a')).toBe('1');
    expect(await store.get('b')).toBe('2');
  });

  it('a command lost with its connection (reset mid-command) is a store outage: upstream_unavailable with Retry-After, never internal_error', async () => {
    const proxy = await freezableProxy(new URL(TEST_REDIS_URL));
    cleanups.push(proxy.close);
    const store = await RedisStore.connect(proxy.url, prefix, { commandTimeoutMs: 5_000, onError: () => {} });
    cleanups.push(() => store.close());
    await store.set('r', '1');
    proxy.freeze();
    const lost = store.get('r').then(() => null, (err: unknown) => err);
    await new Promise((r) => setTimeout(r, 50));
    proxy.reset();
    proxy.thaw();
    const err = await lost;
    expect(err).toBeInstanceOf(StoreConnectionError);
    expect(isStoreOutage(err)).toBe(true);
    expect(toSibylError(err)).toMatchObject({ code: 'upstream_unavailable', extra: { retryAfterSeconds: STORE_RETRY_AFTER_SECONDS } });
  });

  it('a stalled event loop fails no command that Redis answered meanwhile', async () => {
    const store = await RedisStore.connect(TEST_REDIS_URL, prefix, { commandTimeoutMs: 300, onError: () => {} });
    cleanups.push(() => store.close());
    await store.set('s', 'v');
    const inFlight = Array.from({ length: 20 }, () => store.get('s'));
    stall(1_500); // five times the command timeout; Redis answers within it
    expect(await Promise.all(inFlight)).toEqual(Array(20).fill('v'));
  });

  it('a large restore in flight across a 6 s stall completes (start-up loading a cached index)', async () => {
    // node-redis's own 5 s command timeout counts time spent queued: after this stall it failed
    // the queued writes with TimeoutError, and start-up died.
    const store = await RedisStore.connect(TEST_REDIS_URL, prefix, { onError: () => {} });
    cleanups.push(() => store.close());
    const strings = Array.from({ length: 50_000 }, (_, i) => [`idx:s${i}`, 'x'.repeat(50)] as [string, string]);
    const restored = store.restore({ strings, hashes: [['idx:h', Object.fromEntries(strings.slice(0, 5_000))]], sorted: [] });
    setTimeout(() => stall(6_000), 20);
    await restored;
    expect(await store.get('idx:s49999')).toBe('x'.repeat(50));
    expect(Object.keys(await store.hashGetAll('idx:h'))).toHaveLength(5_000);
    await store.clear('idx:');
  }, 60_000);

  it('a Redis killed and restarted fails the calls made meanwhile, and serves again after', async () => {
    const redis = await startPrivateRedis();
    cleanups.push(() => redis.stop());
    const errors: Error[] = [];
    const store = await RedisStore.connect(redis.url, prefix, { commandTimeoutMs: 500, onError: (e) => errors.push(e) });
    cleanups.push(() => store.close());
    await store.set('k', '1');
    await redis.kill();
    await expect(store.get('k')).rejects.toThrow();
    await expect(store.incrBy('n', 1)).rejects.toThrow();
    expect(errors.length).toBe(1); // one line per outage, not one per reconnect attempt
    await redis.restart();
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await store.set('k', '2');
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(await store.get('k')).toBe('2');
  });
});
