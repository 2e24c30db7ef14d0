/**
 * The prediction venues of a running Sibyl (no world: the shared devnet's chains by URL): the
 * embedded Polymarket venue answers through the skills' context with the markets of the plan its
 * seed and origin draw, a configured Kalshi is read at its URL instead of the embedded one, both
 * are logged at start and listed in /healthz, and PREDICTION=off leaves the context without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedVenues } from '../../world/prediction/embedded.js';
import { PredictionPlan } from '../../world/prediction/plan.js';
import { servePredictionVenues } from '../../world/prediction/server.js';
import { ReferencePaths } from '../../world/reference.js';
import { predictionSource } from '../../skills/prediction/source.js';
import { predictionVenues } from '../../skills/prediction/venues.js';
import { ORIGIN, priceAt } from '../helpers/prediction-world.js';
import { json, startTestSibyl, type TestSibyl } from '../helpers/sibyl.js';

const SEED = 'prediction-service';
const QUIET = { CURVE_FEED: 'off', BITCOIN: 'off', FORECAST: 'off' };

describe('the prediction venues of a running Sibyl', () => {
  // A Kalshi of the test's own, standing where the embedded one would not: the configured venue.
  const kalshiNow = ORIGIN + 3 * 86_400;
  const kalshiPlan = new PredictionPlan('configured-kalshi', ORIGIN, priceAt);
  let kalshi: Awaited<ReturnType<typeof servePredictionVenues>>;
  let on: TestSibyl;
  let off: TestSibyl;
  const progress: string[] = [];

  beforeAll(async () => {
    kalshi = await servePredictionVenues(embeddedVenues(kalshiPlan, priceAt, () => kalshiNow), () => kalshiNow);
    on = await startTestSibyl({ env: { ...QUIET, WORLD_SEED: SEED, PREDICTION: 'embedded', KALSHI_API_URL: kalshi.urls.kalshi }, onProgress: (m) => progress.push(m) });
    off = await startTestSibyl({ env: { ...QUIET, PREDICTION: 'off' } });
  }, 120_000);
  afterAll(async () => {
    await on?.close();
    await off?.close();
    await kalshi?.close();
  });

  it('serves the embedded Polymarket of its seed\'s plan, and reads the configured Kalshi at its URL', async () => {
    const venues = predictionVenues(on.context);
    expect(venues.kind).toEqual({ polymarket: 'embedded', kalshi: 'configured' });
    // No world here: the venues follow paths of their own, from the Solana venue's default genesis (30 days and 10 minutes back).
    expect(venues.plan!.seed).toBe(SEED);
    expect(Math.abs(venues.plan!.origin - (Date.now() / 1000 - 30 * 86_400 - 600))).toBeLessThan(300);

    const now = Date.now() / 1000;
    const paths = new ReferencePaths(SEED, venues.plan!.origin);
    const expected = new PredictionPlan(SEED, venues.plan!.origin, (a, t) => paths.priceUsd(a, t)).through(now).events.filter((e) => e.opensAt <= now);
    const markets = await venues.polymarket.markets();
    expect(markets.length).toBe(expected.length);
    expect(markets.map((m) => m.question).sort()).toEqual(expected.map((e) => e.title).sort());

    const fromKalshi = await venues.kalshi.markets();
    expect(fromKalshi.length).toBe(kalshiPlan.through(kalshiNow).events.filter((e) => e.opensAt <= kalshiNow && e.crossListing).length);
    expect(venues.kalshi.origins()).toEqual([{ venue: 'kalshi', api: 'trade-api/v2', url: kalshi.urls.kalshi }]);
  });

  it('logs one line with the venues\' URLs and what the embedded plan cost, and the logged URLs answer', async () => {
    const lines = progress.filter((m) => m.startsWith('prediction venues:'));
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toMatch(/polymarket embedded .*kalshi configured/);
    expect(line).toMatch(new RegExp(`embedded plan \\(seed ${SEED}, origin [^)]+\\): \\d+ events drawn and served in \\d+ ms`));
    const gamma = /gamma (http:\/\/127\.0\.0\.1:\d+\/polymarket\/gamma)/.exec(line)![1]!;
    expect(predictionVenues(on.context).polymarket.origins().map((o) => o.url)).toContain(gamma);
    const clob = /clob (\S+),/.exec(line)![1]!;
    const data = /data (\S+)\)/.exec(line)![1]!;
    const source = predictionSource({ polymarketGamma: gamma, polymarketClob: clob, polymarketData: data, kalshi: kalshi.urls.kalshi });
    const [open] = await source.polymarket.markets({ active: true });
    const book = await source.polymarket.book(open!.clobTokenIds[0]!);
    expect(book.bids[0]!.price).toBeLessThan(book.asks[0]!.price);
  });

  it('lists both venues in /healthz, each with its source, and none where PREDICTION is off', async () => {
    const health = await json(await fetch(`${on.url}/healthz`));
    const byName = Object.fromEntries(health.prediction.map((v: { name: string }) => [v.name, v]));
    expect(byName.polymarket).toMatchObject({ source: 'embedded', state: 'up', required: false });
    expect(byName.polymarket.urls).toEqual(predictionVenues(on.context).polymarket.origins().map((o) => o.url));
    // A configured venue's URL is shown reduced to scheme, host and port.
    expect(byName.kalshi).toMatchObject({ source: 'configured', state: 'up', urls: [new URL(kalshi.urls.kalshi).origin] });
    expect((await json(await fetch(`${off.url}/healthz`))).prediction).toBeUndefined();
  });

  it('PREDICTION=off leaves the context without venues: the skills refuse before payment with domain_disabled', () => {
    expect(off.context.prediction).toBeUndefined();
    expect(() => predictionVenues(off.context)).toThrow(expect.objectContaining({ code: 'domain_disabled' }));
  });
});
