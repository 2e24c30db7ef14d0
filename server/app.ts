/**
 * The request handler: the front (request id, CORS, RateLimit headers, log line, metrics), the
 * challenge lane, then the express application: OAuth (before the body parsers), JSON parsing,
 * paid routes, A2A, accounts and MCP, forecast routes, health, metrics, discovery, the pages, and
 * error mapping.
 */
import express, { type Express, type Request, type Response } from 'express';
import { buildCatalog } from '../cards/catalog.js';
import { buildOpenApi } from '../cards/openapi.js';
import type { ChainRuntime } from '../chain/runtime.js';
import { SibylError } from '../skills/core/errors.js';
import type { Paywall } from '../payments/paywall.js';
import type { SkillContext } from '../skills/core/context.js';
import type { Registry } from '../skills/core/registry.js';
import type { Store } from '../store/store.js';
import { errorHandler } from './errors.js';
import type { HealthMonitor } from './health.js';
import { mountPaidRoutes, paidRouteTable, type PaidRouteDeps } from './paid-routes.js';
import { MAX_BODY_BYTES, challengeLane } from './challenge-lane.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mountForecastRoutes } from './forecast-routes.js';
import { forecastApiWays } from '../cards/forecast-ways.js';
import { forecastInferenceSkill } from '../skills/forecast/inference.js';
import { mountA2aRoutes } from './a2a-routes.js';
import { mountA2aServer } from './a2a-jsonrpc.js';
import { MCP_PATH } from '../cards/mcp-tools.js';
import { mountMcp } from './mcp/server.js';
import { Accounts, mountAccounts } from './auth.js';
import { CreditLedger } from '../payments/credits.js';
import { PAYMENT_CHAIN } from '../chain/chains.js';
import type { PublicClient } from 'viem';
import { RateLimiter, limitHooks, type RateLimitState } from '../payments/limits.js';
import { PaymentsCore } from '../payments/core.js';
import { x402Method } from '../payments/x402-method.js';
import { mountOAuth } from './oauth/index.js';
import type { Config } from './config.js';
import { front } from './http.js';
import type { Logger } from './observability/logger.js';
import { Metrics } from './observability/metrics.js';
import { observabilityHooks } from './observability/payment-hooks.js';
import { annotate, enterScope, limitFacts } from './observability/request-scope.js';
import { serviceSampler } from './observability/sample.js';
import { snapshotJobs } from '../skills/core/snapshots.js';
import { mountMetrics } from './observability/metrics-route.js';
import { mountWeb } from '../web/index.js';
import type { ForecastAccess } from '../skills/forecast/access.js';
import { ROUTES } from '../cards/routes.js';
import { boundedMemo, ORIGINS_KEPT } from '../lib/memo.js';

export const SERVICE_VERSION = '1.0.0';

export interface AppDeps {
  registry: Registry;
  paywall: Paywall;
  chains: ChainRuntime;
  store: Store;
  context: SkillContext;
  forecastAccess?: ForecastAccess;
  facilitatorKind: 'local' | 'remote';
  publicUrl?: string;
  /** The origin sign-in messages must name: PUBLIC_URL, else the configured listening origin; never a request header. */
  signInOrigin: () => string;
  /** Browser origins the MCP endpoint allows besides its own (MCP_ALLOWED_ORIGINS). */
  mcpAllowedOrigins?: readonly string[];
  log: (msg: string, err?: unknown) => void;
  /** Request lines and service messages (structured). */
  logger: Logger;
  cors: Config['cors'];
  metrics: Config['metrics'];
  /** How OAuth fetches client metadata documents (default: the network). */
  fetchClientDocument?: typeof fetch;
  /** The parts' states, probed in the background. */
  health: HealthMonitor;
}

/**
 * The request handler: unpaid calls to the paid operations take the challenge lane, everything
 * else the express application; both answer from one route table.
 */
export function createApp(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const publicUrl = (req: Request) => deps.publicUrl ?? `${req.protocol}://${req.get('host')}`;
  const metrics = deps.metrics.enabled ? new Metrics(serviceSampler(deps.health, deps.store, snapshotJobs(deps.registry))) : undefined;
  // One charge flow for every surface: x402 by default, the catalogue's limits hooked in, observed.
  // Every surface's limited call (HTTP, A2A, MCP tools from credits) answers with where its payer stands.
  const rateLimited = (state: RateLimitState) => annotate({ ...limitFacts({ limits: state.limits }), remaining: { calls: state.remaining, resetSeconds: state.resetSeconds } });
  const payments = new PaymentsCore(x402Method(deps.paywall)).use(limitHooks(new RateLimiter(deps.store), rateLimited)).use(observabilityHooks(metrics));
  const paid = { registry: deps.registry, paywall: deps.paywall, context: deps.context, payments, publicUrl, outbox: deps.paywall.outbox };
  const routes = paidRouteTable(paid);
  const app = expressApp(deps, paid, routes, metrics);
  return front({ logger: deps.logger, metrics, cors: deps.cors }, challengeLane({ routes, paywall: deps.paywall, publicUrl: deps.publicUrl, log: deps.log }, app));
}

function expressApp(deps: AppDeps, paid: PaidRouteDeps & { outbox: AppDeps['paywall']['outbox'] }, routes: ReturnType<typeof paidRouteTable>, metrics: Metrics | undefined): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  const { publicUrl } = paid;
  const accounts = new Accounts(deps.store, deps.chains.get(PAYMENT_CHAIN).client as PublicClient);
  // Before the body parsers: OAuth's token endpoint takes form bodies.
  mountOAuth(app, { store: deps.store, accounts, signInOrigin: deps.signInOrigin, publicUrl, log: deps.log, fetchClientDocument: deps.fetchClientDocument });

  app.use(express.json({
    limit: MAX_BODY_BYTES, strict: true, type: ['application/json', 'application/*+json'],
    // Forecast access signs the body's exact bytes.
    verify: (req, _res, buf) => void ((req as Request & { rawBody?: Buffer }).rawBody = buf),
  }));
  app.use((req, _res, next) => {
    // A body that is not JSON never reaches a handler.
    if (req.method === 'POST' && req.headers['content-length'] !== '0' && req.headers['content-type'] && !req.is(['application/json', 'application/*+json'])) {
      return next(new SibylError('unsupported_media_type', 'the body must be application/json'));
    }
    next();
  });
  // Body parsing runs outside the request's async context: the handlers below run inside it again.
  app.use((req, _res, next) => enterScope(req, next));

  mountPaidRoutes(app, paid, routes);
  mountA2aRoutes(app, paid);
  mountA2aServer(app, { ...paid, store: deps.store, version: SERVICE_VERSION });
  // Paid tools: accounts by sign-in with Ethereum, credits topped up with x402.
  const credits = new CreditLedger(deps.store);
  mountAccounts(app, accounts, credits, paid, MCP_PATH, deps.signInOrigin);
  mountMcp(app, { ...paid, accounts, credits, configuredOrigin: deps.signInOrigin, allowedOrigins: deps.mcpAllowedOrigins ?? [] });
  mountForecastRoutes(app, { ...paid, access: deps.forecastAccess });

  // Liveness asks no part. /healthz answers whenever the process serves too, with the parts'
  // states; readiness is 503 only while a part needed to sell is down (a slow part is reported).
  app.get(ROUTES.liveness, (_req, res) => {
    res.json({ status: 'alive', uptimeSeconds: Math.round(process.uptime()) });
  });
  app.get(ROUTES.health, async (_req, res) => {
    res.json(await deps.health.report());
  });
  app.get(ROUTES.readiness, async (_req, res) => {
    const report = await deps.health.report();
    res.status(report.ready ? 200 : 503).json(report);
  });
  if (metrics) mountMetrics(app, metrics, deps.metrics);
  // Serialised once per origin: OpenAPI is a JSON schema from zod for every skill (~0.2 s of
  // CPU and ~0.5 MB each time), and discovery documents are fetched often.
  const openApi = boundedMemo(ORIGINS_KEPT, (url: string) => Buffer.from(JSON.stringify(buildOpenApi(deps.registry, deps.paywall.terms, url, SERVICE_VERSION))));
  const catalog = boundedMemo(ORIGINS_KEPT, (url: string) => Buffer.from(JSON.stringify(buildCatalog(deps.registry, deps.paywall.terms, url, { [forecastInferenceSkill.id]: forecastApiWays }))));
  app.get(ROUTES.openapi, (req, res) => {
    res.type('json').send(openApi(publicUrl(req)));
  });
  app.get(ROUTES.marketplaceCatalog, (req, res) => {
    res.type('json').send(catalog(publicUrl(req)));
  });

  mountWeb(app, { registry: deps.registry, paywall: deps.paywall, chains: deps.chains, context: deps.context, publicUrl, log: deps.log });

  app.use((req, _res, next) => next(new SibylError('not_found', `no route for ${req.method} ${req.path}`)));
  app.use(errorHandler(deps.log));
  return app;
}
