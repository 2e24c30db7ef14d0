/**
 * The second prediction venue answers Kalshi's v2 requests in their shapes (dollar strings, a
 * cursor, bids-only books with the best level last) with the world's own state: only the
 * cross-listed events, a yes ask equal to 1 minus the best no bid, settled markets showing the
 * outcome, and prices lagging the first venue inside the planted gaps.
 */
import { describe, expect, it } from 'vitest';
import { KalshiVenue } from '../../world/prediction/kalshi-api.js';
import { PolymarketVenue } from '../../world/prediction/polymarket-api.js';
import { ORIGIN, predictionWorld, priceAt } from '../helpers/prediction-world.js';

const NOW = ORIGIN + 30 * 86_400;
const { events, trading } = predictionWorld('kalshi', 120, NOW, [{ asset: 'ETH', annualVol: 0.65 }]);
const kalshi = new KalshiVenue('kalshi', events, trading.trades, priceAt);
const polymarket = new PolymarketVenue('kalshi', events, trading.trades, priceAt);
const get = (path: string, query: Record<string, string> = {}, now = NOW) => kalshi.handle(path, new URLSearchParams(query), now);

type Market = { ticker: string; title: string; status: string; close_time: string; yes_bid_dollars: string | null; yes_ask_dollars: string | null; no_bid_dollars: string | null; result?: string; volume_fp: string };

describe('the Kalshi-shaped venue', () => {
  it('lists the cross-listed events only, in pages with a cursor, prices as dollar strings', () => {
    const all: Market[] = [];
    for (let cursor = ''; ; ) {
      const { status, body } = get('/markets', { limit: '7', ...(cursor && { cursor }) });
      expect(status).toBe(200);
      const page = body as { markets: Market[]; cursor: string };
      all.push(...page.markets);
      if (!page.cursor) break;
      cursor = page.cursor;
    }
    expect(all.length).toBe(events.filter((e) => e.crossListing && e.opensAt <= NOW).length);
    for (const m of all.filter((x) => x.status === 'open')) {
      expect(m.yes_bid_dollars).toMatch(/^0\.\d{4}$/);
      expect(Number(m.yes_ask_dollars)).toBeGreaterThan(Number(m.yes_bid_dollars));
      expect(m.volume_fp).toMatch(/^\d+\.\d{2}$/);
    }
    const settled = all.filter((x) => x.status === 'settled');
    expect(settled.length).toBeGreaterThan(5);
    for (const m of settled) {
      const event = events.find((e) => `SIB-${e.id.toUpperCase()}` === m.ticker)!;
      expect(m.result).toBe(event.outcome ? 'yes' : 'no');
    }
  });

  it('answers a market and its bids-only order book: best last, the yes ask 1 minus the best no bid', () => {
    const open = ((get('/markets', { status: 'open', limit: '1000' }).body as { markets: Market[] }).markets);
    expect(open.length).toBeGreaterThan(0);
    for (const m of open) {
      expect((get(`/markets/${m.ticker}`).body as { market: Market }).market).toEqual(m);
      const { orderbook_fp: book } = get(`/markets/${m.ticker}/orderbook`).body as { orderbook_fp: { yes_dollars: [string, string][]; no_dollars: [string, string][] } };
      const bestYes = book.yes_dollars.at(-1)!;
      const bestNo = book.no_dollars.at(-1)!;
      expect(Number(bestYes[0])).toBe(Number(m.yes_bid_dollars));
      expect(Number(bestYes[0])).toBeGreaterThan(Number(book.yes_dollars[0]![0]));
      expect(1 - Number(bestNo[0])).toBeCloseTo(Number(m.yes_ask_dollars), 4);
    }
    expect(get('/markets/NOPE').status).toBe(404);
  });

  it('lags the first venue inside every planted gap: yes on one and no on the other cost less than 1', () => {
    let checked = 0;
    for (const gap of trading.gaps) {
      const t = gap.from + Math.floor((gap.until - gap.from) / 2);
      const event = events.find((e) => e.id === gap.eventId)!;
      const k = (get(`/markets/SIB-${event.id.toUpperCase()}`, {}, t).body as { market: Market }).market;
      if (k.status !== 'open') continue;
      const poly = (polymarket.handle('/markets', new URLSearchParams({ limit: '1000' }), t).body as { question: string; endDate: string; outcomePrices: string }[])
        .find((m) => m.question === event.title && m.endDate === new Date(event.closesAt * 1000).toISOString())!;
      const [pYes, pNo] = (JSON.parse(poly.outcomePrices) as string[]).map(Number);
      const kYes = (Number(k.yes_bid_dollars) + Number(k.yes_ask_dollars)) / 2;
      expect(Math.min(pYes! + (1 - kYes), kYes + pNo!)).toBeLessThan(1);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });
});
