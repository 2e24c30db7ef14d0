/**
 * The embedded perp venue on loopback, one HTTP server with a base URL per real host: Hyperliquid's
 * API (`POST {api}/info`, JSON body) and its stats host (`GET {stats}/Mainnet/leaderboard`). An
 * adapter is pointed at these by default and at api.hyperliquid.xyz and stats-data.hyperliquid.xyz
 * by configuration. The venue stands at `now()`.
 */
import { createServer, type Server } from 'node:http';
import { listenOnLoopback, readBody, sendJson } from '../loopback-server.js';
import type { VenueAnswer } from '../prediction/venue.js';
import type { HyperliquidVenue } from './hyperliquid-api.js';

export interface PerpVenueUrls {
  /** Hyperliquid's API host: `POST {api}/info`. */
  readonly api: string;
  /** Hyperliquid's stats host: `GET {stats}/Mainnet/leaderboard`. */
  readonly stats: string;
}

/** An /info body is a small JSON object; anything larger is refused unread. */
const MAX_BODY_BYTES = 64 * 1024;

export async function servePerpVenue(venue: HyperliquidVenue, now: () => number, port = 0): Promise<{ urls: PerpVenueUrls; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const answer = (a: VenueAnswer) => sendJson(res, a.status, a.body);
    const path = new URL(req.url ?? '/', 'http://venue').pathname;
    if (path === '/hyperliquid-stats/Mainnet/leaderboard') {
      if (req.method !== 'GET') return answer({ status: 405, body: 'GET only' });
      return answer(venue.leaderboard(Math.floor(now())));
    }
    if (path !== '/hyperliquid/info') return answer({ status: 404, body: `not found: ${path}` });
    if (req.method !== 'POST') return answer({ status: 405, body: 'POST only' });
    readBody(req, MAX_BODY_BYTES).then(
      (raw) => {
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          return answer({ status: 422, body: 'Failed to deserialize the JSON body into the target type' });
        }
        try {
          answer(venue.handle(body, Math.floor(now())));
        } catch (err) {
          answer({ status: 500, body: (err as Error).message });
        }
      },
      (err: Error) => answer({ status: 413, body: err.message }),
    );
  });
  const { base, close } = await listenOnLoopback(server, port);
  return { urls: { api: `${base}/hyperliquid`, stats: `${base}/hyperliquid-stats` }, close };
}
