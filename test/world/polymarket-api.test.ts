/**
 * The first prediction venue answers Polymarket's documented requests in their shapes (Gamma's
 * JSON-string fields, CLOB's string prices, Data's rows), and what it answers is the world's own
 * state: prices are the venue's prices at that moment, trades and positions add up to the trades
 * the world drew, a closed market shows its outcome.
 */
import { describe, expect, it } from 'vitest';
import { PolymarketVenue } from '../../world/prediction/polymarket-api.js';
import { venuePrice } from '../../world/prediction/trading.js';
import { ORIGIN, predictionWorld, priceAt } from '../helpers/prediction-world.js';

const NOW = ORIGIN + 30 * 86_400;
const { events, trading: { trades } } = predictionWorld('venue', 60, NOW);
const venue = new PolymarketVenue('venue', events, trades, priceAt);
const get = (path: string, query: Record<string, string> = {}, now = NOW) => venue.handle(path, new URLSearchParams(query), now);

describe('the Polymarket-shaped venue', () => {
  it('lists markets in Gamma\'s shape, outcomes and prices as JSON strings, open and closed as the world has them', () => {
    const { status, body } = get('/markets', { limit: '1000' });
    expect(status).toBe(200);
    const markets = body as Record<string, unknown>[];
    expect(markets.length).toBe(events.filter((e) => e.opensAt <= NOW).length);
    for (const m of markets) {
      expect(typeof m.outcomes).toBe('string');
      expect(JSON.parse(m.outcomes as string)).toEqual(['Yes', 'No']);
      const [yes, no] = (JSON.parse(m.outcomePrices as string) as string[]).map(Number);
      expect(yes! + no!).toBeCloseTo(1, 3);
      expect(JSON.parse(m.clobTokenIds as string)).toHaveLength(2);
      const event = events.find((e) => e.title === m.question && new Date(e.closesAt * 1000).toISOString() === m.endDate)!;
      expect(event).toBeDefined();
      if (m.closed) expect(yes).toBe(event.outcome ? 1 : 0);
      else expect(yes).toBeCloseTo(venuePrice(event, 'polymarket', NOW, priceAt, 0), 3);
    }
    const open = get('/markets', { closed: 'false', limit: '1000' }).body as { closed: boolean }[];
    expect(open.every((m) => !m.closed)).toBe(true);
    expect(get('/markets', { limit: '5', offset: '2' }).body).toEqual(markets.slice(2, 7));
  });

  it('serves a token\'s book, midpoint and price history in CLOB\'s shapes', () => {
    const m = (get('/markets', { closed: 'false', limit: '1' }).body as { clobTokenIds: string; conditionId: string; id: string }[])[0]!;
    const [yesToken] = JSON.parse(m.clobTokenIds) as string[];
    const book = get('/book', { token_id: yesToken! }).body as { market: string; bids: { price: string; size: string }[]; asks: { price: string }[]; tick_size: string };
    expect(book.market).toBe(m.conditionId);
    const mid = Number((get('/midpoint', { token_id: yesToken! }).body as { mid: string }).mid);
    // Best levels last, as the CLOB answers them; every bid below the midpoint and every ask above it.
    expect(Number(book.bids.at(-1)!.price)).toBeLessThan(mid);
    expect(Number(book.asks.at(-1)!.price)).toBeGreaterThan(mid);
    expect(book.bids.every((l) => typeof l.price === 'string' && typeof l.size === 'string')).toBe(true);
    const history = (get('/prices-history', { market: yesToken!, interval: '1d', fidelity: '60' }).body as { history: { t: number; p: number }[] }).history;
    expect(history.length).toBeGreaterThan(20);
    expect(history.at(-1)!.p).toBeCloseTo(mid, 3);
    expect(get('/book', { token_id: '123' }).status).toBe(404);
  });

  it('answers trades, positions and holders that add up to the trades the world drew', () => {
    const [first] = trades.filter((t) => t.venue === 'polymarket');
    const rows = get('/trades', { user: first!.account, limit: '1000' }).body as { size: number; price: number; conditionId: string; outcome: string }[];
    const drawn = trades.filter((t) => t.venue === 'polymarket' && t.account === first!.account);
    expect(rows).toHaveLength(drawn.length);
    expect(rows.reduce((s, r) => s + r.size * r.price, 0)).toBeCloseTo(drawn.reduce((s, t) => s + t.shares * t.price, 0), 2);
    const positions = get('/positions', { user: first!.account }).body as { size: number; conditionId: string; outcomeIndex: number; redeemable: boolean }[];
    expect(positions.reduce((s, p) => s + p.size, 0)).toBeCloseTo(drawn.reduce((s, t) => s + t.shares, 0), 1);
    const market = positions[0]!.conditionId;
    const holders = get('/holders', { market }).body as { token: string; holders: { proxyWallet: string; amount: number }[] }[];
    expect(holders).toHaveLength(2);
    expect(holders.flatMap((h) => h.holders).some((h) => h.proxyWallet === first!.account)).toBe(true);
    expect(get('/positions').status).toBe(400);
    expect((get('/trades', { limit: '5000' }).body as unknown[]).length).toBeLessThanOrEqual(1_000);
  });

  it('knows nothing of a market before it opens', () => {
    const later = events.find((e) => e.opensAt > ORIGIN + 86_400)!;
    const before = get('/markets', { limit: '1000' }, later.opensAt - 1).body as { question: string; endDate: string }[];
    expect(before.some((m) => m.question === later.title && m.endDate === new Date(later.closesAt * 1000).toISOString())).toBe(false);
  });
});
