import { describe, expect, it } from 'vitest';
import { scoreRanking, spearman, type CallerTruth } from './accuracy-eval.js';

const truth: CallerTruth[] = [
  { id: 's1', kind: 'skilled', hitProbability: 0.7 },
  { id: 's2', kind: 'skilled', hitProbability: 0.65 },
  { id: 'r1', kind: 'random', hitProbability: 0.5 },
  { id: 'l1', kind: 'lucky', hitProbability: 0.5 },
  { id: 'r2', kind: 'random', hitProbability: 0.5 },
  { id: 'r3', kind: 'random', hitProbability: 0.5 },
  { id: 'c1', kind: 'contrarian', hitProbability: 0.35 },
];

describe('Spearman rank correlation', () => {
  it('is 1 for the same order, -1 for the reverse, and averages ties', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [40, 30, 20, 10])).toBeCloseTo(-1, 12);
    // Ranks of y with the tie averaged: [1, 2.5, 2.5, 4]; Pearson with [1, 2, 3, 4] = 4.5 / sqrt(5 * 4.5).
    expect(spearman([1, 2, 3, 4], [1, 5, 5, 9])).toBeCloseTo(4.5 / Math.sqrt(5 * 4.5), 12);
  });
});

describe('scoring a ranking against the labels', () => {
  it('a board in the truth\'s order scores the most, and a lucky caller in the top five is caught', () => {
    const truthOrder = scoreRanking(truth, ['s1', 's2', 'r1', 'l1', 'r2', 'r3', 'c1']);
    expect(truthOrder).toMatchObject({ callers: 7, luckyInTop: true, bestLuckyRank: 4, luckyAboveSkilled: 0, skilledInTop: 2 });
    const reversed = scoreRanking(truth, ['c1', 'r3', 'r2', 'l1', 'r1', 's2', 's1']);
    expect(reversed.spearman).toBeCloseTo(-truthOrder.spearman, 3);
    const luckyFirst = scoreRanking(truth, ['l1', 's1', 's2', 'r1', 'r2', 'r3', 'c1']);
    expect(luckyFirst).toMatchObject({ bestLuckyRank: 1, luckyAboveSkilled: 2 });
    expect(luckyFirst.spearman).toBeLessThan(truthOrder.spearman);
  });

  it('callers missing from the board rank last, tied', () => {
    const s = scoreRanking(truth, ['s1', 's2', 'r1', 'r2', 'r3', 'c1']);
    expect(s).toMatchObject({ luckyInTop: false, bestLuckyRank: 7 });
  });
});
