/**
 * Prediction-market discovery: the events open on either venue (a cross-listed one once, with both
 * venues' markets), matched to the query and ranked by DISCOVERY_SCORE. A market nobody traded yet
 * is listed with `trades: 0` and a note, never dropped.
 */
import { round } from '../data/market.js';
import { JOIN_RULE, closesAt, hoursUntil, isOpen, iso, matchQuery, quoteKalshi, quotePolymarket, readEvents, type JoinedMarket } from './markets.js';
import type { PredictionSource } from './source.js';

const DAY = 86_400;
/** Trades read per listed market to count them. */
const TRADES_READ = 10_000;

export const DISCOVERY_SCORE = 'score = log10(1 + 24h volume USD) + 0.5·log10(1 + volume USD) + 0.5·log10(1 + liquidity USD) + 2/(1 + days to close): recent trading first, then total trading and book depth, sooner resolutions lifted; volume USD adds Kalshi\'s contracts at $1 each (a contract pays $1), 24h volume and liquidity are Polymarket\'s (the Kalshi adapter reads neither)';

export const DISCOVERY_METHODOLOGY = `prediction-discovery/v1: both venues' markets (Polymarket Gamma /markets, Kalshi /markets) joined into events (${JOIN_RULE}), those open on either venue kept; ${DISCOVERY_SCORE}; yes price = the mid of the venue's best bid and ask; trades counted from Polymarket's Data API /trades for the rows returned`;

export interface DiscoveryRow {
  readonly question: string;
  readonly status: 'open';
  readonly polymarket: {
    readonly id: string; readonly conditionId: string; readonly slug: string; readonly status: 'open' | 'closed';
    readonly yes: number | null; readonly bid: number | null; readonly ask: number | null;
    readonly volumeUsd: number; readonly volume24hUsd: number; readonly liquidityUsd: number; readonly closesAt: string;
  } | null;
  readonly kalshi: {
    readonly ticker: string; readonly eventTicker: string; readonly status: string;
    readonly yes: number | null; readonly bid: number | null; readonly ask: number | null;
    readonly volumeContracts: number; readonly openInterest: number; readonly closesAt: string; readonly ruleDifference: string;
  } | null;
  readonly yes: number | null;
  readonly volumeUsd: number;
  readonly volume24hUsd: number | null;
  readonly liquidityUsd: number | null;
  readonly closesAt: string;
  readonly hoursToClose: number;
  readonly trades: number | null;
  readonly traded: boolean;
  readonly note: string | null;
  readonly score: number;
}

export interface Discovery {
  readonly query: string | null;
  readonly terms: readonly string[];
  readonly venue: string | null;
  readonly openEvents: number;
  readonly matched: number;
  readonly rows: DiscoveryRow[];
  readonly queryRule: string;
}

/** The open events matching `query`, best scored first, `limit` of them with their trades counted. */
export async function discoverMarkets(source: PredictionSource, options: { query?: string | undefined; limit: number; now: number; signal?: AbortSignal | undefined }): Promise<Discovery> {
  const { now, signal } = options;
  const { events } = await readEvents(source, signal);
  const open = events.filter((e) => (e.polymarket && isOpen(e.polymarket, now)) || (e.kalshi && isOpen(e.kalshi, now)));
  const match = matchQuery(options.query, open);
  const scored = match.matched.map((e) => describe(e, now)).sort((a, b) => b.score - a.score);
  const rows = await Promise.all(scored.slice(0, options.limit).map(async (row) => {
    const trades = row.polymarket ? (await source.polymarket.trades(row.polymarket.conditionId, TRADES_READ, signal)).length : null;
    const traded = (trades ?? 0) > 0 || (row.kalshi?.volumeContracts ?? 0) > 0;
    const note = traded ? null : 'no trades yet: the price is the venue\'s quote, not a traded price';
    return { ...row, trades, traded, note };
  }));
  return { query: match.query, terms: match.terms, venue: match.venue, openEvents: open.length, matched: match.matched.length, rows, queryRule: match.rule };
}

function describe(e: JoinedMarket, now: number): Omit<DiscoveryRow, 'trades' | 'traded' | 'note'> {
  const pm = e.polymarket;
  const k = e.kalshi;
  const pmOpen = pm !== null && isOpen(pm, now);
  const kOpen = k !== null && isOpen(k, now);
  const pmQuote = pm && quotePolymarket(pm);
  const kQuote = k && quoteKalshi(k);
  const close = Math.min(...[pmOpen ? closesAt(pm) : Infinity, kOpen ? closesAt(k) : Infinity]);
  const volumeUsd = round((pm?.volumeNum ?? 0) + (k?.volume ?? 0), 2);
  const volume24hUsd = pm ? round(pm.volume24hr, 2) : null;
  const liquidityUsd = pm ? round(pm.liquidityNum, 2) : null;
  const days = Math.max(0, (close - now) / DAY);
  const score = Math.log10(1 + (volume24hUsd ?? 0)) + 0.5 * Math.log10(1 + volumeUsd) + 0.5 * Math.log10(1 + (liquidityUsd ?? 0)) + 2 / (1 + days);
  return {
    question: e.question,
    status: 'open',
    polymarket: pm && {
      id: pm.id, conditionId: pm.conditionId, slug: pm.slug, status: pmOpen ? 'open' : 'closed',
      yes: pmQuote!.mid, bid: pmQuote!.bid, ask: pmQuote!.ask,
      volumeUsd: round(pm.volumeNum, 2), volume24hUsd: round(pm.volume24hr, 2), liquidityUsd: round(pm.liquidityNum, 2), closesAt: iso(closesAt(pm)),
    },
    kalshi: k && {
      ticker: k.ticker, eventTicker: k.eventTicker, status: k.status,
      yes: kQuote!.mid, bid: kQuote!.bid, ask: kQuote!.ask,
      volumeContracts: round(k.volume, 2), openInterest: round(k.openInterest, 2), closesAt: iso(closesAt(k)), ruleDifference: k.subtitle,
    },
    yes: pmOpen ? pmQuote!.mid : (kQuote?.mid ?? null),
    volumeUsd, volume24hUsd, liquidityUsd,
    closesAt: iso(close),
    hoursToClose: hoursUntil(close, now),
    score: round(score, 4),
  };
}
