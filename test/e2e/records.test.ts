/**
 * The public-records and market-callers tools on the service, as a user meets them: the free
 * `get_congress_trades`, `get_government_contracts` and `get_analyst_accuracy` over MCP (no debit),
 * and the report agent's "Which members of Congress traded NVDA?" at the report's price. The feeds
 * are the embedded ones, served here and handed to Sibyl by their URLs only (CONGRESS_TRADES_URL,
 * USASPENDING_URL, CALLS_FEED_URL): the path the real services take. Answers are checked against
 * the feeds' own plans and labels, never the engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallersPlan } from '../../world/callers/plan.js';
import { callerPrices } from '../../world/callers/prices.js';
import { serveCallsFeed } from '../../world/callers/server.js';
import { RecordsPlan } from '../../world/records/plan.js';
import { serveRecordVenues } from '../../world/records/server.js';
import { ReferencePaths } from '../../world/reference.js';
import { StockPaths } from '../../world/stocks/underlyings.js';
import { json, startTestSibyl, walletPoster, type TestSibyl } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';

const SEED = 'e2e-records';
const DAY = 86_400;
const now = () => Date.now() / 1000;
const ORIGIN = Math.floor(now()) - 60 * DAY;
const records = new RecordsPlan(SEED, ORIGIN, new StockPaths(SEED, ORIGIN));
const reference = new ReferencePaths(SEED, ORIGIN);
const callers = new CallersPlan(SEED, ORIGIN, callerPrices(reference, new StockPaths(SEED, ORIGIN)));

let feeds: Awaited<ReturnType<typeof serveRecordVenues>>;
let calls: Awaited<ReturnType<typeof serveCallsFeed>>;
let sibyl: TestSibyl;
let client: Client;

beforeAll(async () => {
  feeds = await serveRecordVenues(records, now);
  calls = await serveCallsFeed(callers, now);
  sibyl = await startTestSibyl({ env: { RECORDS: 'embedded', CALLS: 'embedded', CONGRESS_TRADES_URL: feeds.urls.congress, USASPENDING_URL: feeds.urls.usaspending, CALLS_FEED_URL: calls.url } });
  await sibyl.snapshots.runAll();
  client = new Client({ name: 'sibyl-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${sibyl.url}/api/mcp`)));
}, 120_000);
afterAll(async () => {
  await client?.close();
  await sibyl?.close();
  await feeds?.close();
  await calls?.close();
});

const call = async (name: string, args: Record<string, unknown>) => {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content).slice(0, 500)}`);
  return r.structuredContent as any;
};
/** A trade by its ticker and dates. */
const keyOf = (t: { ticker: string | null; transactionDate: string; disclosureDate: string }) => `${t.ticker}:${t.transactionDate.slice(0, 10)}:${t.disclosureDate.slice(0, 10)}`;
/** The plan's trades disclosed in a window (by default the tools' 90 days to now). */
const disclosed = (from = now() - 90 * DAY, to = now()) => records.through(to).trades.filter((t) => t.disclosedAt >= from);

describe('public records and graded callers', () => {
  it('get_congress_trades lists disclosed trades only, each as filed, with its filing delay and the late ones flagged exactly', async () => {
    const body = await call('get_congress_trades', { limit: 25 });
    expect(body.available, JSON.stringify(body).slice(0, 300)).toBe(true);
    expect(Object.values(body.origins).join(' ')).toContain(feeds.urls.congress);
    // The window the snapshot was built over.
    const window = disclosed(Date.parse(body.window.from) / 1000, Date.parse(body.window.to) / 1000);
    expect(body.count).toBe(window.length);
    expect(body.trades.length).toBe(Math.min(25, window.length));
    for (const row of body.trades) {
      const same = window.filter((t) => keyOf(t) === keyOf(row));
      expect(same.length, keyOf(row)).toBeGreaterThan(0);
      expect(same.map((t) => t.delayDays)).toContain(row.filingDelayDays);
      expect(same.map((t) => t.late)).toContain(row.late);
    }
    // Late filings are counted exactly (the STOCK Act's 45 days).
    expect(body.lateFilings).toBe(window.filter((t) => t.late).length);
  });

  it('get_government_contracts reads the awards in its window and scores the material ones first', async () => {
    const body = await call('get_government_contracts', { limit: 25 });
    expect(body.available, JSON.stringify(body).slice(0, 300)).toBe(true);
    const state = records.through(now());
    const inWindow = state.awards.filter((a) => a.awardedAt >= now() - 30 * DAY);
    const material = new Set(state.labels.materialAwards);
    // Every award row is one of the plan's; a material award in the window outscores every routine one.
    const ids = new Set(inWindow.map((a) => a.awardId));
    for (const a of body.awards) expect(ids.has(a.awardId), a.awardId).toBe(true);
    const scored = body.awards as { awardId: string; score: number }[];
    const best = (m: boolean) => scored.filter((a) => material.has(a.awardId) === m).map((a) => a.score);
    if (best(true).length && best(false).length) expect(Math.min(...best(true))).toBeGreaterThan(Math.max(...best(false)));
  });

  it('get_analyst_accuracy ranks callers by graded record: no lucky caller in the top five', async () => {
    const body = await call('get_analyst_accuracy', { limit: 10 });
    expect(body).toMatchObject({ available: true, object: 'source-leaderboard', limit: 10 });
    expect(body.rows.length).toBe(10);
    const kind = new Map(callers.callers.map((c) => [c.id, c.kind]));
    expect(body.rows.slice(0, 5).map((r: { source_id: string }) => kind.get(r.source_id))).not.toContain('lucky');
    expect(body.sources.calls).toContain(calls.url);
  });

  it('the report agent answers "Which members of Congress traded NVDA?" with the members the filings name, at the report\'s price', { timeout: 120_000 }, async () => {
    const payer = await walletPoster(sibyl.url, '3');
    const before = await payer.balance();
    const res = await payer.post('/api/a2a/skills/general-analysis', { params: { prompt: 'Which members of Congress traded NVDA?' } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.response.toolsUsed[0].skill).toBe('congress-trades-lookup');
    const nvda = disclosed().filter((t) => t.ticker === 'NVDA');
    const dates = [...body.response.analysis.matchAll(/NVDA \$[\d,]+[^;]*? on (\d{4}-\d{2}-\d{2})/g)].map((m: RegExpMatchArray) => m[1]);
    expect(dates.length).toBe(Math.min(10, nvda.length));
    for (const d of dates) expect(nvda.map((t) => t.transactionDate)).toContain(d);
    expect(before - (await payer.balance())).toBe(SPEC_SKILL_PRICE['general-analysis']);
  });

  it('/healthz probes each feed (a HEAD of the House file, a search nothing matches, the callers list)', async () => {
    const health = (await json(await fetch(`${sibyl.url}/healthz`))) as { records: { name: string; source: string; state: string }[]; calls: { name: string; state: string }[] };
    expect(health.records).toMatchObject([{ name: 'stock-watcher', source: 'configured', state: 'up' }, { name: 'usaspending', source: 'configured', state: 'up' }]);
    expect(health.calls).toMatchObject([{ name: 'calls-feed', state: 'up' }]);
  });

  it('with RECORDS=off and CALLS=off the tools say domain_disabled', { timeout: 60_000 }, async () => {
    const off = await startTestSibyl({ env: { RECORDS: 'off', CALLS: 'off' } });
    const c = new Client({ name: 'sibyl-test', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${off.url}/api/mcp`)));
    try {
      for (const name of ['get_congress_trades', 'get_government_contracts', 'get_analyst_accuracy']) {
        expect((await c.callTool({ name, arguments: {} })).structuredContent, name).toMatchObject({ available: false, reason: 'domain_disabled' });
      }
    } finally {
      await c.close();
      await off.close();
    }
  });
});
