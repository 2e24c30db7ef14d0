/**
 * The one way engines read the public records: an adapter over the House and Senate stock-watcher
 * files (`GET {congress}/house-stock-watcher-data/data/all_transactions.json` and
 * `…/senate-stock-watcher-data/aggregate/all_transactions.json`, S3 path-style) and USAspending's
 * award search (`POST {usaspending}/api/v2/search/spending_by_award/`, paged until `hasNext` is
 * false). Pointed at the embedded venues by default and, by CONGRESS_TRADES_URL and
 * USASPENDING_URL, at the real hosts. Rows are normalised: dates to ISO days and unix seconds
 * (the House writes transactions YYYY-MM-DD and disclosures MM/DD/YYYY, the Senate both
 * MM/DD/YYYY), types to purchase|sale_full|sale_partial|exchange, owners to
 * self|spouse|joint|child, amount bands to their bounds, tickers out of the Senate file's links.
 * A row the files garble (the real ones hold some) is counted as rejected, never guessed; a feed
 * that does not answer, or answers outside its shape, is `upstream_unavailable` (nothing charged).
 */
import { z } from 'zod';
import { SibylError } from '../core/errors.js';

export interface RecordsUrls {
  readonly congress: string;
  readonly usaspending: string;
}

export const HOUSE_FILE = '/house-stock-watcher-data/data/all_transactions.json';
export const SENATE_FILE = '/senate-stock-watcher-data/aggregate/all_transactions.json';
export const SPENDING_BY_AWARD = '/api/v2/search/spending_by_award/';

export type TradeSide = 'purchase' | 'sale_full' | 'sale_partial' | 'exchange';
export type TradeOwner = 'self' | 'spouse' | 'joint' | 'child' | 'unknown';

export interface AmountBand {
  /** As the filing writes it ("$1,001 - $15,000"). */
  readonly label: string;
  readonly lowUsd: number;
  /** Null for an open band ("Over $50,000,000"). */
  readonly highUsd: number | null;
}

export interface CongressTradeRead {
  readonly chamber: 'house' | 'senate';
  /** Without the House file's "Hon.". */
  readonly member: string;
  readonly state: string | null;
  readonly district: string | null;
  readonly party: string | null;
  /** Upper case; null when the filing names none ("--"). */
  readonly ticker: string | null;
  readonly assetDescription: string;
  readonly side: TradeSide;
  readonly band: AmountBand;
  readonly owner: TradeOwner;
  /** ISO days and their 00:00 UTC in unix seconds. */
  readonly transactionDate: string;
  readonly transactedAt: number;
  readonly disclosureDate: string;
  readonly disclosedAt: number;
  readonly ptrLink: string | null;
}

export interface FeedRead {
  readonly name: 'house-stock-watcher' | 'senate-stock-watcher' | 'usaspending';
  readonly url: string;
  readonly rows: number;
  /** Rows the adapter could not read (a garbled date, type or amount), never guessed. */
  readonly rejected: number;
  readonly fetchedAt: string;
}

export interface CongressFeed {
  readonly trades: readonly CongressTradeRead[];
  readonly feeds: readonly FeedRead[];
}

export interface AwardRead {
  readonly awardId: string;
  readonly recipient: string;
  /** Obligated USD (negative for a de-obligation). */
  readonly amountUsd: number;
  readonly agency: string | null;
  readonly subAgency: string | null;
  readonly fundingAgency: string | null;
  /** The award's start (action) date, ISO, and its 00:00 UTC. */
  readonly actionDate: string;
  readonly awardedAt: number;
  readonly description: string | null;
  /** Funded through Foreign Military Sales (named in the description). */
  readonly hasFms: boolean;
  readonly contractType: string | null;
}

export interface AwardsQuery {
  /** Action dates from `since` to `until` (unix seconds, whole days). */
  readonly since: number;
  readonly until: number;
  /** recipient_search_text: a recipient whose name holds any of these. */
  readonly recipients?: readonly string[];
  /** award_amounts: only awards of at least this many USD. */
  readonly minAmountUsd?: number;
}

export interface AwardsRead {
  readonly awards: readonly AwardRead[];
  readonly feed: FeedRead;
  readonly pages: number;
  /** More pages than MAX_AWARD_PAGES: the oldest awards were not read. */
  readonly truncated: boolean;
}

export interface RecordsSource {
  readonly urls: RecordsUrls;
  congressTrades(): Promise<CongressFeed>;
  awards(query: AwardsQuery): Promise<AwardsRead>;
  /** Whether a feed answers, cheaply (a HEAD of the House file; a search of the last day that nothing matches): what /healthz probes. */
  reachable(feed: keyof RecordsUrls): Promise<true>;
}

/** A read the feed has not answered in this long is an outage. */
export const RECORDS_READ_TIMEOUT_MS = 15_000;
/** USAspending's largest page. */
export const AWARD_PAGE_LIMIT = 100;
/** Pages read at most per query (newest awards first). */
export const MAX_AWARD_PAGES = 40;
/** Contracts: the one award group the engines read. */
export const CONTRACT_CODES = ['A', 'B', 'C', 'D'] as const;
export const AWARD_FIELDS = ['Award ID', 'Recipient Name', 'Award Amount', 'Awarding Agency', 'Awarding Sub Agency', 'Funding Agency', 'Start Date', 'Description', 'Contract Award Type'] as const;

const DAY = 86_400;

/** An ISO day from YYYY-MM-DD or MM/DD/YYYY; null for anything else or an impossible date. */
export function normaliseDate(raw: string): string | null {
  const s = raw.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  const [y, m, d] = iso ? [iso[1]!, iso[2]!, iso[3]!] : us ? [us[3]!, us[1]!.padStart(2, '0'), us[2]!.padStart(2, '0')] : [];
  if (!y) return null;
  const day = `${y}-${m}-${d}`;
  const t = Date.parse(`${day}T00:00:00Z`);
  // The files hold typos like 0021-08-02; nothing before the STOCK Act (2012) is a real report.
  if (!Number.isFinite(t) || new Date(t).toISOString().slice(0, 10) !== day || Number(y) < 2012) return null;
  return day;
}

export const unixOfDay = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

/** A filing's amount band, "$1,001 - $15,000", "Over $50,000,000" or "$1,000,000 +". */
export function parseBand(raw: string): AmountBand | null {
  const label = raw.trim();
  const dollars = (s: string) => Number(s.replace(/[$,\s]/g, ''));
  const range = /^\$?([\d,]+)\s*-\s*\$?([\d,]+)$/.exec(label);
  if (range) {
    const [lowUsd, highUsd] = [dollars(range[1]!), dollars(range[2]!)];
    return Number.isFinite(lowUsd) && Number.isFinite(highUsd) && highUsd >= lowUsd ? { label, lowUsd, highUsd } : null;
  }
  const open = /^(?:over\s+)?\$([\d,]+)\s*\+?$/i.exec(label);
  if (open) return { label, lowUsd: dollars(open[1]!) + (/^over/i.test(label) ? 1 : 0), highUsd: null };
  return null;
}

export function normaliseSide(raw: string): TradeSide | null {
  const s = raw.trim().toLowerCase().replace(/[()]/g, '').replace(/\s+/g, '_');
  if (s === 'purchase') return 'purchase';
  if (s === 'sale_full') return 'sale_full';
  if (s === 'sale_partial' || s === 'sale') return 'sale_partial';
  if (s === 'exchange') return 'exchange';
  return null;
}

export function normaliseOwner(raw: string | null | undefined): TradeOwner {
  const s = (raw ?? '').trim().toLowerCase();
  if (s === 'self') return 'self';
  if (s === 'spouse') return 'spouse';
  if (s === 'joint') return 'joint';
  if (s === 'child' || s === 'dependent') return 'child';
  return 'unknown';
}

/** The Senate file wraps some tickers in a link; "--" and "N/A" name none. */
export function normaliseTicker(raw: string | null | undefined): string | null {
  const s = (raw ?? '').replace(/<[^>]*>/g, '').trim().toUpperCase();
  return !s || s === '--' || s === 'N/A' ? null : s;
}

const text = z.string().nullish();
const houseRow = z.object({
  transaction_date: z.string(), disclosure_date: z.string(), owner: text, ticker: text, asset_description: text, type: z.string(), amount: z.string(),
  representative: z.string(), district: text, state: text, party: text, ptr_link: text,
});
const senateRow = z.object({
  transaction_date: z.string(), disclosure_date: z.string(), owner: text, ticker: text, asset_description: text, type: z.string(), amount: z.string(),
  senator: z.string(), state: text, party: text, ptr_link: text,
});
const awardPage = z.object({
  results: z.array(z.object({
    'Award ID': z.string(), 'Recipient Name': z.string().nullable(), 'Award Amount': z.number().nullable(), 'Awarding Agency': text, 'Awarding Sub Agency': text,
    'Funding Agency': text, 'Start Date': z.string().nullable(), Description: text, 'Contract Award Type': text,
  })),
  page_metadata: z.object({ page: z.number(), hasNext: z.boolean() }),
});

export function recordsSource(urls: RecordsUrls, fetchImpl: typeof fetch = fetch, timeoutMs = RECORDS_READ_TIMEOUT_MS): RecordsSource {
  const down = (what: string, url: string, why: string) => new SibylError('upstream_unavailable', `${what} (${url}) did not answer: ${why}; nothing was charged`);
  const call = async (what: string, url: string, init: RequestInit): Promise<unknown> => {
    let res: Response;
    try {
      res = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw down(what, url, (err as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs / 1000} s` : (err as Error).message);
    }
    const body = await res.text().catch(() => '');
    if (res.status !== 200) throw down(what, url, `HTTP ${res.status}${body ? `: ${body.slice(0, 160)}` : ''}`);
    try {
      return JSON.parse(body);
    } catch {
      throw down(what, url, 'an answer that is not JSON');
    }
  };

  const readFile = async <R>(name: FeedRead['name'], url: string, schema: z.ZodType<R>, read: (row: R) => CongressTradeRead | null) => {
    const body = await call(`the ${name} file`, url, { method: 'GET' });
    if (!Array.isArray(body)) throw down(`the ${name} file`, url, 'an answer that is not a list of transactions');
    const trades: CongressTradeRead[] = [];
    let rejected = 0;
    for (const raw of body) {
      const row = schema.safeParse(raw);
      const trade = row.success ? read(row.data) : null;
      if (trade) trades.push(trade);
      else rejected++;
    }
    // A file of which nothing reads is not the file its shape promises.
    if (body.length > 0 && trades.length === 0) throw down(`the ${name} file`, url, `none of its ${body.length} rows in the documented shape`);
    return { trades, feed: { name, url, rows: body.length, rejected, fetchedAt: new Date().toISOString() } satisfies FeedRead };
  };

  const common = (r: { transaction_date: string; disclosure_date: string; owner?: string | null; ticker?: string | null; asset_description?: string | null; type: string; amount: string; state?: string | null; party?: string | null; ptr_link?: string | null }) => {
    const transactionDate = normaliseDate(r.transaction_date);
    const disclosureDate = normaliseDate(r.disclosure_date);
    const side = normaliseSide(r.type);
    const band = parseBand(r.amount);
    if (!transactionDate || !disclosureDate || !side || !band || disclosureDate < transactionDate) return null;
    return {
      ticker: normaliseTicker(r.ticker), assetDescription: (r.asset_description ?? '').trim(), side, band, owner: normaliseOwner(r.owner),
      transactionDate, transactedAt: unixOfDay(transactionDate), disclosureDate, disclosedAt: unixOfDay(disclosureDate),
      state: r.state?.trim() || null, party: r.party?.trim() || null, ptrLink: r.ptr_link?.trim() || null,
    };
  };

  return {
    urls,
    async congressTrades() {
      const [house, senate] = await Promise.all([
        readFile('house-stock-watcher', `${urls.congress}${HOUSE_FILE}`, houseRow, (r) => {
          const c = common(r);
          const member = r.representative.replace(/^Hon\.\s*/, '').trim();
          return c && member ? { ...c, chamber: 'house' as const, member, district: r.district?.trim() || null } : null;
        }),
        readFile('senate-stock-watcher', `${urls.congress}${SENATE_FILE}`, senateRow, (r) => {
          const c = common(r);
          const member = r.senator.trim();
          return c && member ? { ...c, chamber: 'senate' as const, member, district: null } : null;
        }),
      ]);
      return { trades: [...house.trades, ...senate.trades], feeds: [house.feed, senate.feed] };
    },

    async reachable(feed) {
      if (feed === 'congress') {
        const url = `${urls.congress}${HOUSE_FILE}`;
        const res = await fetchImpl(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs) });
        if (res.status !== 200) throw down('the house-stock-watcher file', url, `HTTP ${res.status}`);
        return true;
      }
      const day = Math.floor(Date.now() / 1000);
      await awards({ since: day - 86_400, until: day, minAmountUsd: 1e12 });
      return true;
    },
    awards,
  };

  // Every page of a search (newest first, at most MAX_AWARD_PAGES).
  async function awards(query: AwardsQuery): Promise<AwardsRead> {
    const url = `${urls.usaspending}${SPENDING_BY_AWARD}`;
    const filters: Record<string, unknown> = {
      award_type_codes: CONTRACT_CODES,
      time_period: [{ start_date: isoDay(query.since), end_date: isoDay(query.until) }],
    };
    if (query.recipients?.length) filters.recipient_search_text = query.recipients;
    if (query.minAmountUsd !== undefined) filters.award_amounts = [{ lower_bound: query.minAmountUsd }];
    const awards: AwardRead[] = [];
    let rejected = 0;
    let rows = 0;
    let page = 1;
    let hasNext = true;
    for (; hasNext && page <= MAX_AWARD_PAGES; page++) {
      const body = await call('USAspending', url, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filters, fields: AWARD_FIELDS, limit: AWARD_PAGE_LIMIT, page, sort: 'Start Date', order: 'desc', subawards: false }),
      });
      const parsed = awardPage.safeParse(body);
      if (!parsed.success) throw down('USAspending', url, `an answer outside its documented shape (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`);
      hasNext = parsed.data.page_metadata.hasNext;
      for (const r of parsed.data.results) {
        rows++;
        const actionDate = r['Start Date'] ? normaliseDate(r['Start Date']) : null;
        if (!actionDate || r['Award Amount'] === null || !r['Recipient Name']) {
          rejected++;
          continue;
        }
        awards.push({
          awardId: r['Award ID'], recipient: r['Recipient Name'], amountUsd: r['Award Amount'], agency: r['Awarding Agency'] ?? null, subAgency: r['Awarding Sub Agency'] ?? null,
          fundingAgency: r['Funding Agency'] ?? null, actionDate, awardedAt: unixOfDay(actionDate), description: r.Description ?? null,
          hasFms: /\bFMS\b|FOREIGN MILITARY SALES/i.test(r.Description ?? ''), contractType: r['Contract Award Type'] ?? null,
        });
      }
    }
    return { awards, pages: page - 1, truncated: hasNext, feed: { name: 'usaspending', url, rows, rejected, fetchedAt: new Date().toISOString() } };
  }
}

const isoDay = (t: number) => new Date(Math.floor(t / DAY) * DAY * 1000).toISOString().slice(0, 10);
