/**
 * The perp skills on every surface, bought as a user buys them: `perp-smart-money` over A2A
 * `{params}` with the official x402 client and over JSON-RPC, `track_whales` venue `hyperliquid` on
 * prepaid credits, the free `get_perp_whales`, and the report agent; each at the spec's price
 * (test/helpers/spec-prices.ts, never the registry). The venue is the embedded one, served here and
 * handed to Sibyl by its URLs only (HYPERLIQUID_URL, HYPERLIQUID_STATS_URL): the path the real
 * Hyperliquid takes. Answers are checked against the venue's own state (the plan), not the engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HyperliquidVenue } from '../../world/perps/hyperliquid-api.js';
import { PerpPlan, type PerpAccount } from '../../world/perps/plan.js';
import { servePerpVenue } from '../../world/perps/server.js';
import { ReferencePaths } from '../../world/reference.js';
import { creditedMcpClient } from '../helpers/mcp-credits.js';
import { fundedPayer, json, payingFetch, postJson, startTestSibyl, usdcBalance, walletPoster, rpcUrl, type TestSibyl } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';
import { a2aParamsFailures, kindFailures, paidJsonRpc } from '../helpers/surfaces.js';

const SEED = 'e2e-perps';
const now = () => Date.now() / 1000;
const paths = new ReferencePaths(SEED, Math.floor(now()) - 20 * 86_400);
const plan = new PerpPlan(SEED, paths.origin, (asset, t) => paths.priceUsd(asset, t));

let venue: Awaited<ReturnType<typeof servePerpVenue>>;
let sibyl: TestSibyl;

beforeAll(async () => {
  venue = await servePerpVenue(new HyperliquidVenue(plan), now);
  sibyl = await startTestSibyl({ env: { PERPS: 'embedded', HYPERLIQUID_URL: venue.urls.api, HYPERLIQUID_STATS_URL: venue.urls.stats } });
}, 120_000);
afterAll(async () => {
  await sibyl?.close();
  await venue?.close();
});

/** The venue's account, by address. */
const account = (user: string): PerpAccount => plan.through(now()).accounts.find((a) => a.user === user.toLowerCase())!;
/** An answer's position is the account's on the venue: same coin, side and size. */
const positionFailures = (user: string, positions: readonly { coin: string; side: string; size: number }[]): string[] => {
  const held = account(user).position;
  const want = held && held.szi !== 0 ? [{ coin: held.coin, side: held.szi > 0 ? 'long' : 'short', size: Math.abs(held.szi) }] : [];
  const got = positions.map((p) => ({ coin: p.coin, side: p.side, size: p.size }));
  return got.length === want.length && got.every((g, i) => g.coin === want[i]!.coin && g.side === want[i]!.side && Math.abs(g.size - want[i]!.size) <= 1e-6 * want[i]!.size) ? [] : [`${user}: ${JSON.stringify(got)} on the venue ${JSON.stringify(want)}`];
};

describe('perp skills on every surface', () => {
  it('perp-smart-money over A2A {params}, paid with x402 at the spec price: traders with a record, their positions as the venue holds them', { timeout: 120_000 }, async () => {
    let answer: Record<string, unknown> | undefined;
    const failures = await a2aParamsFailures(await walletPoster(sibyl.url, '5'), { 'perp-smart-money': { timeperiod: '7d', limit: 10 } }, (_id, response) => {
      answer = response;
      return JSON.stringify(response).includes(venue.urls.api) ? undefined : 'the venue it read is not named';
    });
    expect(failures).toEqual([]);
    const traders = answer!.traders as { address: string; positions: { coin: string; side: string; size: number }[] }[];
    expect(traders.length).toBeGreaterThan(0);
    // Nobody is smart money for its size: market makers and unreadable accounts never appear.
    for (const t of traders) {
      expect(['market-maker'].includes(account(t.address).role), t.address).toBe(false);
      expect(account(t.address).unreadable, t.address).toBe(false);
    }
    expect(traders.flatMap((t) => positionFailures(t.address, t.positions))).toEqual([]);
  });

  it('over A2A JSON-RPC: message/send asks for the spec price, and the paid message completes', { timeout: 60_000 }, async () => {
    await paidJsonRpc(sibyl.url, (await fundedPayer('5')).key, 'perp-smart-money', { limit: 3 });
  });

  it('track_whales venue hyperliquid is debited at perp-smart-money\'s spec price; get_perp_whales answers free, as the venue holds the whales', { timeout: 120_000 }, async () => {
    const { client, credits, auth } = await creditedMcpClient(sibyl.url, rpcUrl(), '1');
    try {
      expect(await kindFailures(client, credits, [['track_whales', { venue: 'hyperliquid', timeframe: '7d', limit: 5 }, 'perp-smart-money']])).toEqual([]);
      void auth;
      await sibyl.snapshots.runAll();
      const before = await credits();
      const r = await client.callTool({ name: 'get_perp_whales', arguments: { limit: 12 } });
      expect(await credits()).toBe(before);
      const body = r.structuredContent as {
        available: boolean; limit: number; origins: Record<string, string>;
        whales: { tradersRequested: number; tradersAnalyzed: number; topTraders: { address: string }[]; unreadTraders: { address: string; reason: string }[]; whalePositions: { address: string; coin: string; side: string; size: number }[]; assets: { coin: string; lean: string; holders: number }[]; marketMakersExcluded: number };
        funding: { rates: { coin: string; hourly: number }[] };
      };
      expect(body.available, JSON.stringify(body).slice(0, 300)).toBe(true);
      expect(Object.values(body.origins).join(' ')).toContain(venue.urls.api);
      const { whales } = body;
      expect(whales.tradersRequested).toBe(12);
      // As many whales as the venue's leaderboard has accounts of $500k+ that are not market makers, up to the limit.
      const board = (new HyperliquidVenue(plan).leaderboard(Math.floor(now())).body as { leaderboardRows: { ethAddress: string; accountValue: string }[] }).leaderboardRows;
      const eligible = board.filter((row) => Number(row.accountValue) >= 500_000 && account(row.ethAddress).role !== 'market-maker').length;
      expect(whales.topTraders).toHaveLength(Math.min(12, eligible));
      // Market makers (huge volume, small account) are never whales; the venue's unreadable accounts are reported, never counted.
      for (const w of whales.topTraders) expect(account(w.address).role, w.address).not.toBe('market-maker');
      expect(whales.marketMakersExcluded).toBeGreaterThan(0);
      const unreadable = whales.topTraders.filter((w) => account(w.address).unreadable).map((w) => w.address).sort();
      expect(whales.unreadTraders.map((u) => u.address).sort()).toEqual(unreadable);
      expect(whales.tradersAnalyzed).toBe(whales.topTraders.length - unreadable.length);
      expect(whales.whalePositions.every((p) => !unreadable.includes(p.address))).toBe(true);
      const read = whales.topTraders.filter((w) => !account(w.address).unreadable);
      expect(read.flatMap((w) => positionFailures(w.address, whales.whalePositions.filter((p) => p.address === w.address)))).toEqual([]);
      // A coin held by fewer than three read whales is NEUTRAL.
      for (const a of whales.assets) if (a.holders < 3) expect(a.lean, a.coin).toBe('NEUTRAL');
      // Funding is the venue's current hour.
      const state = plan.through(now());
      for (const r of body.funding.rates) expect(r.hourly, r.coin).toBeCloseTo(state.hours.get(r.coin as never)!.at(-1)!.fundingRate, 10);
    } finally {
      await client.close();
    }
  });

  it('the report agent answers "What are the perp whales doing on ETH?" from get_perp_whales, at the report\'s price', { timeout: 120_000 }, async () => {
    await sibyl.snapshots.runAll();
    const payer = await walletPoster(sibyl.url, '3');
    const before = await payer.balance();
    const res = await payer.post('/api/a2a/skills/general-analysis', { params: { prompt: 'What are the perp whales doing on ETH?' } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.response.toolsUsed[0].skill).toBe('perp-whales');
    // It says what the whales hold on ETH (or that none holds it) and what ETH's funding is.
    expect(body.response.analysis).toMatch(/ETH: (BULLISH|BEARISH|MIXED|NEUTRAL|no read whale holds it)[^;]*funding/);
    expect(before - (await payer.balance())).toBe(SPEC_SKILL_PRICE['general-analysis']);
  });
});

describe('refused before payment, or not charged', () => {
  it('a coin the venue does not list is a 404 and a bad limit or window a 400 naming the field, before any 402', { timeout: 30_000 }, async () => {
    const unknown = await postJson(`${sibyl.url}/api/a2a/skills/perp-smart-money`, { params: { coin: 'NOPE' } });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error).toMatchObject({ code: 'token_not_found', message: expect.stringMatching(/coin: NOPE/) });
    for (const [params, field] of [[{ limit: 0 }, 'limit'], [{ timeperiod: '12h' }, 'timeperiod'], [{ coin: 'E T H' }, 'coin']] as const) {
      const res = await postJson(`${sibyl.url}/api/a2a/skills/perp-smart-money`, { params });
      const text = await res.text();
      expect(res.status, text.slice(0, 200)).toBe(400);
      expect(text).toContain(field);
    }
  });

  it('a venue on which nobody has a record yet answers available: false, 422 no_answer, and nothing is settled', { timeout: 90_000 }, async () => {
    // Two days of history (the venue's start): no skilled account has its twelve closed trades yet.
    const young = new ReferencePaths(`${SEED}-young`, Math.floor(now()));
    const youngVenue = await servePerpVenue(new HyperliquidVenue(new PerpPlan(`${SEED}-young`, young.origin, (asset, t) => young.priceUsd(asset, t))), now);
    const server = await startTestSibyl({ env: { PERPS: 'embedded', HYPERLIQUID_URL: youngVenue.urls.api, HYPERLIQUID_STATS_URL: youngVenue.urls.stats } });
    try {
      const payer = await walletPoster(server.url, '2');
      const before = await payer.balance();
      const res = await payer.post('/api/a2a/skills/perp-smart-money', { params: {} });
      const body = await json(res);
      expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(422);
      expect(body).toMatchObject({ available: false, charged: false, error: { code: 'no_answer' } });
      expect(body.reason).toMatch(/meets the record/);
      expect(await payer.balance()).toBe(before);
    } finally {
      await server.close();
      await youngVenue.close();
    }
  });

  it('a venue that cannot be read is a 503 before any 402; with PERPS=off the skills are refused and the free tool says so', { timeout: 90_000 }, async () => {
    const dead = await startTestSibyl({ env: { PERPS: 'embedded', HYPERLIQUID_URL: 'http://127.0.0.1:9/hyperliquid', HYPERLIQUID_STATS_URL: 'http://127.0.0.1:9/hyperliquid-stats' } });
    const off = await startTestSibyl({ env: { PERPS: 'off' } });
    try {
      const payer = await fundedPayer('2');
      const before = await usdcBalance(payer.account.address);
      const { pay } = payingFetch(payer.key);
      const res = await pay(`${dead.url}/api/a2a/skills/perp-smart-money`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ params: {} }) });
      expect(res.status, await res.clone().text()).toBe(503);
      expect((await json(res)).error.code).toBe('upstream_unavailable');
      expect(await usdcBalance(payer.account.address)).toBe(before);

      const refused = await postJson(`${off.url}/api/a2a/skills/perp-smart-money`, { params: {} });
      expect(refused.status).toBe(503);
      expect((await json(refused)).error.code).toBe('domain_disabled');
      expect(((await json(await fetch(`${off.url}/healthz`))) as { perps?: unknown }).perps).toBeUndefined();
      expect(((await json(await fetch(`${sibyl.url}/healthz`))) as { perps: { name: string; state: string }[] }).perps).toMatchObject([{ name: 'hyperliquid', source: 'configured', state: 'up' }]);
    } finally {
      await dead.close();
      await off.close();
    }
  });
});
