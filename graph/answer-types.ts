/**
 * Answers shaped by what was asked. A question of a known type is answered in the words it asked
 * for, from the tool results it rests on and nothing else:
 *
 * - opportunities ("the three best opportunities on base and their risks"): each idea a ranking of
 *   ideas returned (`ideas`: investment-report), named with its score and its own risks, in the
 *   result's order, as many as were asked for;
 * - a trade plan ("should I buy X: entry, stop, target?"): entry at the technicals' last close,
 *   stop at the nearest support below it, target at the nearest resistance above it
 *   (technical-analysis), with the trend, RSI and MACD they rest on; or why the technicals cannot
 *   give one.
 *
 * Each part lists the figures and names its prose must carry (`required`): the offline writer
 * leads with the part, and a language model's own answer that leaves any of them out gets the
 * part added (written-answer.ts), so every surface answers what was asked.
 */
import type { ToolOutcome } from './answer.js';

export interface AnswerPart {
  readonly kind: 'opportunities' | 'trade-plan';
  readonly text: string;
  /** Names and figures, written as `text` writes them, that an answer must carry to answer the question. */
  readonly required: readonly string[];
}

/** Ideas named when the question gives no number. */
const DEFAULT_IDEAS = 3;
const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };

/** The parts the question asks for that the outcomes can answer, in the order of the outcomes. */
export function answerParts(question: string, outcomes: readonly ToolOutcome[]): AnswerPart[] {
  const parts: AnswerPart[] = [];
  for (const o of outcomes) {
    if (!o.ok || !o.result || o.result.available === false) continue;
    if (Array.isArray(o.result.ideas) && asksForIdeas(question)) parts.push(opportunities(o.result, ideasAskedFor(question)));
    else if ('lastClose' in o.result && Array.isArray(o.result.support) && Array.isArray(o.result.resistance) && asksForTrade(question)) parts.push(tradePlan(o.result));
  }
  return parts;
}

/** Asks for ideas to act on: opportunities, ideas, picks, what to buy. */
function asksForIdeas(question: string): boolean {
  return /\b(opportunit\w*|ideas?|picks?|what (?:should|to) (?:i )?buy|where to invest|best (?:tokens?|bets?|plays?))\b/i.test(question);
}

/** Asks whether or where to trade one token: buy or sell it, an entry, a stop, a target. */
function asksForTrade(question: string): boolean {
  return /\b(buy|sell|long|short|entry|entries|enter|stop|stop-loss|target|take-profit|trade plan)\b/i.test(question);
}

/** "the three best", "top 5", "5 best ideas": how many; else DEFAULT_IDEAS. */
function ideasAskedFor(question: string): number {
  const m = /\b(?:top|best|first)\s+(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\b|\b(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:best|top|biggest|most promising)?\s*(?:opportunit\w*|ideas?|picks?|tokens?|bets?|plays?)\b/i.exec(question);
  const word = (m?.[1] ?? m?.[2])?.toLowerCase();
  const n = word === undefined ? DEFAULT_IDEAS : /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS[word]!;
  return Math.max(1, n);
}

interface Idea {
  readonly chain?: string;
  readonly token: string;
  readonly symbol: string | null;
  readonly score?: number;
  readonly thesis?: readonly string[];
  readonly risks?: readonly string[];
}

/** An idea's name as the answer writes it: its symbol and address. */
export function ideaName(idea: Pick<Idea, 'token' | 'symbol'>): string {
  return idea.symbol ? `${idea.symbol} (${idea.token})` : idea.token;
}

/** An idea's risks as the answer writes them. */
export function ideaRisks(idea: Pick<Idea, 'risks'>): string {
  return idea.risks?.length ? `risks: ${idea.risks.join('; ')}` : 'risks: none the screen found';
}

function opportunities(result: Record<string, unknown>, asked: number): AnswerPart {
  const ideas = result.ideas as Idea[];
  const excluded = Array.isArray(result.excludedByScreen) ? result.excludedByScreen.length : 0;
  const where = Array.isArray(result.chains) ? ` on ${(result.chains as string[]).join(', ')}` : typeof result.chain === 'string' ? ` on ${result.chain}` : '';
  const period = typeof result.timeperiod === 'string' ? ` over ${result.timeperiod}` : '';
  const left = excluded ? ` ${excluded} token${excluded === 1 ? '' : 's'} failing the screen ${excluded === 1 ? 'was' : 'were'} left out.` : '';
  if (!ideas.length) return { kind: 'opportunities', text: `No token qualified as an idea${where}${period}.${left}`, required: [] };
  const shown = ideas.slice(0, asked);
  const fewer = shown.length < asked ? ` (only ${shown.length} qualified)` : '';
  const lines = shown.map((idea, i) => `${i + 1}. ${ideaName(idea)}${idea.chain && !where.includes(idea.chain) ? ` on ${idea.chain}` : ''}${typeof idea.score === 'number' ? `, score ${idea.score}` : ''}${idea.thesis?.length ? ` (${idea.thesis.join('; ')})` : ''}; ${ideaRisks(idea)}.`);
  return {
    kind: 'opportunities',
    text: `The ${shown.length} best idea${shown.length === 1 ? '' : 's'}${where}${period}${fewer}, research and not advice:\n${lines.join('\n')}${left ? `\n${left.trim()}` : ''}`,
    required: shown.flatMap((idea) => [ideaName(idea), ideaRisks(idea)]),
  };
}

/** A price as the tool gave it, to its eight significant digits (the technicals' own precision): never rounded further. */
export function priceOf(n: number): string {
  return `$${n.toLocaleString('en-US', { maximumSignificantDigits: 8, maximumFractionDigits: 20, useGrouping: false })}`;
}

const pctFrom = (from: number, to: number) => `${to >= from ? '+' : ''}${Number((((to - from) / from) * 100).toFixed(2))}%`;

/** An indicator's reading, or why it has none. */
const reading = (v: unknown, format: (v: any) => string) => (v && typeof v === 'object' && (v as { available?: boolean }).available === false ? `n/a (${(v as { reason: string }).reason})` : format(v));

function tradePlan(result: Record<string, unknown>): AnswerPart {
  const token = result.token as { symbol?: string | null; address?: string } | undefined;
  const name = token?.symbol ?? token?.address ?? 'the token';
  const timeframe = typeof result.timeframe === 'string' ? ` on ${result.timeframe} candles` : '';
  const entry = result.lastClose as number | null;
  const stop = (result.support as number[])[0];
  const target = (result.resistance as number[])[0];
  const candles = typeof result.candles === 'number' ? result.candles : 0;
  const basis = `Trend ${reading(result.trend, String)}; RSI 14 ${reading(result.rsi14, (x) => `${x.value} (${x.state})`)}; MACD ${reading(result.macd, (x) => `${x.bias}`)}.`;
  if (entry === null) return { kind: 'trade-plan', text: `No trade plan for ${name}${timeframe}: the technicals have no close to enter at (${candles} candles).`, required: [] };
  const lines = [`Trade plan for ${name}${timeframe}, from its technicals (not advice):`, `- entry ${priceOf(entry)} (the last close)`];
  const required = [`entry ${priceOf(entry)}`];
  if (stop !== undefined) {
    lines.push(`- stop ${priceOf(stop)} (the nearest support below, ${pctFrom(entry, stop)})`);
    required.push(`stop ${priceOf(stop)}`);
  } else lines.push(`- no stop from the technicals: no swing low below the last close in the ${candles} candles read`);
  if (target !== undefined) {
    lines.push(`- target ${priceOf(target)} (the nearest resistance above, ${pctFrom(entry, target)})`);
    required.push(`target ${priceOf(target)}`);
  } else lines.push(`- no target from the technicals: no swing high above the last close in the ${candles} candles read`);
  if (stop !== undefined && target !== undefined && entry > stop) {
    const ratio = Number(((target - entry) / (entry - stop)).toFixed(2));
    lines.push(`- reward/risk ${ratio}${ratio < 1 ? ' (below 1: the target is nearer than the stop)' : ''}`);
  }
  lines.push(basis);
  return { kind: 'trade-plan', text: lines.join('\n'), required };
}
