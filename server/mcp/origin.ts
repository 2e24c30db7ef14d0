/**
 * DNS-rebinding protection of the MCP endpoint. The Streamable HTTP transport of MCP 2025-11-25
 * says a server MUST validate `Origin` and answer 403 to an invalid one: a page on another site
 * (or on a name rebound to this machine) must not drive the tool server from a visitor's browser.
 *
 * - `Origin` absent: allowed (non-browser clients send none; browsers always send one on POST).
 * - `Origin` present: allowed only when it is this server's configured origin (the one sign-in
 *   messages name: `PUBLIC_URL`, else `http://HOST:PORT`), a loopback equivalent of it when the
 *   server listens on loopback or on every interface (`localhost`, `127.0.0.1`, `[::1]` at the same
 *   scheme and port), or one of `MCP_ALLOWED_ORIGINS`.
 * - `Host`: checked too when the configured origin is a loopback one (no `PUBLIC_URL`, `HOST`
 *   loopback), as the SDK's own `localhostHostValidation` does: only loopback names (any port) or
 *   the allowed origins' host names. Behind a public URL the Host a proxy forwards is its own
 *   business, so only `Origin` decides there.
 *
 * The SDK's transport options for this (`allowedOrigins`, `enableDnsRebindingProtection`) are
 * deprecated in 1.32 in favour of middleware, and its middleware checks `Host` only and answers a
 * JSON-RPC body; this one answers Sibyl's error shape (`403 forbidden_origin`), like the endpoint's 401.
 */
import type { RequestHandler } from 'express';
import { SibylError } from '../../skills/core/errors.js';
import { isLoopback, LOOPBACK_NAMES, loopbackAliases } from '../loopback.js';

/** Listening on every interface: the server is also reached on loopback. */
const isUnspecified = (hostname: string) => hostname === '0.0.0.0' || hostname === '[::]';

export interface OriginPolicy {
  /** Browser origins allowed (serialized as `URL.origin`). */
  readonly origins: ReadonlySet<string>;
  /** Host names allowed in `Host` (port-agnostic), or null when `Host` is not checked. */
  readonly hosts: ReadonlySet<string> | null;
}

/**
 * @param configuredOrigin this server's origin as configured (PUBLIC_URL, else http://HOST:PORT);
 * never a request header.
 * @param allowed further origins (MCP_ALLOWED_ORIGINS).
 */
export function originPolicy(configuredOrigin: string, allowed: readonly string[] = []): OriginPolicy {
  const origins = new Set(allowed.map((o) => new URL(o).origin));
  let own: URL | undefined;
  try {
    own = new URL(configuredOrigin);
  } catch {
    own = undefined;
  }
  if (!own) return { origins, hosts: null };
  origins.add(own.origin);
  if (isLoopback(own.hostname) || isUnspecified(own.hostname)) {
    for (const alias of loopbackAliases(own)) origins.add(alias);
  }
  const hosts = isLoopback(own.hostname) ? new Set<string>([...LOOPBACK_NAMES, own.hostname, ...[...origins].map((o) => new URL(o).hostname)]) : null;
  return { origins, hosts };
}

/** Why a request is refused, or null when it may pass. */
export function refusal(policy: OriginPolicy, origin: string | undefined, host: string | undefined): string | null {
  if (origin !== undefined && !policy.origins.has(origin)) return `Origin ${origin} is not allowed on the MCP endpoint (DNS-rebinding protection); allowed: ${[...policy.origins].join(', ')}, or no Origin header`;
  if (policy.hosts) {
    let hostname: string | undefined;
    try {
      hostname = host ? new URL(`http://${host}`).hostname : undefined;
    } catch {
      hostname = undefined;
    }
    if (!hostname || !(policy.hosts.has(hostname) || isLoopback(hostname))) return `Host ${host ?? '(none)'} is not allowed on the MCP endpoint of a loopback server (DNS-rebinding protection); allowed: ${[...policy.hosts].join(', ')}`;
  }
  return null;
}

/**
 * Middleware refusing a foreign Origin (or, on a loopback server, a foreign Host) with 403
 * `forbidden_origin`. The configured origin is read per request (the port is known only once the
 * server listens); the policy is rebuilt only when it changes.
 */
export function originGuard(configuredOrigin: () => string, allowed: readonly string[] = []): RequestHandler {
  let cached: { key: string; policy: OriginPolicy } | undefined;
  return (req, _res, next) => {
    const key = configuredOrigin();
    if (cached?.key !== key) cached = { key, policy: originPolicy(key, allowed) };
    const why = refusal(cached.policy, req.get('origin'), req.get('host'));
    if (why) throw new SibylError('forbidden_origin', why);
    next();
  };
}
