/**
 * The House and Senate stock-watcher files as the embedded venue serves them: every trade the plan
 * has disclosed by `now`, newest disclosure first, in each file's own shape. The House file writes
 * transaction_date as YYYY-MM-DD and disclosure_date as MM/DD/YYYY, owners in lower case
 * (a child is "dependent"), types purchase|sale_full|sale_partial|exchange and "Hon." before the
 * name; the Senate file writes both dates MM/DD/YYYY, owners capitalised, types "Purchase",
 * "Sale (Full)", "Sale (Partial)", "Exchange", and a comment and asset_type on every row.
 */
import type { CongressTrade, Member, RecordsState, TradeOwner, TradeSide } from './plan.js';

/** The real files' paths under their S3 host (path-style: one base URL holds both buckets). */
export const HOUSE_FILE_PATH = '/house-stock-watcher-data/data/all_transactions.json';
export const SENATE_FILE_PATH = '/senate-stock-watcher-data/aggregate/all_transactions.json';

/** MM/DD/YYYY from YYYY-MM-DD. */
export const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

const HOUSE_OWNER: Readonly<Record<TradeOwner, string>> = { self: 'self', spouse: 'spouse', joint: 'joint', child: 'dependent' };
const SENATE_OWNER: Readonly<Record<TradeOwner, string>> = { self: 'Self', spouse: 'Spouse', joint: 'Joint', child: 'Child' };
const SENATE_TYPE: Readonly<Record<TradeSide, string>> = { purchase: 'Purchase', sale_full: 'Sale (Full)', sale_partial: 'Sale (Partial)', exchange: 'Exchange' };

const newestFirst = (trades: readonly CongressTrade[]) => [...trades].sort((a, b) => b.disclosedAt - a.disclosedAt || a.key.localeCompare(b.key));

export function houseFile(state: RecordsState): Record<string, unknown>[] {
  const members = new Map(state.members.map((m) => [m.name, m]));
  return newestFirst(state.trades.filter((t) => t.chamber === 'house')).map((t) => {
    const m = members.get(t.member)!;
    return {
      disclosure_year: Number(t.disclosureDate.slice(0, 4)),
      disclosure_date: usDate(t.disclosureDate),
      transaction_date: t.transactionDate,
      owner: HOUSE_OWNER[t.owner],
      ticker: t.ticker,
      asset_description: t.assetDescription,
      type: t.side,
      amount: t.band,
      representative: `Hon. ${t.member}`,
      district: m.district,
      state: m.state,
      ptr_link: `https://disclosures-clerk.house.gov/public_disc/ptr-pdfs/${t.disclosureDate.slice(0, 4)}/${t.reportId}.pdf`,
      cap_gains_over_200_usd: false,
      industry: null,
      sector: null,
      party: m.party,
    };
  });
}

export function senateFile(state: RecordsState): Record<string, unknown>[] {
  const members = new Map<string, Member>(state.members.map((m) => [m.name, m]));
  return newestFirst(state.trades.filter((t) => t.chamber === 'senate')).map((t) => ({
    transaction_date: usDate(t.transactionDate),
    owner: SENATE_OWNER[t.owner],
    ticker: t.ticker,
    asset_description: t.assetDescription,
    asset_type: 'Stock',
    type: SENATE_TYPE[t.side],
    amount: t.band,
    comment: '--',
    senator: t.member,
    state: members.get(t.member)!.state,
    party: members.get(t.member)!.party,
    ptr_link: `https://efdsearch.senate.gov/search/view/ptr/${reportUuid(t.reportId)}/`,
    disclosure_date: usDate(t.disclosureDate),
  }));
}

/** The Senate's eFD links a report by a UUID; the report id spelled as one. */
function reportUuid(id: string): string {
  const hex = Buffer.from(`senate-ptr-${id}`).toString('hex').padEnd(32, '0').slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
