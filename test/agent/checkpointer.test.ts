/** The report rooms' checkpointer on both stores, driven by a real LangGraph graph. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { KEEP_CHECKPOINTS, StoreCheckpointSaver } from '../../graph/checkpointer.js';
import { MemoryStore } from '../../store/memory.js';
import { RedisStore } from '../../store/redis.js';
import type { Store } from '../../store/store.js';
import { TEST_REDIS_URL } from '../helpers/env.js';

/** A graph that answers each message with how many messages the room holds. */
function counter(store: Store, idleTtlMs?: number) {
  return new StateGraph(MessagesAnnotation)
    .addNode('reply', (s) => ({ messages: [new AIMessage(`room holds ${s.messages.length}`)] }))
    .addEdge(START, 'reply')
    .compile({ checkpointer: new StoreCheckpointSaver(store, idleTtlMs) });
}

const implementations: [string, () => Promise<Store>][] = [
  ['memory', async () => new MemoryStore()],
  ['redis', () => RedisStore.connect(TEST_REDIS_URL, `sibyl-test:${randomUUID()}:`)],
];

describe.each(implementations)('report room checkpointer: %s', (_name, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.close());

  it('keeps a room across turns and across saver instances (another Sibyl on the same store)', async () => {
    const room = { configurable: { thread_id: `room-${randomUUID()}` } };
    await counter(store).invoke({ messages: [new HumanMessage('one')] }, room);
    const second = await counter(store).invoke({ messages: [new HumanMessage('two')] }, room);
    expect(second.messages.map((m) => m.content)).toEqual(['one', 'room holds 1', 'two', 'room holds 3']);
    const other = { configurable: { thread_id: `room-${randomUUID()}` } };
    expect((await counter(store).invoke({ messages: [new HumanMessage('alone')] }, other)).messages).toHaveLength(2);
  });

  it('lists a room newest first, keeps only the newest checkpoints, and deletes a room whole', async () => {
    const threadId = `room-${randomUUID()}`;
    const room = { configurable: { thread_id: threadId } };
    const graph = counter(store);
    for (let i = 0; i < KEEP_CHECKPOINTS; i++) await graph.invoke({ messages: [new HumanMessage(`m${i}`)] }, room);
    const saver = new StoreCheckpointSaver(store);
    const listed = [];
    for await (const t of saver.list(room)) listed.push(t);
    expect(listed).toHaveLength(KEEP_CHECKPOINTS);
    const ids = listed.map((t) => t.config.configurable!.checkpoint_id as string);
    expect(ids).toEqual([...ids].sort().reverse());
    expect((await saver.getTuple(room))!.config.configurable!.checkpoint_id).toBe(ids[0]);
    // The latest state is whole even though older checkpoints were pruned.
    const state = await graph.getState(room);
    expect(state.values.messages).toHaveLength(2 * KEEP_CHECKPOINTS);
    // A limit and a "before" bound page through the history.
    const page = [];
    for await (const t of saver.list(room, { limit: 2, before: { configurable: { checkpoint_id: ids[0] } } })) page.push(t.config.configurable!.checkpoint_id);
    expect(page).toEqual(ids.slice(1, 3));
    await saver.deleteThread(threadId);
    expect(await saver.getTuple(room)).toBeUndefined();
  });

  it('deletes a room left idle past its TTL when any room is next written', async () => {
    const idle = { configurable: { thread_id: `room-${randomUUID()}` } };
    const busy = { configurable: { thread_id: `room-${randomUUID()}` } };
    await counter(store, 150).invoke({ messages: [new HumanMessage('hi')] }, idle);
    await new Promise((r) => setTimeout(r, 200));
    await counter(store, 150).invoke({ messages: [new HumanMessage('hi')] }, busy);
    const saver = new StoreCheckpointSaver(store);
    expect(await saver.getTuple(idle)).toBeUndefined();
    expect(await saver.getTuple(busy)).toBeDefined();
  });
});
