/** Solana-only launchpad operations over the curve feed (spec 4.2: curve-launches, curve-volume, curve-graduation). */
import { z } from 'zod';
import { curveActivity, curveProvenance } from '../intel/curve.js';
import { GRADUATION_PACE_SECONDS, GRADUATION_RANKING, graduationWatch } from '../intel/curve-graduation.js';
import { round } from '../intel/market.js';
import { PERIODS } from '../intel/periods.js';
import { limitParam, onlyChainParam, periodParam } from '../params.js';
import { defineSkill } from '../registry.js';
import { curveFeed } from './feed.js';

const LAUNCH_SORTS = ['volume', 'time', 'progress'] as const;

export const curveLaunchesSkill = defineSkill({
  id: 'curve-launches',
  title: 'Solana launchpad launches',
  description: 'Tokens launched on the Solana bonding-curve launchpad in the period with at least the given USD volume: creator, trades, traders, volume, progress to graduation and market cap; sorted by time, volume or progress.',
  tags: ['solana', 'launchpad', 'new-tokens'],
  examples: ['New pump-style launches on Solana in the last hour', 'Solana launches today with over $1,000 volume, by progress'],
  input: z.strictObject({
    chain: onlyChainParam('solana'),
    limit: limitParam(1, 20, 10),
    timeperiod: periodParam('24h', ['1h', '4h', '12h', '24h']),
    minVolumeUsd: z.number().min(0).default(10).describe('Only launches that traded at least this many USD in the period; default 10.'),
    sortBy: z.enum(LAUNCH_SORTS).default('time').describe('Sort by: volume (most traded first), time (newest launches first), progress (furthest along the curve first: closest to graduation by distance, not by pace); default time.'),
  }),
  price: '0.75',
  catalogPrice: '0.40',
  httpPath: '/x402/data/curve-launches',
  toolName: 'curve_launches',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  admit: async (_input, ctx) => void curveFeed(ctx),
  async handler(input, ctx) {
    const feed = curveFeed(ctx);
    const head = await feed.head();
    const from = head.time - PERIODS[input.timeperiod].seconds;
    const [{ rows }, launched] = await Promise.all([curveActivity(feed, from, head.time), feed.launches(from, head.time)]);
    const launchedMints = new Set(launched.map((l) => l.mint));
    const kept = rows.filter((r) => launchedMints.has(r.mint) && r.volumeUsd >= input.minVolumeUsd);
    const key = { volume: (r: (typeof kept)[number]) => r.volumeUsd, time: (r: (typeof kept)[number]) => Date.parse(r.launchedAt!), progress: (r: (typeof kept)[number]) => r.progressPct ?? 0 }[input.sortBy];
    kept.sort((a, b) => key(b) - key(a));
    return {
      ...(await curveProvenance(feed, head, { from, to: head.time })),
      timeperiod: input.timeperiod, limit: input.limit, minVolumeUsd: input.minVolumeUsd, sortBy: input.sortBy,
      launchedInPeriod: launched.length,
      count: Math.min(kept.length, input.limit),
      tokens: kept.slice(0, input.limit),
    };
  },
});

export const curveVolumeSkill = defineSkill({
  id: 'curve-volume',
  title: 'Solana launchpad volume',
  description: 'Solana bonding-curve tokens ranked by USD traded on their curves in the period, with trades, traders, progress and market cap, plus the venue totals.',
  tags: ['solana', 'launchpad', 'volume'],
  examples: ['Most traded Solana launchpad tokens today', 'Top curve volume on Solana this week'],
  input: z.strictObject({
    chain: onlyChainParam('solana'),
    limit: limitParam(1, 500, 50),
    timeperiod: periodParam('24h'),
  }),
  price: '0.75',
  httpPath: '/x402/data/curve-volume',
  toolName: 'curve_volume',
  // The agent reaches these through curve-launches (sortBy volume / progress).
  surfaces: ['http', 'a2a', 'mcp'],
  admit: async (_input, ctx) => void curveFeed(ctx),
  async handler(input, ctx) {
    const feed = curveFeed(ctx);
    const head = await feed.head();
    const from = head.time - PERIODS[input.timeperiod].seconds;
    const { rows, trades } = await curveActivity(feed, from, head.time);
    rows.sort((a, b) => b.volumeUsd - a.volumeUsd);
    return {
      ...(await curveProvenance(feed, head, { from, to: head.time })),
      timeperiod: input.timeperiod, limit: input.limit,
      totals: { trades: trades.length, tokens: rows.length, volumeSol: round(rows.reduce((s, r) => s + r.volumeSol, 0), 6), volumeUsd: round(rows.reduce((s, r) => s + r.volumeUsd, 0), 2) },
      count: Math.min(rows.length, input.limit),
      tokens: rows.slice(0, input.limit),
    };
  },
});

export const curveGraduationSkill = defineSkill({
  id: 'curve-graduation',
  title: 'Solana launchpad graduation watch',
  description: `Solana bonding-curve tokens closest to graduating at their current pace (progress at least minProgressPct): SOL still needed, net SOL raised and trades, volume and traders over the last ${GRADUATION_PACE_SECONDS / 3600} h, and the estimated time to graduate at that pace; tokens without a recent pace follow, with the reason. Plus tokens that graduated in the last 24h and their migrated pools.`,
  tags: ['solana', 'launchpad', 'graduation'],
  examples: ['Which Solana launchpad tokens are about to graduate?', 'Tokens over 80% of the way to graduation'],
  input: z.strictObject({
    chain: onlyChainParam('solana'),
    limit: limitParam(1, 200, 30),
    minProgressPct: z.number().min(0).max(100).default(50).describe('Only tokens at least this far to graduation, 0-100; default 50.'),
  }),
  price: '0.75',
  httpPath: '/x402/data/curve-graduation',
  toolName: 'curve_graduation',
  // The agent reaches these through curve-launches (sortBy volume / progress).
  surfaces: ['http', 'a2a', 'mcp'],
  admit: async (_input, ctx) => void curveFeed(ctx),
  async handler(input, ctx) {
    const feed = curveFeed(ctx);
    const watch = await graduationWatch(feed, input.minProgressPct);
    const window = (w: { from: number; to: number }) => ({ from: new Date(w.from * 1000).toISOString(), to: new Date(w.to * 1000).toISOString() });
    return {
      ...(await curveProvenance(feed, watch.head, watch.recentWindow)),
      limit: input.limit, minProgressPct: input.minProgressPct,
      graduationSol: round(watch.target, 6),
      ranking: GRADUATION_RANKING,
      paceWindow: window(watch.paceWindow),
      // Which window each list's trades, buys, sells, traders and volume are counted over.
      activityWindows: { approaching: window(watch.paceWindow), graduatedLast24h: window(watch.recentWindow) },
      approachingCount: watch.candidates.length,
      withPaceCount: watch.candidates.filter((c) => c.etaHours !== null).length,
      approaching: watch.candidates.slice(0, input.limit),
      graduatedLast24h: watch.graduates.slice(0, input.limit),
    };
  },
});
