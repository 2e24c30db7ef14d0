/**
 * The OAuth 2.1 authorization server (oidc-provider) for the MCP tool server: open dynamic client
 * registration (public clients, PKCE S256 required), authorization code and refresh tokens,
 * revocation, and resource indicators with one resource, the MCP endpoint, to which every access
 * token is audience-bound. Login and consent are one step on Sibyl's own page (./interaction.ts):
 * signing a sign-in-with-Ethereum message.
 */
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Store } from '../../store/store.js';
import { storeAdapterFactory } from './adapter.js';
import { sharedKeys } from './keys.js';
import { renderErrorPage } from './page.js';
import { PAGE_HEADERS } from '../../web/html.js';
import { MCP_SCOPE, OAUTH_TTL, mcpResource, mcpResourceNames } from './scopes.js';
import { isLoopback, LOOPBACK_NAMES } from '../loopback.js';

/** Where each endpoint lives under the issuer (the configured origin). */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  jwks: '/oauth/jwks',
  revocation: '/oauth/revoke',
} as const;

export const INTERACTION_PATH = '/oauth/interaction';

/** Scopes a client may ask for; `mcp:tools` is also the resource server's scope. */
export const OAUTH_SCOPES = ['openid', 'offline_access', MCP_SCOPE] as const;

const STORE_PREFIX = 'oauth:';

/** OAuth 2.1: a redirect URI is https, or http on a loopback host (a native app's local listener). */
function checkRedirectUris(metadata: { redirect_uris?: unknown }): void {
  for (const uri of Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris : []) {
    const url = URL.parse(String(uri));
    if (url?.protocol === 'http:' && !isLoopback(url.hostname)) {
      throw new errors.InvalidClientMetadata(`redirect_uris: http is allowed only on a loopback host (${LOOPBACK_NAMES.join(', ')}), got ${String(uri)}`);
    }
  }
}

/**
 * @param fetchDocument how client metadata documents are fetched: the network (oidc-provider's own
 * fetch, with its refusal of special-use addresses) unless a caller hands one in (tests, which
 * have no network, serve the documents themselves).
 */
export async function buildProvider(store: Store, issuer: string, log: (msg: string, err?: unknown) => void, fetchDocument?: typeof fetch): Promise<Provider> {
  const keys = await sharedKeys(store, `${STORE_PREFIX}keys`);
  const resource = mcpResource(issuer);
  // Its loopback aliases too (a client that reached localhost): the token's audience is always the canonical one.
  const resourceNames = mcpResourceNames(issuer);
  const configuration: Configuration = {
    adapter: storeAdapterFactory(store, { prefix: STORE_PREFIX, revokedGrantTtlSeconds: OAUTH_TTL.grant + OAUTH_TTL.refreshToken }),
    jwks: keys.jwks,
    cookies: { keys: keys.cookieKeys },
    routes: OAUTH_ROUTES,
    scopes: [...OAUTH_SCOPES],
    // OAuth 2.1: the authorization code flow only.
    responseTypes: ['code'],
    claims: { openid: ['sub'] },
    // The wallet address is the account; there is nothing more to look up.
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    pkce: { required: () => true },
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
    // RFC 7591 fields we keep; listing them is what lets the validator see every registration.
    extraClientMetadata: {
      properties: ['software_id', 'software_version'],
      validator: (_ctx, key, _value, metadata) => void (key === 'software_id' && checkRedirectUris(metadata)),
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      // Plain bearer tokens: the tool server does not check DPoP proofs.
      dPoP: { enabled: false },
      // MCP 2025-11-25: a client may name itself by the https URL of its metadata document instead of registering.
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (!resourceNames.has(indicator)) throw new errors.InvalidTarget(`resource: the only resource here is ${resource}`);
          return { scope: MCP_SCOPE, audience: resource, accessTokenTTL: OAUTH_TTL.accessToken, accessTokenFormat: 'opaque' };
        },
      },
    },
    // Browser-based clients may call the token and revocation endpoints from their redirect URIs' origins.
    clientBasedCORS: (_ctx, origin, client) => origin !== 'null' && (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    // A public client that registered for refresh tokens gets them without asking for offline_access.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: OAUTH_TTL.accessToken,
      AuthorizationCode: OAUTH_TTL.authorizationCode,
      RefreshToken: OAUTH_TTL.refreshToken,
      Grant: OAUTH_TTL.grant,
      Session: OAUTH_TTL.session,
      Interaction: OAUTH_TTL.interaction,
      IdToken: OAUTH_TTL.accessToken,
    },
    ...(fetchDocument && { fetch: fetchDocument }),
    renderError: (ctx: KoaContextWithOIDC, out) => {
      ctx.type = 'html';
      ctx.set({ ...PAGE_HEADERS });
      ctx.body = renderErrorPage(out);
    },
  };
  const provider = new Provider(issuer, configuration);
  // Host and scheme are set from the issuer before each request (index.ts), so proxies are trusted only for that.
  provider.proxy = true;
  provider.on('server_error', (_ctx, err) => log('oauth: server error', err));
  // A fault of ours (the store down, most likely) is a 503 to retry, not a 500: the request was fine.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status === 500) {
      ctx.status = 503;
      ctx.set('Retry-After', '5');
    }
  });
  return provider;
}
