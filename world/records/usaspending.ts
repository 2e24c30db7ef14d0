/**
 * The embedded USAspending answering `POST /api/v2/search/spending_by_award/` as the real API
 * documents it (usaspending-api's api_contracts spending_by_award.md): filters (award_type_codes
 * required, from one award group; time_period on the action date; recipient_search_text matched
 * against the recipient's name; award_amounts; award_ids), the requested fields, limit (1-100, default 10),
 * page, sort (a requested field, default the first) and order (default desc) → {limit, results,
 * page_metadata:{page, hasNext, …}, messages}. A request outside that shape is refused as the real
 * API refuses it: 422 with `detail` for a missing or invalid value, 400 for a sort field not
 * requested. Only contracts (A-D) are in the world; other groups answer no rows.
 */
import type { VenueAnswer } from '../prediction/venue.js';
import type { ContractAward, RecordsState } from './plan.js';

export const SPENDING_BY_AWARD_PATH = '/api/v2/search/spending_by_award/';
export const MAX_LIMIT = 100;
/** The earliest date the endpoint searches (FY2008). */
const EARLIEST = '2007-10-01';

const GROUPS: Readonly<Record<string, readonly string[]>> = {
  contracts: ['A', 'B', 'C', 'D'],
  idvs: ['IDV_A', 'IDV_B', 'IDV_B_A', 'IDV_B_B', 'IDV_B_C', 'IDV_C', 'IDV_D', 'IDV_E'],
  grants: ['02', '03', '04', '05'],
  direct_payments: ['06', '10'],
  loans: ['07', '08'],
  other_financial_assistance: ['09', '11', '-1'],
};
const CONTRACT_TYPE: Readonly<Record<string, string>> = { A: 'BPA CALL', B: 'PURCHASE ORDER', C: 'DELIVERY ORDER', D: 'DEFINITIVE CONTRACT' };
const AGENCY_IDS: Readonly<Record<string, number>> = {
  'Department of Defense': 126, 'General Services Administration': 579, 'National Aeronautics and Space Administration': 862, 'Department of Homeland Security': 563,
  'Department of Energy': 78, 'Department of Veterans Affairs': 456, 'Department of the Treasury': 22, 'Department of Health and Human Services': 806, 'Department of Justice': 17,
};

const unprocessable = (detail: string): VenueAnswer => ({ status: 422, body: { detail } });
const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** One field of an award as the endpoint names it (null for a field the award does not carry). */
function field(a: ContractAward, name: string): string | number | null {
  switch (name) {
    case 'Award ID': return a.awardId;
    case 'Recipient Name': return a.recipient;
    case 'Award Amount': return a.amountUsd;
    case 'Awarding Agency': return a.agency;
    case 'Awarding Sub Agency': return a.subAgency;
    case 'Funding Agency': return a.fundingAgency;
    case 'Funding Sub Agency': return a.fms ? 'Defense Security Cooperation Agency' : a.subAgency;
    case 'Start Date': case 'Base Obligation Date': case 'Period of Performance Start Date': case 'Last Modified Date': return a.actionDate;
    case 'End Date': case 'Period of Performance Current End Date': return a.endDate;
    case 'Description': return a.description;
    case 'Contract Award Type': return CONTRACT_TYPE[a.awardType]!;
    case 'Award Type': return null;
    case 'generated_internal_id': return `CONT_AWD_${a.awardId}_9700_-NONE-_-NONE-`;
    case 'internal_id': return a.internalId;
    default: return null;
  }
}

export function spendingByAward(state: RecordsState, body: unknown): VenueAnswer {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return unprocessable("Missing value: 'filters' is a required field");
  const req = body as Record<string, unknown>;
  const filters = req.filters;
  if (!filters || typeof filters !== 'object' || Array.isArray(filters)) return unprocessable("Missing value: 'filters' is a required field");
  const f = filters as Record<string, unknown>;
  if (!Array.isArray(req.fields) || req.fields.length === 0) return unprocessable("Missing value: 'fields' is a required field");
  if (!req.fields.every((x) => typeof x === 'string')) return unprocessable("Field 'fields' must be an array of strings");
  const fields = req.fields as string[];
  const codes = f.award_type_codes;
  if (!Array.isArray(codes) || codes.length === 0) return unprocessable("Missing value: 'filters|award_type_codes' is a required field");
  const known = Object.values(GROUPS).flat();
  const unknown = codes.find((c) => typeof c !== 'string' || !known.includes(c));
  if (unknown !== undefined) return unprocessable(`Field 'filters|award_type_codes' is outside valid values ['${known.join("', '")}']`);
  const groups = new Set(codes.map((c) => Object.keys(GROUPS).find((g) => GROUPS[g]!.includes(c as string))));
  if (groups.size > 1) return unprocessable(`'award_type_codes' must only contain types from one group: ${Object.keys(GROUPS).join(', ')}`);
  const limit = req.limit ?? 10;
  if (typeof limit !== 'number' || !Number.isInteger(limit)) return unprocessable("Field 'limit' must be an integer");
  if (limit > MAX_LIMIT) return unprocessable(`Field 'limit' value '${limit}' is above max '${MAX_LIMIT}'`);
  if (limit < 1) return unprocessable(`Field 'limit' value '${limit}' is below min '1'`);
  const page = req.page ?? 1;
  if (typeof page !== 'number' || !Number.isInteger(page) || page < 1) return unprocessable("Field 'page' must be an integer of at least 1");
  const order = req.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') return unprocessable("Field 'order' is outside valid values ['asc', 'desc']");
  const sort = req.sort ?? fields[0];
  if (typeof sort !== 'string') return unprocessable("Field 'sort' must be a string");
  if (!fields.includes(sort)) return { status: 400, body: { detail: `Sort value '${sort}' not found in requested fields: ${JSON.stringify(fields)}` } };

  let periods: { start: string; end: string }[] | null = null;
  if (f.time_period !== undefined) {
    if (!Array.isArray(f.time_period)) return unprocessable("Field 'filters|time_period' must be an array");
    periods = [];
    for (const p of f.time_period as unknown[]) {
      const { start_date: start, end_date: end } = (p ?? {}) as Record<string, unknown>;
      if (typeof start !== 'string' || !isoDay.test(start)) return unprocessable("Missing value: 'filters|time_period|start_date' is a required field (YYYY-MM-DD)");
      if (typeof end !== 'string' || !isoDay.test(end)) return unprocessable("Missing value: 'filters|time_period|end_date' is a required field (YYYY-MM-DD)");
      if (start < EARLIEST) return unprocessable(`Field 'filters|time_period|start_date' value '${start}' is below min '${EARLIEST}'`);
      periods.push({ start, end });
    }
  }
  let terms: string[] | null = null;
  if (f.recipient_search_text !== undefined) {
    if (!Array.isArray(f.recipient_search_text) || !f.recipient_search_text.every((x) => typeof x === 'string')) return unprocessable("Field 'filters|recipient_search_text' must be an array of strings");
    terms = (f.recipient_search_text as string[]).map((x) => x.toUpperCase());
  }
  let bounds: { lower: number; upper: number }[] | null = null;
  if (f.award_amounts !== undefined) {
    if (!Array.isArray(f.award_amounts)) return unprocessable("Field 'filters|award_amounts' must be an array");
    bounds = [];
    for (const b of f.award_amounts as unknown[]) {
      const { lower_bound: lower, upper_bound: upper } = (b ?? {}) as Record<string, unknown>;
      if ((lower !== undefined && typeof lower !== 'number') || (upper !== undefined && typeof upper !== 'number')) return unprocessable("Field 'filters|award_amounts' bounds must be numbers");
      bounds.push({ lower: (lower as number | undefined) ?? -Infinity, upper: (upper as number | undefined) ?? Infinity });
    }
  }
  let ids: string[] | null = null;
  if (f.award_ids !== undefined) {
    if (!Array.isArray(f.award_ids) || !f.award_ids.every((x) => typeof x === 'string')) return unprocessable("Field 'filters|award_ids' must be an array of strings");
    ids = (f.award_ids as string[]).map((x) => x.replace(/^"|"$/g, ''));
  }

  const rows = state.awards.filter((a) =>
    codes.includes(a.awardType)
    && (!periods || periods.some((p) => a.actionDate >= p.start && a.actionDate <= p.end))
    && (!terms || terms.some((t) => a.recipient.includes(t)))
    && (!bounds || bounds.some((b) => a.amountUsd >= b.lower && a.amountUsd <= b.upper))
    && (!ids || ids.includes(a.awardId)));
  const sign = order === 'asc' ? 1 : -1;
  rows.sort((a, b) => {
    const x = field(a, sort);
    const y = field(b, sort);
    const c = x === y ? 0 : x === null ? -1 : y === null ? 1 : typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return sign * c || sign * (a.internalId - b.internalId);
  });
  const pageRows = rows.slice((page - 1) * limit, page * limit);
  const last = pageRows.at(-1);
  return {
    status: 200,
    body: {
      limit,
      results: pageRows.map((a) => ({
        internal_id: a.internalId,
        ...Object.fromEntries(fields.map((name) => [name, field(a, name)])),
        generated_internal_id: field(a, 'generated_internal_id'),
        awarding_agency_id: AGENCY_IDS[a.agency] ?? null,
        agency_slug: a.agency.toLowerCase().replace(/[^a-z]+/g, '-'),
      })),
      page_metadata: { page, hasNext: page * limit < rows.length, last_record_unique_id: last?.internalId ?? null, last_record_sort_value: last ? String(field(last, sort)) : null },
      messages: [],
    },
  };
}
