/** What the scrape-time gauges read: /healthz's view of chains and settlements, and each snapshot's age. */
import { snapshotStoreKey, type SnapshotJob } from '../../skills/core/snapshots.js';
import type { Store } from '../../store/store.js';
import type { HealthMonitor } from '../health.js';
import type { ServiceSample } from './metrics.js';

export function serviceSampler(health: HealthMonitor, store: Store, jobs: readonly SnapshotJob[]) {
  return async (): Promise<ServiceSample> => {
    const [report, snapshots] = await Promise.all([
      health.report(),
      Promise.all(jobs.map(async (job) => {
        const raw = await store.get(snapshotStoreKey(job.id)).catch(() => null);
        const fetchedAt = raw ? (JSON.parse(raw) as { fetchedAt?: number }).fetchedAt : undefined;
        return { id: job.id, ageSeconds: fetchedAt ? Math.max(0, (Date.now() - fetchedAt) / 1000) : null };
      })),
    ]);
    return { chains: report.chains, bitcoin: report.bitcoin, settlements: report.settlements, snapshots };
  };
}
