/**
 * Writes a plain-language answer from tool outcomes: a verdict first (each skill's own summary,
 * safety before trading detail), then, read from the results' shape only, the headline figures
 * (top-level numbers, strings, booleans) and the main list (the longest array of records) with
 * its first rows, then where the figures came from. The same writer serves the offline planner
 * and any model that gives no text.
 */
import type { AgentTool } from './tools.js';
import { answerParts } from './answer-types.js';

export interface ToolOutcome {
  readonly skill: string;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly ok: boolean;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: string; readonly message: string };
  /** How an argument the question left out was chosen (the chain a symbol is most liquid on). */
  readonly note?: string;
}

/** Longest answer the report returns, in characters. */
export const MAX_ANALYSIS_CHARS = 6_000;
const ROWS_SHOWN = 5;
const FIELDS_PER_ROW = 6;
const HEADLINE_FIELDS = 10;
/** Provenance and echo fields: said once in the source line, not as figures. */
const QUIET_FIELDS = new Set(['source', 'chain', 'chainId', 'asOf', 'blockRange', 'methodology', 'limit', 'timeperiod', 'columns']);

/**
 * The answer in three parts: the verdict (one sentence per skill, each skill's own summary,
 * safety findings before anything else), then each skill's supporting rows, then the sources.
 * Given the question, an answer of a known type (ideas with their risks, a trade plan) follows
 * the safety findings and leads the rest (answer-types.ts).
 */
export function writeAnswer(outcomes: readonly ToolOutcome[], tools: readonly AgentTool[], question?: string): string {
  const skillOf = (o: ToolOutcome) => tools.find((t) => t.name === o.tool)?.skill;
  const ordered = [...outcomes].sort((a, b) => Number(isSafety(skillOf(b))) - Number(isSafety(skillOf(a))));
  const notes = [...new Set(ordered.flatMap((o) => (o.note ? [o.note] : [])))];
  const verdicts = ordered.map((o) => ({ safety: isSafety(skillOf(o)), line: verdictOf(o, skillOf(o)) }));
  const asked = question === undefined ? [] : answerParts(question, outcomes).map((p) => p.text);
  const verdict = asked.length
    ? [[...notes, ...verdicts.filter((v) => v.safety).map((v) => v.line)].join(' '), ...asked, verdicts.filter((v) => !v.safety).map((v) => v.line).join(' ')].filter(Boolean).join('\n\n')
    : [...notes, ...verdicts.map((v) => v.line)].join(' ');
  const details = ordered
    .filter((o) => o.ok && o.result!.available !== false)
    .map((o) => `${skillOf(o)?.title ?? o.skill}${describeArgs(o.args)}:\n${describeResult(o.result!, !summaryOf(skillOf(o)?.summarize, o.result!))}`);
  const sources = [...new Set(ordered.flatMap((o) => (o.ok ? [sourceLine(o.result!)] : [])).filter((l): l is string => l !== null))];
  return bound([verdict, ...details, ...(sources.length ? [`Sources:\n${sources.map((l) => `- ${l}`).join('\n')}`] : [])].join('\n\n'), MAX_ANALYSIS_CHARS);
}

/** Security answers come first: whether a token can be sold matters before anything about trading it. */
function isSafety(skill: AgentTool['skill'] | undefined): boolean {
  return !!skill?.tags.some((t) => t === 'security' || t === 'honeypot');
}

/** One or two sentences that answer for one skill: its own summary, else its main figure or first row. */
function verdictOf(o: ToolOutcome, skill: AgentTool['skill'] | undefined): string {
  const title = skill?.title ?? o.skill;
  if (!o.ok) return `${title}: could not be answered (${o.error!.code}): ${o.error!.message}`;
  const result = o.result!;
  if (result.available === false) return `${title}: not available: ${String(result.reason ?? 'no reason given')}.`;
  const summary = summaryOf(skill?.summarize, result);
  if (summary) return summary;
  const list = mainList(result);
  if (list && list[1].length) return `${title}${describeArgs(o.args)}: ${list[1].length} ${list[0]}; first: ${describeRow(list[1][0]!)}.`;
  return `${title}${describeArgs(o.args)}: ${list ? `no ${list[0]}` : 'answered'}.`;
}

export function bound(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function describeArgs(args: Readonly<Record<string, unknown>>): string {
  const shown = Object.entries(args).filter(([, v]) => v !== undefined && typeof v !== 'object');
  return shown.length ? ` (${shown.map(([k, v]) => `${k} ${v}`).join(', ')})` : '';
}

/** A skill's own summary line; a summary that fails on an unexpected shape is left out, not fatal. */
function summaryOf(summarize: ((result: any) => string) | undefined, result: Record<string, unknown>): string | undefined {
  try {
    return summarize?.(result) || undefined;
  } catch {
    return undefined;
  }
}

function describeResult(result: Record<string, unknown>, withFigures = true): string {
  // Sources are listed once, at the end of the answer.
  const lines: string[] = [];
  if (result.available === false) lines.push(`Not available: ${String(result.reason ?? 'no reason given')}.`);
  const headline = !withFigures ? [] : Object.entries(result)
    .filter(([k, v]) => !QUIET_FIELDS.has(k) && k !== 'available' && k !== 'reason' && isScalar(v))
    .slice(0, HEADLINE_FIELDS);
  for (const [k, v] of withFigures ? Object.entries(result) : []) {
    // One level into small records (token, verdict, summary) where the headline figures often live.
    if (!QUIET_FIELDS.has(k) && v && typeof v === 'object' && !Array.isArray(v) && headline.length < HEADLINE_FIELDS) {
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>)) if (isScalar(v2) && headline.length < HEADLINE_FIELDS) headline.push([`${k}.${k2}`, v2]);
    }
  }
  if (headline.length) lines.push(headline.map(([k, v]) => `${k}: ${formatValue(v)}`).join('; '));
  const list = mainList(result);
  if (list) {
    const [name, rows] = list;
    lines.push(`${name}: ${rows.length} row${rows.length === 1 ? '' : 's'}${rows.length ? `; first ${Math.min(ROWS_SHOWN, rows.length)}:` : '.'}`);
    for (const row of rows.slice(0, ROWS_SHOWN)) lines.push(`- ${describeRow(row)}`);
  }
  return lines.join('\n');
}

/**
 * The result's main list: its longest list of records, a list of what was left out
 * (`excludedByScreen`, `unavailableChains`) only when there is no other: the ideas, not the tokens
 * that failed. When every list at the top is empty, the rows may sit one level down, in a record
 * (`portfolio.holdings`, `traders.best`): the longest of those with rows.
 */
function mainList(result: Record<string, unknown>): [string, Record<string, unknown>[]] | null {
  const top = longestList(Object.entries(result));
  if (top && top[1].length) return top;
  const inner = Object.entries(result).flatMap(([k, v]) =>
    !QUIET_FIELDS.has(k) && v && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v as Record<string, unknown>).filter(([, rows]) => Array.isArray(rows) && rows.length).map(([k2, rows]) => [`${k}.${k2}`, rows] as [string, unknown]) : [],
  );
  return longestList(inner) ?? top;
}

function longestList(entries: readonly [string, unknown][]): [string, Record<string, unknown>[]] | null {
  let best: [string, Record<string, unknown>[]] | null = null;
  const leftOut = (k: string) => /^(excluded|unavailable)/i.test(k.split('.').at(-1)!);
  for (const [k, v] of entries) {
    if (!Array.isArray(v) || !v.every((r) => r && typeof r === 'object' && !Array.isArray(r))) continue;
    const better = !best || (leftOut(best[0]) && !leftOut(k)) || (leftOut(best[0]) === leftOut(k) && v.length > best[1].length);
    if (better) best = [k, v as Record<string, unknown>[]];
  }
  return best;
}

function describeRow(row: Record<string, unknown>): string {
  // Named things first (token0.symbol, token.symbol), then the row's own figures.
  const named = Object.entries(row).filter(([, v]) => v && typeof v === 'object' && !Array.isArray(v) && 'symbol' in v).map(([k, v]) => [k, (v as { symbol: unknown }).symbol] as const);
  const fields = [...named, ...Object.entries(row).filter(([, v]) => isScalar(v))].slice(0, FIELDS_PER_ROW);
  return fields.map(([k, v]) => `${k} ${formatValue(v)}`).join(', ') + screenNote(row);
}

/** A row the screen flagged, or could not screen, says so in the answer too (never only in the JSON). */
function screenNote(row: Record<string, unknown>): string {
  const risks = Array.isArray(row.risks) ? row.risks.map(String) : [];
  if (row.flagged === true) return ` [flagged: ${risks.join('; ')}]`;
  if (row.screened === false) return ` [${risks.find((r) => r.startsWith('not screened')) ?? 'not screened'}]`;
  return '';
}

function sourceLine(result: Record<string, unknown>): string | null {
  const asOf = result.asOf as { block?: string; timestamp?: string } | undefined;
  if (!result.source && !asOf) return null;
  const where = [result.source && `${String(result.source)} data`, result.chain && `chain ${String(result.chain)}`, asOf?.block && `block ${asOf.block}`, asOf?.timestamp && `as of ${asOf.timestamp}`].filter(Boolean).join(', ');
  return `Source: ${where}${result.methodology ? `; method ${String(result.methodology)}` : ''}.`;
}

function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function formatValue(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toLocaleString('en-US', { maximumSignificantDigits: 6 });
  const s = String(v);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}
