/** The production store: Redis through the official `redis` client, keys under one prefix. */
import { createClient, type RedisClientType } from 'redis';
import type { Journal, SortedEntry, Store, StoreDump } from './store.js';
import { withDeadline } from './deadline.js';
import { isSocketError, StoreConnectionError } from './outage.js';

export interface RedisStoreOptions {
  /** Longest a command may go unanswered while the process is free to read it (default 5 s). */
  readonly commandTimeoutMs?: number;
  /** Told once per outage (default: one line on stderr). */
  readonly onError?: (err: Error) => void;
}

const CONNECT_TIMEOUT_MS = 5_000;
const COMMAND_TIMEOUT_MS = 5_000;
const RESTORE_PARALLEL = 16;

// INCRBY and a ttl that is set only when the key has none, in one atomic step.
const INCR_WITH_TTL = `
local v = redis.call('INCRBY', KEYS[1], ARGV[1])
if ARGV[2] ~= '' and redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return v`;

// The next number of a counter kept at or above a floor, in one atomic step.
const TAKE_NEXT = `
local v = math.max(tonumber(redis.call('GET', KEYS[1]) or ARGV[1]), tonumber(ARGV[1]))
redis.call('SET', KEYS[1], v + 1)
return v`;

// Check-and-take in one step (the value never dips below zero), with the movement it records
// added in the same step. Integers are formatted with %d: Lua's tostring turns large ones into 1e+15.
// Appends a journal entry (the template's {value} and {seq} filled) to a sorted set under the
// account's next sequence; shared by the scripts that change a balance.
const JOURNAL = (entryKey: string, seqKey: string, template: string) => `
local function journal(value)
  local seq = redis.call('INCR', ${seqKey})
  local function fill(s, token, v)
    local i, j = string.find(s, token, 1, true)
    if not i then return s end
    return string.sub(s, 1, i - 1) .. v .. string.sub(s, j + 1)
  end
  redis.call('ZADD', ${entryKey}, seq, fill(fill(${template}, '{value}', value), '{seq}', string.format('%d', seq)))
end`;

const TAKE_IF_ENOUGH = `${JOURNAL('KEYS[2]', 'KEYS[3]', 'ARGV[2]')}
local have = tonumber(redis.call('GET', KEYS[1]) or '0')
if have < tonumber(ARGV[1]) then return {0, string.format('%d', have)} end
local value = string.format('%d', redis.call('DECRBY', KEYS[1], ARGV[1]))
if #KEYS == 3 then journal(value) end
return {1, value}`;

// INCRBY once per once-key (SET NX), with its journal entry, in one step.
const ADD_ONCE = `${JOURNAL('KEYS[3]', 'KEYS[4]', 'ARGV[3]')}
if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[2]) then
  return {0, string.format('%d', tonumber(redis.call('GET', KEYS[1]) or '0'))}
end
local value = string.format('%d', redis.call('INCRBY', KEYS[1], ARGV[1]))
if #KEYS == 4 then journal(value) end
return {1, value}`;

// A lease renewed or given back only by the holder that still has it, in one atomic step.
const RENEW_IF_HELD = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE_IF_HELD = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export class RedisStore implements Store {
  readonly kind = 'redis' as const;

  private constructor(
    private readonly client: RedisClientType,
    private readonly prefix: string,
    private readonly commandTimeoutMs: number,
  ) {}

  static async connect(url: string, prefix = 'sibyl:', options: RedisStoreOptions = {}): Promise<RedisStore> {
    const client = createClient({
      url,
      socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: (retries) => Math.min(retries * 100, 2_000) },
      // node-redis's own command timeout fires after any event-loop stall longer than it, answered
      // or not: the store keeps its own (withDeadline), which a stall cannot trip.
      commandOptions: { timeout: 0 },
    });
    // Without a listener a socket error is thrown as an uncaught exception. The client reconnects
    // on its own and commands meanwhile fail (rejected promises); one line per outage is logged.
    const onError = options.onError ?? ((err: Error) => console.error(`[sibyl] redis: ${err.message}`));
    let down = false;
    client.on('error', (err: Error) => {
      if (!down) onError(err);
      down = true;
    });
    client.on('ready', () => {
      down = false;
    });
    await withDeadline(client.connect(), CONNECT_TIMEOUT_MS * 2, 'connect').catch(async (err: unknown) => {
      client.destroy();
      throw err;
    });
    return new RedisStore(client as RedisClientType, prefix, options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS);
  }

  /** Every command goes through here: a store that does not answer fails this call, nothing else. */
  private run<T>(what: string, command: Promise<T>): Promise<T> {
    return withDeadline(command, this.commandTimeoutMs, what).catch((err: unknown) => {
      throw isSocketError(err) ? new StoreConnectionError(`store: ${what} lost with its connection (${(err as Error).message})`, { cause: err }) : err;
    });
  }

  private k(key: string): string {
    return this.prefix + key;
  }

  async reserve(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.run('set', this.client.set(this.k(key), value, { condition: 'NX', expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) } }))) === 'OK';
  }

  async renew(key: string, value: string, ttlMs: number): Promise<boolean> {
    return Number(await this.run('renew', this.client.eval(RENEW_IF_HELD, { keys: [this.k(key)], arguments: [value, String(Math.max(1, Math.ceil(ttlMs)))] }))) === 1;
  }

  async release(key: string, value: string): Promise<boolean> {
    return Number(await this.run('release', this.client.eval(RELEASE_IF_HELD, { keys: [this.k(key)], arguments: [value] }))) === 1;
  }

  async get(key: string): Promise<string | null> {
    return (await this.run('get', this.client.get(this.k(key)))) as string | null;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    if (ttlMs === undefined) await this.run('set', this.client.set(this.k(key), value));
    else await this.run('set', this.client.set(this.k(key), value, { expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) } }));
  }

  async delete(key: string): Promise<void> {
    await this.run('del', this.client.del(this.k(key)));
  }

  async incrBy(key: string, by: number, ttlMs?: number): Promise<number> {
    const result = await this.run('incrBy', this.client.eval(INCR_WITH_TTL, {
      keys: [this.k(key)],
      arguments: [String(by), ttlMs === undefined ? '' : String(Math.max(1, Math.ceil(ttlMs)))],
    }));
    return Number(result);
  }

  async takeNext(key: string, floor: number): Promise<number> {
    return Number(await this.run('takeNext', this.client.eval(TAKE_NEXT, { keys: [this.k(key)], arguments: [String(floor)] })));
  }

  async takeIfEnough(key: string, by: number, journal?: Journal): Promise<{ taken: boolean; value: number }> {
    const keys = [this.k(key), ...(journal ? [this.k(journal.key), this.k(journal.seqKey)] : [])];
    const [taken, value] = (await this.run('takeIfEnough', this.client.eval(TAKE_IF_ENOUGH, { keys, arguments: [String(by), ...(journal ? [journal.entry] : [])] }))) as [number, string];
    return { taken: Number(taken) === 1, value: Number(value) };
  }

  async addOnce(key: string, by: number, onceKey: string, onceTtlMs: number, journal?: Journal): Promise<{ added: boolean; value: number }> {
    const keys = [this.k(key), this.k(onceKey), ...(journal ? [this.k(journal.key), this.k(journal.seqKey)] : [])];
    const args = [String(by), String(Math.max(1, Math.round(onceTtlMs))), ...(journal ? [journal.entry] : [])];
    const [added, value] = (await this.run('addOnce', this.client.eval(ADD_ONCE, { keys, arguments: args }))) as [number, string];
    return { added: Number(added) === 1, value: Number(value) };
  }

  async hashSet(key: string, field: string, value: string): Promise<void> {
    await this.run('hSet', this.client.hSet(this.k(key), field, value));
  }

  async hashGet(key: string, field: string): Promise<string | null> {
    return ((await this.run('hGet', this.client.hGet(this.k(key), field))) as string | null) ?? null;
  }

  async hashGetMany(key: string, fields: readonly string[]): Promise<(string | null)[]> {
    if (!fields.length) return [];
    return ((await this.run('hmGet', this.client.hmGet(this.k(key), [...fields]))) as (string | null)[]).map((v) => v ?? null);
  }

  async hashGetAll(key: string): Promise<Record<string, string>> {
    return (await this.run('hGetAll', this.client.hGetAll(this.k(key)))) as Record<string, string>;
  }

  async hashDelete(key: string, field: string): Promise<void> {
    await this.run('hDel', this.client.hDel(this.k(key), field));
  }

  async hashSetMany(key: string, fields: Record<string, string>): Promise<void> {
    // In slices, like sortedAdd: one huge command would hold the event loop while it is built.
    const all = Object.entries(fields);
    for (let i = 0; i < all.length; i += 1_000) await this.run('hSet', this.client.hSet(this.k(key), Object.fromEntries(all.slice(i, i + 1_000))));
  }

  async sortedAdd(key: string, entries: readonly SortedEntry[]): Promise<void> {
    // Large batches go in slices so no single command grows without bound.
    for (let i = 0; i < entries.length; i += 1_000) {
      await this.run('zAdd', this.client.zAdd(this.k(key), entries.slice(i, i + 1_000).map((e) => ({ score: e.score, value: e.member }))));
    }
  }

  async sortedRange(key: string, min: number, max: number, limit?: number): Promise<SortedEntry[]> {
    const rows = await this.run('zRangeByScoreWithScores', this.client.zRangeByScoreWithScores(this.k(key), min, max, limit === undefined ? undefined : { LIMIT: { offset: 0, count: limit } }));
    return rows.map((r) => ({ member: String(r.value), score: r.score }));
  }

  async sortedRemoveRange(key: string, min: number, max: number): Promise<number> {
    return Number(await this.run('zRemRangeByScore', this.client.zRemRangeByScore(this.k(key), min, max)));
  }

  async sortedRemove(key: string, members: readonly string[]): Promise<number> {
    if (!members.length) return 0;
    return Number(await this.run('zRem', this.client.zRem(this.k(key), [...members])));
  }

  async sortedCount(key: string): Promise<number> {
    return Number(await this.run('zCard', this.client.zCard(this.k(key))));
  }

  async dump(prefix: string): Promise<StoreDump> {
    const dump = { strings: [], hashes: [], sorted: [] } as { strings: [string, string][]; hashes: [string, Record<string, string>][]; sorted: [string, SortedEntry[]][] };
    for await (const batch of this.scan(prefix)) {
      for (const full of batch) {
        const key = full.slice(this.prefix.length);
        const [type, ttl] = await Promise.all([this.run('type', this.client.type(full)), this.run('pTTL', this.client.pTTL(full))]);
        if (Number(ttl) >= 0) continue; // leases and caches: not part of a snapshot
        if (type === 'string') dump.strings.push([key, (await this.run('get', this.client.get(full))) as string]);
        else if (type === 'hash') dump.hashes.push([key, (await this.run('hGetAll', this.client.hGetAll(full))) as Record<string, string>]);
        else if (type === 'zset') dump.sorted.push([key, (await this.run('zRangeWithScores', this.client.zRangeWithScores(full, 0, -1))).map((r) => ({ member: String(r.value), score: r.score }))]);
      }
    }
    return dump;
  }

  async restore(dump: StoreDump): Promise<void> {
    // A few keys at a time: a whole index sent at once would wait in the queue past its deadline
    // and hold the event loop while it is written out.
    const writes: (() => Promise<void>)[] = [
      ...dump.strings.map(([k, v]) => () => this.set(k, v)),
      ...dump.hashes.map(([k, fields]) => async () => {
        await this.run('del', this.client.del(this.k(k)));
        await this.hashSetMany(k, fields);
      }),
      ...dump.sorted.map(([k, entries]) => async () => {
        await this.run('del', this.client.del(this.k(k)));
        await this.sortedAdd(k, entries);
      }),
    ];
    let next = 0;
    const worker = async () => {
      while (next < writes.length) await writes[next++]!();
    };
    await Promise.all(Array.from({ length: RESTORE_PARALLEL }, worker));
  }

  async clear(prefix: string): Promise<void> {
    for await (const keys of this.scan(prefix)) if (keys.length) await this.run('unlink', this.client.unlink(keys));
  }

  /** The full keys under `prefix`, a SCAN page at a time, each page under the command deadline. */
  private async *scan(prefix: string): AsyncGenerator<string[]> {
    let cursor = '0';
    do {
      const page = await this.run('scan', this.client.scan(cursor, { MATCH: `${this.k(prefix)}*`, COUNT: 1_000 }));
      cursor = String(page.cursor);
      yield page.keys.map(String);
    } while (cursor !== '0');
  }

  /** The server's persistence settings (CONFIG GET, else INFO persistence where CONFIG is refused); null when it says neither. */
  async persistenceSettings(): Promise<{ aof: boolean; fsync?: string; rdb?: boolean } | null> {
    try {
      const config = (await this.run('configGet', this.client.configGet(['appendonly', 'appendfsync', 'save']))) as Record<string, string>;
      return { aof: config.appendonly === 'yes', fsync: config.appendfsync, rdb: !!config.save?.trim() };
    } catch {
      try {
        const info = String(await this.run('info', this.client.info('persistence')));
        const aof = /^aof_enabled:(\d)/m.exec(info);
        return aof ? { aof: aof[1] === '1' } : null;
      } catch {
        return null;
      }
    }
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.destroy());
  }
}
