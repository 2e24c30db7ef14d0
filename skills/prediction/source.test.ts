import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { embeddedVenues } from '../../world/prediction/embedded.js';
import { PredictionPlan } from '../../world/prediction/plan.js';
import { servePredictionVenues } from '../../world/prediction/server.js';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import { predictionSource, type PredictionSource } from './source.js';

const NOW = ORIGIN + 5 * 86_400 + 3_600;

describe('the prediction adapters over the embedded venues', () => {
  const plan = new PredictionPlan('source-test', ORIGIN, priceAt);
  const state = plan.through(NOW);
  let served: Awaited<ReturnType<typeof servePredictionVenues>>;
  let source: PredictionSource;

  beforeAll(async () => {
    served = await servePredictionVenues(embeddedVenues(plan, priceAt, () => NOW), () => NOW);
    source = predictionSource(served.urls, 5_000);
  });
  afterAll(() => served?.close());

  it('reads every listed Polymarket market, its JSON strings decoded, and each book best first', async () => {
    const markets = await source.polymarket.markets();
    expect(markets.length).toBe(state.events.filter((e) => e.opensAt <= NOW).length);
    const open = markets.filter((m) => m.active);
    expect(open.length).toBe(state.events.filter((e) => e.opensAt <= NOW && e.closesAt > NOW).length);
    for (const m of open.slice(0, 5)) {
      expect(m.outcomes).toEqual(['Yes', 'No']);
      expect(m.outcomePrices[0]! + m.outcomePrices[1]!).toBeCloseTo(1, 6);
      const book = await source.polymarket.book(m.clobTokenIds[0]!);
      expect(book.bids[0]!.price).toBeLessThan(book.asks[0]!.price);
      expect(book.bids.map((l) => l.price)).toEqual([...book.bids.map((l) => l.price)].sort((a, b) => b - a));
    }
  });

  it('reads a market\'s trades as the venue made them, newest first, and its holders', async () => {
    const busiest = (await source.polymarket.markets()).sort((a, b) => b.volumeNum - a.volumeNum)[0]!;
    const trades = await source.polymarket.trades(busiest.conditionId);
    const event = state.events.find((e) => e.title === busiest.question && trades.length)!;
    expect(event).toBeDefined();
    expect(trades.map((t) => t.timestamp)).toEqual([...trades.map((t) => t.timestamp)].sort((a, b) => b - a));
    expect(trades.every((t) => t.timestamp <= NOW)).toBe(true);
    const usd = trades.reduce((s, t) => s + t.size * t.price, 0);
    expect(usd).toBeCloseTo(busiest.volumeNum, -1);
    const holders = await source.polymarket.holders(busiest.conditionId);
    expect(holders.length).toBeGreaterThan(0);
  });

  it('follows Kalshi\'s cursor to every cross-listed market, its book bids only and best first', async () => {
    const markets = await source.kalshi.markets();
    expect(markets.length).toBe(state.events.filter((e) => e.opensAt <= NOW && e.crossListing).length);
    const open = markets.find((m) => m.status === 'open')!;
    const book = await source.kalshi.orderbook(open.ticker);
    expect(book.yes[0]!.price).toBeCloseTo(open.yesBid!, 6);
    expect(1 - book.no[0]!.price).toBeCloseTo(open.yesAsk!, 6);
  });

  it('a venue that does not answer, or answers outside its shape, is upstream_unavailable', async () => {
    const dead = predictionSource({ polymarketGamma: 'http://127.0.0.1:9/x', polymarketClob: 'http://127.0.0.1:9/x', polymarketData: 'http://127.0.0.1:9/x', kalshi: 'http://127.0.0.1:9/x' }, 2_000);
    await expect(dead.polymarket.markets()).rejects.toMatchObject({ code: 'upstream_unavailable' });
    await expect(dead.kalshi.markets()).rejects.toMatchObject({ code: 'upstream_unavailable' });
    const liar = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ id: '1', outcomes: 'not json', outcomePrices: '[]', clobTokenIds: '[]' }])));
    await new Promise<void>((r) => liar.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(liar.address() as AddressInfo).port}`;
    try {
      await expect(predictionSource({ polymarketGamma: url, polymarketClob: url, polymarketData: url, kalshi: url }).polymarket.markets()).rejects.toMatchObject({ code: 'upstream_unavailable' });
    } finally {
      liar.close();
    }
  });
});
