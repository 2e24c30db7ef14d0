/**
 * A LangGraph checkpointer on Sibyl's store: plain hashes and sorted sets, so it runs on Redis 7
 * (the published Redis saver needs RedisJSON and RediSearch) and, with the memory store, in
 * process on the embedded default. One thread is one report room.
 *
 * Keys per thread and namespace: `<p>:ids` (sorted set of checkpoint ids by write order),
 * `<p>:cp` (hash id → checkpoint, metadata, parent), `<p>:w:<id>` (hash of that checkpoint's
 * pending writes). Only the newest KEEP_CHECKPOINTS of a thread are kept: a room needs its
 * latest state, not its whole past.
 *
 * Secrets an answer carried (keys generated for the caller, issued-secrets.ts) are stripped by
 * value from everything written, a turn's tool results and written answer included: the caller
 * gets them in the reply, the room keeps none.
 */
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver, WRITES_IDX_MAP, compareWritesSortKeys, copyCheckpoint, getCheckpointId, writesSortKey,
  type Checkpoint, type CheckpointListOptions, type CheckpointMetadata, type CheckpointPendingWrite, type CheckpointTuple,
  type PendingWrite, type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import { redactIssued, redactIssuedBytes } from '../skills/core/issued-secrets.js';
import type { Store } from '../store/store.js';

export const KEEP_CHECKPOINTS = 12;
/** A room unused this long is deleted (by the next write to any room). */
export const ROOM_IDLE_TTL_MS = 7 * 86_400_000;
const PREFIX = 'agent:room';
/** Sorted set of rooms by last write (ms), for expiry. */
const ROOMS = 'agent:rooms';
/** Rooms deleted per write at most, so expiry never stalls a turn. */
const EXPIRE_BATCH = 20;

interface StoredCheckpoint {
  readonly c: [string, string];
  readonly m: [string, string];
  readonly parent?: string;
}

type StoredWrite = [taskId: string, channel: string, value: [string, string], taskPath: string];

export class StoreCheckpointSaver extends BaseCheckpointSaver {
  constructor(private readonly store: Store, private readonly idleTtlMs = ROOM_IDLE_TTL_MS, serde?: SerializerProtocol) {
    super(serde);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const { threadId, ns } = ids(config);
    if (threadId === undefined) return undefined;
    const id = getCheckpointId(config) || (await this.newestIds(threadId, ns, 1))[0];
    if (!id) return undefined;
    return this.tuple(threadId, ns, id);
  }

  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const { threadId, ns } = ids(config);
    if (threadId === undefined) return; // listing across every room is not something Sibyl needs
    const wanted = getCheckpointId(config);
    const before = options.before?.configurable?.checkpoint_id as string | undefined;
    let remaining = options.limit ?? Infinity;
    for (const id of await this.newestIds(threadId, ns)) {
      if (remaining <= 0) break;
      if (wanted && id !== wanted) continue;
      if (before && id >= before) continue;
      const tuple = await this.tuple(threadId, ns, id);
      if (!tuple) continue;
      if (options.filter && !Object.entries(options.filter).every(([k, v]) => (tuple.metadata as Record<string, unknown> | undefined)?.[k] === v)) continue;
      remaining--;
      yield tuple;
    }
  }

  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata): Promise<RunnableConfig> {
    const { threadId, ns } = ids(config);
    if (threadId === undefined) throw new Error('a report room (thread_id) is required to keep its history');
    const prepared = copyCheckpoint(checkpoint);
    const [c, m] = await Promise.all([this.serde.dumpsTyped(prepared), this.serde.dumpsTyped(metadata)]);
    const stored: StoredCheckpoint = { c: encode(c), m: encode(m), ...(config.configurable?.checkpoint_id && { parent: config.configurable.checkpoint_id as string }) };
    const k = keys(threadId, ns);
    await this.store.hashSet(k.checkpoints, checkpoint.id, JSON.stringify(stored));
    const order = await this.store.incrBy(k.sequence, 1);
    await this.store.sortedAdd(k.ids, [{ member: checkpoint.id, score: order }]);
    await this.prune(threadId, ns);
    await this.expireIdleRooms(threadId);
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const { threadId, ns } = ids(config);
    const checkpointId = config.configurable?.checkpoint_id as string | undefined;
    if (threadId === undefined || checkpointId === undefined) throw new Error('writes need a thread_id and a checkpoint_id');
    const key = keys(threadId, ns).writes(checkpointId);
    const existing = await this.store.hashGetAll(key);
    const fields: Record<string, string> = {};
    await Promise.all(
      writes.map(async ([channel, value], idx) => {
        const index = WRITES_IDX_MAP[channel] ?? idx;
        const field = `${taskId},${index}`;
        // Special channels (errors, interrupts) replace; ordinary writes are written once.
        if (index >= 0 && field in existing) return;
        const stored: StoredWrite = [taskId, channel, encode(await this.serde.dumpsTyped(value)), taskPath ?? ''];
        fields[field] = JSON.stringify(stored);
      }),
    );
    if (Object.keys(fields).length) await this.store.hashSetMany(key, fields);
  }

  async deleteThread(threadId: string): Promise<void> {
    // Namespaces other than the root one are not used by the report graph.
    const k = keys(threadId, '');
    for (const id of await this.newestIds(threadId, '')) await this.store.delete(k.writes(id));
    await Promise.all([k.checkpoints, k.ids, k.sequence].map((key) => this.store.delete(key)));
  }

  /** Marks this room used now and deletes rooms idle past the TTL. */
  private async expireIdleRooms(threadId: string): Promise<void> {
    const now = Date.now();
    await this.store.sortedAdd(ROOMS, [{ member: threadId, score: now }]);
    const idle = await this.store.sortedRange(ROOMS, -Infinity, now - this.idleTtlMs, EXPIRE_BATCH);
    for (const { member } of idle) {
      // Another instance may expire the same room: whoever removes it from the set deletes it.
      if (await this.store.sortedRemove(ROOMS, [member])) await this.deleteThread(member);
    }
  }

  /** Checkpoint ids of a thread, newest first. */
  private async newestIds(threadId: string, ns: string, limit?: number): Promise<string[]> {
    const all = await this.store.sortedRange(keys(threadId, ns).ids, -Infinity, Infinity);
    const newest = all.map((e) => e.member).reverse();
    return limit === undefined ? newest : newest.slice(0, limit);
  }

  private async tuple(threadId: string, ns: string, id: string): Promise<CheckpointTuple | undefined> {
    const k = keys(threadId, ns);
    const raw = await this.store.hashGet(k.checkpoints, id);
    if (!raw) return undefined;
    const stored = JSON.parse(raw) as StoredCheckpoint;
    const [checkpoint, metadata, pendingWrites] = await Promise.all([
      this.serde.loadsTyped(...decode(stored.c)) as Promise<Checkpoint>,
      this.serde.loadsTyped(...decode(stored.m)) as Promise<CheckpointMetadata>,
      this.pendingWrites(k.writes(id)),
    ]);
    return {
      config: { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id } },
      checkpoint,
      metadata,
      pendingWrites,
      ...(stored.parent && { parentConfig: { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: stored.parent } } }),
    };
  }

  private async pendingWrites(key: string): Promise<CheckpointPendingWrite[]> {
    const entries = Object.entries(await this.store.hashGetAll(key)).map(([field, raw]) => {
      const comma = field.lastIndexOf(',');
      const write = JSON.parse(raw) as StoredWrite;
      return { sortKey: writesSortKey(write[3], field.slice(0, comma), Number(field.slice(comma + 1))), write };
    });
    entries.sort((a, b) => compareWritesSortKeys(a.sortKey, b.sortKey));
    return Promise.all(entries.map(async ({ write: [taskId, channel, value] }) => [taskId, channel, await this.serde.loadsTyped(...decode(value))] as CheckpointPendingWrite));
  }

  private async prune(threadId: string, ns: string): Promise<void> {
    const k = keys(threadId, ns);
    const all = await this.store.sortedRange(k.ids, -Infinity, Infinity);
    const stale = all.slice(0, Math.max(0, all.length - KEEP_CHECKPOINTS));
    if (!stale.length) return;
    await this.store.sortedRemove(k.ids, stale.map((e) => e.member));
    for (const { member } of stale) {
      await this.store.hashDelete(k.checkpoints, member);
      await this.store.delete(k.writes(member));
    }
  }
}

function ids(config: RunnableConfig): { threadId: string | undefined; ns: string } {
  return { threadId: config.configurable?.thread_id as string | undefined, ns: (config.configurable?.checkpoint_ns as string | undefined) ?? '' };
}

function keys(threadId: string, ns: string) {
  const p = `${PREFIX}:${threadId}:${ns}`;
  return { ids: `${p}:ids`, checkpoints: `${p}:cp`, sequence: `${p}:seq`, writes: (id: string) => `${p}:w:${id}` };
}

/** A serialised value as stored: issued secrets stripped, bytes in base64. */
function encode([type, data]: [string, Uint8Array | string]): [string, string] {
  return [type, typeof data === 'string' ? `s:${redactIssued(data)}` : `b:${Buffer.from(redactIssuedBytes(data)).toString('base64')}`];
}

function decode([type, data]: [string, string]): [string, Uint8Array | string] {
  return [type, data.startsWith('s:') ? data.slice(2) : new Uint8Array(Buffer.from(data.slice(2), 'base64'))];
}
