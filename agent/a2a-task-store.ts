/**
 * A2A tasks in Sibyl's store, so a task that asked for payment on one instance is paid on any
 * other (one Redis), and GetTask / ListTasks answer the same everywhere. Tasks expire a week
 * after their last change; the list is an index by update time. With an outbox, a save the store
 * cannot take at once (a paid task's answer, after its settlement) is kept in process and retried,
 * and reads see it meanwhile; a read the store does not answer at once falls back to the version
 * this instance last saw: a paid answer never fails on the store.
 *
 * An answer that carried secrets (keys generated for the caller, issued-secrets.ts) is returned
 * once, in the reply that completed the task, and never kept: the task is saved with that
 * artifact's parts replaced by a note saying so, and any other trace of the secrets stripped.
 */
import type { Artifact, ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import type { TaskStore } from '@a2a-js/sdk/server';
import type { Outbox } from '../payments/outbox.js';
import { holdsIssued, redactIssued } from '../skills/core/issued-secrets.js';
import type { Store } from '../store/store.js';

const TASK_TTL_MS = 7 * 86_400_000;
const INDEX = 'a2a:tasks';
const DEFAULT_PAGE = 50;
const MAX_PAGE = 100;
/** How long a read waits on the store before the version this instance last saw answers instead. */
const LOCAL_FALLBACK_MS = 500;
/** Tasks remembered for that fallback (the most recent). */
const REMEMBERED = 1_000;
const LOCAL: unique symbol = Symbol('local');
const copy = (task: Task): Task => JSON.parse(JSON.stringify(task)) as Task;
/** What a kept task says in place of an answer that carried secrets. */
export const ANSWER_NOT_KEPT = 'This answer carried secret key material. It was returned once, in the reply that completed this task, and Sibyl keeps no copy: it cannot be fetched again.';

/** The task as it may be kept: artifacts holding issued secrets reduced to a note, other traces stripped. */
export function keepable(task: Task): Task {
  const text = JSON.stringify(task);
  if (!holdsIssued(text)) return JSON.parse(text) as Task;
  const artifacts = (task.artifacts ?? []).map((a): Artifact => (holdsIssued(JSON.stringify(a)) ? {
    ...a,
    parts: [{ content: { $case: 'text', value: ANSWER_NOT_KEPT }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: { ...a.metadata, 'sibyl.answerNotKept': true },
  } : a));
  return JSON.parse(redactIssued(JSON.stringify({ ...task, artifacts }))) as Task;
}

export class StoreTaskStore implements TaskStore {
  /** The newest version of each task not yet written. */
  private readonly unsaved = new Map<string, Task>();
  /** The last version this instance saved or read of recent tasks, for a store that does not answer. */
  private readonly recent = new Map<string, Task>();

  constructor(
    private readonly store: Store,
    private readonly outbox?: Outbox,
  ) {}

  async save(task: Task): Promise<void> {
    // A copy as the store may keep it (the caller may go on changing its object, and returns the original).
    const saved = keepable(task);
    if (!this.outbox) return this.write(saved);
    this.unsaved.set(task.id, saved);
    this.remember(saved);
    await this.outbox.submit('a2a-task', { taskId: task.id }, async () => {
      // Always the newest version: a retry never puts an older state back.
      const current = this.unsaved.get(task.id) ?? saved;
      await this.write(current);
      if (this.unsaved.get(task.id) === current) this.unsaved.delete(task.id);
    });
  }

  private async write(task: Task): Promise<void> {
    await this.store.set(`a2a:task:${task.id}`, JSON.stringify(task), TASK_TTL_MS);
    await this.store.sortedAdd(INDEX, [{ member: task.id, score: Date.now() }]);
  }

  async load(taskId: string): Promise<Task | undefined> {
    const unsaved = this.unsaved.get(taskId);
    if (unsaved) return copy(unsaved);
    const read = this.store.get(`a2a:task:${taskId}`).then((raw) => (raw ? (JSON.parse(raw) as Task) : undefined));
    const known = this.recent.get(taskId);
    if (!this.outbox || !known) return read;
    const got: Task | undefined | typeof LOCAL = await Promise.race([read.catch((): typeof LOCAL => LOCAL), new Promise<typeof LOCAL>((r) => setTimeout(() => r(LOCAL), LOCAL_FALLBACK_MS).unref())]);
    if (got === LOCAL) return copy(known);
    if (got) this.remember(got);
    return got;
  }

  private remember(task: Task): void {
    this.recent.delete(task.id);
    this.recent.set(task.id, task);
    if (this.recent.size > REMEMBERED) this.recent.delete(this.recent.keys().next().value!);
  }

  /** Newest first, filtered by context and state; the page token is the offset. */
  async list(params: ListTasksRequest): Promise<ListTasksResponse> {
    const cutoff = Date.now() - TASK_TTL_MS;
    await this.store.sortedRemoveRange(INDEX, -Infinity, cutoff);
    const ids = (await this.store.sortedRange(INDEX, cutoff, Infinity)).map((e) => e.member).reverse();
    const tasks = (await Promise.all(ids.map((id) => this.load(id)))).filter((t): t is Task => !!t)
      .filter((t) => !params.contextId || t.contextId === params.contextId)
      .filter((t) => params.status === TaskState.TASK_STATE_UNSPECIFIED || !params.status || t.status?.state === params.status);
    const pageSize = Math.min(MAX_PAGE, params.pageSize || DEFAULT_PAGE);
    const offset = Number(params.pageToken || 0) || 0;
    const page = tasks.slice(offset, offset + pageSize).map((t) => ({ ...t, ...(params.includeArtifacts ? {} : { artifacts: [] }) }));
    return { tasks: page, nextPageToken: offset + pageSize < tasks.length ? String(offset + pageSize) : '', pageSize, totalSize: tasks.length };
  }
}
