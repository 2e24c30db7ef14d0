/**
 * Runs the free tools' snapshot jobs (each tool declares its own; skills/core/snapshots.ts): one instance builds each
 * round (a lease per job and period in the store, Redis when several instances share one); every
 * instance serves what was stored.
 */
import type { SkillContext } from '../../skills/core/context.js';
import { snapshotStoreKey, type SnapshotJob } from '../../skills/core/snapshots.js';

export class SnapshotJobs {
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly ctx: SkillContext, readonly jobs: readonly SnapshotJob[], private readonly log: (msg: string, err?: unknown) => void) {}

  /** Builds one snapshot now (a failed build keeps the previous one and is logged). */
  async run(job: SnapshotJob): Promise<void> {
    try {
      const data = await job.build(this.ctx);
      await this.ctx.store.set(snapshotStoreKey(job.id), JSON.stringify({ data, fetchedAt: Date.now() }), 7 * 86_400_000);
    } catch (err) {
      this.log(`snapshot ${job.id} failed`, err);
    }
  }

  async runAll(): Promise<void> {
    for (const job of this.jobs) await this.run(job);
  }

  /** Every job soon after start, then on its period; one instance per round. */
  start(): void {
    for (const job of this.jobs) {
      const round = async () => {
        if (await this.ctx.store.reserve(`mcp:job:${job.id}:${Math.floor(Date.now() / job.everyMs)}`, '1', job.everyMs)) await this.run(job);
      };
      const first = setTimeout(() => void round(), 5_000);
      const every = setInterval(() => void round(), job.everyMs);
      first.unref();
      every.unref();
      this.timers.push(first, every);
    }
  }

  stop(): void {
    this.timers.forEach((t) => clearTimeout(t));
    this.timers = [];
  }
}
