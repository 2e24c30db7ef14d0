/**
 * What the prediction engines share: both venues' markets read once and joined into events (a
 * cross-listed event once, with each venue's market), the free-text query matched to them, each
 * venue's quote read the same way, and the provenance every answer carries. Reads only the adapters.
 */
import { z } from 'zod';
import { round } from '../data/market.js';
import { isoTime } from '../core/outputs.js';
import { optionalShape } from '../core/free.js';
import type { GammaMarket, KalshiMarket, PredictionSource, VenueOrigin } from './source.js';
import { PREDICTION_PROVIDERS, type PredictionProvider, type PredictionVenues } from './venues.js';

export type VenueName = PredictionProvider;

const HOUR = 3_600;
/** A Kalshi market is the same event as a Polymarket one only with the same title and a close at most this far apart. */
export const JOIN_CLOSE_TOLERANCE_SECONDS = 24 * HOUR;

/** An event as the venues list it: its Polymarket market, its Kalshi market, or both. */
export interface JoinedMarket {
  readonly question: string;
  readonly polymarket: GammaMarket | null;
  readonly kalshi: KalshiMarket | null;
}

/** A venue's quote of yes, read the same way for both: bid, ask, mid (null where the venue gives none). */
export interface Quote {
  readonly bid: number | null;
  readonly ask: number | null;
  readonly mid: number | null;
}

export const JOIN_RULE = `a Kalshi market is joined to the Polymarket market with the same title (case, punctuation and spacing ignored) whose close is at most ${JOIN_CLOSE_TOLERANCE_SECONDS / HOUR} h apart; where a title has several such markets (a cup final every season), the one whose price history starts nearest Kalshi's open time, then the nearest close and price, one to one`;

/** Both venues' markets, every status. */
export async function readMarkets(source: PredictionSource, signal?: AbortSignal): Promise<{ polymarket: GammaMarket[]; kalshi: KalshiMarket[] }> {
  const [polymarket, kalshi] = await Promise.all([source.polymarket.markets({}, signal), source.kalshi.markets(undefined, signal)]);
  return { polymarket, kalshi };
}

/** Both venues' markets and the events they list (JOIN_RULE): where a title is ambiguous, the candidates' price histories are read for their start. */
export async function readEvents(source: PredictionSource, signal?: AbortSignal): Promise<{ polymarket: GammaMarket[]; kalshi: KalshiMarket[]; events: JoinedMarket[] }> {
  const { polymarket, kalshi } = await readMarkets(source, signal);
  const pairs = joinCandidates(polymarket, kalshi);
  const perKalshi = new Map<KalshiMarket, number>();
  const perPolymarket = new Map<GammaMarket, number>();
  for (const c of pairs) {
    perKalshi.set(c.k, (perKalshi.get(c.k) ?? 0) + 1);
    perPolymarket.set(c.pm, (perPolymarket.get(c.pm) ?? 0) + 1);
  }
  const ambiguous = new Set(pairs.filter((c) => perKalshi.get(c.k)! > 1 || perPolymarket.get(c.pm)! > 1).map((c) => c.pm));
  const starts = new Map<GammaMarket, number>();
  await Promise.all([...ambiguous].map(async (m) => {
    // A market's price history starts when it was listed (a day a point: only the first is wanted).
    const first = (await source.polymarket.pricesHistory(m.clobTokenIds[0]!, 'max', 1_440, signal))[0];
    if (first) starts.set(m, first.t);
  }));
  return { polymarket, kalshi, events: joinVenues(polymarket, kalshi, starts) };
}

/** Every listed event once: a Kalshi market joined to its Polymarket twin by JOIN_RULE (`starts`: listing times read for ambiguous titles), the rest alone. */
export function joinVenues(polymarket: readonly GammaMarket[], kalshi: readonly KalshiMarket[], starts: ReadonlyMap<GammaMarket, number> = new Map()): JoinedMarket[] {
  const candidates = joinCandidates(polymarket, kalshi).map((c) => {
    const start = starts.get(c.pm);
    const listedApart = start === undefined ? 0 : Math.abs(start - unix(c.k.openTime)) / HOUR;
    const pmMid = quotePolymarket(c.pm).mid;
    const kMid = quoteKalshi(c.k).mid;
    return { ...c, cost: listedApart + c.apart / JOIN_CLOSE_TOLERANCE_SECONDS + (pmMid !== null && kMid !== null ? Math.abs(pmMid - kMid) : 0.5) };
  });
  candidates.sort((a, b) => a.cost - b.cost);
  const pair = new Map<GammaMarket, KalshiMarket>();
  const taken = new Set<KalshiMarket>();
  for (const c of candidates) {
    if (pair.has(c.pm) || taken.has(c.k)) continue;
    pair.set(c.pm, c.k);
    taken.add(c.k);
  }
  return [
    ...polymarket.map((pm) => ({ question: pm.question, polymarket: pm, kalshi: pair.get(pm) ?? null })),
    ...kalshi.filter((k) => !taken.has(k)).map((k) => ({ question: k.title, polymarket: null, kalshi: k })),
  ];
}

/** Same title, closes at most JOIN_CLOSE_TOLERANCE_SECONDS apart. */
function joinCandidates(polymarket: readonly GammaMarket[], kalshi: readonly KalshiMarket[]): { pm: GammaMarket; k: KalshiMarket; apart: number }[] {
  const byTitle = new Map<string, GammaMarket[]>();
  for (const m of polymarket) byTitle.set(normalTitle(m.question), [...(byTitle.get(normalTitle(m.question)) ?? []), m]);
  return kalshi.flatMap((k) => (byTitle.get(normalTitle(k.title)) ?? [])
    .map((pm) => ({ pm, k, apart: Math.abs(unix(k.closeTime) - unix(pm.endDate)) }))
    .filter((c) => c.apart <= JOIN_CLOSE_TOLERANCE_SECONDS));
}

/** Polymarket's yes quote: Gamma's best bid and ask, the mid between them (the outcome price when the book is gone). */
export function quotePolymarket(m: GammaMarket): Quote {
  const mid = m.bestBid !== null && m.bestAsk !== null ? (m.bestBid + m.bestAsk) / 2 : (m.outcomePrices[0] ?? null);
  return { bid: m.bestBid, ask: m.bestAsk, mid: mid === null ? null : round(mid, 4) };
}

/** Kalshi's yes quote: its yes bid and ask, the mid between them (the last price when either is missing). */
export function quoteKalshi(m: KalshiMarket): Quote {
  const mid = m.yesBid !== null && m.yesAsk !== null ? (m.yesBid + m.yesAsk) / 2 : m.lastPrice;
  return { bid: m.yesBid, ask: m.yesAsk, mid: mid === null ? null : round(mid, 4) };
}

/** Open for trading at `now`: Polymarket's `active` and not closed; Kalshi's status open (or active). */
export function isOpen(m: GammaMarket | KalshiMarket, now: number): boolean {
  if ('conditionId' in m) return m.active && !m.closed && unix(m.endDate) > now;
  return (m.status === 'open' || m.status === 'active') && unix(m.closeTime) > now;
}

/** A closed Polymarket market's outcome from its settled prices (1 and 0); null while undecided. */
export function polymarketOutcome(m: GammaMarket): 'yes' | 'no' | null {
  if (!m.closed) return null;
  const yes = m.outcomePrices[0];
  if (yes === undefined) return null;
  return yes >= 0.99 ? 'yes' : yes <= 0.01 ? 'no' : null;
}

export function closesAt(m: GammaMarket | KalshiMarket): number {
  return unix('conditionId' in m ? m.endDate : m.closeTime);
}

export function unix(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

export function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** The venues' clock: now (the embedded venues stand at the service's clock, the real ones at theirs). */
export function venueNow(): number {
  return Math.floor(Date.now() / 1000);
}

/** A question that settles on a published price (an asset above or below a level), not on a reported result. */
export function isPriceQuestion(question: string): boolean {
  return /\b(above|below|over|under)\s+\$?\d[\d,.]*/i.test(question);
}

// --- the free-text query --------------------------------------------------------------------

export const PREDICTION_QUERY_MAX = 500;

/** `query`: free text matched to the markets' questions, trimmed; control characters refused (400). */
export const predictionQueryParam = z
  .string()
  .trim()
  .max(PREDICTION_QUERY_MAX)
  .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters')
  .optional()
  .describe(`What to look for, matched word by word to the markets' questions (up to ${PREDICTION_QUERY_MAX} characters); all markets when absent.`);

/** Words that say "prediction market" rather than which one: they narrow nothing. */
const GENERIC = new Set([
  'a', 'an', 'the', 'of', 'on', 'in', 'at', 'to', 'for', 'by', 'with', 'and', 'or', 'is', 'are', 'be', 'will', 'what', 'which', 'who', 'how', 'show', 'me', 'find', 'list', 'any', 'all', 'my',
  'prediction', 'predictions', 'market', 'markets', 'bet', 'bets', 'betting', 'odds', 'event', 'events', 'contract', 'contracts', 'outcome', 'outcomes',
  'hot', 'hottest', 'top', 'best', 'now', 'right', 'today', 'current', 'currently', 'open', 'active', 'upcoming', 'new', 'latest', 'most', 'biggest', 'big',
]);
const VENUE_WORDS: Record<string, VenueName> = Object.fromEntries(PREDICTION_PROVIDERS.map((p) => [p, p]));

export interface QueryMatch<T> {
  readonly query: string | null;
  /** The words that narrowed the list (generic ones dropped); empty: every market. */
  readonly terms: readonly string[];
  /** A venue the query named: only markets listed there. */
  readonly venue: VenueName | null;
  readonly considered: number;
  readonly matched: T[];
  readonly rule: string;
}

export const QUERY_RULE = 'the query is split into words (lower case, a plural\'s final s dropped); words that only say "prediction market" (market, odds, bet, will, hottest, ...) are ignored; a venue\'s name keeps the markets listed there; a market matches when its question holds at least one remaining word, the most words matched first; no remaining word keeps every market';

/** The markets whose question holds the query's words (QUERY_RULE), the best matched first. */
export function matchQuery<T extends JoinedMarket>(query: string | undefined, markets: readonly T[]): QueryMatch<T> {
  const words = query ? wordsOf(query) : [];
  const venue = words.map((w) => VENUE_WORDS[w]).find(Boolean) ?? null;
  const terms = [...new Set(words.filter((w) => !GENERIC.has(w) && !VENUE_WORDS[w]))];
  const onVenue = venue ? markets.filter((m) => m[venue] !== null) : [...markets];
  const base = { query: query || null, terms, venue, considered: markets.length, rule: QUERY_RULE };
  if (!terms.length) return { ...base, matched: onVenue };
  const scored = onVenue.map((m) => {
    const own = new Set(wordsOf(m.question));
    return { m, hits: terms.filter((t) => own.has(t)).length };
  });
  return { ...base, matched: scored.filter((s) => s.hits > 0).sort((a, b) => b.hits - a.hits).map((s) => s.m) };
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9$]+/).filter(Boolean).map((w) => w.replace(/^\$/, '')).filter(Boolean).map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

function normalTitle(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

// --- provenance -----------------------------------------------------------------------------

/** Where an answer's figures come from: the venues read, each adapter's URL, and the venues' clock. */
export const predictionProvenanceShape = {
  source: z.string().describe('The venues read and how (embedded: served by this process over its world; configured: the real service).'),
  origins: z.record(z.string(), z.string()).describe('Each adapter read ("polymarket gamma", "polymarket clob", "polymarket data", "kalshi trade-api/v2") and its URL.'),
  asOf: z.object({ timestamp: isoTime }).describe('The venues\' clock when they were read.'),
  methodology: z.string(),
};

/** The query as an answer echoes it: as given, the words that narrowed it, and the matching rule. */
export const queryEchoShape = { query: z.string().nullable(), terms: z.array(z.string()).describe('The query words that narrowed the list.'), queryRule: z.string() };

/**
 * What every paid prediction answer starts with: where it came from, whether it found anything
 * (an answer that found nothing is `available: false` with its reason, and never sold) and the query as read.
 */
export const predictionAnswerShape = {
  ...predictionProvenanceShape,
  available: z.boolean().describe('false: nothing to answer with (reason says why); never charged.'),
  reason: z.string().optional().describe('Why, when available is false.'),
  ...queryEchoShape,
};

/** `available` and `reason` of an answer: available when no reason stands against it. */
export function availability(reason: string | null): { available: boolean; reason?: string } {
  return reason === null ? { available: true } : { available: false, reason };
}

/** Why a query-narrowed answer holds no row: the words no open market's question names, or no market open at all. */
export function nothingMatched(rows: number, terms: readonly string[], what = 'open market'): string | null {
  if (rows) return null;
  return terms.length ? `no ${what}'s question names ${terms.join(', ')}` : `no ${what} on the venues read`;
}

/** The same, each field optional: a free tool's answer has only the envelope when cold or off. */
export const freePredictionProvenanceShape = optionalShape(predictionProvenanceShape);

/** Why a free prediction tool has nothing (its snapshot's detail). */
export const NO_PREDICTION_VENUES = 'no prediction-market venues on this deployment (PREDICTION=off)';

export function predictionProvenance(venues: PredictionVenues, read: readonly VenueName[], now: number, methodology: string) {
  const origins: VenueOrigin[] = [...(read.includes('polymarket') ? venues.polymarket.origins() : []), ...(read.includes('kalshi') ? venues.kalshi.origins() : [])];
  return {
    source: read.map((v) => `${v} (${venues.kind[v]})`).join(', '),
    origins: Object.fromEntries(origins.map((o) => [`${o.venue} ${o.api}`, o.url])),
    asOf: { timestamp: iso(now) },
    methodology,
  };
}

/** Hours from `now` to `t`, one decimal. */
export function hoursUntil(t: number, now: number): number {
  return round((t - now) / HOUR, 1);
}
