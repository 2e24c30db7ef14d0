/**
 * The analyst leaderboard on the world's calls feed, served on loopback and read through its
 * adapter, judged against the plan on several seeds over a 30-day history: the board's order
 * follows the callers' true skill, no lucky caller reaches the top five or ranks above a skilled
 * one, each caller's record is the plan's (graded, hit and pending calls computed from the plan's
 * closes and excess returns, not by the engine), and the hit rates recover the labelled skill.
 * Thresholds sit below the worst of eight seeds measured (ranked rho 0.826, every caller 0.589).
 */
import { describe, expect, it } from 'vitest';
import { evaluateCallers } from '../../skills/callers/accuracy-eval.js';
import { CallersPlan } from '../../world/callers/plan.js';
import { callerPrices } from '../../world/callers/prices.js';
import { ReferencePaths } from '../../world/reference.js';
import { StockPaths } from '../../world/stocks/underlyings.js';

const NOW = Math.floor(Date.UTC(2026, 11, 1, 12, 0, 0) / 1000);
const ORIGIN = NOW - 30 * 86_400;
const SEEDS = ['callers-a', 'callers-b', 'callers-c', 'callers-d'];
/** Spearman's rho against true skill over the callers the board ranks, and over every caller (the unranked last). */
const MIN_RANKED_RHO = 0.75;
const MIN_BOARD_RHO = 0.5;
/** Mean |hit rate - true probability| over ranked callers that are not lucky. */
const MAX_HIT_RATE_ERROR = 0.1;

describe.each(SEEDS)('the analyst leaderboard on seed %s', (seed) => {
  const priceAt = callerPrices(new ReferencePaths(seed, ORIGIN), new StockPaths(seed, ORIGIN));

  it('ranks callers by their true skill, with no lucky caller in the top five', async () => {
    const e = await evaluateCallers({ seed, origin: ORIGIN, priceAt, at: NOW });
    expect(e.ranked.spearman).toBeGreaterThanOrEqual(MIN_RANKED_RHO);
    expect(e.board.spearman).toBeGreaterThanOrEqual(MIN_BOARD_RHO);
    expect(e.board.luckyInTop).toBe(false);
    expect(e.board.luckyAboveSkilled).toBe(0);
    expect(e.board.skilledInTop).toBeGreaterThanOrEqual(4);
    expect(e.hitRateError!).toBeLessThanOrEqual(MAX_HIT_RATE_ERROR);
  });

  it('keeps each caller\'s record as the plan has it: graded, hits and pending', async () => {
    const e = await evaluateCallers({ seed, origin: ORIGIN, priceAt, at: NOW });
    const plan = new CallersPlan(seed, ORIGIN, priceAt);
    const calls = plan.through(NOW).calls.filter((c) => c.direction !== 'hold');
    let pending = 0;
    for (const row of e.rows) {
      const mine = calls.filter((c) => c.caller === row.source_id);
      const closed = mine.filter((c) => plan.closeOf(c) <= NOW);
      const hits = closed.filter((c) => (c.direction === 'long' ? 1 : -1) * plan.excessReturn(c.asset, c.assetClass, c.madeAt, plan.closeOf(c)) > 0);
      expect({ id: row.source_id, graded: row.graded_calls, hits: row.hits, pending: row.pending }).toEqual({ id: row.source_id, graded: closed.length, hits: hits.length, pending: mine.length - closed.length });
      pending += mine.length - closed.length;
    }
    expect(e.pendingCalls).toBe(pending);
    expect(pending).toBeGreaterThan(100);
  });
});
