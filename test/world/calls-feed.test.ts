/**
 * The embedded calls feed (world/callers): the plan's callers are what they are labelled (skilled
 * callers hit at their probability over the call's span, lucky ones hit every one of their few
 * calls), and the feed served on loopback, read through the adapter (skills/callers/source.ts),
 * is the plan's calls, paged and filtered, never its labels. A feed that is down or answers outside
 * its shape is `upstream_unavailable`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallersPlan, HORIZON_SECONDS, type PlannedCall } from '../../world/callers/plan.js';
import { callerPrices } from '../../world/callers/prices.js';
import { serveCallsFeed } from '../../world/callers/server.js';
import { ReferencePaths } from '../../world/reference.js';
import { StockPaths } from '../../world/stocks/underlyings.js';
import { callsSource, type CallRead } from '../../skills/callers/source.js';
import { SibylError } from '../../skills/core/errors.js';

const SEED = 'calls-feed';
const NOW = Math.floor(Date.UTC(2026, 11, 1, 12, 0, 0) / 1000);
const ORIGIN = NOW - 30 * 86_400;
const priceAt = callerPrices(new ReferencePaths(SEED, ORIGIN), new StockPaths(SEED, ORIGIN));
const plan = new CallersPlan(SEED, ORIGIN, priceAt);
const clock = { now: NOW };
let feed: { url: string; close(): Promise<void> };

beforeAll(async () => {
  feed = await serveCallsFeed(plan, () => clock.now);
});
afterAll(() => feed.close());

const asRead = (c: PlannedCall): CallRead => ({ id: c.id, caller: c.caller, asset: c.asset, assetClass: c.assetClass, direction: c.direction, horizon: c.horizon, madeAt: c.madeAt, priceAtCall: c.priceAtCall });

describe('the callers plan', () => {
  const state = plan.through(NOW);

  it('is the same plan whenever it is asked, however far it was read before', () => {
    const fresh = new CallersPlan(SEED, ORIGIN, priceAt);
    fresh.through(ORIGIN + 3 * 86_400);
    expect(fresh.through(NOW).calls).toEqual(state.calls);
    expect(state.callers.length).toBe(40);
    expect(new Set(state.callers.map((c) => c.kind))).toEqual(new Set(['skilled', 'contrarian', 'random', 'lucky']));
  });

  it('skilled and contrarian callers hit at their probability over each call\'s span; lucky callers hit all their few calls', () => {
    const closed = (c: PlannedCall) => c.direction !== 'hold' && plan.closeOf(c) <= NOW;
    const hit = (c: PlannedCall) => (c.direction === 'long' ? 1 : -1) * plan.excessReturn(c.asset, c.assetClass, c.madeAt, plan.closeOf(c)) > 0;
    const pooled = { skilled: { n: 0, hits: 0, p: 0 }, contrarian: { n: 0, hits: 0, p: 0 } };
    for (const caller of state.callers) {
      const calls = state.calls.filter((c) => c.caller === caller.id && closed(c));
      if (caller.kind === 'lucky') {
        expect(calls.length).toBeGreaterThanOrEqual(2);
        expect(calls.length).toBeLessThanOrEqual(5);
        expect(calls.every(hit)).toBe(true);
      }
      if (caller.kind === 'skilled' || caller.kind === 'contrarian') {
        const p = pooled[caller.kind];
        p.n += calls.length;
        p.hits += calls.filter(hit).length;
        p.p += caller.hitProbability * calls.length;
        if (caller.kind === 'skilled') expect(calls.length).toBeGreaterThanOrEqual(30);
      }
    }
    // Pooled over each kind, within three standard errors of the labelled probability.
    for (const p of Object.values(pooled)) {
      const expected = p.p / p.n;
      expect(Math.abs(p.hits / p.n - expected)).toBeLessThan(3 * Math.sqrt((expected * (1 - expected)) / p.n));
    }
  });

  it('a hold closes the caller\'s open call on the asset early', () => {
    const holds = state.calls.filter((c) => c.direction === 'hold');
    expect(holds.length).toBeGreaterThan(20);
    const closedEarly = state.calls.filter((c) => c.direction !== 'hold' && plan.closeOf(c) <= NOW && plan.closeOf(c) < c.madeAt + HORIZON_SECONDS[c.horizon]);
    expect(closedEarly.length).toBeGreaterThan(0);
    for (const c of closedEarly) expect(holds.some((h) => h.caller === c.caller && h.asset === c.asset && h.madeAt === plan.closeOf(c))).toBe(true);
  });
});

describe('the calls feed, read through the adapter', () => {
  it('serves every caller, and never what it is', async () => {
    const source = callsSource(feed.url);
    expect(await source.callers()).toEqual(plan.callers.map((c) => ({ id: c.id, sourceType: c.sourceType, label: c.label })));
    const raw = await (await fetch(`${feed.url}/v1/callers`)).text();
    expect(raw).not.toMatch(/skilled|lucky|contrarian|random|hitProbability|kind/);
  });

  it('serves the plan\'s calls up to its clock, over several pages, oldest first', async () => {
    const read = await callsSource(feed.url).calls();
    const want = plan.through(NOW).calls;
    expect(want.length).toBeGreaterThan(1_000);
    expect(read.truncated).toBe(false);
    expect(read.asOf).toBe(NOW);
    expect(read.calls).toEqual(want.map(asRead));
  });

  it('filters by caller and time, and pages consistently', async () => {
    const caller = plan.callers.find((c) => c.kind === 'skilled')!.id;
    const since = ORIGIN + 5 * 86_400;
    const until = ORIGIN + 12 * 86_400;
    const read = await callsSource(feed.url).calls({ caller, since, until });
    expect(read.calls).toEqual(plan.through(NOW).calls.filter((c) => c.caller === caller && c.madeAt >= since && c.madeAt <= until).map(asRead));
    const want = plan.through(NOW).calls.filter((c) => c.madeAt <= until).map((c) => c.id);
    // Page sizes that leave one call over, none over, and many pages.
    for (const size of [want.length - 1, want.length, 150]) {
      const ids: string[] = [];
      for (let page = 1; page; ) {
        const body = await (await fetch(`${feed.url}/v1/calls?page=${page}&page_size=${size}&until=${new Date(until * 1000).toISOString()}`)).json() as { calls: { id: string }[]; next_page: number | null; total: number };
        expect(body.total).toBe(want.length);
        ids.push(...body.calls.map((c) => c.id));
        page = body.next_page ?? 0;
      }
      expect(ids).toEqual(want);
    }
  });

  it('grows as its clock moves, the calls already served unchanged', async () => {
    const before = (await callsSource(feed.url).calls()).calls;
    clock.now = NOW + 2 * 86_400;
    try {
      const after = (await callsSource(feed.url).calls()).calls;
      expect(after.length).toBeGreaterThan(before.length);
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.every((c) => c.madeAt <= clock.now)).toBe(true);
    } finally {
      clock.now = NOW;
    }
  });

  it('answers a bad parameter 400 and another path 404, in one error shape', async () => {
    for (const [path, status] of [['/v1/calls?page=0', 400], ['/v1/calls?page_size=5000', 400], ['/v1/calls?since=yesterday', 400], ['/v1/other', 404]] as const) {
      const res = await fetch(`${feed.url}${path}`);
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBeTypeOf('string');
    }
  });
});

describe('a calls feed that is down or misshapen', () => {
  let server: Server;
  let url: string;
  const answers: Record<string, { status: number; body: string }> = {
    '/broken/v1/callers': { status: 200, body: '{"as_of":"2026-01-01T00:00:00Z","callers":[{"id":7}]}' },
    '/text/v1/callers': { status: 200, body: 'hello' },
    '/error/v1/callers': { status: 500, body: 'boom' },
    '/broken/v1/calls': { status: 200, body: '{"as_of":"2026-01-01T00:00:00Z","page":1,"total":1,"next_page":null,"calls":[{"id":"x","caller_id":"a","asset":"ETH","asset_class":"crypto","direction":"up","horizon":"1d","made_at":"2026-01-01T00:00:00Z","price_at_call":1}]}' },
  };
  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url!, 'http://x').pathname;
      if (path.startsWith('/silent')) return; // never answers
      const a = answers[path] ?? { status: 404, body: '' };
      res.writeHead(a.status).end(a.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  }));

  const unavailable = async (p: Promise<unknown>) => {
    const err = await p.then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(SibylError);
    expect((err as SibylError).code).toBe('upstream_unavailable');
  };

  it('is upstream_unavailable: misshapen, not JSON, an HTTP error, no answer in time, nothing listening', async () => {
    await unavailable(callsSource(`${url}/broken`).callers());
    await unavailable(callsSource(`${url}/broken`).calls());
    await unavailable(callsSource(`${url}/text`).callers());
    await unavailable(callsSource(`${url}/error`).callers());
    await unavailable(callsSource(`${url}/silent`, fetch, 200).callers());
    const closed = await serveCallsFeed(plan, () => NOW);
    await closed.close();
    await unavailable(callsSource(closed.url).calls());
  });
});
