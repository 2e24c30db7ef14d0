/** Loopback host names: what the MCP origin check, OAuth's redirect URIs and its resource names treat as this machine. */

/** The names a loopback server is reached by (URL `hostname` spelling: IPv6 in brackets). */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

/** A host name on this machine (any 127.x address too). */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The same origin under each loopback name (scheme and port kept). */
export function loopbackAliases(url: URL): string[] {
  return LOOPBACK_NAMES.map((name) => new URL(`${url.protocol}//${name}${url.port ? `:${url.port}` : ''}`).origin);
}
