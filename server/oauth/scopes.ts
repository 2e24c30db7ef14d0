/**
 * What the authorization server grants: one scope for the paid MCP tools, on one resource (the MCP
 * endpoint of the configured origin). The protected-resource metadata, the 401 challenge, the
 * provider and the consent page all read these.
 */
import { MCP_PATH } from '../../cards/mcp-tools.js';
import { isLoopback, loopbackAliases } from '../loopback.js';
import { SIGN_IN } from '../../payments/accounts.js';

export { MCP_SCOPE, SCOPE_MEANINGS } from '../../payments/accounts.js';

/** The one resource (RFC 8707) access tokens are issued for: the MCP endpoint of the configured origin. */
export function mcpResource(origin: string): string {
  return `${origin}${MCP_PATH}`;
}

/** OAuth lifetimes, in seconds. */
export const OAUTH_TTL = {
  /** As long as a sign-in bearer token lives. */
  accessToken: SIGN_IN.tokenTtlMs / 1000,
  authorizationCode: 60,
  refreshToken: 14 * 24 * 3600,
  grant: 14 * 24 * 3600,
  session: 14 * 24 * 3600,
  interaction: 60 * 60,
} as const;

/**
 * The resource indicators that name the MCP endpoint: its canonical URL, and on a loopback
 * server the same endpoint under each loopback name (a client that reached `localhost` asks for
 * that one; the protected-resource metadata names the URL the client used). Tokens are always
 * bound to the canonical one.
 */
export function mcpResourceNames(origin: string): ReadonlySet<string> {
  const canonical = mcpResource(origin);
  const url = URL.parse(origin);
  if (!url || !isLoopback(url.hostname)) return new Set([canonical]);
  return new Set([canonical, ...loopbackAliases(url).map(mcpResource)]);
}
