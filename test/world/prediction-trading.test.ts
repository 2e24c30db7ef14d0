/**
 * The prediction world's trading: the same seed trades the same; longshots are overpaid (what
 * costs 10¢ or less wins less often than its price says); every labelled insider is a fresh
 * account that bought the outcome large before the news that moved the price there; every planted
 * gap is a window where yes on one venue plus no on the other costs less than 1, and on crypto
 * events the windows are exactly where the two venues' prices stand apart.
 */
import { describe, expect, it } from 'vitest';
import { GAP_ABOVE, venueLagSeconds, venuePrice } from '../../world/prediction/trading.js';
import { ORIGIN, predictionWorld, priceAt } from '../helpers/prediction-world.js';

const UNTIL = ORIGIN + 30 * 86_400;
const world = (seed: string, count: number) => predictionWorld(seed, count, UNTIL, [{ asset: 'BTC', annualVol: 0.5 }, { asset: 'ETH', annualVol: 0.65 }]);

describe('prediction trading', () => {
  const { events, trading } = world('trading', 300);
  const byId = new Map(events.map((e) => [e.id, e]));

  it('is the same for a seed', () => {
    expect(world('trading', 40).trading).toEqual(world('trading', 40).trading);
  });

  it('overpays longshots: contracts bought at 10¢ or less win less often than their price', () => {
    const cheap = trading.trades.filter((t) => t.price <= 0.1 && byId.get(t.eventId)!.closesAt <= UNTIL);
    expect(cheap.length).toBeGreaterThan(300);
    const won = cheap.filter((t) => (t.outcome === 'yes') === byId.get(t.eventId)!.outcome).length / cheap.length;
    const paid = cheap.reduce((s, t) => s + t.price, 0) / cheap.length;
    expect(won).toBeLessThan(paid);
  });

  it('labels insiders: fresh accounts buying the outcome large, hours before the news that moves the price there', () => {
    expect(trading.insiders.length).toBeGreaterThan(10);
    const accounts = new Map(trading.accounts.map((a) => [a.address, a]));
    for (const label of trading.insiders) {
      const event = byId.get(label.eventId)!;
      const trade = trading.trades.find((t) => t.account === label.account && t.eventId === label.eventId)!;
      expect(trade.time).toBe(label.time);
      expect(trade.outcome).toBe(event.outcome ? 'yes' : 'no');
      expect(trade.price * trade.shares).toBeGreaterThan(7_900);
      const account = accounts.get(label.account)!;
      expect(account.role).toBe('insider');
      expect(label.time - account.fundedAt).toBeLessThanOrEqual(20 * 3_600);
      const decisive = event.news.at(-1)!;
      expect(decisive.at - label.time).toBeGreaterThanOrEqual(3_600);
      expect(decisive.at - label.time).toBeLessThanOrEqual(6 * 3_600);
      const side = (p: number) => (event.outcome ? p : 1 - p);
      expect(side(venuePrice(event, 'polymarket', decisive.at, priceAt, 0)) - side(venuePrice(event, 'polymarket', label.time, priceAt, 0))).toBeGreaterThan(0.05);
    }
    // No other account is labelled an insider.
    expect(trading.accounts.filter((a) => a.role === 'insider').length).toBe(trading.insiders.length);
  });

  it('plants cross-venue gaps: within each, yes on one venue plus no on the other costs less than 1', () => {
    expect(trading.gaps.length).toBeGreaterThan(10);
    for (const gap of trading.gaps) {
      const event = byId.get(gap.eventId)!;
      expect(event.crossListing).toBeDefined();
      expect(gap.until).toBeGreaterThan(gap.from);
      const t = gap.from + Math.floor((gap.until - gap.from) / 2);
      const poly = venuePrice(event, 'polymarket', t, priceAt, 0);
      const kalshi = venuePrice(event, 'kalshi', t, priceAt, venueLagSeconds('trading', event.id));
      expect(Math.min(poly + (1 - kalshi), kalshi + (1 - poly))).toBeLessThan(1);
    }
  });

  it('labels the crypto events\' gaps where the lagging price stands apart, and only there, while both venues are open', () => {
    const crypto = events.filter((e) => e.strike && e.crossListing);
    const apart = (e: (typeof events)[number], t: number) => Math.abs(venuePrice(e, 'polymarket', t, priceAt, 0) - venuePrice(e, 'kalshi', t, priceAt, venueLagSeconds('trading', e.id)));
    const gaps = trading.gaps.filter((g) => byId.get(g.eventId)!.strike);
    expect(gaps.length).toBeGreaterThan(50);
    for (const gap of gaps) {
      const e = byId.get(gap.eventId)!;
      expect(gap.from).toBeGreaterThanOrEqual(e.opensAt);
      expect(gap.until).toBeLessThanOrEqual(Math.min(e.closesAt, e.closesAt + e.crossListing!.closeShiftSeconds, UNTIL));
      expect(apart(e, gap.from + Math.floor((gap.until - gap.from) / 2)), `${e.id} ${gap.from}-${gap.until}`).toBeGreaterThan(GAP_ABOVE);
    }
    // Outside the windows, sampled every 7 minutes over each crypto market's life on both venues: within the
    // threshold, but for the odd blip shorter than the labels' one-minute grid, barely over it.
    const over: number[] = [];
    let outside = 0;
    for (const e of crypto) {
      const close = Math.min(e.closesAt, e.closesAt + e.crossListing!.closeShiftSeconds, UNTIL);
      const own = gaps.filter((g) => g.eventId === e.id);
      for (let t = e.opensAt + 17; t < close; t += 420) {
        if (own.some((g) => g.from <= t && t < g.until)) continue;
        outside++;
        if (apart(e, t) > GAP_ABOVE) over.push(apart(e, t) - GAP_ABOVE);
      }
    }
    expect(outside).toBeGreaterThan(10_000);
    expect(over.length).toBeLessThan(outside / 1_000);
    expect(Math.max(0, ...over)).toBeLessThan(0.005);
  });
});
