/** The free social-hype tool (get_social_hype, BSC), read from its snapshot and filtered by the tokens' sentiment. */
import { z } from 'zod';
import { defineFreeTool, disabledResult, freeOutput, fromSnapshot, list } from '../core/free.js';
import { NO_SOCIAL_FEED, SOCIAL_WINDOW_SECONDS, socialHypeSnapshot } from './hype-snapshot.js';
import { SOCIAL_HYPE_FORMULA } from './engine.js';
import { NARROW_ROWS, rowsParam } from '../core/params.js';
import { MINUTE_MS, type SnapshotJob } from '../core/snapshots.js';

export const socialHypeSnapshotJob: SnapshotJob = { id: 'social-hype', everyMs: 10 * MINUTE_MS, build: socialHypeSnapshot };

export const SOCIAL_SENTIMENTS = ['All', 'Positive', 'Negative', 'Neutral'] as const;

export const socialHypeTool = defineFreeTool({
  id: 'social-hype', toolName: 'get_social_hype', title: 'Social hype (BSC)',
  snapshot: socialHypeSnapshotJob,
  description: `Tokens on BNB Smart Chain by social attention over the last ${SOCIAL_WINDOW_SECONDS / 3600} h of the social feed: mentions, distinct authors, KOLs, the posts' tone (Positive/Negative/Neutral), a 0-100 hype score (${SOCIAL_HYPE_FORMULA}), market cap and price change, and a shill warning when the talk comes mostly from a few new accounts.`,
  tags: ['social', 'hype', 'bsc', 'sentiment', 'shill', 'kol'],
  input: z.strictObject({
    limit: rowsParam(NARROW_ROWS),
    sentiment: z.enum(SOCIAL_SENTIMENTS).default('All').describe(`Only tokens whose posts read this way: ${SOCIAL_SENTIMENTS.join(', ')}; default All.`),
  }),
  output: freeOutput({ object: z.literal('social-hype').optional(), chain: z.string().optional(), sentiment: z.enum(SOCIAL_SENTIMENTS).optional(), rows: list() }),
  async read({ limit, sentiment }, ctx) {
    if (!ctx.social) return { ...disabledResult(limit), detail: NO_SOCIAL_FEED };
    return fromSnapshot(ctx, socialHypeSnapshotJob, limit, (data) => {
      const rows = data.rows as { sentiment: string }[] | undefined;
      return { ...data, ...(rows && { sentiment, rows: sentiment === 'All' ? rows : rows.filter((r) => r.sentiment === sentiment) }) };
    });
  },
});
