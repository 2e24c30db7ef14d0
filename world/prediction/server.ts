/**
 * The embedded prediction venues on loopback, one HTTP server with a base URL per real service:
 * Polymarket's Gamma, CLOB and Data APIs and Kalshi's trade API v2. An adapter is pointed at these
 * URLs by default and at the real services by configuration; each base answers only its
 * service's paths, as the real hosts do. GET only; answers are JSON; the venues stand at `now()`.
 */
import { createServer, type Server } from 'node:http';
import { listenOnLoopback, sendJson } from '../loopback-server.js';
import type { KalshiVenue } from './kalshi-api.js';
import type { PolymarketVenue } from './polymarket-api.js';
import type { VenueAnswer } from './venue.js';

export interface PredictionVenueUrls {
  readonly polymarketGamma: string;
  readonly polymarketClob: string;
  readonly polymarketData: string;
  readonly kalshi: string;
}

/** Each base path, the venue behind it and the paths it answers. */
const SERVICES = [
  { base: '/polymarket/gamma', venue: 'polymarket', paths: /^\/(markets(\/\d+)?|events)$/ },
  { base: '/polymarket/clob', venue: 'polymarket', paths: /^\/(book|midpoint|prices-history)$/ },
  { base: '/polymarket/data', venue: 'polymarket', paths: /^\/(trades|positions|holders)$/ },
  { base: '/kalshi/trade-api/v2', venue: 'kalshi', paths: /^\/markets(\/[A-Z0-9-]+(\/orderbook)?)?$/ },
] as const;

export async function servePredictionVenues(venues: { polymarket: PolymarketVenue; kalshi: KalshiVenue }, now: () => number, port = 0): Promise<{ urls: PredictionVenueUrls; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://venue');
    const answer = (a: VenueAnswer) => sendJson(res, a.status, a.body);
    if (req.method !== 'GET') return answer({ status: 405, body: { error: 'GET only' } });
    const service = SERVICES.find((s) => url.pathname.startsWith(`${s.base}/`));
    const path = service ? url.pathname.slice(service.base.length) : '';
    if (!service || !service.paths.test(path)) return answer({ status: 404, body: { error: `not found: ${url.pathname}` } });
    try {
      answer(venues[service.venue].handle(path, url.searchParams, Math.floor(now())));
    } catch (err) {
      answer({ status: 500, body: { error: (err as Error).message } });
    }
  });
  server.keepAliveTimeout = 5_000;
  const { base: origin, close } = await listenOnLoopback(server, port);
  return {
    urls: {
      polymarketGamma: `${origin}/polymarket/gamma`, polymarketClob: `${origin}/polymarket/clob`,
      polymarketData: `${origin}/polymarket/data`, kalshi: `${origin}/kalshi/trade-api/v2`,
    },
    close,
  };
}
