/**
 * The records engines (skills/records/congress.ts, contracts.ts) on the embedded venues through the
 * adapter, judged by the world's labels: informed members' trades beat the index more than ordinary
 * members' and rank them higher, late filings are flagged exactly, a ticker filter names exactly the
 * members who traded it, and material awards score above every routine one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { congressTrades, type CongressTradesResult } from '../../skills/records/congress.js';
import { governmentContracts, type GovernmentContractsResult } from '../../skills/records/contracts.js';
import type { PriceReader } from '../../skills/records/prices.js';
import { recordsSource } from '../../skills/records/source.js';
import { RecordsPlan } from '../../world/records/plan.js';
import { serveRecordVenues } from '../../world/records/server.js';
import { StockPaths } from '../../world/stocks/underlyings.js';

const SEED = 'records-engines';
const DAY = 86_400;
const ORIGIN = Math.floor(Date.UTC(2026, 2, 2, 14, 0, 0) / 1000);
const NOW = ORIGIN + 150 * DAY;
const plan = new RecordsPlan(SEED, ORIGIN, new StockPaths(SEED, ORIGIN));
const state = plan.through(NOW);
const prices: PriceReader = { source: 'embedded world: stock paths (split-adjusted)', priceUsd: async (ticker, time) => plan.adjustedUsd(ticker, time) };
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('the records engines on the embedded venues', () => {
  let served: Awaited<ReturnType<typeof serveRecordVenues>>;
  let congress: CongressTradesResult;
  let contracts: GovernmentContractsResult;
  beforeAll(async () => {
    served = await serveRecordVenues(plan, () => NOW);
    const source = recordsSource(served.urls);
    congress = await congressTrades(source, prices, { limit: 25, now: NOW, lookbackDays: 365 });
    contracts = await governmentContracts(source, prices, { limit: 25, now: NOW, windowDays: 150 });
  });
  afterAll(async () => served?.close());

  it('informed members beat the index by more than ordinary ones, and their records rank above', () => {
    const informed = new Set(state.labels.informed);
    const ranked = congress.lawmakers.filter((l) => l.zScore !== null);
    const rank = (m: string) => ranked.findIndex((l) => l.member === m);
    const informedRanks = ranked.filter((l) => informed.has(l.member)).map((l) => rank(l.member));
    const ordinaryRanks = ranked.filter((l) => !informed.has(l.member)).map((l) => rank(l.member));
    expect(informedRanks.length).toBe(informed.size);
    expect(mean(informedRanks)).toBeLessThan(mean(ordinaryRanks));
    const excess = (inf: boolean) => mean(congress.lawmakers.filter((l) => informed.has(l.member) === inf && l.meanExcessPct !== null).map((l) => l.meanExcessPct!));
    expect(excess(true)).toBeGreaterThan(excess(false) + 1);
  });

  it('flags late filings exactly: each member\'s count and every listed trade\'s flag match the labels', () => {
    const late = new Set(state.labels.lateFilings);
    expect(congress.lateFilings).toBe(late.size);
    for (const l of congress.lawmakers) expect(l.lateFilings).toBe(state.trades.filter((t) => t.member === l.member && t.late).length);
    for (const row of congress.trades) {
      const key = state.trades.find((t) => t.member === row.member && t.ticker === row.ticker && t.transactionDate === row.transactionDate && t.disclosureDate === row.disclosureDate && t.side === row.side && t.band === row.amount && t.owner === row.owner)!.key;
      expect(row.late).toBe(late.has(key));
      expect(row.sinceTransaction?.source).toBe(prices.source);
    }
  });

  it('a ticker filter names exactly the members who traded it in the window', async () => {
    const source = recordsSource(served.urls);
    const nvda = await congressTrades(source, prices, { limit: 25, now: NOW, ticker: 'nvda', lookbackDays: 60 });
    const want = new Set(state.trades.filter((t) => t.ticker === 'NVDA' && t.disclosedAt >= NOW - 60 * DAY).map((t) => t.member));
    expect(want.size).toBeGreaterThan(0);
    expect(new Set(nvda.lawmakers.map((l) => l.member))).toEqual(want);
    expect(nvda.trades.every((t) => t.ticker === 'NVDA')).toBe(true);
    expect(nvda.count).toBe(state.trades.filter((t) => t.ticker === 'NVDA' && t.disclosedAt >= NOW - 60 * DAY).length);
  });

  it('material awards score above every routine one, and their stocks beat the index after them more', () => {
    const material = state.awards.filter((a) => a.material && a.awardedAt >= NOW - 150 * DAY).map((a) => a.awardId);
    expect(material.length).toBeGreaterThan(5);
    expect(material.length).toBeLessThan(25);
    // Size alone cannot tell them apart: a routine award here is larger than a material one.
    const sized = state.awards.filter((a) => a.ticker && a.awardedAt >= NOW - 150 * DAY);
    expect(Math.max(...sized.filter((a) => !a.material).map((a) => a.amountUsd))).toBeGreaterThan(Math.min(...sized.filter((a) => a.material).map((a) => a.amountUsd)));
    const top = contracts.awards.slice(0, material.length).map((a) => a.awardId);
    expect(new Set(top)).toEqual(new Set(material));
    const isMaterial = new Set(material);
    const five = (m: boolean) => mean(contracts.awards.filter((a) => isMaterial.has(a.awardId) === m && a.move.days).map((a) => a.move.days!.excessPct));
    expect(five(true)).toBeGreaterThan(five(false));
    expect(contracts.longSignals[0]!.surpriseRatio!).toBeGreaterThan(10);
    expect(contracts.watchlistExpansion.every((w) => !/MICROSOFT|AMAZON|EXXON/.test(w.recipient))).toBe(true);
  });
});
