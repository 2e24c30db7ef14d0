/**
 * The embedded public-records venues (world/records) read through their adapter
 * (skills/records/source.ts) over HTTP, every answer checked against the plan: each disclosed trade
 * present exactly once with its dates, side, band and owner, the late filings exactly the labelled
 * ones, nothing disclosed after the venue's clock; USAspending's filters and paging give exactly
 * the plan's awards, and requests outside its shape are refused as the real API refuses them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SibylError } from '../../skills/core/errors.js';
import { recordsSource, type CongressTradeRead, type RecordsSource } from '../../skills/records/source.js';
import { FILING_DEADLINE_DAYS, RecordsPlan, closeOf, type CongressTrade } from '../../world/records/plan.js';
import { serveRecordVenues } from '../../world/records/server.js';
import { HOUSE_FILE_PATH } from '../../world/records/stock-watcher.js';
import { StockPaths, UNDERLYINGS } from '../../world/stocks/underlyings.js';

const SEED = 'records-venue';
const DAY = 86_400;
const NOW = Math.floor(Date.UTC(2026, 8, 16, 15, 0, 0) / 1000);
const ORIGIN = NOW - 30 * DAY;
const paths = new StockPaths(SEED, ORIGIN);
const plan = new RecordsPlan(SEED, ORIGIN, paths);
const state = plan.through(NOW);

const keyOfPlan = (t: CongressTrade) => [t.chamber, t.member, t.ticker, t.transactionDate, t.disclosureDate, t.side, t.band, t.owner].join('|');
const keyOfRead = (t: CongressTradeRead) => [t.chamber, t.member, t.ticker, t.transactionDate, t.disclosureDate, t.side, t.band.label, t.owner].join('|');
const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / (DAY * 1000));

describe('the records plan', () => {
  it('is the same plan whenever it is asked; a trade is visible only once disclosed, an award once made', () => {
    const again = new RecordsPlan(SEED, ORIGIN, new StockPaths(SEED, ORIGIN)).through(NOW);
    expect(again.trades.map((t) => t.key)).toEqual(state.trades.map((t) => t.key));
    expect(again.awards.map((a) => [a.awardId, a.amountUsd])).toEqual(state.awards.map((a) => [a.awardId, a.amountUsd]));
    expect(state.trades.every((t) => t.disclosedAt <= NOW)).toBe(true);
    expect(state.awards.every((a) => a.awardedAt <= NOW)).toBe(true);
    // There is something to leak: the plan holds trades disclosed later.
    expect(plan.through(NOW + 60 * DAY).trades.length).toBeGreaterThan(state.trades.length);
  });

  it('labels a filing late exactly when it came more than 45 days after the transaction, and every informed trade precedes its move in its direction', () => {
    expect(state.labels.lateFilings.length).toBeGreaterThan(0);
    const late = state.trades.filter((t) => days(t.transactionDate, t.disclosureDate) > FILING_DEADLINE_DAYS).map((t) => t.key);
    expect(new Set(state.labels.lateFilings)).toEqual(new Set(late));
    // Both sides of the deadline occur, so the boundary is tested.
    expect(state.trades.some((t) => t.delayDays === FILING_DEADLINE_DAYS && !t.late)).toBe(true);
    const ahead = plan.through(ORIGIN + 150 * DAY).trades.filter((t) => t.ahead);
    expect(ahead.length).toBeGreaterThan(20);
    for (const t of ahead) {
      expect(closeOf(t.transactedAt)).toBeLessThan(t.ahead!.at);
      expect(t.ahead!.move > 0 ? t.side === 'purchase' : t.side.startsWith('sale')).toBe(true);
    }
  });

  it('places each material award where its stock beats the index, and sizes it far above the company\'s routine awards', () => {
    const all = plan.through(ORIGIN + 150 * DAY).awards;
    const material = all.filter((a) => a.material);
    expect(material.length).toBeGreaterThan(5);
    for (const a of material) {
      const beta = UNDERLYINGS[a.ticker!]!.beta;
      const { fromAt, toAt } = a.move!;
      const excess = Math.log(plan.adjustedUsd(a.ticker!, toAt) / plan.adjustedUsd(a.ticker!, fromAt)) - beta * Math.log(plan.adjustedUsd('SPY', toAt) / plan.adjustedUsd('SPY', fromAt));
      expect(excess).toBeGreaterThan(0);
      const routine = all.filter((b) => b.ticker === a.ticker && !b.material && b.amountUsd > 0).map((b) => b.amountUsd);
      expect(a.amountUsd).toBeGreaterThan(Math.max(...routine));
    }
  });
});

describe('the records venues through the adapter', () => {
  let served: Awaited<ReturnType<typeof serveRecordVenues>>;
  let source: RecordsSource;
  beforeAll(async () => {
    served = await serveRecordVenues(plan, () => NOW);
    source = recordsSource(served.urls);
  });
  afterAll(async () => served?.close());

  it('every disclosed trade, exactly once and exactly as planned; nothing undisclosed', async () => {
    const { trades, feeds } = await source.congressTrades();
    expect(feeds.map((f) => [f.name, f.rejected])).toEqual([['house-stock-watcher', 0], ['senate-stock-watcher', 0]]);
    const read = trades.map(keyOfRead).sort();
    expect(read).toEqual(state.trades.map(keyOfPlan).sort());
    expect(new Set(read).size).toBe(read.length);
    expect(trades.every((t) => t.disclosedAt <= NOW)).toBe(true);
    for (const t of trades.filter((x) => x.chamber === 'house').slice(0, 20)) expect(t.district).toMatch(/^[A-Z]{2}\d{2}$/);
  });

  it('the late filings read from the feed are exactly the labelled ones', async () => {
    const { trades } = await source.congressTrades();
    const byKey = new Map(state.trades.map((t) => [keyOfPlan(t), t.key]));
    const late = trades.filter((t) => (t.disclosedAt - t.transactedAt) / DAY > FILING_DEADLINE_DAYS).map((t) => byKey.get(keyOfRead(t)));
    expect(new Set(late)).toEqual(new Set(state.labels.lateFilings));
  });

  it('writes the files in their own shapes: the House disclosure date MM/DD/YYYY, its transaction date ISO', async () => {
    const house = await (await fetch(`${served.urls.congress}${HOUSE_FILE_PATH}`)).json() as Record<string, unknown>[];
    expect(house[0]).toMatchObject({ disclosure_date: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/), transaction_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), representative: expect.stringMatching(/^Hon\. /) });
    const senate = await (await fetch(`${served.urls.congress}/senate-stock-watcher-data/aggregate/all_transactions.json`)).json() as Record<string, unknown>[];
    expect(senate[0]).toMatchObject({ transaction_date: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/), type: expect.stringMatching(/^(Purchase|Sale \((Full|Partial)\)|Exchange)$/) });
  });

  it('USAspending: a year of awards paged to the end are exactly the plan\'s, and the recipient filter narrows them', async () => {
    const since = NOW - 365 * DAY;
    const want = state.awards.filter((a) => a.actionDate >= new Date(since * 1000).toISOString().slice(0, 10));
    expect(want.length).toBeGreaterThan(100);
    const { awards, pages, truncated, feed } = await source.awards({ since, until: NOW });
    expect(truncated).toBe(false);
    expect(pages).toBe(Math.ceil(want.length / 100));
    expect(feed.rejected).toBe(0);
    expect(awards.map((a) => [a.awardId, a.amountUsd, a.actionDate, a.hasFms]).sort()).toEqual(want.map((a) => [a.awardId, a.amountUsd, a.actionDate, a.fms]).sort());
    // Newest first, as asked.
    expect(awards.map((a) => a.actionDate)).toEqual([...awards.map((a) => a.actionDate)].sort().reverse());
    const xom = await source.awards({ since, until: NOW, recipients: ['exxonmobil'] });
    expect(xom.awards.map((a) => a.awardId).sort()).toEqual(want.filter((a) => a.ticker === 'XOM').map((a) => a.awardId).sort());
    const month = await source.awards({ since: NOW - 30 * DAY, until: NOW });
    expect(month.awards.length).toBe(state.awards.filter((a) => a.awardedAt >= Math.floor((NOW - 30 * DAY) / DAY) * DAY).length);
  });

  it('USAspending refuses requests outside its shape: 422 for missing or invalid values, 400 for a sort not requested', async () => {
    const post = async (body: unknown) => {
      const res = await fetch(`${served.urls.usaspending}/api/v2/search/spending_by_award/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: await res.json() as { detail?: string; results?: unknown[]; page_metadata?: { hasNext: boolean } } };
    };
    const fields = ['Award ID', 'Award Amount'];
    expect((await post({ fields, filters: {} })).status).toBe(422);
    expect((await post({ filters: { award_type_codes: ['A'] } })).status).toBe(422);
    expect((await post({ fields, filters: { award_type_codes: ['A', '02'] } })).status).toBe(422);
    expect((await post({ fields, filters: { award_type_codes: ['Z'] } })).status).toBe(422);
    expect((await post({ fields, limit: 500, filters: { award_type_codes: ['A'] } })).body.detail).toContain("above max '100'");
    expect((await post({ fields, filters: { award_type_codes: ['A'], time_period: [{ start_date: '2001-01-01', end_date: '2002-01-01' }] } })).status).toBe(422);
    const sort = await post({ fields, sort: 'Recipient Name', filters: { award_type_codes: ['A'] } });
    expect(sort.status).toBe(400);
    const past = await post({ fields, page: 999, filters: { award_type_codes: ['A', 'B', 'C', 'D'] } });
    expect(past).toMatchObject({ status: 200, body: { results: [], page_metadata: { hasNext: false } } });
    const grants = await post({ fields, filters: { award_type_codes: ['02', '03'] } });
    expect(grants.body.results).toEqual([]);
  });

  it('a feed that does not answer, or answers outside its shape, is upstream_unavailable', async () => {
    const closed = await serveRecordVenues(plan, () => NOW);
    await closed.close();
    const dead = recordsSource(closed.urls, fetch, 2_000);
    await expect(dead.congressTrades()).rejects.toMatchObject({ code: 'upstream_unavailable' });
    await expect(dead.awards({ since: NOW - DAY, until: NOW })).rejects.toBeInstanceOf(SibylError);
    const misshapen = recordsSource(served.urls, (async () => new Response(JSON.stringify({ results: 'nope' }), { status: 200 })) as typeof fetch);
    await expect(misshapen.awards({ since: NOW - DAY, until: NOW })).rejects.toMatchObject({ code: 'upstream_unavailable' });
    await expect(misshapen.congressTrades()).rejects.toMatchObject({ code: 'upstream_unavailable' });
    const garbled = recordsSource(served.urls, (async () => new Response(JSON.stringify([{ nonsense: true }]), { status: 200 })) as typeof fetch);
    await expect(garbled.congressTrades()).rejects.toMatchObject({ code: 'upstream_unavailable' });
    const failing = recordsSource(served.urls, (async () => new Response('busy', { status: 503 })) as typeof fetch);
    await expect(failing.awards({ since: NOW - DAY, until: NOW })).rejects.toMatchObject({ code: 'upstream_unavailable', message: expect.stringContaining('HTTP 503') });
  });
});
