/**
 * The world's second prediction venue in Kalshi's trade API v2 shapes: `/markets` (paged with a
 * cursor; `status`, `event_ticker`, `tickers`), `/markets/{ticker}` and
 * `/markets/{ticker}/orderbook`. Prices are dollar strings (`yes_bid_dollars`, `last_price_dollars`),
 * counts fixed-point strings (`volume_fp`); the order book holds bids only, yes and no, best last
 * (a yes ask is 1 minus the best no bid). It lists the cross-listed events, priced with the lag
 * the world drew for them, closing at their own (shifted) time.
 */
import type { PredictionEvent } from './events.js';
import { venueLagSeconds, venuePrice, type PredictionTrade } from './trading.js';
import { iso, MAX_PAGE, TICK, type VenueAnswer } from './venue.js';

interface Listed {
  readonly event: PredictionEvent;
  readonly ticker: string;
  readonly eventTicker: string;
  readonly closesAt: number;
  readonly lag: number;
}

export class KalshiVenue {
  private readonly markets: Listed[];
  /** Each market's trades, in time order (read per market on every listing, never by scanning them all). */
  private readonly tradesOf = new Map<string, PredictionTrade[]>();

  constructor(
    seed: string,
    events: readonly PredictionEvent[],
    trades: readonly PredictionTrade[],
    private readonly priceAt: (asset: string, time: number) => number,
  ) {
    this.markets = events.filter((e) => e.crossListing).map((event) => ({
      event, ticker: `SIB-${event.id.toUpperCase()}`, eventTicker: `SIBE-${event.id.toUpperCase()}`,
      closesAt: event.closesAt + event.crossListing!.closeShiftSeconds, lag: venueLagSeconds(seed, event.id),
    }));
    for (const m of this.markets) this.tradesOf.set(m.event.id, []);
    for (const t of trades) if (t.venue === 'kalshi') this.tradesOf.get(t.eventId)?.push(t);
  }

  handle(path: string, query: URLSearchParams, now: number): VenueAnswer {
    const listed = this.markets.filter((m) => m.event.opensAt <= now);
    const book = /^\/markets\/([A-Z0-9-]+)\/orderbook$/.exec(path);
    if (book) {
      const m = listed.find((x) => x.ticker === book[1]);
      return m ? { status: 200, body: { orderbook_fp: this.orderbook(m, now) } } : notFound(book[1]!);
    }
    const one = /^\/markets\/([A-Z0-9-]+)$/.exec(path);
    if (one) {
      const m = listed.find((x) => x.ticker === one[1]);
      return m ? { status: 200, body: { market: this.market(m, now) } } : notFound(one[1]!);
    }
    if (path !== '/markets') return notFound(path);
    let rows = listed;
    const status = query.get('status');
    if (status) rows = rows.filter((m) => this.status(m, now) === status || (status === 'closed' && this.status(m, now) === 'settled'));
    const eventTicker = query.get('event_ticker');
    if (eventTicker) rows = rows.filter((m) => m.eventTicker === eventTicker);
    const tickers = query.get('tickers');
    if (tickers) rows = rows.filter((m) => tickers.split(',').includes(m.ticker));
    const limit = Math.min(MAX_PAGE, Math.max(1, Number(query.get('limit') ?? 100) || 100));
    const start = Math.max(0, Number(query.get('cursor') ?? 0) || 0);
    const pageRows = rows.slice(start, start + limit);
    return { status: 200, body: { markets: pageRows.map((m) => this.market(m, now)), cursor: start + limit < rows.length ? String(start + limit) : '' } };
  }

  private status(m: Listed, now: number): 'open' | 'closed' | 'settled' {
    if (now < m.closesAt) return 'open';
    return now >= Math.max(m.closesAt, m.event.closesAt) ? 'settled' : 'closed';
  }

  private yes(m: Listed, time: number): number {
    return venuePrice(m.event, 'kalshi', time, this.priceAt, m.lag);
  }

  private market(m: Listed, now: number) {
    const status = this.status(m, now);
    const yes = this.yes(m, now);
    const open = status === 'open';
    const traded = this.tradesOf.get(m.event.id)!.filter((t) => t.time <= now);
    const last = traded.at(-1);
    const contracts = traded.reduce((s, t) => s + t.shares, 0);
    return {
      ticker: m.ticker, event_ticker: m.eventTicker, title: m.event.title, subtitle: m.event.crossListing!.ruleDifference, status,
      open_time: iso(m.event.opensAt), close_time: iso(m.closesAt),
      yes_bid_dollars: open ? dollars(yes - TICK) : null, yes_ask_dollars: open ? dollars(yes + TICK) : null,
      no_bid_dollars: open ? dollars(1 - yes - TICK) : null, no_ask_dollars: open ? dollars(1 - yes + TICK) : null,
      last_price_dollars: last ? dollars(last.outcome === 'yes' ? last.price : 1 - last.price) : null,
      volume_fp: contracts.toFixed(2), open_interest_fp: contracts.toFixed(2),
      ...(status === 'settled' && { result: m.event.outcome ? 'yes' : 'no' }),
    };
  }

  /** Bids only, yes and no, best last: five levels a tick apart on each side while open. */
  private orderbook(m: Listed, now: number) {
    if (this.status(m, now) !== 'open') return { yes_dollars: [], no_dollars: [] };
    const yes = this.yes(m, now);
    const side = (best: number) => [5, 4, 3, 2, 1].map((k) => [dollars(best - (k - 1) * TICK), (3_000 / k).toFixed(2)] as [string, string]).filter(([p]) => Number(p) > 0);
    return { yes_dollars: side(yes - TICK), no_dollars: side(1 - yes - TICK) };
  }
}

function dollars(x: number): string {
  return Math.min(0.99, Math.max(0.01, x)).toFixed(4);
}

function notFound(what: string): VenueAnswer {
  return { status: 404, body: { error: { code: 'not_found', message: `not found: ${what}` } } };
}
