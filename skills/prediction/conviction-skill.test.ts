import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import type { SkillContext } from '../core/context.js';
import { assertAnswer } from '../core/output-check.js';
import { convictionScannerSkill } from './conviction-skill.js';
import { servePlan, type ServedPlan } from './markets-served.js';

const NOW = ORIGIN + 16 * 86_400 + 3_600;

describe('conviction-scanner, the skill', () => {
  let served: ServedPlan;
  beforeAll(async () => {
    served = await servePlan('conviction-skill', ORIGIN, priceAt, NOW);
  });
  afterAll(() => served?.close());
  afterEach(() => vi.useRealTimers());

  const run = async (input: Record<string, unknown>, ctx = { prediction: served.venues } as unknown as SkillContext) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW * 1000);
    const parsed = convictionScannerSkill.input.parse(input);
    await convictionScannerSkill.admit!(parsed, ctx);
    const answer = await convictionScannerSkill.handler(parsed, ctx);
    assertAnswer(convictionScannerSkill.id, convictionScannerSkill.output, answer);
    return answer;
  };

  it('ranks the open markets, cut to the limit, with the venue\'s URLs and clock', async () => {
    const answer = await run({ limit: 3 });
    expect(answer.available).toBe(true);
    expect(answer.markets).toHaveLength(3);
    expect(answer.marketsScanned).toBe(answer.openMarkets);
    expect(answer.markets.map((m) => m.score)).toEqual([...answer.markets.map((m) => m.score)].sort((a, b) => b - a));
    expect(answer.origins).toEqual(Object.fromEntries(served.venues.polymarket.origins().map((o) => [`polymarket ${o.api}`, o.url])));
    expect(answer.asOf.timestamp).toBe(new Date(NOW * 1000).toISOString());
    const held = answer.markets.flatMap((m) => m.sides.flatMap((s) => s.holders)).find((h) => h.conviction)!;
    expect(Date.parse(held.firstBuyAt!)).toBeLessThanOrEqual(NOW * 1000 - 24 * 3_600_000);
  });

  it('is refused before payment without venues, and not available when the query names no open market', async () => {
    await expect(convictionScannerSkill.admit!(convictionScannerSkill.input.parse({}), {} as SkillContext)).rejects.toMatchObject({ code: 'domain_disabled' });
    const nothing = await run({ query: 'conviction on the zyzzyva quokka' });
    expect(nothing).toMatchObject({ available: false, reason: expect.stringMatching(/zyzzyva/), markets: [] });
  });
});
