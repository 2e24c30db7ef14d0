import { describe, expect, it } from 'vitest';
import { addr } from '../data/testing/fixtures.js';
import type { OwnerPowers } from './powers.js';
import type { Simulation } from './simulate.js';
import { HIGH_TAX_PCT, livePowers, tradeFindings } from './trade-risk.js';

const sim = (s: Partial<Extract<Simulation, { available: true }>>): Simulation => ({
  available: true, caller: addr(1), path: [], spentNative: '0', buyReverted: false, buyTaxPct: 0, sellReverted: false, sellTaxPct: 0, roundTripLossPct: 0.6, honeypot: false, ...s,
});
const powers = (p: Partial<OwnerPowers>): OwnerPowers => ({ available: true, powers: [], functions: [], owner: addr(0x0e1), renounced: false, ...p });
const none = powers({});
const subjects = (s: Simulation, p: Parameters<typeof tradeFindings>[1] = none) => tradeFindings(s, p).map((f) => [f.subject, f.severity, f.points]);

describe('security/v1 trading findings (what screen/v1 reads)', () => {
  it('a clean round trip with no powers: nothing', () => {
    expect(tradeFindings(sim({}), none)).toEqual([]);
  });

  it('a honeypot is critical and its taxes are not listed again', () => {
    expect(subjects(sim({ sellReverted: true, honeypot: true, sellTaxPct: null }))).toEqual([['honeypot', 'critical', 100]]);
    expect(subjects(sim({ honeypot: true, sellTaxPct: 95, buyTaxPct: 20 }))).toEqual([['honeypot', 'critical', 100]]);
    expect(tradeFindings(sim({ honeypot: true, sellTaxPct: 95 }), none)[0]!.finding).toBe('honeypot: a sell delivers 95% less than sent');
    expect(subjects(sim({ buyReverted: true }))).toEqual([['honeypot', 'critical', 100]]);
  });

  it('taxes of 10% or more, not 9.99%', () => {
    expect(HIGH_TAX_PCT).toBe(10);
    expect(subjects(sim({ sellTaxPct: 10, buyTaxPct: 10 }))).toEqual([['sell-tax', 'high', 40], ['buy-tax', 'high', 25]]);
    expect(subjects(sim({ sellTaxPct: 9.99, buyTaxPct: 9.99 }))).toEqual([]);
  });

  it('powers count while an owner lives (or cannot be told), not once renounced', () => {
    const all = { powers: ['mint', 'blacklist', 'pause', 'fees'] as OwnerPowers['powers'], functions: ['mint(uint256)'] };
    expect(subjects(sim({}), powers(all))).toEqual([['power:mint', 'high', 15], ['power:blacklist', 'high', 15], ['power:pause', 'medium', 15], ['power:fees', 'medium', 15]]);
    expect(livePowers(powers({ ...all, owner: null, renounced: null }))).toEqual(all.powers);
    expect(livePowers(powers({ ...all, renounced: true }))).toEqual([]);
    expect(livePowers({ available: false, reason: 'no code' })).toEqual([]);
  });

  it('an undetermined simulation adds nothing by itself', () => {
    expect(tradeFindings({ available: false, reason: 'no priced route' }, none)).toEqual([]);
  });
});
