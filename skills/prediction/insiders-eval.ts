/**
 * The insider scan scored against labelled insider trades (for the detector evaluation and the
 * tests; the labels come from whoever calls it, never from here). A label is an account and the
 * time of its trade; its market is found from the venue's own record of that trade, and only
 * labels the scan could see count: a trade already made, in a market the scan read, by an account
 * whose funding the chain shows before it and after the start of the history read (an insider who
 * bet before the chain's history began cannot be told fresh by any reader of that chain).
 */
import type { AccountFunding } from './funding.js';
import type { InsiderScan } from './insiders.js';
import type { PolymarketClient } from './source.js';

export interface InsiderLabel {
  readonly account: string;
  readonly time: number;
}

export interface InsiderScanScore {
  readonly truePositives: number;
  readonly predicted: number;
  readonly actual: number;
  readonly precision: number | null;
  readonly recall: number | null;
  /** `account:conditionId` of the flags no label confirms, and of the labels not flagged. */
  readonly falsePositives: readonly string[];
  readonly missed: readonly string[];
  /** Labels the scan could see but the chain cannot judge (funded before the history read, or not found on it). */
  readonly unjudgeable: number;
}

export async function scoreInsiderScan(venue: PolymarketClient, funding: AccountFunding, scan: InsiderScan, labels: readonly InsiderLabel[]): Promise<InsiderScanScore> {
  const read = new Set(scan.markets.map((m) => m.conditionId));
  const actual = new Set<string>();
  let unjudgeable = 0;
  for (const label of labels) {
    if (label.time > scan.asOf) continue;
    const trade = (await venue.tradesOf(label.account)).find((t) => t.timestamp === label.time);
    if (!trade || !read.has(trade.conditionId)) continue;
    const f = await funding.firstFunding(label.account);
    if (f.status !== 'funded' || f.funding.censored || f.funding.time > label.time) unjudgeable++;
    else actual.add(key(label.account, trade.conditionId));
  }
  const predicted = new Set(scan.alerts.map((a) => key(a.account.address, a.market.conditionId)));
  const truePositives = [...predicted].filter((p) => actual.has(p)).length;
  return {
    truePositives, predicted: predicted.size, actual: actual.size,
    precision: predicted.size ? truePositives / predicted.size : null,
    recall: actual.size ? truePositives / actual.size : null,
    falsePositives: [...predicted].filter((p) => !actual.has(p)),
    missed: [...actual].filter((a) => !predicted.has(a)),
    unjudgeable,
  };
}

const key = (account: string, conditionId: string) => `${account.toLowerCase()}:${conditionId.toLowerCase()}`;
