/**
 * The embedded calls feed on loopback: a plain, paged JSON API of market calls (no single real
 * provider publishes one; this is the shape an adapter pointed at `CALLS_FEED_URL` reads). The feed
 * stands at `now()`: nothing made after it is served. It never says what a caller is.
 *
 *   GET {url}/v1/callers
 *     200 { as_of, callers: [{ id, source_type: x|youtube|newsletter|analyst, label }] }
 *   GET {url}/v1/calls?since=&until=&caller=&page=&page_size=
 *     since, until: ISO-8601 or unix seconds, both inclusive on made_at (until at most as_of);
 *     caller: one caller id; page: 1-based (default 1); page_size: 1-1000 (default 200).
 *     200 { as_of, page, page_size, total, next_page (null on the last page),
 *           calls: [{ id, caller_id, asset, asset_class: crypto|equity, direction: long|short|hold,
 *                     horizon: 1d|7d|30d, made_at (ISO-8601), price_at_call (USD) }] }
 *     Calls come oldest first (ties by id), so a page holds the same calls while the feed grows;
 *     a reader pins `until` to the first page's as_of to read one consistent feed.
 *   Errors: 400 (a bad parameter), 404 (another path), 405 (not GET), each
 *     { error: { code, message } }.
 */
import { createServer, type Server } from 'node:http';
import { listenOnLoopback, sendJson } from '../loopback-server.js';
import type { CallersPlan, PlannedCall } from './plan.js';

export const FEED_PAGE_SIZE = 200;
export const FEED_MAX_PAGE_SIZE = 1_000;

const iso = (t: number) => new Date(t * 1000).toISOString();

export function callJson(c: PlannedCall) {
  return { id: c.id, caller_id: c.caller, asset: c.asset, asset_class: c.assetClass, direction: c.direction, horizon: c.horizon, made_at: iso(c.madeAt), price_at_call: c.priceAtCall };
}

/** The feed's answer to a GET of `path?query` at `now`: status and JSON body. */
export function feedAnswer(plan: CallersPlan, url: URL, now: number): { status: number; body: unknown } {
  const asOf = Math.floor(now);
  const bad = (message: string) => ({ status: 400, body: { error: { code: 'bad_request', message } } });
  if (url.pathname === '/v1/callers') {
    return { status: 200, body: { as_of: iso(asOf), callers: plan.callers.map((c) => ({ id: c.id, source_type: c.sourceType, label: c.label })) } };
  }
  if (url.pathname !== '/v1/calls') return { status: 404, body: { error: { code: 'not_found', message: `no such path: ${url.pathname}` } } };
  const q = url.searchParams;
  const since = q.has('since') ? timeParam(q.get('since')!) : -Infinity;
  const until = q.has('until') ? timeParam(q.get('until')!) : asOf;
  if (since === null) return bad('since: an ISO-8601 time or unix seconds');
  if (until === null) return bad('until: an ISO-8601 time or unix seconds');
  const page = q.has('page') ? Number(q.get('page')) : 1;
  const pageSize = q.has('page_size') ? Number(q.get('page_size')) : FEED_PAGE_SIZE;
  if (!Number.isInteger(page) || page < 1) return bad('page: an integer from 1');
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > FEED_MAX_PAGE_SIZE) return bad(`page_size: an integer from 1 to ${FEED_MAX_PAGE_SIZE}`);
  const caller = q.get('caller');
  const last = Math.min(until, asOf);
  const matching = plan.through(asOf).calls.filter((c) => c.madeAt >= since && c.madeAt <= last && (caller === null || c.caller === caller));
  const from = (page - 1) * pageSize;
  return {
    status: 200,
    body: {
      as_of: iso(asOf), page, page_size: pageSize, total: matching.length,
      next_page: from + pageSize < matching.length ? page + 1 : null,
      calls: matching.slice(from, from + pageSize).map(callJson),
    },
  };
}

/** ISO-8601 or unix seconds, as unix seconds; null when neither. */
function timeParam(v: string): number | null {
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms / 1000 : null;
}

export async function serveCallsFeed(plan: CallersPlan, now: () => number, port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => sendJson(res, status, body);
    if (req.method !== 'GET') return send(405, { error: { code: 'method_not_allowed', message: 'GET only' } });
    try {
      const { status, body } = feedAnswer(plan, new URL(req.url ?? '/', 'http://feed'), now());
      send(status, body);
    } catch (err) {
      send(500, { error: { code: 'internal', message: (err as Error).message } });
    }
  });
  const { base, close } = await listenOnLoopback(server, port);
  return { url: base, close };
}
