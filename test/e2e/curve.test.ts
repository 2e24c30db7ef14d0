/**
 * The Solana launchpad operations, paid end to end on the embedded venue and recomputed from a
 * second venue built from the same seed and genesis: its raw trades, read through the feed
 * interface, must give the figures the service sold.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { base58 } from '@scure/base';
import { EmbeddedCurveVenue, EMBEDDED_VENUE } from '../../src/curve/embedded.js';
import { json, paidPoster, postJson, useTestSibyl } from '../helpers/sibyl.js';

const SEED = 'curve-test';
const GENESIS = Math.floor(Date.now() / 1000) - 3 * 86_400;

describe('curve-* operations on the embedded Solana venue', () => {
  const sibyl = useTestSibyl({ env: { WORLD_SEED: SEED, CURVE_GENESIS_TIME: String(GENESIS) } });
  let post: (path: string, body: unknown) => Promise<any>;
  const twin = new EmbeddedCurveVenue({ seed: SEED, genesisTime: GENESIS });
  beforeAll(async () => {
    const paid = await paidPoster(() => sibyl.url);
    post = async (path, body) => {
      const res = await paid(path, body);
      expect(res.status).toBe(200);
      return json(res);
    };
  });

  it('curve-volume: each token\'s trades, traders and SOL equal a recomputation from the feed\'s raw trades', async () => {
    const body = await post('/x402/data/curve-volume', { timeperiod: '24h', limit: 500 });
    expect(body).toMatchObject({ source: 'embedded', chain: 'solana', methodology: expect.stringContaining('curve/v1'), limit: 500 });
    const from = Date.parse(body.window.from) / 1000;
    const to = Date.parse(body.window.to) / 1000;
    const trades = await twin.trades(from, to);
    expect(body.totals.trades).toBe(trades.length);
    expect(body.tokens.length).toBeGreaterThan(3);
    for (const token of body.tokens.slice(0, 5)) {
      const mine = trades.filter((t) => t.mint === token.mint);
      expect(token.trades).toBe(mine.length);
      expect(token.traders).toBe(new Set(mine.map((t) => t.trader)).size);
      expect(token.volumeSol).toBeCloseTo(mine.reduce((s, t) => s + t.sol, 0), 5);
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
    expect(defaults.launchedInPeriod).toBe((await twin.launches(Date.parse(defaults.window.from) / 1000, Date.parse(defaults.window.to) / 1000)).length);
  });

  it('curve-graduation: curve states keep the constant product, and the SOL to graduate is what the curve still needs', async () => {
    const body = await post('/x402/data/curve-graduation', { minProgressPct: 60, limit: 200 });
    expect(body.approaching.length).toBeGreaterThan(0);
    const k = EMBEDDED_VENUE.initialVirtualSol * EMBEDDED_VENUE.initialVirtualTokens;
    const states = new Map((await twin.states()).map((s) => [s.mint, s]));
    for (const t of body.approaching) {
      expect(t.progressPct).toBeGreaterThanOrEqual(60);
      expect(t.graduated).toBe(false);
      const s = states.get(t.mint)!;
      expect(s.virtualSol * s.virtualTokens).toBeCloseTo(k, -3); // the curve's invariant
      expect(t.realSol + t.solToGraduate).toBeCloseTo(body.graduationSol, 5);
    }
    const progress = body.approaching.map((t: any) => t.progressPct);
    expect(progress).toEqual([...progress].sort((a: number, b: number) => b - a));
    for (const g of body.graduatedLast24h) {
      expect(g.graduated).toBe(true);
      // Migration follows graduation by minutes: one that just graduated may not have moved yet.
      if (g.migration) expect(base58.decode(g.migration.pool)).toHaveLength(32);
    }
  });

  it('the venue moves with the clock: a later read sees at least as much history', async () => {
    const first = await post('/x402/data/curve-volume', { timeperiod: '30d', limit: 1 });
    await new Promise((r) => setTimeout(r, 1_100));
    const second = await post('/x402/data/curve-volume', { timeperiod: '30d', limit: 1 });
    expect(Date.parse(second.asOf.timestamp)).toBeGreaterThanOrEqual(Date.parse(first.asOf.timestamp));
    expect(second.totals.trades).toBeGreaterThanOrEqual(first.totals.trades);
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
