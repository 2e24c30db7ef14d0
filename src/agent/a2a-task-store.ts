/**
 * A2A tasks in Sibyl's store, so a task that asked for payment on one instance is paid on any
 * other (one Redis), and GetTask / ListTasks answer the same everywhere. Tasks expire a week
 * after their last change; the list is an index by update time. With an outbox, a save the store
 * cannot take at once (a paid task's answer, after its settlement) is kept in process and retried,
 * and reads see it meanwhile: the answer never fails on the store.
 */
import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import type { TaskStore } from '@a2a-js/sdk/server';
import type { Outbox } from '../payments/outbox.js';
import type { Store } from '../store/store.js';

const TASK_TTL_MS = 7 * 86_400_000;
const INDEX = 'a2a:tasks';
const DEFAULT_PAGE = 50;
const MAX_PAGE = 100;

export class StoreTaskStore implements TaskStore {
  /** The newest version of each task not yet written. */
  private readonly unsaved = new Map<string, Task>();

  constructor(
    private readonly store: Store,
    private readonly outbox?: Outbox,
  ) {}

  async save(task: Task): Promise<void> {
    if (!this.outbox) return this.write(task);
    // A copy as the store would keep it: the caller may go on changing its object.
    this.unsaved.set(task.id, JSON.parse(JSON.stringify(task)) as Task);
    await this.outbox.submit('a2a-task', { taskId: task.id }, async () => {
      // Always the newest version: a retry never puts an older state back.
      const current = this.unsaved.get(task.id) ?? task;
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
    if (unsaved) return JSON.parse(JSON.stringify(unsaved)) as Task;
    const raw = await this.store.get(`a2a:task:${taskId}`);
    return raw ? (JSON.parse(raw) as Task) : undefined;
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
