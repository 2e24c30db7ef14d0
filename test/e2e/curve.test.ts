/**
 * The Solana launchpad operations, paid end to end on the embedded venue and recomputed from a
 * second venue built from the same seed and genesis and stopped at the answer's own head: its
 * raw trades, read through the feed interface, must give the figures the service sold.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { base58 } from '@scure/base';
import { base58Encode, defaultCurveGenesis, EmbeddedCurveVenue, EMBEDDED_VENUE } from '../../world/curve/embedded.js';
import type { CurveFeed, CurvePoolTrade, CurveTrade } from '../../world/curve/feed.js';
import { curveActivity } from '../../skills/curve/engine.js';
import { ReferencePaths } from '../../world/reference.js';
import { json, paidPoster, postJson, useTestSibyl } from '../helpers/sibyl.js';

const SEED = 'curve-test';
const GENESIS = Math.floor(Date.now() / 1000) - 3 * 86_400;
const reference = new ReferencePaths(SEED, GENESIS);
const seconds = (iso: string) => Date.parse(iso) / 1000;

/** The venue as it stood at an answer's head. */
function twinAt(body: { asOf: { timestamp: string } }) {
  return new EmbeddedCurveVenue({ seed: SEED, genesisTime: GENESIS, now: () => Date.parse(body.asOf.timestamp) });
}

/** USD of trades at the reference SOL/USD of each trade's time. */
const usdOf = (trades: readonly (CurveTrade | CurvePoolTrade)[]) => trades.reduce((s, t) => s + t.sol * reference.priceUsd('SOL', t.time), 0);

describe('curve-* operations on the embedded Solana venue', () => {
  const sibyl = useTestSibyl({ env: { WORLD_SEED: SEED, CURVE_GENESIS_TIME: String(GENESIS) } });
  let post: (path: string, body: unknown) => Promise<any>;
  beforeAll(async () => {
    const paid = await paidPoster(() => sibyl.url);
    post = async (path, body) => {
      const res = await paid(path, body);
      expect(res.status).toBe(200);
      return json(res);
    };
  });

  it('curve-volume: each token\'s trades, traders, SOL and USD equal a recomputation from the feed\'s raw trades at the reference SOL/USD', async () => {
    const body = await post('/x402/data/curve-volume', { timeperiod: '24h', limit: 500 });
    expect(body).toMatchObject({ source: 'embedded', chain: 'solana', methodology: expect.stringContaining('curve/v2'), limit: 500 });
    // SOL/USD is the world's reference path, not a path of the venue's own.
    expect(body.solUsd.source).toContain(`origin ${new Date(GENESIS * 1000).toISOString()}`);
    expect(body.solUsd.usd).toBeCloseTo(reference.priceUsd('SOL', seconds(body.asOf.timestamp)), 3);
    const trades = await twinAt(body).trades(seconds(body.window.from), seconds(body.window.to));
    expect(body.totals.trades).toBe(trades.length);
    expect(body.tokens.length).toBeGreaterThan(3);
    for (const token of body.tokens) {
      const mine = trades.filter((t) => t.mint === token.mint);
      expect(token.trades).toBe(mine.length);
      expect(token.traders).toBe(new Set(mine.map((t) => t.trader)).size);
      expect(token.volumeSol).toBeCloseTo(mine.reduce((s, t) => s + t.sol, 0), 5);
      expect(token.volumeUsd).toBeCloseTo(usdOf(mine), 1);
    }
    const volumes = body.tokens.map((t: any) => t.volumeUsd);
    expect(volumes).toEqual([...volumes].sort((a: number, b: number) => b - a));
    for (const t of body.tokens) expect(base58.decode(t.mint)).toHaveLength(32);
  });

  it('curve-launches: launches of the period only, at least minVolumeUsd, sorted as asked', async () => {
    for (const sortBy of ['time', 'volume', 'progress'] as const) {
      const body = await post('/x402/data/curve-launches', { timeperiod: '24h', minVolumeUsd: 50, sortBy, limit: 20 });
      expect(body).toMatchObject({ limit: 20, sortBy, minVolumeUsd: 50 });
      const from = Date.parse(body.window.from);
      for (const t of body.tokens) {
        expect(Date.parse(t.launchedAt)).toBeGreaterThanOrEqual(from);
        expect(t.volumeUsd).toBeGreaterThanOrEqual(50);
      }
      const key = (t: any) => (sortBy === 'time' ? Date.parse(t.launchedAt) : sortBy === 'volume' ? t.volumeUsd : t.progressPct);
      const keys = body.tokens.map(key);
      expect(keys).toEqual([...keys].sort((a: number, b: number) => b - a));
    }
    const defaults = await post('/x402/data/curve-launches', {});
    expect(defaults).toMatchObject({ limit: 10, timeperiod: '24h', minVolumeUsd: 10, sortBy: 'time' });
    expect(defaults.launchedInPeriod).toBe((await twinAt(defaults).launches(seconds(defaults.window.from), seconds(defaults.window.to))).length);
  });

  it('curve-graduation: every candidate\'s activity is its trades in the pace window, consistent with the SOL it raised, and candidates are ranked by their ETA at that pace', async () => {
    const body = await post('/x402/data/curve-graduation', { minProgressPct: 0, limit: 200 });
    const twin = twinAt(body);
    const head = seconds(body.asOf.timestamp);
    const [from, to] = [seconds(body.paceWindow.from), seconds(body.paceWindow.to)];
    expect(to - from).toBe(3_600);
    expect(to).toBe(head);
    expect(body.activityWindows).toEqual({ approaching: body.paceWindow, graduatedLast24h: body.window });
    const [window, before, states] = await Promise.all([twin.trades(from, to), twin.trades(0, from - 1), twin.states()]);
    const stateOf = new Map(states.map((s) => [s.mint, s]));

    // The SOL a curve holds at graduation, read from the venue's own graduations: the last buyer pays exactly for what is left.
    const graduatedMints = new Set(states.filter((s) => s.graduated).map((s) => s.mint));
    const all = await twin.trades(0, head);
    const finalRaise = all.filter((t) => graduatedMints.has(t.mint) && t.progressPct >= 100 - 1e-9).map((t) => t.realSol);
    expect(finalRaise.length).toBeGreaterThan(0);
    for (const sol of finalRaise) expect(body.graduationSol).toBeCloseTo(sol, 6);
    const graduationSol = finalRaise[0]!;

    expect(body.approaching.length).toBe(Math.min(200, body.approachingCount));
    expect(body.withPaceCount).toBeGreaterThan(0);
    const etas: number[] = [];
    let paced = true;
    let lastIdle = -Infinity;
    for (const row of body.approaching) {
      const s = stateOf.get(row.mint)!;
      expect(s.graduated).toBeNull();
      expect(row.graduated).toBe(false);
      const mine = window.filter((t) => t.mint === row.mint);
      expect(row.trades).toBe(mine.length);
      expect(row.buys).toBe(mine.filter((t) => t.side === 'buy').length);
      expect(row.sells).toBe(mine.filter((t) => t.side === 'sell').length);
      expect(row.traders).toBe(new Set(mine.map((t) => t.trader)).size);
      expect(row.volumeSol).toBeCloseTo(mine.reduce((x, t) => x + t.sol, 0), 5);
      expect(row.volumeUsd).toBeCloseTo(usdOf(mine), 1);
      // Consistent with the SOL raised: the inflow is what the curve's SOL changed by over the window.
      const opening = before.filter((t) => t.mint === row.mint).at(-1)?.realSol ?? 0;
      expect(row.netSolInflow).toBeCloseTo(s.realSol - opening, 5);
      expect(row.realSol + row.solToGraduate).toBeCloseTo(body.graduationSol, 5);
      const net = mine.reduce((x, t) => x + (t.side === 'buy' ? t.sol : -t.sol), 0);
      expect(row.netSolInflow).toBeCloseTo(net, 6);
      const eta = net > 0 ? (graduationSol - s.realSol) / net : null; // hours: the window is one hour
      if (eta === null) {
        // Every token with a pace ranks before every token without one, and says why it has none.
        paced = false;
        expect(row.etaHours).toBeNull();
        expect(row.noPaceReason).toMatch(/no trades|net SOL outflow|no net SOL inflow|never traded/);
        const last = [...before, ...mine].filter((t) => t.mint === row.mint).at(-1);
        expect(row.lastTradeAt).toBe(last ? new Date(last.time * 1000).toISOString() : null);
        const idle = last ? head - last.time : Infinity;
        expect(idle).toBeGreaterThanOrEqual(lastIdle);
        lastIdle = idle;
      } else {
        expect(paced).toBe(true);
        expect(Math.abs(row.etaHours - eta)).toBeLessThanOrEqual(5e-4 + eta * 1e-6);
        expect(Math.abs(Date.parse(row.estimatedGraduationAt) / 1000 - (head + eta * 3600))).toBeLessThanOrEqual(1 + eta * 0.01);
        etas.push(eta);
      }
    }
    expect(etas.length).toBe(Math.min(body.withPaceCount, body.approaching.length));
    for (let i = 1; i < etas.length; i++) expect(etas[i]!).toBeGreaterThanOrEqual(etas[i - 1]! - 1e-3);
  });

  it('curve-graduation: a minProgressPct filter keeps the curve invariant and the pace ranking', async () => {
    const body = await post('/x402/data/curve-graduation', { minProgressPct: 60, limit: 200 });
    const k = EMBEDDED_VENUE.initialVirtualSol * EMBEDDED_VENUE.initialVirtualTokens;
    const states = new Map((await twinAt(body).states()).map((s) => [s.mint, s]));
    for (const t of body.approaching) {
      expect(t.progressPct).toBeGreaterThanOrEqual(60);
      const s = states.get(t.mint)!;
      expect(s.virtualSol * s.virtualTokens).toBeCloseTo(k, -3); // the curve's invariant
    }
    const withEta = body.approaching.filter((t: any) => t.etaHours !== null).map((t: any) => t.etaHours);
    expect(withEta).toEqual([...withEta].sort((a: number, b: number) => a - b));
  });

  it('graduated tokens keep trading on their migrated pool: volume after migration is the pool\'s own trades', async () => {
    const body = await post('/x402/data/curve-graduation', { minProgressPct: 100, limit: 200 });
    const twin = twinAt(body);
    const [from, to] = [seconds(body.window.from), seconds(body.window.to)];
    expect(to - from).toBe(86_400);
    const [poolTrades, states] = await Promise.all([twin.poolTrades(from, to), twin.states()]);
    const graduatedInWindow = states.filter((s) => s.graduated && s.graduated.time >= from);
    expect(body.graduatedLast24h.map((g: any) => g.mint)).toEqual(graduatedInWindow.sort((a, b) => b.graduated!.time - a.graduated!.time).map((s) => s.mint));
    expect(body.graduatedLast24h.length).toBeGreaterThan(0);
    let poolVolume = 0;
    for (const g of body.graduatedLast24h) {
      expect(g.graduated).toBe(true);
      const s = states.find((x) => x.mint === g.mint)!;
      if (!s.migration) {
        expect(g.migration).toBeNull(); // migration follows graduation by minutes
        continue;
      }
      const mine = poolTrades.filter((t) => t.mint === g.mint);
      expect(g.migration).toMatchObject({ available: true, address: s.migration.pool, trades: mine.length, traders: new Set(mine.map((t) => t.trader)).size });
      expect(base58.decode(g.migration.address)).toHaveLength(32);
      expect(g.migration.volumeSol).toBeCloseTo(mine.reduce((x, t) => x + t.sol, 0), 5);
      expect(g.migration.volumeUsd).toBeCloseTo(usdOf(mine), 1);
      // The pool opened with the SOL the curve raised and the tokens kept off the curve, and x*y only grows (fees stay in it).
      const opening = body.graduationSol * (EMBEDDED_VENUE.totalSupply - EMBEDDED_VENUE.curveSupply);
      expect(g.migration.reserveSol * g.migration.reserveTokens).toBeGreaterThanOrEqual(opening * (1 - 1e-9));
      // Priced by the pool now, not by the curve it left.
      expect(g.priceSol).toBeCloseTo(s.migration.reserveSol / s.migration.reserveTokens, 15);
      poolVolume += mine.length;
    }
    expect(poolVolume).toBeGreaterThan(0);
  });

  it('a feed without pool trades says post-migration volume is unavailable instead of 0', async () => {
    const venue = new EmbeddedCurveVenue({ seed: SEED, genesisTime: GENESIS });
    const curveOnly: CurveFeed = {
      source: venue.source, venue: venue.venue,
      head: () => venue.head(), launches: (a, b) => venue.launches(a, b), trades: (a, b) => venue.trades(a, b),
      states: (m) => venue.states(m), solUsd: (t) => venue.solUsd(t),
    };
    const head = await venue.head();
    const { rows } = await curveActivity(curveOnly, head.time - 7 * 86_400, head.time);
    const migrated = rows.filter((r) => r.migration);
    expect(migrated.length).toBeGreaterThan(0);
    for (const r of migrated) expect(r.migration).toMatchObject({ available: false, reason: expect.stringContaining('curve trades only') });
    const full = await curveActivity(venue, head.time - 7 * 86_400, head.time);
    expect(full.rows.filter((r) => r.migration?.available).length).toBe(migrated.length);
  });

  it('the venue moves with the clock: a later read sees at least as much history', async () => {
    const first = await post('/x402/data/curve-volume', { timeperiod: '30d', limit: 1 });
    await new Promise((r) => setTimeout(r, 1_100));
    const second = await post('/x402/data/curve-volume', { timeperiod: '30d', limit: 1 });
    expect(Date.parse(second.asOf.timestamp)).toBeGreaterThanOrEqual(Date.parse(first.asOf.timestamp));
    expect(second.totals.trades).toBeGreaterThanOrEqual(first.totals.trades);
    // This venue began three days ago: a 30-day answer says it covers only those days.
    expect(second.coverage).toMatchObject({ complete: false, from: new Date(GENESIS * 1000).toISOString(), periodFrom: second.window.from, to: second.window.to });
    expect(second.coverage.note).toMatch(/3(\.0)? days of the 30(\.0)? days/);
    const day = await post('/x402/data/curve-volume', { timeperiod: '24h', limit: 1 });
    expect(day.coverage).toMatchObject({ complete: true, from: day.window.from });
  });

  it('venue keys and signatures are base58 as Solana writes it (the venue\'s own encoder agrees with @scure/base)', () => {
    for (let i = 0; i < 2_000; i++) {
      const bytes = randomBytes(i % 2 ? 32 : 64);
      if (i % 5 === 0) bytes.fill(0, 0, 1 + (i % 3)); // leading zero bytes become leading 1s
      expect(base58Encode(bytes)).toBe(base58.encode(bytes));
    }
  });

  it('the default venue holds the spec\'s longest period: a 30-day window read at start-up is covered, and holds trades from its first day', async () => {
    const venue = new EmbeddedCurveVenue({ seed: SEED, genesisTime: defaultCurveGenesis() });
    await venue.warm();
    const head = await venue.head();
    const from = head.time - 30 * 86_400;
    expect(venue.historyStart).toBeLessThanOrEqual(from);
    const firstDay = await venue.trades(from, from + 86_400);
    expect(firstDay.length).toBeGreaterThan(1_000);
  });

  it.each([
    ['curve-launches', { limit: 0 }, 'limit', />= 1/],
    ['curve-launches', { limit: 21 }, 'limit', /<= 20/],
    ['curve-launches', { timeperiod: '7d' }, 'timeperiod', /must be one of 1h, 4h, 12h, 24h/],
    ['curve-launches', { sortBy: 'mcap' }, 'sortBy', /must be one of volume, time, progress/],
    ['curve-launches', { minVolumeUsd: -1 }, 'minVolumeUsd', />= 0/],
    ['curve-launches', { chain: 'base' }, 'chain', /must be one of solana/],
    ['curve-volume', { limit: 501 }, 'limit', /<= 500/],
    ['curve-volume', { timeperiod: '60d' }, 'timeperiod', /must be one of/],
    ['curve-graduation', { limit: 201 }, 'limit', /<= 200/],
    ['curve-graduation', { minProgressPct: -1 }, 'minProgressPct', />= 0/],
    ['curve-graduation', { minProgressPct: 101 }, 'minProgressPct', /<= 100/],
  ])('%s %j → 400 naming %s, nothing asked', async (path, body, field, rule) => {
    const res = await postJson(`${sibyl.url}/x402/data/${path}`, body);
    expect(res.status).toBe(400);
    const { error } = await json(res);
    expect(error.fields.some((f: any) => f.field === field && rule.test(f.rule))).toBe(true);
  });

  it.each([
    ['curve-launches', { limit: 20, timeperiod: '1h', chain: 'solana' }],
    ['curve-volume', { limit: 500, timeperiod: '30d' }],
    ['curve-graduation', { limit: 200, minProgressPct: 0 }],
    ['curve-graduation', { limit: 1, minProgressPct: 100 }],
  ])('%s %j at the edges is priced', async (path, body) => {
    expect((await postJson(`${sibyl.url}/x402/data/${path}`, body)).status).toBe(402);
  });
});
