/**
 * What the authorization server grants: one scope for the paid MCP tools, on one resource (the MCP
 * endpoint of the configured origin). The protected-resource metadata, the 401 challenge, the
 * provider and the consent page all read these.
 */
import { MCP_PATH } from '../../cards/mcp-tools.js';
import { SIGN_IN } from '../../payments/accounts.js';

/** Calls to paid MCP tools, billed from the signed-in account's prepaid credits. */
export const MCP_SCOPE = 'mcp:tools';

/** What each scope a client can ask for gives it, as the consent page says it. */
export const SCOPE_MEANINGS: Readonly<Record<string, string>> = {
  [MCP_SCOPE]: 'call Sibyl\'s paid MCP tools, each billed from your prepaid credits',
  offline_access: 'stay signed in: renew its access without asking you again (a refresh token)',
  openid: 'learn your wallet address (an ID token)',
};

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
