/**
 * OAuth 2.1 for the MCP tool server (MCP 2025-11-25 authorization), by oidc-provider:
 * authorization-server metadata at /.well-known/oauth-authorization-server (RFC 8414) and
 * /.well-known/openid-configuration, endpoints under /oauth/ (./provider.ts), sign-in with
 * Ethereum as the login step (./interaction.ts), and the access tokens it issues accepted by
 * Accounts wherever a bearer token is. Mounted before the body parsers: the token endpoint takes
 * form bodies, so every /oauth/ route is answered here.
 */
import type { Express, Request, Response } from 'express';
import type Provider from 'oidc-provider';
import type { Store } from '../../store/store.js';
import { SibylError } from '../../skills/core/errors.js';
import type { Accounts } from '../auth.js';
import { mountInteraction } from './interaction.js';
import { OAUTH_ROUTES, buildProvider } from './provider.js';
import { MCP_SCOPE, mcpResource } from './scopes.js';

export interface OAuthDeps {
  readonly store: Store;
  readonly accounts: Accounts;
  /** The configured public origin: the issuer, and the domain SIWE messages must name. */
  readonly signInOrigin: () => string;
  readonly publicUrl: (req: Request) => string;
  readonly log: (msg: string, err?: unknown) => void;
  /** How client metadata documents are fetched (default: the network; tests serve them). */
  readonly fetchClientDocument?: typeof fetch | undefined;
}

export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';
const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';

/** The provider, built on first use: the issuer (the listening origin) is known only after listen. */
function lazyProvider(deps: OAuthDeps): () => Promise<Provider> {
  let built: Promise<Provider> | undefined;
  return () => {
    if (!built) {
      built = buildProvider(deps.store, deps.signInOrigin(), deps.log, deps.fetchClientDocument);
      // A failed build (the store did not answer) is tried again on the next request.
      built.catch(() => (built = undefined));
    }
    return built;
  };
}

/**
 * The account an OAuth access token stands for: found (so not revoked), unexpired, bound to
 * the MCP resource, carrying the tools scope, and its grant still standing.
 */
async function accountOf(provider: Provider, token: string, resource: string): Promise<string | null> {
  const access = await provider.AccessToken.find(token);
  // Strictly unexpired here (find() allows the provider's clock tolerance).
  if (!access?.accountId || !access.grantId || access.isExpired) return null;
  const audiences = [(access as { aud?: string | string[] }).aud].flat();
  if (audiences.length !== 1 || audiences[0] !== resource) return null;
  if (!access.scopes.has(MCP_SCOPE)) return null;
  const grant = await provider.Grant.find(access.grantId);
  return grant && grant.accountId === access.accountId && grant.clientId === access.clientId ? access.accountId : null;
}

/** Client registrations one address may make in an hour (a person's tools register a few; a script filling the store, many). */
export const REGISTRATIONS_PER_HOUR = 30;
const HOUR_MS = 3_600_000;

async function registrationAllowed(store: Store, address: string): Promise<void> {
  const now = Date.now();
  const window = Math.floor(now / HOUR_MS);
  // Without the store the provider cannot register anyone either: it answers that (503), not this count.
  const used = await store.incrBy(`oauth:registrations:${address}:${window}`, 1, HOUR_MS + 60_000).catch(() => 0);
  if (used > REGISTRATIONS_PER_HOUR) {
    const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * HOUR_MS - now) / 1000));
    throw new SibylError('rate_limited', `client registration allows ${REGISTRATIONS_PER_HOUR} registrations an hour per address; retry in ${retryAfterSeconds} s, or reuse a client you registered`, { retryAfterSeconds });
  }
}

export function mountOAuth(app: Express, deps: OAuthDeps): void {
  const provider = lazyProvider(deps);
  deps.accounts.acceptTokens(async (token) => accountOf(await provider(), token, mcpResource(deps.signInOrigin())));

  // Endpoint URLs and cookies follow the configured origin, never the request's Host or X-Forwarded-* headers.
  const asIssuer = (req: Request) => {
    const issuer = new URL(deps.signInOrigin());
    req.headers.host = issuer.host;
    req.headers['x-forwarded-host'] = issuer.host;
    req.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
  };
  const handlers = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  const handOver = async (req: Request, res: Response) => {
    const oidc = await provider();
    let handle = handlers.get(oidc);
    if (!handle) handlers.set(oidc, (handle = oidc.callback()));
    asIssuer(req);
    await handle(req, res);
  };

  // RFC 8414 metadata is the OpenID discovery document (a superset) under its own name.
  app.get(AUTHORIZATION_SERVER_METADATA_PATH, async (req, res, next) => {
    req.url = req.originalUrl = OPENID_CONFIGURATION_PATH;
    await handOver(req, res).catch(next);
  });
  app.get(OPENID_CONFIGURATION_PATH, async (req, res, next) => void (await handOver(req, res).catch(next)));

  mountInteraction(app, { provider, accounts: deps.accounts, signInOrigin: deps.signInOrigin, asIssuer });

  // Open registration, bounded: a client address may register so many clients an hour (one store count, every instance).
  app.post(OAUTH_ROUTES.registration, async (req, _res, next) => {
    try {
      await registrationAllowed(deps.store, req.socket.remoteAddress ?? 'unknown');
      next();
    } catch (err) {
      next(err);
    }
  });

  // The provider's endpoints (and the authorization endpoint's resume path, /oauth/authorize/:uid);
  // anything else under /oauth/ is answered here, before the 415 for a non-JSON body could be.
  const providerPaths = Object.values(OAUTH_ROUTES);
  app.use(async (req, res, next) => {
    if (!req.path.startsWith('/oauth/')) return next();
    if (!providerPaths.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return next(new SibylError('not_found', `no route for ${req.method} ${req.path}`));
    await handOver(req, res).catch(next);
  });
}
