import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import type { PredictionEvent } from '../../world/prediction/events.js';
import { venueLagSeconds, venuePrice } from '../../world/prediction/trading.js';
import type { SkillContext } from '../core/context.js';
import { findArbitrage, kalshiTakerFee } from './arbitrage.js';
import { predictionArbitrageSkill } from './arbitrage-skill.js';
import { servePlan, type ServedPlan } from './markets-served.js';

const SEED = 'arbitrage-test';
const UNTIL = ORIGIN + 12 * 86_400;

describe('cross-platform arbitrage over the embedded venues', () => {
  let served: ServedPlan;
  beforeAll(async () => {
    served = await servePlan(SEED, ORIGIN, priceAt, ORIGIN);
  });
  afterAll(() => served?.close());

  const bothOpen = (e: PredictionEvent, t: number) => e.crossListing && e.opensAt <= t && e.closesAt > t && e.closesAt + e.crossListing.closeShiftSeconds > t;
  const gapAt = (e: PredictionEvent, t: number) => Math.abs(venuePrice(e, 'polymarket', t, priceAt, 0) - venuePrice(e, 'kalshi', t, priceAt, venueLagSeconds(SEED, e.id)));

  it('charges Kalshi\'s taker fee, 0.07 × P × (1 − P) per contract, rounded up to the cent', () => {
    expect(kalshiTakerFee(0.5)).toBe(0.02);
    expect(kalshiTakerFee(0.9)).toBe(0.01);
    expect(kalshiTakerFee(0.5, 100)).toBe(1.75);
    expect(kalshiTakerFee(0.99)).toBe(0.01);
  });

  it('finds the planted gaps (the Kalshi price lagging news) while the clock is inside one', async () => {
    const state = served.plan.through(UNTIL);
    const wide = state.trading.gaps
      .map((g) => ({ g, e: state.events.find((e) => e.id === g.eventId)!, t: Math.floor((g.from + g.until) / 2) }))
      .filter(({ g, e, t }) => g.from >= ORIGIN - 10 * 86_400 && g.until <= UNTIL && bothOpen(e, t) && gapAt(e, t) >= 0.06);
    expect(wide.length).toBeGreaterThan(2);
    for (const { e, t } of wide) {
      served.now = t;
      const found = await findArbitrage(served.source, { limit: 100, now: t });
      const hit = found.opportunities.find((o) => o.legs[1].market === `SIB-${e.id.toUpperCase()}`);
      expect(hit, `${e.id} at ${t}`).toBeDefined();
      // Yes where it is cheap: on Kalshi when the news raised the price (Kalshi has not followed yet).
      const up = venuePrice(e, 'polymarket', t, priceAt, 0) > venuePrice(e, 'kalshi', t, priceAt, venueLagSeconds(SEED, e.id));
      expect(hit!.direction).toBe(up ? 'yes on Kalshi + no on Polymarket' : 'yes on Polymarket + no on Kalshi');
      expect(hit!.edgePerDollar).toBeGreaterThan(0);
      expect(hit!.contracts).toBeGreaterThan(0);
      expect(hit!.profitUsd).toBeGreaterThan(0);
      expect(hit!.risk.ruleDifference).toBe(e.crossListing!.ruleDifference);
      expect(hit!.risk.closeDifferenceHours).toBe(e.crossListing!.closeShiftSeconds / 3_600);
    }
  });

  it('finds nothing when the venues agree', async () => {
    const state = served.plan.through(UNTIL);
    const agree: number[] = [];
    for (let t = ORIGIN; t < UNTIL && agree.length < 5; t += 3_607) {
      const open = state.events.filter((e) => bothOpen(e, t));
      if (open.length >= 2 && open.every((e) => gapAt(e, t) < 0.005)) agree.push(t);
    }
    expect(agree.length).toBe(5);
    for (const t of agree) {
      served.now = t;
      const found = await findArbitrage(served.source, { limit: 100, now: t });
      expect(found.compared).toBeGreaterThanOrEqual(2);
      expect(found.opportunities).toEqual([]);
      // Agreeing venues cost the two spreads and the fee over $1: no near miss can be under $1 either.
      expect(found.nearMisses.every((r) => r.cost >= 1)).toBe(true);
    }
  });

  it('the skill answers with the venues\' provenance', async () => {
    const t = ORIGIN + 3 * 86_400;
    served.now = t;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(t * 1000);
    try {
      const answer = await predictionArbitrageSkill.handler(predictionArbitrageSkill.input.parse({}), { prediction: served.venues } as unknown as SkillContext);
      expect(answer.asOf.timestamp).toBe(new Date(t * 1000).toISOString());
      expect(answer.methodology).toMatch(/0\.07 × P × \(1 − P\)/);
      expect(answer.count).toBe(answer.opportunities.length);
    } finally {
      vi.useRealTimers();
    }
  });
});
