/**
 * The prediction world's events: the same seed draws the same events; drawn chances are
 * calibrated (what the world says is 30% happens about 30% of the time), and so is the public
 * belief at every news; the belief ends at the outcome; crypto events are decided by the world's own reference prices; some events are
 * listed on both venues with a rule that differs.
 */
import { describe, expect, it } from 'vitest';
import { beliefAt, drawEvents, fairChanceAbove, inverseNormalCdf, normalCdf, type EventWorldOptions } from '../../world/prediction/events.js';
import { ReferencePaths } from '../../world/reference.js';

const ORIGIN = 1_790_000_000;
const paths = new ReferencePaths('prediction-test', ORIGIN);
const priceAt = (asset: string, time: number) => paths.priceUsd(asset, time);
const options = (seed: string, count = 48): EventWorldOptions => ({
  seed, origin: ORIGIN, days: 30, count, priceAt, assets: [{ asset: 'BTC', annualVol: 0.5 }, { asset: 'ETH', annualVol: 0.65 }],
});

describe('prediction events', () => {
  it('are the same for a seed and differ across seeds', () => {
    expect(drawEvents(options('a'))).toEqual(drawEvents(options('a')));
    expect(drawEvents(options('b')).map((e) => e.title)).not.toEqual(drawEvents(options('a')).map((e) => e.title));
  });

  it('open and close in order, most closing inside the 30-day history', () => {
    const events = drawEvents(options('c', 400));
    for (const e of events) {
      expect(e.opensAt).toBeGreaterThanOrEqual(ORIGIN);
      expect(e.closesAt).toBeGreaterThan(e.opensAt);
    }
    expect(events.filter((e) => e.closesAt <= ORIGIN + 30 * 86_400).length / events.length).toBeGreaterThan(0.7);
  });

  it('drawn chances are calibrated, and beat a coin flip on Brier score', () => {
    const drawn = drawEvents(options('d', 4_000)).filter((e) => e.category !== 'crypto');
    const buckets = new Map<number, { n: number; yes: number; truth: number }>();
    for (const e of drawn) {
      const b = Math.min(9, Math.floor(e.truth * 10));
      const s = buckets.get(b) ?? { n: 0, yes: 0, truth: 0 };
      buckets.set(b, { n: s.n + 1, yes: s.yes + (e.outcome ? 1 : 0), truth: s.truth + e.truth });
    }
    for (const [, s] of buckets) if (s.n >= 150) expect(Math.abs(s.yes / s.n - s.truth / s.n)).toBeLessThan(0.08);
    const brier = drawn.reduce((sum, e) => sum + (e.truth - (e.outcome ? 1 : 0)) ** 2, 0) / drawn.length;
    expect(brier).toBeLessThan(0.2);
    // Longshots exist to be overpaid: about one event in twelve at 10% or less (the logit's spread of 1.6).
    expect(drawn.filter((e) => e.truth <= 0.1).length / drawn.length).toBeGreaterThan(0.06);
  });

  it('the public belief moves with the news, the last all but settling it, and ends at the outcome', () => {
    const drawn = drawEvents(options('e', 600)).filter((x) => x.category !== 'crypto');
    for (const e of drawn) {
      expect(e.news[0]!.at).toBe(e.opensAt);
      expect(e.news.length).toBeGreaterThanOrEqual(3);
      const last = e.news.at(-1)!;
      expect(last.at).toBeLessThan(e.closesAt);
      // The last news comes in the life's last few hundredths.
      expect(last.at - e.opensAt).toBeGreaterThan(0.95 * (e.closesAt - e.opensAt));
      expect(beliefAt(e, e.closesAt, priceAt)).toBe(e.outcome ? 1 : 0);
      expect(beliefAt(e, e.opensAt, priceAt)).toBe(e.news[0]!.belief);
    }
    // A calibrated last belief can still lose: most end near 0 or 1, and nearly all on the side that happens.
    const last = drawn.map((e) => ({ belief: e.news.at(-1)!.belief, outcome: e.outcome }));
    expect(last.filter((x) => Math.abs(x.belief - 0.5) > 0.4).length / last.length).toBeGreaterThan(0.8);
    expect(last.filter((x) => x.belief > 0.5 === x.outcome).length / last.length).toBeGreaterThan(0.93);
  });

  it('the public belief is calibrated at every news, not only at the opening', () => {
    // Every news belief of many drawn events, bucketed: each bucket's sides win about as often as the belief says.
    const drawn = drawEvents({ ...options('calibrated', 6_000), assets: [] });
    const buckets = new Map<number, { n: number; yes: number; belief: number }>();
    for (const e of drawn) {
      for (const n of e.news) {
        const b = Math.min(9, Math.floor(n.belief * 10));
        const s = buckets.get(b) ?? { n: 0, yes: 0, belief: 0 };
        buckets.set(b, { n: s.n + 1, yes: s.yes + (e.outcome ? 1 : 0), belief: s.belief + n.belief });
      }
    }
    expect(buckets.size).toBe(10);
    for (const [b, s] of buckets) {
      expect(s.n, `bucket ${b}`).toBeGreaterThan(500);
      expect(Math.abs(s.yes / s.n - s.belief / s.n), `bucket ${b}`).toBeLessThan(0.03);
    }
  });

  it('crypto events are decided by the reference price at the close, and priced by it before', () => {
    const crypto = drawEvents(options('f', 200)).filter((e) => e.category === 'crypto');
    expect(crypto.length).toBeGreaterThan(40);
    for (const e of crypto) {
      const { asset, usd } = e.strike!;
      expect(e.title).toContain(asset);
      expect(e.outcome).toBe(priceAt(asset, e.closesAt) > usd);
      const mid = Math.floor((e.opensAt + e.closesAt) / 2);
      const belief = beliefAt(e, mid, priceAt);
      expect(belief).toBeGreaterThanOrEqual(0);
      expect(belief).toBeLessThanOrEqual(1);
      expect(belief > 0.5).toBe(priceAt(asset, mid) > usd * Math.exp(((e.strike!.annualVol ** 2) * (e.closesAt - mid)) / (2 * 365 * 86_400)));
    }
  });

  it('about a third are listed on both venues, each with the rule that differs', () => {
    const events = drawEvents(options('g', 600));
    const share = events.filter((e) => e.crossListing).length / events.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.45);
    for (const e of events.filter((x) => x.crossListing)) expect(e.crossListing!.ruleDifference.length).toBeGreaterThan(10);
  });

  it('prices a strike as the lognormal chance of finishing above it', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 5);
    for (const p of [1e-6, 0.001, 0.02, 0.024, 0.03, 0.3, 0.5, 0.77, 0.976, 0.999]) expect(normalCdf(inverseNormalCdf(p))).toBeCloseTo(p, 6);
    expect(inverseNormalCdf(0.975)).toBeCloseTo(1.959964, 6);
    expect(fairChanceAbove(100, 100, 0.5, 0)).toBe(0);
    expect(fairChanceAbove(101, 100, 0.5, 0)).toBe(1);
    // At the money the chance is a little under a half (the lognormal's drift correction).
    expect(fairChanceAbove(100, 100, 0.5, 1 / 12)).toBeCloseTo(normalCdf(-0.5 * 0.5 * Math.sqrt(1 / 12)), 9);
  });
});
