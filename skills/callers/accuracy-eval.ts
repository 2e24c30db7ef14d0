/**
 * How the analyst leaderboard reads the callers against the world's truth: the rank correlation
 * (Spearman, ties averaged) of the board's order with each caller's true hit probability (over the
 * callers it ranks, and over every caller with the unranked last), and
 * whether a lucky caller (a coin flipper whose few calls all hit) reaches the top five. The same
 * figures for the score alone, without the reliability gate, show how much the gate carries. Only
 * this scoring reads the plan's labels; the engine reads the feed through its adapter.
 */
import { CallersPlan, type CallerKind } from '../../world/callers/plan.js';
import { serveCallsFeed } from '../../world/callers/server.js';
import { analystAccuracy, type LeaderboardRow } from './accuracy.js';
import { callsSource } from './source.js';

export interface CallerTruth {
  readonly id: string;
  readonly kind: CallerKind;
  readonly hitProbability: number;
}

export const LUCKY_TOP = 5;

export interface RankingScore {
  readonly callers: number;
  /** Spearman's rho of the board's order against true hit probability (1: the board is the truth's order). */
  readonly spearman: number;
  readonly luckyInTop: boolean;
  /** The best rank any lucky caller reached (1 is the top), null without lucky callers. */
  readonly bestLuckyRank: number | null;
  /** Pairs (lucky, skilled) where the lucky caller ranks above. */
  readonly luckyAboveSkilled: number;
  readonly skilledInTop: number;
}

/** The board's order (rows, best first) against the labels. Callers the board left out rank last, tied. */
export function scoreRanking(truth: readonly CallerTruth[], order: readonly string[]): RankingScore {
  const position = new Map(order.map((id, i) => [id, i + 1]));
  const boardRank = truth.map((t) => position.get(t.id) ?? order.length + 1);
  // Best first on the board; the truth ranked the same way (highest probability first).
  const rho = spearman(boardRank.map((r) => -r), truth.map((t) => t.hitProbability));
  const luckyRanks = truth.flatMap((t, i) => (t.kind === 'lucky' ? [boardRank[i]!] : []));
  const skilledRanks = truth.flatMap((t, i) => (t.kind === 'skilled' ? [boardRank[i]!] : []));
  return {
    callers: truth.length,
    spearman: Math.round(rho * 1000) / 1000,
    luckyInTop: luckyRanks.some((r) => r <= LUCKY_TOP),
    bestLuckyRank: luckyRanks.length ? Math.min(...luckyRanks) : null,
    luckyAboveSkilled: luckyRanks.reduce((s, l) => s + skilledRanks.filter((k) => l < k).length, 0),
    skilledInTop: skilledRanks.filter((r) => r <= LUCKY_TOP).length,
  };
}

export interface CallersEvaluation {
  /** The callers the board ranks (past the reliability gate), in its order. */
  readonly ranked: RankingScore;
  /** Every caller in the board's order: the ranked, then those under the gate. */
  readonly board: RankingScore;
  /** The score alone: every caller ordered by its z, gate ignored. */
  readonly scoreOnly: RankingScore;
  /** Mean |graded hit rate - true hit probability| over callers past the gate that are not lucky. */
  readonly hitRateError: number | null;
  readonly sourcesPastGate: number;
  readonly gradedCalls: number;
  readonly pendingCalls: number;
  readonly rows: readonly LeaderboardRow[];
}

export async function evaluateCallers(options: { seed: string; origin: number; priceAt(asset: string, time: number): number; at: number }): Promise<CallersEvaluation> {
  const plan = new CallersPlan(options.seed, options.origin, options.priceAt);
  const feed = await serveCallsFeed(plan, () => options.at);
  try {
    const board = await analystAccuracy(callsSource(feed.url), options.priceAt, { now: options.at, limit: Number.MAX_SAFE_INTEGER, pricesFrom: 'the world\'s reference paths' });
    const truth = plan.callers.map((c) => ({ id: c.id, kind: c.kind, hitProbability: c.hitProbability }));
    const byScore = [...board.rows].sort((a, b) => scoreOf(b) - scoreOf(a)).map((r) => r.source_id);
    const judged = board.rows.filter((r) => r.past_gate && r.hit_rate !== null).map((r) => ({ r, t: truth.find((t) => t.id === r.source_id)! })).filter(({ t }) => t.kind !== 'lucky');
    const ranked = board.rows.filter((r) => r.past_gate).map((r) => r.source_id);
    return {
      ranked: scoreRanking(truth.filter((t) => ranked.includes(t.id)), ranked),
      board: scoreRanking(truth, board.rows.map((r) => r.source_id)),
      scoreOnly: scoreRanking(truth, byScore),
      hitRateError: judged.length ? Math.round((judged.reduce((s, { r, t }) => s + Math.abs(r.hit_rate! - t.hitProbability), 0) / judged.length) * 1000) / 1000 : null,
      sourcesPastGate: board.sources_past_gate,
      gradedCalls: board.graded_calls,
      pendingCalls: board.pending_calls,
      rows: board.rows,
    };
  } finally {
    await feed.close();
  }
}

const scoreOf = (r: LeaderboardRow) => r.z_score ?? 0;

/** Spearman's rho: Pearson's correlation of the ranks, ties given their average rank. */
export function spearman(xs: readonly number[], ys: readonly number[]): number {
  return pearson(ranks(xs), ranks(ys));
}

function ranks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x);
  const out = new Array<number>(xs.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]!.x === order[i]!.x) j++;
    for (let k = i; k <= j; k++) out[order[k]!.i] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

function pearson(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
}
