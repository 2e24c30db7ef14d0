import { describe, expect, it } from 'vitest';
import { normaliseDate, normaliseOwner, normaliseSide, normaliseTicker, parseBand } from './source.js';

describe('the records adapter\'s normalising', () => {
  it('reads both files\' dates and refuses impossible or pre-STOCK-Act ones', () => {
    expect(normaliseDate('2021-09-27')).toBe('2021-09-27');
    expect(normaliseDate('10/04/2021')).toBe('2021-10-04');
    expect(normaliseDate('1/4/2021')).toBe('2021-01-04');
    expect(normaliseDate('0021-08-02')).toBeNull();
    expect(normaliseDate('02/30/2021')).toBeNull();
    expect(normaliseDate('--')).toBeNull();
  });

  it('reads bands, sides, owners and tickers as both chambers write them', () => {
    expect(parseBand('$1,001 - $15,000')).toEqual({ label: '$1,001 - $15,000', lowUsd: 1_001, highUsd: 15_000 });
    expect(parseBand('Over $50,000,000')).toMatchObject({ lowUsd: 50_000_001, highUsd: null });
    expect(parseBand('$1,000,000 +')).toMatchObject({ lowUsd: 1_000_000, highUsd: null });
    expect(parseBand('a lot')).toBeNull();
    expect(['purchase', 'Purchase', 'Sale (Full)', 'sale_partial', 'Sale (Partial)', 'Exchange', 'gift'].map(normaliseSide)).toEqual(['purchase', 'purchase', 'sale_full', 'sale_partial', 'sale_partial', 'exchange', null]);
    expect(['dependent', 'Child', 'Spouse', 'joint', '--'].map(normaliseOwner)).toEqual(['child', 'child', 'spouse', 'joint', 'unknown']);
    expect(normaliseTicker('<a href="https://finance.yahoo.com/q?s=bynd">BYND</a>')).toBe('BYND');
    expect(normaliseTicker('--')).toBeNull();
  });
});
