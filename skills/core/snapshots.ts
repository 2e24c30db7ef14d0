/**
 * Snapshots behind the tool server's free tools: each free tool that reads one declares its job
 * (`snapshot` on the skill), a background runner (server/mcp/snapshots.ts) builds every working
 * tool's job, one instance per round, and stores it, so a free call only reads. A snapshot older
 * than its job's period is `stale`.
 */
import type { SkillContext } from './context.js';
import type { Registry } from './registry.js';

export interface SnapshotJob {
  readonly id: string;
  /** How often it is rebuilt; a snapshot older than this is `stale`. */
  readonly everyMs: number;
  build(ctx: SkillContext): Promise<Record<string, unknown>>;
}

export interface Snapshot {
  readonly data: Record<string, unknown>;
  /** Epoch ms of the build. */
  readonly fetchedAt: number;
  readonly stale: boolean;
}

export const MINUTE_MS = 60_000;

/** The jobs behind this deployment's working tools (a tool turned off builds nothing). */
export function snapshotJobs(registry: Registry): SnapshotJob[] {
  return registry.published().flatMap((s) => (s.snapshot ? [s.snapshot] : []));
}

/** Where a job's snapshot is stored. */
export const snapshotStoreKey = (id: string) => `mcp:snapshot:${id}`;

export async function readSnapshot(ctx: Pick<SkillContext, 'store'>, job: Pick<SnapshotJob, 'id' | 'everyMs'>): Promise<Snapshot | null> {
  const raw = await ctx.store.get(snapshotStoreKey(job.id));
  if (!raw) return null;
  const { data, fetchedAt } = JSON.parse(raw) as { data: Record<string, unknown>; fetchedAt: number };
  return { data, fetchedAt, stale: Date.now() - fetchedAt > job.everyMs };
}
