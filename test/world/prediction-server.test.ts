/**
 * The embedded prediction venues over HTTP on loopback: each real service's base URL answers its
 * own requests (what the venue answers for that moment) and nothing else, GET only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KalshiVenue } from '../../world/prediction/kalshi-api.js';
import { PolymarketVenue } from '../../world/prediction/polymarket-api.js';
import { servePredictionVenues, type PredictionVenueUrls } from '../../world/prediction/server.js';
import { ORIGIN, predictionWorld, priceAt } from '../helpers/prediction-world.js';

const NOW = ORIGIN + 20 * 86_400;
const { events, trading: { trades } } = predictionWorld('served', 40, NOW);
const polymarket = new PolymarketVenue('served', events, trades, priceAt);
const kalshi = new KalshiVenue('served', events, trades, priceAt);

describe('the prediction venues on loopback', () => {
  let urls: PredictionVenueUrls;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ urls, close } = await servePredictionVenues({ polymarket, kalshi }, () => NOW));
  });
  afterAll(() => close?.());

  const json = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as unknown };
  };

  it('answers each service at its base URL with what the venue answers for that moment', async () => {
    const markets = await json(`${urls.polymarketGamma}/markets?limit=3&closed=false`);
    expect(markets).toMatchObject({ status: 200, type: 'application/json' });
    expect(markets.body).toEqual(polymarket.handle('/markets', new URLSearchParams({ limit: '3', closed: 'false' }), NOW).body);
    const [token] = JSON.parse((markets.body as { clobTokenIds: string }[])[0]!.clobTokenIds) as string[];
    expect((await json(`${urls.polymarketClob}/midpoint?token_id=${token}`)).body).toEqual(polymarket.handle('/midpoint', new URLSearchParams({ token_id: token! }), NOW).body);
    expect((await json(`${urls.polymarketData}/trades?limit=10`)).body).toEqual(polymarket.handle('/trades', new URLSearchParams({ limit: '10' }), NOW).body);
    expect((await json(`${urls.kalshi}/markets?limit=5`)).body).toEqual(kalshi.handle('/markets', new URLSearchParams({ limit: '5' }), NOW).body);
  });

  it('answers only its own paths at each base, and only GET', async () => {
    expect((await json(`${urls.polymarketGamma}/book?token_id=1`)).status).toBe(404);
    expect((await json(`${urls.polymarketClob}/markets`)).status).toBe(404);
    expect((await json(`${urls.kalshi}/events`)).status).toBe(404);
    expect((await fetch(`${urls.polymarketGamma}/markets`, { method: 'POST', body: '{}' })).status).toBe(405);
  });
});
