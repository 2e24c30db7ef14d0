/** Number formats for the skills' one-line summaries (the report agent's answers). */
export const usd = (n: number | null | undefined) =>
  n === null || n === undefined ? 'n/a' : `${n < 0 ? '-' : ''}$${Math.abs(n).toLocaleString('en-US', { maximumSignificantDigits: Math.abs(n) >= 1 ? 8 : 4, maximumFractionDigits: Math.abs(n) >= 1 ? 2 : 10 })}`;
export const pct = (n: number | null | undefined) => (n === null || n === undefined ? 'n/a' : `${n > 0 ? '+' : ''}${Number(n.toFixed(2))}%`);
/** A share or rate, unsigned: 62.5%. */
export const share = (n: number | null | undefined) => (n === null || n === undefined ? 'n/a' : `${Number(n.toFixed(2))}%`);
export const num = (n: number) => n.toLocaleString('en-US', { maximumSignificantDigits: 6 });
/** An indicator's value, or why it has none (`{ available: false, reason }`). */
export const orReason = (v: unknown, format: (v: any) => string) =>
  v && typeof v === 'object' && (v as { available?: boolean }).available === false ? `n/a (${(v as { reason: string }).reason})` : format(v);
/** The span a period's figures cover, in words: "over 30d", or "since <time> (history shorter than 30d)" (see data/coverage.ts). */
export const periodSpan = (r: { timeperiod: string; coverage?: { complete: boolean; from: string | number } }) =>
  r.coverage?.complete === false ? `since ${typeof r.coverage.from === 'number' ? new Date(r.coverage.from * 1000).toISOString() : r.coverage.from} (history shorter than ${r.timeperiod})` : `over ${r.timeperiod}`;
