/** The free perp-whales tool (get_perp_whales), read from its snapshot: the venue read once for the most whales a call may ask, reported for the caller's limit (whales.ts). */
import { z } from 'zod';
import type { SkillContext } from '../core/context.js';
import { defineFreeTool, disabledResult, freeOutput, list, optionalShape } from '../core/free.js';
import { FREE_ROWS, rowsParam } from '../core/params.js';
import { MINUTE_MS, readSnapshot, type SnapshotJob } from '../core/snapshots.js';
import { NO_PERP_VENUE, perpProvenance, perpProvenanceShape } from './venue.js';
import { PERP_WHALES_METHODOLOGY, readWhales, whalesReport, type WhaleReads } from './whales.js';

export async function perpWhalesSnapshot(ctx: SkillContext): Promise<Record<string, unknown>> {
  if (!ctx.perps) return { available: false, reason: 'domain_disabled', detail: NO_PERP_VENUE };
  return { ...perpProvenance(ctx.perps, PERP_WHALES_METHODOLOGY), read: await readWhales(ctx.perps, FREE_ROWS.max) };
}

export const perpWhalesSnapshotJob: SnapshotJob = { id: 'perp-whales', everyMs: 5 * MINUTE_MS, build: perpWhalesSnapshot };

export const perpWhalesTool = defineFreeTool({
  id: 'perp-whales', toolName: 'get_perp_whales', title: 'Perpetuals whales',
  snapshot: perpWhalesSnapshotJob,
  description: 'What the largest perpetual-futures (perps) accounts on Hyperliquid hold: per coin the whales long and short, net notional and a lean (a coin held by fewer than 3 read whales is NEUTRAL), each whale\'s positions with entry, leverage, liquidation price and funding paid, accounts the venue could not read (reported, never counted as flat), market makers set apart; and per coin the venue\'s mark, day change, open interest and funding (hourly, annualised, who pays, extremes, where whales lean against the payers). limit: how many whales.',
  tags: ['perps', 'perpetuals', 'futures', 'whales', 'funding', 'funding-rate', 'hyperliquid', 'positions', 'leverage', 'derivatives', 'open-interest', 'liquidation-price'],
  examples: ['What are the perp whales doing on ETH?', 'Are Hyperliquid whales long or short BTC?'],
  needs: ['perps'],
  agent: true,
  input: z.strictObject({ limit: rowsParam(FREE_ROWS).describe(`How many whales (the largest accounts by month PnL, market makers set apart), ${FREE_ROWS.min}-${FREE_ROWS.max}, default ${FREE_ROWS.default}.`) }),
  output: freeOutput({
    ...optionalShape(perpProvenanceShape),
    whales: z.looseObject({
      available: z.boolean(), consensus: z.enum(['BULLISH', 'BEARISH', 'MIXED', 'NEUTRAL']),
      bullishAssets: z.array(z.string()), bearishAssets: z.array(z.string()),
      tradersAnalyzed: z.number().int().describe('Whales whose account was read.'), tradersRequested: z.number().int(),
      topTraders: list(), whalePositions: list(),
      assets: list().describe('Per coin: lean, holders, longs, shorts, longUsd, shortUsd, netUsd, reason.'),
      unreadTraders: list().describe('Whales the venue could not read, with the reason: counted nowhere.'),
      marketMakersExcluded: z.number().int(),
      fetchedAt: z.string().describe('When the whales\' accounts were read from the venue.'),
    }).optional(),
    funding: z.looseObject({
      available: z.boolean(), rates: list(), marketRegime: z.string(), extremes: list(), divergences: list(), opportunities: list(),
      fetchedAt: z.string().describe('When the asset contexts were read from the venue.'),
    }).optional(),
  }),
  summarize: (r) => {
    if (!r.available || !r.whales) return `No perp whale positions to report${r.reason ? ` (${r.reason})` : ''}.`;
    const w = r.whales as { consensus: string; tradersAnalyzed: number; tradersRequested: number; unreadTraders: unknown[]; assets: { coin: string; lean: string; reason: string }[] };
    const rates = (r.funding?.rates ?? []) as { coin: string; annualizedPct: number; payer: string }[];
    // Every coin the venue lists, held or not: a question about one coin finds it here either way.
    const coins = [...new Set([...w.assets.map((a) => a.coin), ...rates.map((x) => x.coin)])];
    const line = (coin: string) => {
      const lean = w.assets.find((a) => a.coin === coin);
      const rate = rates.find((x) => x.coin === coin);
      const funding = rate ? `, funding ${rate.annualizedPct >= 0 ? '+' : ''}${rate.annualizedPct}%/yr (${rate.payer === 'none' ? 'nobody' : rate.payer} pay)` : '';
      return `${coin}: ${lean ? `${lean.lean} (${lean.reason})` : 'no read whale holds it'}${funding}`;
    };
    const unread = w.unreadTraders.length ? `, ${w.unreadTraders.length} could not be read (not counted)` : '';
    return `Perp whales on Hyperliquid: ${w.tradersAnalyzed} of ${w.tradersRequested} read${unread}; consensus ${w.consensus}. ${coins.map(line).join('; ')}.`;
  },
  async read({ limit }, ctx) {
    if (!ctx.perps) return disabledResult(limit);
    const snapshot = await readSnapshot(ctx, perpWhalesSnapshotJob);
    if (!snapshot) return { available: false, reason: 'snapshot_not_warm', fetchedAt: null, stale: true, limit };
    const { read, ...provenance } = snapshot.data as { read?: WhaleReads } & Record<string, unknown>;
    if (!read) return { ...provenance, available: false, fetchedAt: snapshot.fetchedAt, stale: snapshot.stale, limit };
    const { whales, funding, fetchedAt } = whalesReport(read, limit);
    return { ...provenance, available: whales.available, whales: { ...whales, fetchedAt: fetchedAt.whales }, funding: { ...funding, fetchedAt: fetchedAt.funding }, fetchedAt: snapshot.fetchedAt, stale: snapshot.stale, limit };
  },
});
