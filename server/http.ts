/**
 * The front of every request, before the challenge lane and express: the request id (accepted
 * from `X-Request-Id` or made), CORS (preflights answered here), the RateLimit headers the call
 * earned, one structured log line and the HTTP metrics when it ends.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors, { type CorsOptions } from 'cors';
import { pinoHttp } from 'pino-http';
import type { Config } from './config.js';
import type { Metrics } from './observability/metrics.js';
import type { Logger } from './observability/logger.js';
import { openScope, scopeOf, type RequestFacts } from './observability/request-scope.js';

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
  const path = (req.url ?? '/').split('?')[0]!;
  // Mounted apps and static files (OAuth, assets): their first segment.
  return `/${path.split('/')[1] ?? ''}/*`;
}

/** `RateLimit-Policy` for a limited service, `RateLimit` once the caller was counted (draft-ietf-httpapi-ratelimit-headers). */
function rateLimitHeaders(res: ServerResponse, facts: RequestFacts): void {
  if (!facts.limit || res.headersSent) return;
  const name = JSON.stringify(facts.limit.policy);
  res.setHeader('RateLimit-Policy', `${name};q=${facts.limit.perMinute};w=60`);
  if (facts.remaining) res.setHeader('RateLimit', `${name};r=${facts.remaining.calls};t=${facts.remaining.resetSeconds}`);
}

export function front(options: FrontOptions, next: Handler): Handler {
  const corsOpts = corsOptions(options.cors);
  const corsHandler = corsOpts && cors(corsOpts);
  const probes = new Set(['/healthz', '/metrics']);
  const httpLog = pinoHttp({
    logger: options.logger,
    genReqId: (req) => scopeOf(req)!.facts.id,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    serializers: {
      req: (r: { method?: string; url?: string }) => ({ method: r.method, path: (r.url ?? '').split('?')[0] }),
      res: (r: { statusCode?: number }) => ({ status: r.statusCode }),
    },
    customLogLevel: (req, res, err) => (err || res.statusCode >= 500 ? 'error' : probes.has((req.url ?? '').split('?')[0]!) ? 'debug' : 'info'),
    // Read when the response ends: what the call sold, to whom, and how it settled.
    customProps: (req, res) => {
      if (!res.headersSent) return {};
      const { id: _id, limit: _limit, remaining: _remaining, ...facts } = scopeOf(req)!.facts;
      return facts;
    },
    customSuccessMessage: (req, res) => `${req.method} ${(req.url ?? '').split('?')[0]} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${(req.url ?? '').split('?')[0]} ${res.statusCode}`,
  });

  return (req, res) => {
    const given = req.headers['x-request-id'];
    const facts: RequestFacts = { id: typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID() };
    openScope(req, { facts, metrics: options.metrics });
    res.setHeader('X-Request-Id', facts.id);
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
      rateLimitHeaders(this, facts);
      return writeHead.apply(this, args);
    } as ServerResponse['writeHead'];
    const started = performance.now();
    res.once('close', () => {
      const route = routeLabel(req, res, facts);
      const status = String(res.statusCode);
      options.metrics?.requests.inc({ method: req.method ?? 'GET', route, status });
      options.metrics?.requestSeconds.observe({ route }, (performance.now() - started) / 1000);
      if (res.statusCode === 402) options.metrics?.challenges.inc({ route });
    });
    httpLog(req, res);
    if (!corsHandler) return next(req, res);
    corsHandler(req as Parameters<typeof corsHandler>[0], res as Parameters<typeof corsHandler>[1], () => next(req, res));
  };
}
