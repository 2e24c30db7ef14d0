/**
 * The front of every request, before the challenge lane and express: the request id (accepted
 * from `X-Request-Id` or made), CORS (preflights answered here), the RateLimit headers the call
 * earned, one structured log line (pino) and the HTTP metrics when it ends.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors, { type CorsOptions } from 'cors';
import type { Config } from './config.js';
import type { Metrics } from './observability/metrics.js';
import type { Logger } from './observability/logger.js';
import { openScope, type RequestFacts } from './observability/request-scope.js';
import { ROUTES } from '../cards/routes.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface FrontOptions {
  readonly logger: Logger;
  readonly metrics: Metrics | undefined;
  readonly cors: Config['cors'];
}

/** Ids a caller may choose: short, printable, no separators a log parser would trip on. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What a browser may send and read across origins: the payment, auth and protocol headers. */
const ALLOWED_HEADERS = [
  'Content-Type', 'Authorization', 'X-PAYMENT', 'PAYMENT-SIGNATURE', 'X-Request-Id', 'A2A-Version', 'A2A-Extensions', 'X-A2A-Extensions',
  'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID', 'X-Wallet', 'X-Signature', 'X-Timestamp',
];
const EXPOSED_HEADERS = [
  'PAYMENT-REQUIRED', 'PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE', 'X-Settlement-Status', 'X-Request-Id', 'RateLimit', 'RateLimit-Policy',
  'Retry-After', 'WWW-Authenticate', 'Mcp-Session-Id', 'Location',
];

/**
 * `*` answers any origin without credentials (x402 needs none: the payment is a header); a list
 * reflects only its origins and allows credentials to them; an empty list sends no CORS headers.
 */
export function corsOptions(config: Config['cors']): CorsOptions | undefined {
  const common = { methods: ['GET', 'POST', 'DELETE', 'OPTIONS'], allowedHeaders: ALLOWED_HEADERS, exposedHeaders: EXPOSED_HEADERS, maxAge: 600 };
  if (config.anyOrigin) return { ...common, origin: '*', credentials: false };
  if (!config.origins.length) return undefined;
  const allowed = new Set(config.origins);
  return { ...common, origin: (origin, done) => done(null, origin !== undefined && allowed.has(origin) ? origin : false), credentials: true };
}

/** The route as a metrics label: bounded, whatever the URL. */
function routeLabel(req: IncomingMessage, res: ServerResponse, facts: RequestFacts): string {
  if (facts.route) return facts.route;
  const r = req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };
  if (typeof r.route?.path === 'string') return `${r.baseUrl ?? ''}${r.route.path}`;
  if (res.statusCode === 404) return 'unmatched';
  // Mounted apps and static files (OAuth, assets, metadata): their first segment. Anything else
  // (a body refused before routing, on any path a caller invents) is one label, never the path.
  const first = pathOf(req.url).split('/')[1] ?? '';
  return MOUNTED.has(first) ? `/${first}/*` : 'other';
}

/** First path segments of the mounted apps whose routes express does not name. */
const MOUNTED = new Set(['assets', 'oauth', '.well-known']);

/** `RateLimit-Policy` for a limited service, `RateLimit` once the caller was counted (draft-ietf-httpapi-ratelimit-headers). */
function rateLimitHeaders(res: ServerResponse, facts: RequestFacts): void {
  if (!facts.limit || res.headersSent) return;
  const name = JSON.stringify(facts.limit.policy);
  res.setHeader('RateLimit-Policy', `${name};q=${facts.limit.perMinute};w=60`);
  if (facts.remaining) res.setHeader('RateLimit', `${name};r=${facts.remaining.calls};t=${facts.remaining.resetSeconds}`);
}

/** The path of a URL, without its query (which may carry codes or tokens: never logged). */
const pathOf = (url: string | undefined) => {
  const q = (url ?? '/').indexOf('?');
  return q === -1 ? (url ?? '/') : url!.slice(0, q);
};

/** Probes scraped every few seconds: logged at debug, not info. */
const PROBES = new Set<string>([ROUTES.health, ROUTES.readiness, ROUTES.liveness, ROUTES.metrics]);

/**
 * The request's log line, written once when it ends: a plain object handed to pino (no child
 * logger per request: on the unpaid challenge path that cost half the throughput).
 */
function logLine(logger: Logger, req: IncomingMessage, res: ServerResponse, facts: RequestFacts, durationMs: number): void {
  const path = pathOf(req.url);
  const level = res.statusCode >= 500 ? 'error' : PROBES.has(path) ? 'debug' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const { id, limit: _limit, remaining: _remaining, route: _route, ...sold } = facts;
  const aborted = !res.writableFinished;
  logger[level]({ requestId: id, req: { method: req.method, path }, res: { status: res.statusCode }, durationMs: Math.round(durationMs * 10) / 10, ...sold, ...(aborted && { aborted }) },
    `${req.method} ${path} ${res.statusCode}${aborted ? ' (connection closed before the answer finished)' : ''}`);
}

export function front(options: FrontOptions, next: Handler): Handler {
  const corsOpts = corsOptions(options.cors);
  const corsHandler = corsOpts && cors(corsOpts);
  // Any origin: a request without Origin (no browser, or same-origin) needs no CORS headers. A
  // list of origins varies the answer by Origin, so every response says so (Vary: Origin).
  const corsFor = (req: IncomingMessage) => corsHandler && (!options.cors.anyOrigin || req.headers.origin !== undefined || req.method === 'OPTIONS');
  const { logger, metrics } = options;

  return (req, res) => {
    const given = req.headers['x-request-id'];
    const facts: RequestFacts = { id: typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID() };
    openScope(req, { facts, metrics });
    res.setHeader('X-Request-Id', facts.id);
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
      rateLimitHeaders(this, facts);
      return writeHead.apply(this, args);
    } as ServerResponse['writeHead'];
    const started = performance.now();
    res.once('close', () => {
      const seconds = (performance.now() - started) / 1000;
      if (metrics) {
        const route = routeLabel(req, res, facts);
        metrics.requests.inc({ method: req.method ?? 'GET', route, status: String(res.statusCode) });
        metrics.requestSeconds.observe({ route }, seconds);
        if (res.statusCode === 402) metrics.challenges.inc({ route });
      }
      logLine(logger, req, res, facts, seconds * 1000);
    });
    if (!corsFor(req)) return next(req, res);
    corsHandler!(req as cors.CorsRequest, res, () => next(req, res));
  };
}
