/** The free analyst-accuracy tool (get_analyst_accuracy), read from its snapshot: the calls feed graded by horizon against a benchmark (accuracy.ts). */
import { z } from 'zod';
import { defineFreeTool, disabledResult, freeOutput, fromSnapshot } from '../core/free.js';
import { FREE_ROWS, rowsParam } from '../core/params.js';
import { MINUTE_MS, type SnapshotJob } from '../core/snapshots.js';
import { analystAccuracy, RELIABILITY_GATE_CALLS } from './accuracy.js';
import { NO_CALLS_FEED } from './venue.js';

export const analystAccuracySnapshotJob: SnapshotJob = {
  id: 'analyst-accuracy', everyMs: 10 * MINUTE_MS,
  build: async (ctx) => {
    const feed = ctx.calls;
    if (!feed) return { available: false, reason: 'domain_disabled', detail: NO_CALLS_FEED };
    const { truncated, ...board } = await analystAccuracy(feed, feed.prices.read, { now: Math.floor(Date.now() / 1000), limit: FREE_ROWS.max, pricesFrom: feed.prices.from });
    // `truncated` is the envelope's (lists cut to the caller's limit); the feed's own cut is named apart.
    return { source: `calls feed (${feed.kind})`, ...board, callsTruncated: truncated };
  },
};

const row = z.looseObject({
  source_type: z.string(), source_id: z.string(), source_label: z.string(),
  graded_calls: z.number().int(), hits: z.number().int(), misses: z.number().int(), pending: z.number().int(),
  weight: z.number(), decayed_samples: z.number(), hit_rate: z.number().nullable().describe('0-1; null before any graded call.'),
});

export const analystAccuracyTool = defineFreeTool({
  id: 'analyst-accuracy', toolName: 'get_analyst_accuracy', title: 'Analyst accuracy',
  snapshot: analystAccuracySnapshotJob,
  description: `Market callers (analysts, newsletters, posters) ranked by their graded record: each call graded at its horizon (1d, 7d, 30d) against a benchmark (BTC for crypto, SPY for stocks), hits, misses and pending calls, hit rate and average excess return per horizon, ranked by a z-test against a coin flip weighted by sample size and recency (a caller with three lucky calls never tops one with a hundred good ones; ${RELIABILITY_GATE_CALLS}+ graded calls to be ranked).`,
  tags: ['analysts', 'accuracy', 'callers', 'calls', 'price-calls', 'pundits', 'influencers', 'kols', 'track-record', 'graded'],
  examples: ['Which crypto pundits have the best calls?', 'Which analysts are actually right?'],
  needs: ['calls'],
  agent: true,
  input: z.strictObject({ limit: rowsParam(FREE_ROWS) }),
  output: freeOutput({
    object: z.literal('source-leaderboard').optional(),
    reliability_gate_calls: z.number().int().optional(), sources_tracked: z.number().int().optional(), sources_past_gate: z.number().int().optional(), pending_calls: z.number().int().optional(),
    rows: z.array(row).optional().describe('Callers past the gate by score first, then the rest.'),
    methodology: z.string().optional(),
    sources: z.looseObject({}).optional().describe('The calls feed and the prices calls are graded with.'),
    callsTruncated: z.boolean().optional().describe('The feed held more calls than were read (the oldest were left).'),
  }),
  summarize: (r) => {
    const rows = (r.rows ?? []) as { source_label: string; graded_calls: number; hit_rate: number | null; past_gate: boolean }[];
    const ranked = rows.filter((x) => x.past_gate);
    if (!r.available || !ranked.length) return `No caller has ${RELIABILITY_GATE_CALLS} graded calls yet${r.reason ? ` (${r.reason})` : ''}.`;
    return `${r.sources_past_gate} of ${r.sources_tracked} callers have ${RELIABILITY_GATE_CALLS}+ graded calls; best: ${ranked.slice(0, 5).map((x) => `${x.source_label} (${Math.round((x.hit_rate ?? 0) * 100)}% of ${x.graded_calls})`).join(', ')}.`;
  },
  read: ({ limit }, ctx) => (ctx.calls ? fromSnapshot(ctx, analystAccuracySnapshotJob, limit) : Promise.resolve(disabledResult(limit))),
});
