/**
 * A2A tasks in Sibyl's store, so a task that asked for payment on one instance is paid on any
 * other (one Redis), and GetTask / ListTasks answer the same everywhere. Tasks expire a week
 * after their last change; the list is an index by update time.
 */
import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import type { TaskStore } from '@a2a-js/sdk/server';
import type { Store } from '../store/store.js';

const TASK_TTL_MS = 7 * 86_400_000;
const INDEX = 'a2a:tasks';
const DEFAULT_PAGE = 50;
const MAX_PAGE = 100;

export class StoreTaskStore implements TaskStore {
  constructor(private readonly store: Store) {}

  async save(task: Task): Promise<void> {
    await this.store.set(`a2a:task:${task.id}`, JSON.stringify(task), TASK_TTL_MS);
    await this.store.sortedAdd(INDEX, [{ member: task.id, score: Date.now() }]);
  }

  async load(taskId: string): Promise<Task | undefined> {
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
