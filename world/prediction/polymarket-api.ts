/**
 * The world's first prediction venue in Polymarket's documented shapes: Gamma (`/markets`, `/markets/{id}`, `/events`), CLOB (`/book`, `/midpoint`,
 * `/prices-history`) and Data (`/trades`, `/positions`, `/holders`), answered from the events
 * and trades the world drew, as they stand at `now`. A request is a path and its query; the
 * answer a status and a JSON body, so a loopback server (or a test) serves it as it is. Gamma's
 * `outcomes`, `outcomePrices` and `clobTokenIds` are JSON strings, as clients expect.
 */
import { createHash } from 'node:crypto';
import type { PredictionEvent } from './events.js';
import { venuePrice, type PredictionTrade } from './trading.js';
import { iso, MAX_PAGE, TICK, type VenueAnswer } from './venue.js';

const DAY = 86_400;

/** An event as this venue lists it: its market id, condition id and the yes and no token ids. */
interface Listed {
  readonly event: PredictionEvent;
  readonly id: string;
  readonly conditionId: string;
  readonly tokens: [string, string];
}

export class PolymarketVenue {
  private readonly markets: Listed[];
  private readonly byCondition = new Map<string, Listed>();
  private readonly byToken = new Map<string, { market: Listed; index: 0 | 1 }>();
  private readonly byEvent = new Map<string, Listed>();
  private readonly trades: readonly PredictionTrade[];
  /** Each market's trades, in time order. */
  private readonly tradesOf = new Map<string, PredictionTrade[]>();

  constructor(
    seed: string,
    events: readonly PredictionEvent[],
    trades: readonly PredictionTrade[],
    private readonly priceAt: (asset: string, time: number) => number,
  ) {
    this.markets = events.map((event, i) => {
      const h = (what: string) => createHash('sha256').update(`${seed}:polymarket:${event.id}:${what}`).digest('hex');
      return { event, id: String(500_000 + i), conditionId: `0x${h('condition')}`, tokens: [BigInt(`0x${h('yes')}`).toString(), BigInt(`0x${h('no')}`).toString()] };
    });
    for (const m of this.markets) {
      this.byCondition.set(m.conditionId, m);
      this.byEvent.set(m.event.id, m);
      this.tradesOf.set(m.event.id, []);
      m.tokens.forEach((t, index) => this.byToken.set(t, { market: m, index: index as 0 | 1 }));
    }
    this.trades = trades.filter((t) => t.venue === 'polymarket');
    for (const t of this.trades) this.tradesOf.get(t.eventId)?.push(t);
  }

  /** Answers one request as the venue stands at `now` (unix seconds). */
  handle(path: string, query: URLSearchParams, now: number): VenueAnswer {
    const listed = this.markets.filter((m) => m.event.opensAt <= now);
    const market = /^\/markets\/(\d+)$/.exec(path);
    if (market) {
      const m = listed.find((x) => x.id === market[1]);
      return m ? ok(this.gammaMarket(m, now)) : notFound(`market ${market[1]}`);
    }
    switch (path) {
      case '/markets': {
        let rows = listed;
        if (query.has('closed')) rows = rows.filter((m) => (m.event.closesAt <= now) === (query.get('closed') === 'true'));
        if (query.has('active')) rows = rows.filter((m) => (m.event.closesAt > now) === (query.get('active') === 'true'));
        if (query.has('id')) rows = rows.filter((m) => query.getAll('id').includes(m.id));
        const { limit, offset } = page(query, 100);
        return ok(rows.slice(offset, offset + limit).map((m) => this.gammaMarket(m, now)));
      }
      case '/events': {
        const { limit, offset } = page(query, 100);
        return ok(listed.slice(offset, offset + limit).map((m) => ({
          id: m.id, slug: slug(m.event.title, m.id), title: m.event.title, endDate: iso(m.event.closesAt),
          active: m.event.closesAt > now, closed: m.event.closesAt <= now, markets: [this.gammaMarket(m, now)],
        })));
      }
      case '/book': {
        const token = this.byToken.get(query.get('token_id') ?? '');
        if (!token || token.market.event.opensAt > now) return notFound('token_id');
        return ok(this.book(token.market, token.index, now));
      }
      case '/midpoint': {
        const token = this.byToken.get(query.get('token_id') ?? '');
        if (!token || token.market.event.opensAt > now) return notFound('token_id');
        return ok({ mid: String(this.price(token.market, token.index, now)) });
      }
      case '/prices-history': {
        const token = this.byToken.get(query.get('market') ?? '');
        if (!token || token.market.event.opensAt > now) return notFound('market');
        const span = { '1d': DAY, '1w': 7 * DAY, max: Number.POSITIVE_INFINITY }[query.get('interval') ?? 'max'] ?? Number.POSITIVE_INFINITY;
        const step = Math.max(1, Number(query.get('fidelity') ?? 60)) * 60;
        const end = Math.min(now, token.market.event.closesAt);
        const history: { t: number; p: number }[] = [];
        for (let t = Math.max(token.market.event.opensAt, end - span); t <= end; t += step) history.push({ t, p: this.price(token.market, token.index, t) });
        return ok({ history });
      }
      case '/trades': {
        let rows = this.trades.filter((t) => t.time <= now);
        const m = query.get('market');
        if (m) rows = rows.filter((t) => this.marketOf(t)?.conditionId === m.toLowerCase());
        const user = query.get('user');
        if (user) rows = rows.filter((t) => t.account.toLowerCase() === user.toLowerCase());
        const { limit, offset } = page(query, 100);
        return ok([...rows].reverse().slice(offset, offset + limit).map((t) => this.dataTrade(t)));
      }
      case '/positions': {
        const user = query.get('user');
        if (!user) return { status: 400, body: { error: 'user is required' } };
        return ok(this.positions(now).filter((p) => p.proxyWallet.toLowerCase() === user.toLowerCase()));
      }
      case '/holders': {
        const m = this.byCondition.get((query.get('market') ?? '').toLowerCase());
        if (!m || m.event.opensAt > now) return notFound('market');
        const limit = Math.min(Number(query.get('limit') ?? 20) || 20, MAX_PAGE);
        const positions = this.positions(now).filter((p) => p.conditionId === m.conditionId);
        return ok(m.tokens.map((token, index) => ({
          token,
          holders: positions.filter((p) => p.outcomeIndex === index).sort((a, b) => b.size - a.size).slice(0, limit).map((p) => ({ proxyWallet: p.proxyWallet, amount: p.size, outcomeIndex: index })),
        })));
      }
      default:
        return notFound(path);
    }
  }

  private price(m: Listed, index: 0 | 1, time: number): number {
    const yes = venuePrice(m.event, 'polymarket', time, this.priceAt, 0);
    return round(index === 0 ? yes : 1 - yes);
  }

  private marketOf(t: PredictionTrade): Listed | undefined {
    return this.byEvent.get(t.eventId);
  }

  /** A market maker's book around the price: a tick apart from one to five ticks deep, thinner farther out. */
  private book(m: Listed, index: 0 | 1, now: number) {
    const mid = this.price(m, index, now);
    const closed = m.event.closesAt <= now;
    const levels = closed ? [] : [1, 2, 3, 4, 5];
    const depth = (k: number) => String(Math.round(4_000 / k));
    return {
      market: m.conditionId, asset_id: m.tokens[index], timestamp: String(now * 1000), hash: createHash('sha1').update(`${m.id}:${index}:${now}`).digest('hex'),
      bids: levels.map((k) => ({ price: String(round(mid - k * TICK)), size: depth(k) })).filter((l) => Number(l.price) > 0).reverse(),
      asks: levels.map((k) => ({ price: String(round(mid + k * TICK)), size: depth(k) })).filter((l) => Number(l.price) < 1).reverse(),
      min_order_size: '5', tick_size: String(TICK), neg_risk: false, last_trade_price: String(this.lastTradePrice(m, index, now) ?? mid),
    };
  }

  private lastTradePrice(m: Listed, index: 0 | 1, now: number): number | undefined {
    const last = this.tradesOf.get(m.event.id)!.filter((t) => t.time <= now).at(-1);
    if (!last) return undefined;
    return round((last.outcome === 'yes') === (index === 0) ? last.price : 1 - last.price);
  }

  private gammaMarket(m: Listed, now: number) {
    const e = m.event;
    const closed = e.closesAt <= now;
    const yes = this.price(m, 0, now);
    const traded = this.tradesOf.get(e.id)!.filter((t) => t.time <= now);
    const volume = traded.reduce((s, t) => s + t.price * t.shares, 0);
    const dayAgo = this.price(m, 0, Math.max(e.opensAt, now - DAY));
    return {
      id: m.id, conditionId: m.conditionId, questionId: `0x${createHash('sha256').update(`${m.conditionId}:question`).digest('hex')}`,
      question: e.title, slug: slug(e.title, m.id), endDate: iso(e.closesAt), active: !closed, closed,
      umaResolutionStatus: closed ? 'resolved' : null,
      liquidityNum: closed ? 0 : 30_000, volumeNum: round(volume), volume24hr: round(traded.filter((t) => t.time > now - DAY).reduce((s, t) => s + t.price * t.shares, 0)),
      bestBid: closed ? null : round(yes - TICK), bestAsk: closed ? null : round(yes + TICK), spread: closed ? null : round(2 * TICK),
      lastTradePrice: this.lastTradePrice(m, 0, now) ?? yes, oneDayPriceChange: round(yes - dayAgo), negRisk: false,
      outcomes: JSON.stringify(['Yes', 'No']), outcomePrices: JSON.stringify([String(yes), String(round(1 - yes))]), clobTokenIds: JSON.stringify(m.tokens),
      events: [{ id: m.id, slug: slug(e.title, m.id), title: e.title }],
    };
  }

  private dataTrade(t: PredictionTrade) {
    const m = this.marketOf(t)!;
    const index = t.outcome === 'yes' ? 0 : 1;
    return {
      proxyWallet: t.account, side: 'BUY', asset: m.tokens[index], conditionId: m.conditionId, size: t.shares, price: t.price, timestamp: t.time,
      outcome: index === 0 ? 'Yes' : 'No', outcomeIndex: index, title: m.event.title,
      transactionHash: `0x${createHash('sha256').update(`${t.account}:${t.eventId}:${t.time}:${t.outcome}`).digest('hex')}`,
    };
  }

  /** Every account's holding per outcome token at `now` (buys only: positions are held to the close). */
  private positions(now: number) {
    const held = new Map<string, { proxyWallet: string; m: Listed; index: 0 | 1; size: number; cost: number }>();
    for (const t of this.trades) {
      if (t.time > now) break;
      const m = this.marketOf(t)!;
      const index = t.outcome === 'yes' ? 0 : 1;
      const key = `${t.account}:${m.tokens[index]}`;
      const p = held.get(key) ?? { proxyWallet: t.account, m, index, size: 0, cost: 0 };
      held.set(key, { ...p, size: p.size + t.shares, cost: p.cost + t.shares * t.price });
    }
    return [...held.values()].map(({ proxyWallet, m, index, size, cost }) => {
      const curPrice = this.price(m, index, now);
      const currentValue = round(size * curPrice);
      return {
        proxyWallet, asset: m.tokens[index], conditionId: m.conditionId, size: round(size), avgPrice: round(cost / size), currentValue,
        cashPnl: round(currentValue - cost), percentPnl: round(((currentValue - cost) / cost) * 100), curPrice, outcome: index === 0 ? 'Yes' : 'No',
        outcomeIndex: index, redeemable: m.event.closesAt <= now && curPrice === 1, title: m.event.title,
      };
    });
  }
}

function ok(body: unknown): VenueAnswer {
  return { status: 200, body };
}

function notFound(what: string): VenueAnswer {
  return { status: 404, body: { error: `not found: ${what}` } };
}

function page(query: URLSearchParams, fallback: number): { limit: number; offset: number } {
  const limit = Math.min(MAX_PAGE, Math.max(1, Number(query.get('limit') ?? fallback) || fallback));
  const offset = Math.max(0, Number(query.get('offset') ?? 0) || 0);
  return { limit, offset };
}

function slug(title: string, id: string): string {
  return `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-${id}`;
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
