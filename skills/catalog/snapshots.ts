/**
 * Snapshots behind the tool server's free tools (spec 2.4): each is built by a background job
 * (server/mcp/snapshots.ts runs them, one instance per round) and stored, so a free call only
 * reads. A snapshot older than its job's period is `stale`.
 */
import type { SkillContext } from '../core/context.js';
import { marketSentiment, topMovers } from '../movers/engine.js';
import { smartMoneyFlow, smartMoneyInflow } from '../smart-money/flow.js';
import { whalePrints } from '../whales/prints.js';
import { tokenSafety } from '../security/token-safety-snapshot.js';
import { launchpadRadar } from '../launchpad/radar-snapshot.js';
import { socialHypeSnapshot } from '../social/hype-snapshot.js';

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

const MINUTE = 60_000;

export const SNAPSHOT_JOBS = {
  movers: { id: 'top-movers', everyMs: 5 * MINUTE, build: topMovers },
  flow: { id: 'smart-money-flow', everyMs: 10 * MINUTE, build: smartMoneyFlow },
  prints: { id: 'whale-prints', everyMs: 5 * MINUTE, build: (ctx: SkillContext) => whalePrints(ctx) },
  safety: { id: 'token-safety', everyMs: 30 * MINUTE, build: tokenSafety },
  inflow: { id: 'smart-money-inflow', everyMs: 10 * MINUTE, build: smartMoneyInflow },
  launchpad: { id: 'launchpad-radar', everyMs: 5 * MINUTE, build: launchpadRadar },
  sentiment: { id: 'market-sentiment', everyMs: 15 * MINUTE, build: marketSentiment },
  social: { id: 'social-hype', everyMs: 10 * MINUTE, build: socialHypeSnapshot },
} satisfies Record<string, SnapshotJob>;

/** Where a job's snapshot is stored. */
export const snapshotStoreKey = (id: string) => `mcp:snapshot:${id}`;

export async function readSnapshot(ctx: Pick<SkillContext, 'store'>, job: Pick<SnapshotJob, 'id' | 'everyMs'>): Promise<Snapshot | null> {
  const raw = await ctx.store.get(snapshotStoreKey(job.id));
  if (!raw) return null;
  const { data, fetchedAt } = JSON.parse(raw) as { data: Record<string, unknown>; fetchedAt: number };
  return { data, fetchedAt, stale: Date.now() - fetchedAt > job.everyMs };
}
