/**
 * The one way engines read prediction venues: an adapter per provider over its documented HTTP
 * API (Polymarket's Gamma, CLOB and Data APIs; Kalshi's trade API v2), pointed at the embedded
 * venues by default and at the real services by configuration. Answers are parsed into the
 * types below (Gamma's JSON-string fields decoded, Kalshi's dollar strings as numbers); a venue
 * that does not answer, or answers outside its documented shape, is `upstream_unavailable`
 * (503, nothing charged), never an empty list.
 */
import { SibylError } from '../core/errors.js';

export interface PredictionUrls {
  readonly polymarketGamma: string;
  readonly polymarketClob: string;
  readonly polymarketData: string;
  readonly kalshi: string;
}

/** A Polymarket market as Gamma lists it, its JSON strings decoded. */
export interface GammaMarket {
  readonly id: string;
  readonly conditionId: string;
  readonly question: string;
  readonly slug: string;
  readonly endDate: string;
  readonly active: boolean;
  readonly closed: boolean;
  readonly liquidityNum: number;
  readonly volumeNum: number;
  readonly volume24hr: number;
  readonly bestBid: number | null;
  readonly bestAsk: number | null;
  readonly lastTradePrice: number | null;
  readonly oneDayPriceChange: number | null;
  readonly outcomes: readonly string[];
  readonly outcomePrices: readonly number[];
  readonly clobTokenIds: readonly string[];
}

export interface BookLevel {
  readonly price: number;
  readonly size: number;
}

/** A CLOB order book, bids best first and asks best first (the API's order is not relied on). */
export interface ClobBook {
  readonly tokenId: string;
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
  readonly tickSize: number;
  readonly lastTradePrice: number | null;
  readonly timestamp: number;
}

export interface DataTrade {
  readonly proxyWallet: string;
  readonly side: string;
  readonly asset: string;
  readonly conditionId: string;
  readonly size: number;
  readonly price: number;
  /** Unix seconds. */
  readonly timestamp: number;
  readonly outcome: string;
  readonly outcomeIndex: number;
  readonly transactionHash: string;
}

export interface DataPosition {
  readonly proxyWallet: string;
  readonly asset: string;
  readonly conditionId: string;
  readonly size: number;
  readonly avgPrice: number;
  readonly currentValue: number;
  readonly cashPnl: number;
  readonly curPrice: number;
  readonly outcome: string;
  readonly outcomeIndex: number;
  readonly redeemable: boolean;
}

export interface Holder {
  readonly proxyWallet: string;
  readonly amount: number;
  readonly outcomeIndex: number;
}

/** A Kalshi market, dollar strings as numbers (null where the venue gives none). */
export interface KalshiMarket {
  readonly ticker: string;
  readonly eventTicker: string;
  readonly title: string;
  readonly subtitle: string;
  readonly status: string;
  readonly openTime: string;
  readonly closeTime: string;
  readonly yesBid: number | null;
  readonly yesAsk: number | null;
  readonly noBid: number | null;
  readonly noAsk: number | null;
  readonly lastPrice: number | null;
  readonly volume: number;
  readonly openInterest: number;
  readonly result: 'yes' | 'no' | null;
}

/** A Kalshi book: bids only on each side, best first (a YES ask is 1 − the best NO bid). */
export interface KalshiBook {
  readonly yes: readonly BookLevel[];
  readonly no: readonly BookLevel[];
}

/** Where each answer came from, for provenance. */
export interface VenueOrigin {
  readonly venue: 'polymarket' | 'kalshi';
  readonly api: string;
  readonly url: string;
}

export class PolymarketClient {
  constructor(private readonly urls: Pick<PredictionUrls, 'polymarketGamma' | 'polymarketClob' | 'polymarketData'>, private readonly timeoutMs = 10_000) {}

  origins(): VenueOrigin[] {
    return [
      { venue: 'polymarket', api: 'gamma', url: this.urls.polymarketGamma },
      { venue: 'polymarket', api: 'clob', url: this.urls.polymarketClob },
      { venue: 'polymarket', api: 'data', url: this.urls.polymarketData },
    ];
  }

  /** Every market matching `filter` (Gamma's query: active, closed), read a page of 500 at a time. */
  async markets(filter: { active?: boolean; closed?: boolean } = {}, signal?: AbortSignal): Promise<GammaMarket[]> {
    const all: GammaMarket[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const query = { limit: String(PAGE), offset: String(offset), ...(filter.active !== undefined && { active: String(filter.active) }), ...(filter.closed !== undefined && { closed: String(filter.closed) }) };
      const page = await getJson(this.urls.polymarketGamma, '/markets', query, this.timeoutMs, signal);
      if (!Array.isArray(page)) throw malformed('polymarket gamma /markets', 'not a list');
      all.push(...page.map(gammaMarket));
      if (page.length < PAGE || all.length >= MAX_ROWS) return all;
    }
  }

  async book(tokenId: string, signal?: AbortSignal): Promise<ClobBook> {
    const b = (await getJson(this.urls.polymarketClob, '/book', { token_id: tokenId }, this.timeoutMs, signal)) as Record<string, unknown>;
    const levels = (x: unknown) => (Array.isArray(x) ? x : []).map((l: { price: unknown; size: unknown }) => ({ price: num(l.price), size: num(l.size) }));
    return {
      tokenId,
      bids: levels(b.bids).sort((p, q) => q.price - p.price),
      asks: levels(b.asks).sort((p, q) => p.price - q.price),
      tickSize: num(b.tick_size ?? 0.01),
      lastTradePrice: b.last_trade_price == null ? null : num(b.last_trade_price),
      timestamp: Math.floor(num(b.timestamp ?? 0) / 1000),
    };
  }

  /** A token's price history (`interval` 1d, 1w or max; `fidelity` minutes per point). */
  async pricesHistory(tokenId: string, interval: '1d' | '1w' | 'max', fidelity: number, signal?: AbortSignal): Promise<{ t: number; p: number }[]> {
    const body = (await getJson(this.urls.polymarketClob, '/prices-history', { market: tokenId, interval, fidelity: String(fidelity) }, this.timeoutMs, signal)) as { history?: unknown };
    if (!Array.isArray(body.history)) throw malformed('polymarket clob /prices-history', 'no history');
    return body.history.map((h: { t: unknown; p: unknown }) => ({ t: num(h.t), p: num(h.p) }));
  }

  /** A market's trades (newest first), up to `max`, read 500 at a time. */
  async trades(conditionId: string, max = 5_000, signal?: AbortSignal): Promise<DataTrade[]> {
    return this.pages('/trades', { market: conditionId }, max, dataTrade, signal);
  }

  /** An account's trades (newest first), up to `max`. */
  async tradesOf(user: string, max = 1_000, signal?: AbortSignal): Promise<DataTrade[]> {
    return this.pages('/trades', { user }, max, dataTrade, signal);
  }

  async positions(user: string, signal?: AbortSignal): Promise<DataPosition[]> {
    const rows = await getJson(this.urls.polymarketData, '/positions', { user }, this.timeoutMs, signal);
    if (!Array.isArray(rows)) throw malformed('polymarket data /positions', 'not a list');
    return rows.map((p: Record<string, unknown>) => ({
      proxyWallet: str(p.proxyWallet), asset: str(p.asset), conditionId: str(p.conditionId), size: num(p.size), avgPrice: num(p.avgPrice),
      currentValue: num(p.currentValue), cashPnl: num(p.cashPnl), curPrice: num(p.curPrice), outcome: str(p.outcome), outcomeIndex: num(p.outcomeIndex), redeemable: p.redeemable === true,
    }));
  }

  /** The largest holders of each outcome of a market. */
  async holders(conditionId: string, limit = 20, signal?: AbortSignal): Promise<Holder[]> {
    const rows = await getJson(this.urls.polymarketData, '/holders', { market: conditionId, limit: String(limit) }, this.timeoutMs, signal);
    if (!Array.isArray(rows)) throw malformed('polymarket data /holders', 'not a list');
    return rows.flatMap((t: { holders?: unknown }) => (Array.isArray(t.holders) ? t.holders : []).map((h: Record<string, unknown>) => ({ proxyWallet: str(h.proxyWallet), amount: num(h.amount), outcomeIndex: num(h.outcomeIndex) })));
  }

  private async pages<T>(path: string, query: Record<string, string>, max: number, parse: (row: Record<string, unknown>) => T, signal?: AbortSignal): Promise<T[]> {
    const all: T[] = [];
    for (let offset = 0; all.length < max; offset += PAGE) {
      const page = await getJson(this.urls.polymarketData, path, { ...query, limit: String(PAGE), offset: String(offset) }, this.timeoutMs, signal);
      if (!Array.isArray(page)) throw malformed(`polymarket data ${path}`, 'not a list');
      all.push(...page.map(parse));
      if (page.length < PAGE) break;
    }
    return all.slice(0, max);
  }
}

export class KalshiClient {
  constructor(private readonly url: string, private readonly timeoutMs = 10_000) {}

  origins(): VenueOrigin[] {
    return [{ venue: 'kalshi', api: 'trade-api/v2', url: this.url }];
  }

  /** Every market with `status` (open, closed, settled; all by default), following the cursor. */
  async markets(status?: 'open' | 'closed' | 'settled', signal?: AbortSignal): Promise<KalshiMarket[]> {
    const all: KalshiMarket[] = [];
    for (let cursor = ''; ; ) {
      const body = (await getJson(this.url, '/markets', { limit: String(PAGE), ...(status && { status }), ...(cursor && { cursor }) }, this.timeoutMs, signal)) as { markets?: unknown; cursor?: unknown };
      if (!Array.isArray(body.markets)) throw malformed('kalshi /markets', 'no markets');
      all.push(...body.markets.map(kalshiMarket));
      cursor = typeof body.cursor === 'string' ? body.cursor : '';
      if (!cursor || all.length >= MAX_ROWS) return all;
    }
  }

  async orderbook(ticker: string, signal?: AbortSignal): Promise<KalshiBook> {
    const body = (await getJson(this.url, `/markets/${encodeURIComponent(ticker)}/orderbook`, {}, this.timeoutMs, signal)) as { orderbook_fp?: { yes_dollars?: unknown; no_dollars?: unknown } };
    if (!body.orderbook_fp) throw malformed('kalshi /orderbook', 'no orderbook_fp');
    // Best last in the API: reversed to best first.
    const side = (x: unknown) => (Array.isArray(x) ? x : []).map(([p, s]: [unknown, unknown]) => ({ price: num(p), size: num(s) })).sort((a, b) => b.price - a.price);
    return { yes: side(body.orderbook_fp.yes_dollars), no: side(body.orderbook_fp.no_dollars) };
  }
}

/** Both venues' adapters. */
export interface PredictionSource {
  readonly polymarket: PolymarketClient;
  readonly kalshi: KalshiClient;
}

export function predictionSource(urls: PredictionUrls, timeoutMs?: number): PredictionSource {
  return { polymarket: new PolymarketClient(urls, timeoutMs), kalshi: new KalshiClient(urls.kalshi, timeoutMs) };
}

/** Rows read per page (the venues cap at 1,000). */
const PAGE = 500;
/** A bound on what one answer reads from a venue. */
const MAX_ROWS = 10_000;

async function getJson(base: string, path: string, query: Record<string, string>, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
  const url = `${base}${path}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`;
  const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.any(signals), headers: { accept: 'application/json' } });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new SibylError('upstream_unavailable', `prediction venue ${base} did not answer ${path} (${(err as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : (err as Error).message}); nothing was charged`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new SibylError('upstream_unavailable', `prediction venue ${base} answered ${path} with HTTP ${res.status}; nothing was charged`);
  }
  try {
    return await res.json();
  } catch {
    throw malformed(`${base}${path}`, 'not JSON');
  }
}

function malformed(what: string, why: string): SibylError {
  return new SibylError('upstream_unavailable', `prediction venue answer ${what} is not in its documented shape (${why}); nothing was charged`);
}

function num(x: unknown): number {
  const n = typeof x === 'number' ? x : Number(x);
  if (!Number.isFinite(n)) throw malformed('field', `not a number: ${String(x).slice(0, 40)}`);
  return n;
}

function str(x: unknown): string {
  return typeof x === 'string' ? x : String(x ?? '');
}

/** Gamma's `outcomes`, `outcomePrices` and `clobTokenIds` are JSON strings. */
function jsonList(x: unknown, field: string): unknown[] {
  let parsed = x;
  try {
    if (typeof x === 'string') parsed = JSON.parse(x) as unknown;
  } catch {
    throw malformed('polymarket gamma market', `${field} is not JSON`);
  }
  if (!Array.isArray(parsed)) throw malformed('polymarket gamma market', `${field} is not a JSON list`);
  return parsed;
}

function gammaMarket(m: Record<string, unknown>): GammaMarket {
  const nullable = (x: unknown) => (x == null ? null : num(x));
  return {
    id: str(m.id), conditionId: str(m.conditionId), question: str(m.question), slug: str(m.slug), endDate: str(m.endDate),
    active: m.active === true, closed: m.closed === true,
    liquidityNum: num(m.liquidityNum ?? 0), volumeNum: num(m.volumeNum ?? 0), volume24hr: num(m.volume24hr ?? 0),
    bestBid: nullable(m.bestBid), bestAsk: nullable(m.bestAsk), lastTradePrice: nullable(m.lastTradePrice), oneDayPriceChange: nullable(m.oneDayPriceChange),
    outcomes: jsonList(m.outcomes, 'outcomes').map(str), outcomePrices: jsonList(m.outcomePrices, 'outcomePrices').map(num), clobTokenIds: jsonList(m.clobTokenIds, 'clobTokenIds').map(str),
  };
}

function dataTrade(t: Record<string, unknown>): DataTrade {
  return {
    proxyWallet: str(t.proxyWallet), side: str(t.side), asset: str(t.asset), conditionId: str(t.conditionId), size: num(t.size), price: num(t.price),
    timestamp: num(t.timestamp), outcome: str(t.outcome), outcomeIndex: num(t.outcomeIndex), transactionHash: str(t.transactionHash),
  };
}

function kalshiMarket(m: Record<string, unknown>): KalshiMarket {
  const dollars = (x: unknown) => (x == null || x === '' ? null : num(x));
  return {
    ticker: str(m.ticker), eventTicker: str(m.event_ticker), title: str(m.title), subtitle: str(m.subtitle ?? ''), status: str(m.status),
    openTime: str(m.open_time), closeTime: str(m.close_time),
    yesBid: dollars(m.yes_bid_dollars), yesAsk: dollars(m.yes_ask_dollars), noBid: dollars(m.no_bid_dollars), noAsk: dollars(m.no_ask_dollars),
    lastPrice: dollars(m.last_price_dollars), volume: num(m.volume_fp ?? 0), openInterest: num(m.open_interest_fp ?? 0),
    result: m.result === 'yes' || m.result === 'no' ? m.result : null,
  };
}
