/** Solana-only launchpad operations over the curve feed (spec 4.2: curve-launches, curve-volume, curve-graduation). */
import { z } from 'zod';
import { curveActivity, curveProvenance, toRow } from '../../intel/curve.js';
import { round } from '../../intel/market.js';
import { PERIODS } from '../../intel/periods.js';
import { limitParam, onlyChainParam, periodParam } from '../params.js';
import { defineSkill } from '../registry.js';
import { curveFeed } from './feed.js';

const LAUNCH_SORTS = ['volume', 'time', 'progress'] as const;
/** How far back graduation velocity and recent graduations look. */
const VELOCITY_SECONDS = 3_600;
const RECENT_GRADUATIONS_SECONDS = 86_400;

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
    sortBy: z.enum(LAUNCH_SORTS).default('time').describe('Sort by: volume (most traded first), time (newest launches first), progress (closest to graduation first); default time.'),
  }),
  price: '0.75',
  catalogPrice: '0.40',
  httpPath: '/x402/data/curve-launches',
  toolName: 'curve_launches',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
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
      ...curveProvenance(feed, head, { from, to: head.time }),
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
  async handler(input, ctx) {
    const feed = curveFeed(ctx);
    const head = await feed.head();
    const from = head.time - PERIODS[input.timeperiod].seconds;
    const { rows, trades } = await curveActivity(feed, from, head.time);
    rows.sort((a, b) => b.volumeUsd - a.volumeUsd);
    return {
      ...curveProvenance(feed, head, { from, to: head.time }),
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
  description: 'Solana bonding-curve tokens closest to graduation (progress at least minProgressPct): SOL still needed, SOL raised in the last hour and the hours to graduate at that pace; plus tokens that graduated in the last 24h and the pools they migrated to.',
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
  async handler(input, ctx) {
    const feed = curveFeed(ctx);
    const head = await feed.head();
    const [states, launches, recent] = await Promise.all([feed.states(), feed.launches(0, head.time), feed.trades(head.time - VELOCITY_SECONDS, head.time)]);
    const launchByMint = new Map(launches.map((l) => [l.mint, l]));
    const solUsdNow = (await feed.solUsd(head.time))?.usd ?? null;
    const raisedLastHour = new Map<string, number>();
    for (const t of recent) raisedLastHour.set(t.mint, (raisedLastHour.get(t.mint) ?? 0) + (t.side === 'buy' ? t.sol : -t.sol));
    const { initialVirtualSol, initialVirtualTokens, curveSupply } = feed.venue;
    // SOL the curve holds when its last token is sold: k / (virtual tokens left) - initial virtual SOL.
    const graduationSol = (initialVirtualSol * initialVirtualTokens) / (initialVirtualTokens - curveSupply) - initialVirtualSol;
    const approaching = states
      .filter((s) => !s.graduated && s.progressPct >= input.minProgressPct)
      .sort((a, b) => b.progressPct - a.progressPct)
      .map((s) => {
        const pace = raisedLastHour.get(s.mint) ?? 0;
        const needed = Math.max(0, graduationSol - s.realSol);
        return {
          ...toRow(feed, s.mint, launchByMint.get(s.mint), s, solUsdNow),
          realSol: round(s.realSol, 6),
          solToGraduate: round(needed, 6),
          solRaisedLastHour: round(pace, 6),
          hoursToGraduateAtPace: pace > 0 ? round(needed / pace, 2) : null,
        };
      });
    const graduated = states
      .filter((s) => s.graduated && s.graduated.time >= head.time - RECENT_GRADUATIONS_SECONDS)
      .sort((a, b) => b.graduated!.time - a.graduated!.time)
      .map((s) => ({ ...toRow(feed, s.mint, launchByMint.get(s.mint), s, solUsdNow), graduatedAt: new Date(s.graduated!.time * 1000).toISOString() }));
    return {
      ...curveProvenance(feed, head, { from: head.time - RECENT_GRADUATIONS_SECONDS, to: head.time }),
      limit: input.limit, minProgressPct: input.minProgressPct,
      graduationSol: round(graduationSol, 6),
      approachingCount: approaching.length,
      approaching: approaching.slice(0, input.limit),
      graduatedLast24h: graduated.slice(0, input.limit),
    };
  },
});
