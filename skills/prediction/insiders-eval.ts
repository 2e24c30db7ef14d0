/**
 * The insider scan scored against labelled insider trades (for the detector evaluation and the
 * tests; the labels come from whoever calls it, never from here). A label is an account and the
 * time of its trade; its market is found from the venue's own record of that trade, and only
 * labels a scan could see count: a trade already made, in a market the scan read, by an account
 * whose funding the chain shows before it and after the start of the history read (an insider who
 * bet before the chain's history began cannot be told fresh by any reader of that chain).
 */
import type { AccountFunding } from './funding.js';
import { insiderScan, type InsiderScan } from './insiders.js';
import type { PolymarketClient } from './source.js';

export interface InsiderLabel {
  readonly account: string;
  readonly time: number;
}

export interface InsiderScanScore {
  /** `account:conditionId` of each flag, and of each label a scan could see and the chain can judge. */
  readonly predicted: ReadonlySet<string>;
  readonly actual: ReadonlySet<string>;
  /** Labels a scan could see but the chain cannot judge (funded before the history read, or not found on it). */
  readonly unjudged: ReadonlySet<string>;
}

export async function scoreInsiderScan(venue: PolymarketClient, funding: AccountFunding, scan: InsiderScan, labels: readonly InsiderLabel[]): Promise<InsiderScanScore> {
  const read = new Set(scan.markets.map((m) => m.conditionId));
  const actual = new Set<string>();
  const unjudged = new Set<string>();
  for (const label of labels) {
    if (label.time > scan.asOf) continue;
    const trade = (await venue.tradesOf(label.account)).find((t) => t.timestamp === label.time);
    if (!trade || !read.has(trade.conditionId)) continue;
    const f = await funding.firstFunding(label.account);
    const judged = f.status === 'funded' && !f.funding.censored && f.funding.time <= label.time;
    (judged ? actual : unjudged).add(key(label.account, trade.conditionId));
  }
  return { predicted: new Set(scan.alerts.map((a) => key(a.account.address, a.market.conditionId))), actual, unjudged };
}

/**
 * Scans at each clock (the venue set to it first, as a snapshot taken then would see it) and the
 * union of their flags and labels: what the scan would have flagged run through a history.
 */
export async function insiderScoreOver(
  venue: { readonly polymarket: PolymarketClient; setNow(t: number): void },
  funding: AccountFunding,
  labels: readonly InsiderLabel[],
  clocks: readonly number[],
): Promise<InsiderScanScore & { scans: { at: number; scan: InsiderScan }[] }> {
  const predicted = new Set<string>();
  const actual = new Set<string>();
  const unjudged = new Set<string>();
  const scans: { at: number; scan: InsiderScan }[] = [];
  for (const at of clocks) {
    venue.setNow(at);
    const scan = await insiderScan(venue.polymarket, funding, { now: at });
    scans.push({ at, scan });
    const s = await scoreInsiderScan(venue.polymarket, funding, scan, labels);
    s.predicted.forEach((p) => predicted.add(p));
    s.actual.forEach((a) => actual.add(a));
    s.unjudged.forEach((u) => unjudged.add(u));
  }
  return { predicted, actual, unjudged, scans };
}

/** Precision and recall of a score (null where nothing was flagged, or nothing labelled). */
export function precisionRecall(s: Pick<InsiderScanScore, 'predicted' | 'actual'>) {
  const truePositives = [...s.predicted].filter((p) => s.actual.has(p)).length;
  return {
    truePositives, predicted: s.predicted.size, actual: s.actual.size,
    precision: s.predicted.size ? truePositives / s.predicted.size : null,
    recall: s.actual.size ? truePositives / s.actual.size : null,
    falsePositives: [...s.predicted].filter((p) => !s.actual.has(p)),
    missed: [...s.actual].filter((a) => !s.predicted.has(a)),
  };
}

const key = (account: string, conditionId: string) => `${account.toLowerCase()}:${conditionId.toLowerCase()}`;
