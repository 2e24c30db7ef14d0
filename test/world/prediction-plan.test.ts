import { describe, expect, it } from 'vitest';
import { DAYS_BEFORE_ORIGIN, EVENTS_PER_DAY, PredictionPlan } from '../../world/prediction/plan.js';
import { ORIGIN, priceAt } from '../helpers/prediction-world.js';

const DAY = 86_400;

describe('the prediction plan', () => {
  it('is the same whenever it is asked: a later day adds events and traders and changes nothing drawn before', () => {
    const early = new PredictionPlan('plan-test', ORIGIN, priceAt).through(ORIGIN + 3 * DAY);
    const late = new PredictionPlan('plan-test', ORIGIN, priceAt).through(ORIGIN + 10 * DAY);
    expect(early.events.length).toBe((DAYS_BEFORE_ORIGIN + 4) * EVENTS_PER_DAY);
    expect(late.events.slice(0, early.events.length)).toEqual(early.events);
    const shared = new Set(early.events.map((e) => e.id));
    const key = (t: { eventId: string; account: string; time: number; venue: string; outcome: string; price: number; shares: number }) => JSON.stringify(t);
    expect(late.trading.trades.filter((t) => shared.has(t.eventId)).map(key)).toEqual(early.trading.trades.map(key));
    const lateAccounts = new Map(late.trading.accounts.map((a) => [a.address, a]));
    for (const a of early.trading.accounts) expect(lateAccounts.get(a.address)).toEqual(a);
  });

  it('has markets open when the history starts and every event numbered once', () => {
    const plan = new PredictionPlan('plan-test', ORIGIN, priceAt).through(ORIGIN + DAY);
    expect(plan.events.filter((e) => e.opensAt < ORIGIN && e.closesAt > ORIGIN).length).toBeGreaterThan(3);
    expect(new Set(plan.events.map((e) => e.id)).size).toBe(plan.events.length);
    expect(plan.events.filter((e) => e.opensAt < ORIGIN).every((e) => !e.strike)).toBe(true);
    expect(plan.events.some((e) => e.strike)).toBe(true);
  });

  it('extends in place: asking again for a day it holds returns the same plan', () => {
    const plan = new PredictionPlan('plan-test', ORIGIN, priceAt);
    const a = plan.through(ORIGIN + 2 * DAY + 5);
    expect(plan.through(ORIGIN + 2 * DAY + 50_000)).toBe(a);
    expect(plan.through(ORIGIN + 3 * DAY).events.length).toBe(a.events.length + EVENTS_PER_DAY);
  });
});
