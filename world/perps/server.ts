/**
 * The embedded perp venue on loopback, one HTTP server with a base URL per real host: Hyperliquid's
 * API (`POST {api}/info`, JSON body) and its stats host (`GET {stats}/Mainnet/leaderboard`). An
 * adapter is pointed at these by default and at api.hyperliquid.xyz and stats-data.hyperliquid.xyz
 * by configuration. The venue stands at `now()`.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
    const answer = (a: VenueAnswer) => {
      const body = JSON.stringify(a.body);
      res.writeHead(a.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    };
    const path = new URL(req.url ?? '/', 'http://venue').pathname;
    if (path === '/hyperliquid-stats/Mainnet/leaderboard') {
      if (req.method !== 'GET') return answer({ status: 405, body: 'GET only' });
      return answer(venue.leaderboard(Math.floor(now())));
    }
    if (path !== '/hyperliquid/info') return answer({ status: 404, body: `not found: ${path}` });
    if (req.method !== 'POST') return answer({ status: 405, body: 'POST only' });
    readBody(req).then(
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urls: { api: `${base}/hyperliquid`, stats: `${base}/hyperliquid-stats` },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => (size > MAX_BODY_BYTES ? reject(new Error(`body over ${MAX_BODY_BYTES} bytes`)) : resolve(Buffer.concat(chunks).toString())));
    req.on('error', reject);
  });
}
