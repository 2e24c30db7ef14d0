/** Solana-only launchpad operations over the curve feed (curve-launches, curve-volume, curve-graduation; docs/skills.md). */
import { z } from 'zod';
import { curveActivity, curveProvenance } from './engine.js';
import { GRADUATION_PACE_SECONDS, GRADUATION_RANKING, graduationWatch } from './graduation.js';
import { round } from '../data/market.js';
import { PERIODS } from '../data/periods.js';
import { limitParam, onlyChainParam, periodParam } from '../core/params.js';
import { coverage, intString, isoTime } from '../core/outputs.js';
import { PERIOD_NAMES } from '../data/periods.js';
import { defineSkill } from '../core/registry.js';
import { curveFeed } from './feed.js';

const LAUNCH_SORTS = ['volume', 'time', 'progress'] as const;

/** curve/engine.ts `curveProvenance`: the Solana launchpad feed's provenance. */
const curveHead = {
  source: z.string(),
  chain: z.string().describe('solana.'),
  venue: z.string(),
  asOf: z.object({ slot: intString, timestamp: isoTime }),
  window: z.object({ from: isoTime, to: isoTime }).describe('The window trades are counted over.'),
  coverage,
  solUsd: z.object({ usd: z.number().nullable(), source: z.string() }).describe('SOL/USD at the head, and where it came from.'),
  methodology: z.string(),
};
/** curve/engine.ts `TokenActivity`: a curve token and its trading over the window. */
const curveToken = z.object({
  mint: z.string(), symbol: z.string().nullable(), name: z.string().nullable(), creator: z.string().nullable(), launchedAt: isoTime.nullable(),
  trades: z.number().int(), buys: z.number().int(), sells: z.number().int(), traders: z.number().int(),
  volumeSol: z.number(), volumeUsd: z.number(),
  progressPct: z.number().nullable(), priceSol: z.number().nullable(), marketCapUsd: z.number().nullable(), lastTradeAt: isoTime.nullable(),
  graduated: z.boolean(),
  migration: z.object({
    available: z.boolean(), address: z.string(), migratedAt: isoTime, reason: z.string().optional(),
    trades: z.number().int().optional(), traders: z.number().int().optional(), volumeSol: z.number().optional(), volumeUsd: z.number().optional(),
    reserveSol: z.number().optional(), reserveTokens: z.number().optional(),
  }).nullable().describe('The AMM pool it migrated to and its trading over the same window; null before migration.'),
});
const isoWindow = z.object({ from: isoTime, to: isoTime });

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
  output: z.object({
    ...curveHead,
    timeperiod: z.enum(PERIOD_NAMES), limit: z.number().int(), minVolumeUsd: z.number(), sortBy: z.enum(LAUNCH_SORTS),
    launchedInPeriod: z.number().int(),
    count: z.number().int(),
    tokens: z.array(curveToken),
  }),
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
  output: z.object({
    ...curveHead,
    timeperiod: z.enum(PERIOD_NAMES), limit: z.number().int(),
    totals: z.object({ trades: z.number().int(), tokens: z.number().int(), volumeSol: z.number(), volumeUsd: z.number() }).describe('The venue over the period.'),
    count: z.number().int(),
    tokens: z.array(curveToken),
  }),
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
  output: z.object({
    ...curveHead,
    limit: z.number().int(), minProgressPct: z.number(),
    graduationSol: z.number().describe('Real SOL a curve holds when it graduates.'),
    ranking: z.string(),
    paceWindow: isoWindow,
    activityWindows: z.object({ approaching: isoWindow, graduatedLast24h: isoWindow }),
    approachingCount: z.number().int(),
    withPaceCount: z.number().int(),
    approaching: z.array(curveToken.extend({
      realSol: z.number(), solToGraduate: z.number(), netSolInflow: z.number(), solPerHour: z.number(),
      etaHours: z.number().nullable(), estimatedGraduationAt: isoTime.nullable(), noPaceReason: z.string().nullable(), idleHours: z.number().nullable(),
    })).describe('Soonest to graduate first; those without a pace after.'),
    graduatedLast24h: z.array(curveToken.extend({ graduatedAt: isoTime, hoursFromLaunch: z.number().nullable() })),
  }),
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
