/** perp-smart-money: perp traders with a real record (realised PnL over fills, not account size), their positions, and what they opened and closed in the window (smart-money.ts). */
import { z } from 'zod';
import { SibylError } from '../core/errors.js';
import { isoTime } from '../core/outputs.js';
import { limitParam, TOOL_TIMEFRAMES } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { usd } from '../core/summary.js';
import { PERIODS } from '../data/periods.js';
import { PERP_SMART_MONEY_METHODOLOGY, SM_MIN_CLOSED, SM_MIN_REALISED_USD, SM_MIN_T, SM_MIN_WIN_RATE, perpSmartMoney } from './smart-money.js';
import { perpProvenance, perpProvenanceShape, perpVenue } from './venue.js';

/** The windows a trader's recent fills are read over: the timeframes track_whales sells it under. */
const PERP_WINDOWS = TOOL_TIMEFRAMES;

const side = z.enum(['long', 'short']);

export const perpSmartMoneySkill = defineSkill({
  id: 'perp-smart-money',
  title: 'Perp smart money',
  description: `Perpetual-futures (perps) traders on Hyperliquid with a real track record, read from their fills, not their account size: at least ${SM_MIN_CLOSED} closed trades, a win rate of ${SM_MIN_WIN_RATE * 100}% or more, $${SM_MIN_REALISED_USD.toLocaleString('en-US')}+ realised after fees and a t-statistic of per-trade returns of ${SM_MIN_T}+ (a few lucky trades never make a record); market makers set apart, accounts the venue cannot read reported. Each trader's positions now and what it opened and closed over the window, and the coins they hold net long or short.`,
  tags: ['perps', 'perpetuals', 'futures', 'hyperliquid', 'smart-money', 'positions', 'derivatives', 'traders', 'track-record'],
  examples: ['What are smart perp traders long?', 'What did profitable Hyperliquid traders open on ETH this week?'],
  input: z.strictObject({
    timeperiod: z.enum(PERP_WINDOWS).default('24h').describe('The window of opened and closed trades reported.'),
    coin: z.string().regex(/^[A-Za-z0-9]{1,12}$/, 'a perp coin as the venue lists it (BTC, ETH, ...)').transform((c) => c.toUpperCase()).optional().describe('Only this coin\'s positions and trades (BTC, ETH, ...).'),
    limit: limitParam(1, 100, 10),
  }),
  price: '0.50',
  toolName: 'perp_smart_money',
  surfaces: ['a2a', 'agent'],
  needs: ['perps'],
  output: z.object({
    ...perpProvenanceShape,
    available: z.boolean().describe('false: no trader meets the record (reason says why); never charged.'),
    reason: z.string().optional(),
    asOf: isoTime.describe('When the venue was read.'),
    timeperiod: z.enum(PERP_WINDOWS),
    window: z.object({ from: isoTime, to: isoTime }),
    coin: z.string().nullable(),
    criteria: z.object({ minClosedTrades: z.number().int(), minWinRate: z.number(), minRealisedUsd: z.number(), minTStat: z.number() }),
    candidatesRead: z.number().int().describe('Leaderboard accounts whose fills were read.'),
    marketMakersExcluded: z.number().int(),
    unreadTraders: z.array(z.object({ address: z.string(), reason: z.string() })).describe('Accounts the venue could not read: counted nowhere.'),
    count: z.number().int(),
    traders: z.array(z.object({
      address: z.string(), closedTrades: z.number().int(), wins: z.number().int(), winRate: z.number(), realisedUsd: z.number(), meanReturnPct: z.number(), tStat: z.number().nullable(),
      accountValueUsd: z.number().nullable(),
      positions: z.array(z.object({ coin: z.string(), side, size: z.number(), entryPx: z.number(), unrealizedPnlUsd: z.number() })),
      opened: z.array(z.object({ coin: z.string(), side, size: z.number(), px: z.number(), time: isoTime })).describe('Opening fills in the window.'),
      closed: z.array(z.object({ coin: z.string(), size: z.number(), px: z.number(), resultUsd: z.number(), time: isoTime, liquidated: z.boolean() })).describe('Closing fills in the window, result net of fees.'),
    })).describe('Most realised profit first.'),
    coins: z.array(z.object({ coin: z.string(), longs: z.number().int(), shorts: z.number().int(), netUsd: z.number() })).describe('The smart traders\' open positions per coin, net notional at entry (long +).'),
  }),
  summarize: (r) => {
    if (!r.available) return `No perp trader meets the record: ${r.reason}.`;
    const lean = (r.coins as { coin: string; netUsd: number }[]).slice(0, 3).map((c) => `${c.coin} net ${c.netUsd >= 0 ? 'long' : 'short'} ${usd(Math.abs(c.netUsd))}`).join(', ');
    return `${r.count} perp traders with a record on Hyperliquid${r.coin ? ` holding or trading ${r.coin}` : ''}${lean ? `; ${lean}` : ''}.`;
  },
  async admit(input, ctx) {
    const venue = perpVenue(ctx);
    // The venue's listing is read before any 402: a venue that is down is a 503, a coin it does not list a 404, neither offered for payment.
    const listed = await venue.assets();
    if (input.coin && !listed.some((a) => a.coin === input.coin)) {
      throw new SibylError('token_not_found', `coin: ${input.coin} is not listed on the perp venue (${venue.urls.api}); nothing was charged`);
    }
  },
  async handler(input, ctx) {
    const venue = perpVenue(ctx);
    const to = Math.floor(Date.now() / 1000);
    const since = to - PERIODS[input.timeperiod].seconds;
    const found = await perpSmartMoney(venue, { since, limit: input.coin ? 100 : input.limit });
    const coin = input.coin ?? null;
    const touches = (t: (typeof found.traders)[number]) => !coin || t.positions.some((p) => p.coin === coin) || t.opened.some((f) => f.coin === coin) || t.closed.some((f) => f.coin === coin);
    const only = <T extends { coin: string }>(xs: readonly T[]) => (coin ? xs.filter((x) => x.coin === coin) : [...xs]);
    const traders = found.traders.filter(touches).slice(0, input.limit).map((t) => ({ ...t, positions: only(t.positions), opened: only(t.opened), closed: only(t.closed) }));
    const reason = traders.length ? undefined : found.traders.length ? `none of the ${found.traders.length} traders with a record holds or traded ${coin} in the last ${input.timeperiod}` : `none of the ${found.candidatesRead} leaderboard accounts read meets the record`;
    return {
      ...perpProvenance(venue, PERP_SMART_MONEY_METHODOLOGY),
      available: traders.length > 0, ...(reason && { reason }),
      asOf: new Date(to * 1000).toISOString(),
      timeperiod: input.timeperiod,
      window: { from: new Date(since * 1000).toISOString(), to: new Date(to * 1000).toISOString() },
      coin,
      criteria: { minClosedTrades: SM_MIN_CLOSED, minWinRate: SM_MIN_WIN_RATE, minRealisedUsd: SM_MIN_REALISED_USD, minTStat: SM_MIN_T },
      candidatesRead: found.candidatesRead, marketMakersExcluded: found.marketMakersExcluded, unreadTraders: found.unreadTraders,
      count: traders.length, traders,
      coins: only(found.coins.filter((c) => !coin || c.coin === coin)),
    };
  },
});
