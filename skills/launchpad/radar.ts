/** The free launchpad radar (get_launchpad_radar), read from its snapshot. */
import { z } from 'zod';
import { defineFreeTool, freeOutput, fromSnapshot, list } from '../core/free.js';
import { NARROW_ROWS, rowsParam } from '../core/params.js';
import { MINUTE_MS, type SnapshotJob } from '../core/snapshots.js';
import { launchpadRadar } from './radar-snapshot.js';

export const launchpadRadarSnapshot: SnapshotJob = { id: 'launchpad-radar', everyMs: 5 * MINUTE_MS, build: launchpadRadar };

export const launchpadRadarTool = defineFreeTool({
  id: 'launchpad-radar', toolName: 'get_launchpad_radar', title: 'Launchpad radar',
  snapshot: launchpadRadarSnapshot,
  description: 'Bonding-curve launches on the indexed EVM launchpads, closest to graduating at their current pace first (ETA = ETH still needed / net ETH raised per hour over the last 24 h), then curves without a pace (with the reason), graduated tokens last.',
  tags: ['launchpad', 'bonding-curve', 'graduation'], input: z.strictObject({ limit: rowsParam(NARROW_ROWS) }),
  output: freeOutput({ object: z.literal('launchpad-radar').optional(), chain: z.string().optional(), rows: list() }),
  read: ({ limit }, ctx) => fromSnapshot(ctx, launchpadRadarSnapshot, limit),
});
