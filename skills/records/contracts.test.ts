import { describe, expect, it } from 'vitest';
import { MIN_HISTORY, awardScore, governmentContracts, usualAward } from './contracts.js';
import type { PriceReader } from './prices.js';
import type { AwardRead, AwardsQuery, RecordsSource } from './source.js';

const DAY = 86_400;
const NOW = Date.UTC(2026, 5, 1, 12) / 1000;
const award = (id: string, recipient: string, amountUsd: number, daysAgo: number, description = 'SERVICES'): AwardRead => {
  const awardedAt = Math.floor((NOW - daysAgo * DAY) / DAY) * DAY;
  return {
    awardId: id, recipient, amountUsd, agency: 'Department of Defense', subAgency: 'Defense Logistics Agency', fundingAgency: null, actionDate: new Date(awardedAt * 1000).toISOString().slice(0, 10),
    awardedAt, description, hasFms: /FMS/.test(description), contractType: 'DEFINITIVE CONTRACT',
  };
};
const prices: PriceReader = { source: 'fixture', priceUsd: async () => 100 };
const memory = (awards: AwardRead[]): RecordsSource => ({
  urls: { congress: 'mem', usaspending: 'mem' },
  congressTrades: async () => { throw new Error('not used'); },
  reachable: async () => true as const,
  awards: async (q: AwardsQuery) => ({
    awards: awards.filter((a) => a.awardedAt >= Math.floor(q.since / DAY) * DAY && (q.minAmountUsd === undefined || a.amountUsd >= q.minAmountUsd)),
    feed: { name: 'usaspending', url: 'mem', rows: awards.length, rejected: 0, fetchedAt: 'x' }, pages: 1, truncated: false,
  }),
});
/** Ten routine awards a month apart of 8-12M. */
const routine = (recipient: string, prefix: string) => Array.from({ length: 10 }, (_, i) => award(`${prefix}${i}`, recipient, 8e6 + (i % 5) * 1e6, 60 + i * 30));

describe('government-contracts/v1', () => {
  it(`the usual award is the median of the year before, from at least ${MIN_HISTORY} awards`, () => {
    const history = [award('a', 'X', 1e6, 100), award('b', 'X', 3e6, 90), award('c', 'X', 9e6, 80), award('d', 'X', -5e6, 70), award('old', 'X', 1e9, 400)];
    expect(usualAward(history, NOW)).toBe(3e6);
    expect(usualAward(history.slice(0, 2), NOW)).toBeNull();
  });

  it('scores grow with the surprise; a routine award scores low however large', () => {
    expect(awardScore({ amountUsd: 30e6, surpriseRatio: 30, hasFms: false, confluence: null })).toBeGreaterThan(awardScore({ amountUsd: 900e6, surpriseRatio: 1.5, hasFms: true, confluence: true }));
    expect(awardScore({ amountUsd: 30e6, surpriseRatio: 30, hasFms: true, confluence: true })).toBeGreaterThan(awardScore({ amountUsd: 30e6, surpriseRatio: 30, hasFms: false, confluence: false }));
  });

  it('a surprising award leads the longs; a large de-obligation is a short; a large unlisted recipient widens the watchlist', async () => {
    const r = await governmentContracts(memory([
      ...routine('EXXONMOBIL OIL CORPORATION', 'x'), ...routine('MICROSOFT CORPORATION', 'm'), ...routine('NVIDIA CORPORATION', 'n'),
      award('XOM-BIG', 'EXXONMOBIL OIL CORPORATION', 300e6, 3, 'JET FUEL - FOREIGN MILITARY SALES (FMS)'),
      award('MSFT-ROUTINE', 'MICROSOFT CORPORATION', 11e6, 5),
      award('NVDA-BACK', 'NVIDIA CORPORATION', -20e6, 4),
      award('PRIV', 'NORTHWIND DEFENSE SYSTEMS LLC', 80e6, 2),
    ]), prices, { limit: 10, now: NOW });
    expect(r.longSignals.map((s) => s.primaryTicker)).toEqual(['XOM', 'MSFT']);
    expect(r.longSignals[0]).toMatchObject({ surpriseRatio: 30, hasFms: true, direction: 'long', sector: 'energy', band: 'strong' });
    expect(r.longSignals[1]!.band).toBe('weak');
    expect(r).toMatchObject({ topTicker: 'XOM', topSector: 'energy', actionableLongs: 1, shorts: 1, count: 3 });
    expect(r.shortSignals[0]).toMatchObject({ primaryTicker: 'NVDA', direction: 'short', surpriseRatio: 2 });
    expect(r.watchlistExpansion).toEqual([{ recipient: 'NORTHWIND DEFENSE SYSTEMS LLC', totalUsd: 80e6, awardCount: 1, largestAwardId: 'PRIV', agency: 'Department of Defense' }]);
    expect(r.awards[0]!.move.days).toMatchObject({ excessPct: 0, source: 'fixture' });
  });
});
