import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChainRuntime } from '../../chain/runtime.js';
import { MemoryStore } from '../../store/memory.js';
import { ORIGIN, priceAt } from '../../test/helpers/prediction-world.js';
import type { SkillContext } from '../core/context.js';
import { assertAnswer } from '../core/output-check.js';
import { fundedPolygon, type FundedChain } from './funding-devnet.js';
import { insiderScanSkill } from './insiders-skill.js';
import { servePlan, type ServedPlan } from './markets-served.js';

const DAY = 86_400;
const NOW = ORIGIN + 16 * DAY + 3_600;

describe('insider-scan, the skill', () => {
  let served: ServedPlan;
  let chain: FundedChain;
  beforeAll(async () => {
    served = await servePlan('insider-skill', ORIGIN, priceAt, NOW);
    const accounts = served.plan.through(NOW).trading.accounts.filter((a) => a.fundedAt <= NOW).sort((a, b) => a.fundedAt - b.fundedAt);
    chain = await fundedPolygon(accounts[0]!.fundedAt - 2 * DAY);
    await chain.fund(accounts.map((a, i) => ({ to: a.address, at: a.fundedAt + i, usd: 50_000 })));
  }, 120_000);
  afterAll(async () => {
    await served?.close();
    await chain?.stop();
  });
  afterEach(() => vi.useRealTimers());

  const ctx = (over: Partial<SkillContext> = {}) => ({ prediction: served.venues, chains: chain.chains, store: chain.store, ...over }) as unknown as SkillContext;
  const run = async (input: Record<string, unknown>, c = ctx()) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW * 1000);
    const parsed = insiderScanSkill.input.parse(input);
    await insiderScanSkill.admit!(parsed, c);
    const answer = await insiderScanSkill.handler(parsed, c);
    assertAnswer(insiderScanSkill.id, insiderScanSkill.output, answer);
    return answer;
  };

  it('answers with the flags, their evidence, the venues\' URLs and the chain read for funding', async () => {
    const answer = await run({});
    const insiders = new Set(served.plan.through(NOW).trading.insiders.map((i) => i.account.toLowerCase()));
    expect(answer.available).toBe(true);
    expect(answer.alerts.length).toBeGreaterThan(0);
    expect(answer.alerts.every((a) => insiders.has(a.wallet))).toBe(true);
    expect(answer.origins).toEqual(Object.fromEntries(served.venues.polymarket.origins().map((o) => [`polymarket ${o.api}`, o.url])));
    expect(answer.asOf.timestamp).toBe(new Date(NOW * 1000).toISOString());
    expect(answer.funding.source).toMatch(/^index:polygon@\d+$/);
    expect(answer.methodology).toMatch(/insider-scan\/v1/);
    const a = answer.alerts[0]!;
    expect(a.account.firstFunding).toMatchObject({ amountUsd: 50_000, minted: true, censored: false });
    expect(a.account.ageAtTradeHours).toBeLessThan(24);
    expect(a.trades.length).toBeGreaterThan(0);
    expect(answer.flagged).toBeGreaterThanOrEqual(answer.alerts.length);
    expect(answer.positionsExamined).toBeGreaterThan(answer.flagged);
  });

  it('cuts the alerts to the limit', async () => {
    const answer = await run({ limit: 1 });
    expect(answer.alerts).toHaveLength(1);
    expect(answer.count).toBe(1);
  });

  it('is refused before payment without venues or without Polygon, and is not available when Polygon is not indexed or the query names no market', async () => {
    const input = insiderScanSkill.input.parse({});
    await expect(insiderScanSkill.admit!(input, ctx({ prediction: undefined }))).rejects.toMatchObject({ code: 'domain_disabled' });
    await expect(insiderScanSkill.admit!(input, ctx({ chains: new ChainRuntime() }))).rejects.toMatchObject({ code: 'chain_unavailable' });
    const unindexed = await run({}, ctx({ store: new MemoryStore() }));
    expect(unindexed).toMatchObject({ available: false, reason: expect.stringMatching(/cannot be read.*not indexed/) });
    expect(unindexed.alerts).toEqual([]);
    const nothing = await run({ query: 'insider trading on the zyzzyva quokka' });
    expect(nothing).toMatchObject({ available: false, reason: expect.stringMatching(/zyzzyva/), marketsScanned: 0 });
  });
});
