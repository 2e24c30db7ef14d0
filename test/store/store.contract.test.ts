/** One contract, two implementations: the in-memory store and Redis on a real server. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../store/memory.js';
import { RedisStore } from '../../store/redis.js';
import type { Store } from '../../store/store.js';
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

  it('renew and release act only for the value that holds the key', async () => {
    expect(await store.reserve('lease', 'owner-a', 150)).toBe(true);
    expect(await store.renew('lease', 'owner-b', 5_000)).toBe(false);
    expect(await store.release('lease', 'owner-b')).toBe(false);
    expect(await store.get('lease')).toBe('owner-a');
    expect(await store.renew('lease', 'owner-a', 400)).toBe(true);
    await sleep(200); // past the first ttl: the renewal kept it
    expect(await store.get('lease')).toBe('owner-a');
    expect(await store.reserve('lease', 'owner-b', 5_000)).toBe(false);
    expect(await store.release('lease', 'owner-a')).toBe(true);
    expect(await store.get('lease')).toBeNull();
    expect(await store.release('lease', 'owner-a')).toBe(false);
    // An expired lease is not renewed: another owner may have taken it meanwhile.
    expect(await store.reserve('lease', 'owner-a', 100)).toBe(true);
    await sleep(150);
    expect(await store.renew('lease', 'owner-a', 5_000)).toBe(false);
    expect(await store.reserve('lease', 'owner-b', 5_000)).toBe(true);
    expect(await store.renew('lease', 'owner-a', 5_000)).toBe(false);
    expect(await store.get('lease')).toBe('owner-b');
  });

  it('of many concurrent renewals and takeovers of an expired lease, exactly one owner ends up holding it', async () => {
    expect(await store.reserve('contested', 'old', 50)).toBe(true);
    await sleep(80);
    const owners = Array.from({ length: 20 }, (_, i) => `o${i}`);
    const results = await Promise.all(owners.map(async (o) => (await store.renew('contested', o, 5_000)) || (await store.reserve('contested', o, 5_000))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.get('contested')).toBe(owners[results.indexOf(true)]);
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

  it('takeNext hands out each number once and never below the floor', async () => {
    const taken = await Promise.all(Array.from({ length: 20 }, () => store.takeNext('n', 7)));
    expect([...taken].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => 7 + i));
    expect(await store.takeNext('n', 3)).toBe(27); // a lower floor does not rewind it
    expect(await store.takeNext('n', 100)).toBe(100); // a higher floor moves it up
    expect(await store.takeNext('n', 0)).toBe(101);
  });

  it('takeIfEnough takes only what is there and writes its journal entry in the same step', async () => {
    expect(await store.takeIfEnough('bal', 1)).toEqual({ taken: false, value: 0 }); // absent counts as 0
    expect(await store.takeIfEnough('bal', 0)).toEqual({ taken: true, value: 0 });
    await store.incrBy('bal', 1_000);
    const journal = (ref: string) => ({ key: 'bal:log', seqKey: 'bal:seq', entry: JSON.stringify({ after: '{value}', ref }).slice(0, -1) + ',"seq":{seq}}' });
    expect(await store.takeIfEnough('bal', 400, journal('a'))).toEqual({ taken: true, value: 600 });
    expect(await store.takeIfEnough('bal', 601, journal('b'))).toEqual({ taken: false, value: 600 });
    expect(await store.takeIfEnough('bal', 600, journal('c'))).toEqual({ taken: true, value: 0 });
    expect(await store.get('bal')).toBe('0');
    // Refused takes write nothing; each entry carries its own value after and sequence.
    expect((await store.sortedRange('bal:log', -Infinity, Infinity)).map((e) => [e.score, JSON.parse(e.member)])).toEqual([
      [1, { after: '600', ref: 'a', seq: 1 }],
      [2, { after: '0', ref: 'c', seq: 2 }],
    ]);
    await store.incrBy('big', 2 ** 52); // formatted as digits, not 4.5e+15
    expect(await store.takeIfEnough('big', 1, { key: 'big:log', seqKey: 'big:seq', entry: '{value}' })).toEqual({ taken: true, value: 2 ** 52 - 1 });
    expect((await store.sortedRange('big:log', -Infinity, Infinity))[0]!.member).toBe(String(2 ** 52 - 1));
  });

  it('addOnce adds and journals once per once-key, however often (or concurrently) it is sent', async () => {
    const journal = (ref: string) => ({ key: 'cr:log', seqKey: 'cr:seq', entry: JSON.stringify({ after: '{value}', ref }).slice(0, -1) + ',"seq":{seq}}' });
    expect(await store.addOnce('cr', 500, 'once:a', 60_000, journal('a'))).toEqual({ added: true, value: 500 });
    expect(await store.addOnce('cr', 500, 'once:a', 60_000, journal('a'))).toEqual({ added: false, value: 500 });
    const racing = await Promise.all(Array.from({ length: 20 }, () => store.addOnce('cr', 100, 'once:b', 60_000, journal('b'))));
    expect(racing.filter((r) => r.added)).toHaveLength(1);
    expect(await store.get('cr')).toBe('600');
    expect((await store.sortedRange('cr:log', -Infinity, Infinity)).map((e) => JSON.parse(e.member))).toEqual([
      { after: '500', ref: 'a', seq: 1 },
      { after: '600', ref: 'b', seq: 2 },
    ]);
    // The once-key lives for its ttl: after it, the same key adds again.
    expect((await store.addOnce('cr', 1, 'once:c', 30)).added).toBe(true);
    await new Promise((r) => setTimeout(r, 80));
    expect(await store.addOnce('cr', 1, 'once:c', 30)).toEqual({ added: true, value: 602 });
  });

  it('concurrent takeIfEnough never overdraws and refuses only what did not fit', async () => {
    await store.incrBy('pool', 1_000);
    // At most three 300s fit, and with them the ninety 1s: every small take must succeed in any order.
    const sizes = Array.from({ length: 100 }, (_, i) => (i % 10 === 0 ? 300 : 1));
    const results = await Promise.all(sizes.map((by) => store.takeIfEnough('pool', by)));
    const left = Number(await store.get('pool'));
    const taken = sizes.filter((_, i) => results[i]!.taken).reduce((a, b) => a + b, 0);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(taken).toBe(1_000 - left);
    // Takes only ever lower the value, so a refused one was larger than what is left at the end.
    for (const [i, r] of results.entries()) if (!r.taken) expect(sizes[i]).toBeGreaterThan(left);
    expect(results.filter((r, i) => sizes[i] === 1 && !r.taken)).toEqual([]);
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

  it('hashGetMany answers in the order asked, null where a field or the hash is absent', async () => {
    await store.hashSetMany('m', { a: '1', c: '3' });
    expect(await store.hashGetMany('m', ['c', 'b', 'a'])).toEqual(['3', null, '1']);
    expect(await store.hashGetMany('m', [])).toEqual([]);
    expect(await store.hashGetMany('absent', ['x'])).toEqual([null]);
  });

  it('hashSetMany writes every field', async () => {
    await store.hashSetMany('hm', { a: '1', b: '2' });
    await store.hashSetMany('hm', {});
    expect(await store.hashGetAll('hm')).toEqual({ a: '1', b: '2' });
  });

  it('sorted sets order by score then member, range by score inclusively, and remove ranges', async () => {
    await store.sortedAdd('z', [{ score: 5, member: 'e' }, { score: 1, member: 'b' }, { score: 1, member: 'a' }, { score: 3, member: 'c' }]);
    expect(await store.sortedCount('z')).toBe(4);
    expect((await store.sortedRange('z', 1, 3)).map((e) => e.member)).toEqual(['a', 'b', 'c']);
    expect(await store.sortedRange('z', 2, 2)).toEqual([]);
    expect(await store.sortedRange('z', 0, 10, 2)).toEqual([{ score: 1, member: 'a' }, { score: 1, member: 'b' }]);
    await store.sortedAdd('z', [{ score: 9, member: 'a' }]); // re-scored, not duplicated
    expect(await store.sortedCount('z')).toBe(4);
    expect((await store.sortedRange('z', 0, 100)).map((e) => e.member)).toEqual(['b', 'c', 'e', 'a']);
    expect(await store.sortedRemoveRange('z', 3, 5)).toBe(2);
    expect((await store.sortedRange('z', -Infinity, Infinity)).map((e) => e.member)).toEqual(['b', 'a']);
    expect(await store.sortedRange('missing', 0, 1)).toEqual([]);
    expect(await store.sortedRemove('z', ['a', 'nope'])).toBe(1);
    expect(await store.sortedRemove('z', ['a'])).toBe(0); // a second remover sees it gone
    expect(await store.sortedRemove('missing', ['a'])).toBe(0);
    expect((await store.sortedRange('z', -Infinity, Infinity)).map((e) => e.member)).toEqual(['b']);
    await store.delete('z');
    expect(await store.sortedCount('z')).toBe(0);
  });

  it('dumps the keys under a prefix without a ttl, and a dump restores them into another store', async () => {
    await store.set('snap:cp', '42');
    await store.set('snap:lease', 'me', 60_000); // has a ttl: not part of a snapshot
    await store.hashSetMany('snap:bal', { a: '1', b: '2' });
    await store.sortedAdd('snap:rows', [{ score: 2, member: 'y' }, { score: 1, member: 'x' }]);
    await store.set('other:cp', '7');
    const dump = await store.dump('snap:');
    expect(dump.strings).toEqual([['snap:cp', '42']]);
    expect(dump.hashes).toEqual([['snap:bal', { a: '1', b: '2' }]]);
    expect(dump.sorted).toEqual([['snap:rows', [{ score: 1, member: 'x' }, { score: 2, member: 'y' }]]]);

    const copy = await open();
    try {
      await copy.hashSetMany('snap:bal', { stale: '9' }); // replaced, not merged
      await copy.restore(JSON.parse(JSON.stringify(dump)));
      expect(await copy.get('snap:cp')).toBe('42');
      expect(await copy.get('snap:lease')).toBeNull();
      expect(await copy.hashGetAll('snap:bal')).toEqual({ a: '1', b: '2' });
      expect(await copy.sortedRange('snap:rows', -Infinity, Infinity)).toEqual([{ score: 1, member: 'x' }, { score: 2, member: 'y' }]);
      await copy.set('kept:cp', '1');
      await copy.clear('snap:');
      expect(await copy.dump('snap:')).toEqual({ strings: [], hashes: [], sorted: [] });
      expect(await copy.get('kept:cp')).toBe('1');
    } finally {
      await copy.close();
    }
  });
});
