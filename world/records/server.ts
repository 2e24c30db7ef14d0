/**
 * The embedded public-records venues on loopback, one HTTP server with a base URL per real
 * service: the stock-watcher files under their S3 host, path-style (`GET {congress}/house-stock-
 * watcher-data/data/all_transactions.json` and `…/senate-stock-watcher-data/aggregate/
 * all_transactions.json`; CONGRESS_TRADES_URL points an adapter at https://s3-us-west-2.amazonaws.com
 * instead), and USAspending (`POST {usaspending}/api/v2/search/spending_by_award/`; USASPENDING_URL
 * points it at https://api.usaspending.gov). The venues stand at `now()`.
 */
import { createServer, type Server } from 'node:http';
import { listenOnLoopback, readBody, sendJson } from '../loopback-server.js';
import type { VenueAnswer } from '../prediction/venue.js';
import type { RecordsPlan } from './plan.js';
import { HOUSE_FILE_PATH, SENATE_FILE_PATH, houseFile, senateFile } from './stock-watcher.js';
import { SPENDING_BY_AWARD_PATH, spendingByAward } from './usaspending.js';

export interface RecordVenueUrls {
  /** The stock-watcher files' host (S3, path-style). */
  readonly congress: string;
  /** USAspending's API host. */
  readonly usaspending: string;
}

/** A search body is a small JSON object; anything larger is refused unread. */
const MAX_BODY_BYTES = 64 * 1024;
const CONGRESS_PREFIX = '/s3';
const USASPENDING_PREFIX = '/usaspending';

export async function serveRecordVenues(plan: RecordsPlan, now: () => number, port = 0): Promise<{ urls: RecordVenueUrls; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const answer = (a: VenueAnswer) => sendJson(res, a.status, a.body);
    const path = new URL(req.url ?? '/', 'http://venue').pathname;
    if (path === CONGRESS_PREFIX + HOUSE_FILE_PATH || path === CONGRESS_PREFIX + SENATE_FILE_PATH) {
      // S3 answers HEAD with the object's headers and no body.
      if (req.method === 'HEAD') return void res.writeHead(200, { 'content-type': 'application/json' }).end();
      if (req.method !== 'GET') return answer({ status: 405, body: 'GET only' });
      const state = plan.through(Math.floor(now()));
      return answer({ status: 200, body: path.endsWith(HOUSE_FILE_PATH) ? houseFile(state) : senateFile(state) });
    }
    // The real API answers the path with or without its trailing slash.
    if (path !== USASPENDING_PREFIX + SPENDING_BY_AWARD_PATH && path !== USASPENDING_PREFIX + SPENDING_BY_AWARD_PATH.slice(0, -1)) return answer({ status: 404, body: { detail: 'Not found.' } });
    if (req.method !== 'POST') return answer({ status: 405, body: { detail: `Method "${req.method}" not allowed.` } });
    readBody(req, MAX_BODY_BYTES).then(
      (raw) => {
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          return answer({ status: 400, body: { detail: 'JSON parse error' } });
        }
        try {
          answer(spendingByAward(plan.through(Math.floor(now())), body));
        } catch (err) {
          answer({ status: 500, body: { detail: (err as Error).message } });
        }
      },
      (err: Error) => answer({ status: 413, body: { detail: err.message } }),
    );
  });
  const { base, close } = await listenOnLoopback(server, port);
  return { urls: { congress: `${base}${CONGRESS_PREFIX}`, usaspending: `${base}${USASPENDING_PREFIX}` }, close };
}
